package project

import (
	"fmt"
	"sort"

	"github.com/rivumi/rivumi-lint/gitattr"
	"github.com/rivumi/rivumi-lint/lint"
	"github.com/rivumi/rivumi-lint/resolve"
)

// checkout wraps one side of a diff so that its engine reads each layer
// file as a checkout of that side holds it (F5): the attributes come from
// the same tree or index, plus info/attributes of the repository, never
// from the worktree or the machine's Git configuration.
func (x *Diff) checkout(src resolve.Source) (*gitattr.Source, error) {
	info, err := gitattr.ReadInfo(x.Repo.CommonDir)
	if err != nil {
		return nil, err
	}
	return gitattr.NewSource(src, gitattr.NewChecker(gitattr.SourceLoader(src), info)), nil
}

// checkoutNote is lint's budget note for a layer whose checkout ends lines
// in CRLF: the runtime renders it with LF (P2), so the budget counts the
// rendered bytes, and the note says what the checkout holds.
func checkoutNote(co *gitattr.Source) func(path string) string {
	return func(p string) string {
		rec := co.Record(p)
		if rec == nil || !rec.CRLFApplied {
			return ""
		}
		return fmt.Sprintf("a checkout holds %d bytes with CRLF line ends (%s), %d committed; the budget counts the rendered text, where CRLF is LF",
			rec.CheckoutBytes, gitattr.Describe("eol", rec.CRLF), rec.BlobBytes)
	}
}

// filterFindings reports each layer file that a filter attribute converts
// on checkout (RL012: the bytes the runtime reads are not the ones this
// check could read). The layer is not rejected: without the driver the
// checkout holds the blob.
func filterFindings(co *gitattr.Source, res []*resolve.Resolution) []lint.Finding {
	dirs := map[string][]string{}
	var paths []string
	for _, r := range res {
		for _, l := range r.Layers {
			if !l.Accepted() || l.Scope != resolve.ScopeProject {
				continue
			}
			rec := co.Record(l.Path)
			if rec == nil || rec.Filter == nil {
				continue
			}
			if _, ok := dirs[l.Path]; !ok {
				paths = append(paths, l.Path)
			}
			dirs[l.Path] = append(dirs[l.Path], displayDir(r.Dir))
		}
	}
	sort.Strings(paths)
	var out []lint.Finding
	for _, p := range paths {
		v := co.Record(p).Filter
		out = append(out, lint.Finding{Rule: "RL012", Path: p, Directories: dirs[p], Message: fmt.Sprintf(
			"Rivumi will read this file as Git's checkout writes it, through the filter %q (%s): where that filter's driver is installed (Git LFS for \"lfs\") a checkout holds what the driver writes, not the committed bytes this check read, so they are unchecked; remove the filter for instruction files (for example a line `%s -filter` after it) so that the repository holds their text",
			v.Text, gitattr.Describe("filter", v), p)})
	}
	return out
}
