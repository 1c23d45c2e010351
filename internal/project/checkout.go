package project

import (
	"fmt"

	"github.com/rivumi/rivumi-lint/internal/gitattr"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// checkout is one side of a diff as a snapshot whose engine reads each layer
// file as a checkout of that side holds it (F5): the attributes come from
// the same tree or index, plus info/attributes of the repository, never
// from the worktree or the machine's Git configuration.
func checkout(commonDir string, src resolve.Snapshot) (*gitattr.Source, error) {
	info, err := gitattr.ReadInfo(commonDir)
	if err != nil {
		return nil, err
	}
	return gitattr.NewSource(src, gitattr.NewChecker(gitattr.SourceLoader(src), info)), nil
}

// checkoutFiles is lint's Checkout input: how a checkout writes a layer
// file. With CRLF line ends the runtime renders it with LF (P2), so the
// budget counts the rendered bytes and the note says what the checkout
// holds; a filter attribute means the checkout holds what its driver
// writes (RL012).
func checkoutFiles(co *gitattr.Source) func(path string) *lint.CheckoutFile {
	return func(p string) *lint.CheckoutFile {
		rec := co.Record(p)
		if rec == nil {
			return nil
		}
		var f lint.CheckoutFile
		if rec.CRLFApplied {
			f.CRLF = fmt.Sprintf("a checkout holds %d bytes with CRLF line ends (%s), %d committed; the budget counts the rendered text, where CRLF is LF",
				rec.CheckoutBytes, gitattr.Describe("eol", rec.CRLF), rec.BlobBytes)
		}
		if rec.Filter != nil {
			f.Filtered, f.Filter, f.FilterSource = true, rec.Filter.Text, gitattr.Describe("filter", rec.Filter)
		}
		return &f
	}
}
