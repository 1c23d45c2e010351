// Package fix repairs what a check of the worktree found, where the
// repair is safe (X1): it runs the same pipeline as check, plans one
// change per fixable finding, and then prints the plan as a diff
// (--dry-run) or writes it, each file through a temporary file and a
// rename. What a finding's repair is, the finding says
// (lint.Finding.Repair, never its rule id): text edits come with it
// (lint.Finding.Fix, RL010); the repairs that are not text edits —
// transcoding (RL004), swapping a link with its target or replacing it
// with a copy of another instruction file (RL001), renaming a near miss
// (RL011) — are planned here from the finding and the file as
// it is on disk.
package fix

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/gitattr"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/outfile"
	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/report"
	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/rootpath"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

// Options are what `rivumi-lint fix` was asked.
type Options struct {
	Project project.Options
	// Paths are the command line's PATHs, as for check; none: the whole
	// worktree.
	Paths  []string
	DryRun bool
	// Hooks are the tests' seams in the windows of a write (nil: none).
	Hooks Hooks
	// Temps records each temporary file from its creation to its rename,
	// for the command's signal handler to remove (#38.4); nil: none.
	Temps *outfile.Temps
}

// Outcome counts a run: Changes made (or, in a dry run, that would be
// made), Skipped fixable findings left as they are, and WriteErrors.
type Outcome struct {
	Changes, Skipped, WriteErrors int
	Notes                         []project.Note
}

// Run checks the scope and fixes what it can. The diff (dry run) or one
// line per change goes to stdout, one line per skipped finding and per
// write error to stderr. The error is one of the pipeline (exit 2); write
// errors are counted in the Outcome.
func Run(o Options, stdout, stderr io.Writer) (Outcome, error) {
	var out Outcome
	o.Project.Command = "fix"
	did, err := project.Do(project.Request{Options: o.Project, Scope: project.Scope{Paths: o.Paths, Typed: true}})
	if did != nil {
		out.Notes = did.Notes
	}
	if err != nil {
		return out, err
	}
	defer did.Close()
	p, run, res := did.Project, did.Run, did.Result
	pl := &planner{root: p.Root, gitTop: p.GitTop, gitDir: p.GitDir, prefix: p.Prefix, cfg: run.Config,
		limit: run.Config.Limits.MaxFileBytes, touched: map[string]bool{}, hooks: o.Hooks, temps: o.Temps}
	if err := pl.scope(p, o.Paths); err != nil {
		return out, err
	}
	if p.GitDir != "" {
		info, err := gitattr.ReadInfo(repo.CommonDir(p.GitDir))
		if err != nil {
			return out, err
		}
		// The worktree's .gitattributes files as the checks read them:
		// a link or anything but a regular file is ignored (F5).
		top, err := resolve.OpenWorktree(p.GitTop, nil)
		if err != nil {
			return out, err
		}
		pl.attrs = gitattr.NewChecker(gitattr.SourceLoader(top), info)
	}
	// Copies last: a copy reads its target, so a fix of the target in
	// this run must be planned first for planCopy to see it (touched).
	for _, copies := range []bool{false, true} {
		for _, f := range res.Findings {
			if (f.Repair.Kind == lint.RepairCopy) == copies {
				pl.plan(f)
			}
		}
	}
	for _, s := range pl.skips {
		logf(stderr, "rivumi-lint: skipped %s [%s]: %s", s.path, s.rule, s.reason)
	}
	out.Skipped = len(pl.skips)
	out.Changes = len(pl.changes)
	if o.DryRun {
		for _, c := range pl.changes {
			if _, err := stdout.Write(c.diff()); err != nil {
				return out, err
			}
		}
		return out, nil
	}
	out.Changes = 0
	for _, c := range pl.changes {
		err := pl.apply(c)
		var se *skipError
		switch {
		case errors.As(err, &se):
			out.Skipped++
			logf(stderr, "rivumi-lint: skipped %s [%s]: %s", c.path, c.rule, se.err)
		case err != nil:
			out.WriteErrors++
			logf(stderr, "rivumi-lint: error: fix %s [%s]: %v; the file is as it was", c.path, c.rule, err)
		default:
			out.Changes++
			logf(stdout, "fixed %s: %s [%s]", c.path, c.what, c.rule)
			if c.kind != kindSwap && c.kind != kindCopy || !c.tracked {
				break
			}
			add := "git add -- " + shell.Quote(c.path) + " " + shell.Quote(c.to)
			if c.kind == kindCopy {
				add = "git add -- " + shell.Quote(c.path)
			}
			switch {
			case c.staged:
				if c.kind == kindCopy {
					logf(stdout, "  staged: %s (it was as committed, so the index gains the copy and nothing else)", add)
					break
				}
				logf(stdout, "  staged: %s (both were as committed, so the index gains the swap and nothing else)", add)
			case c.stageErr != nil:
				out.WriteErrors++
				if c.kind == kindCopy {
					logf(stderr, "rivumi-lint: error: stage the copy at %s: %v; the worktree holds the copy, stage it by hand: %s", c.path, c.stageErr, add)
					break
				}
				logf(stderr, "rivumi-lint: error: stage the swap of %s and %s: %v; the worktree is swapped, stage it by hand: %s",
					c.path, c.to, c.stageErr, add)
			default:
				// Until the swap is staged, check trusts the index's mode
				// 120000 and still reports the link (C1).
				logf(stdout, "  stage it: %s (fix did not: %s, which staging would take along; Git's index still records %s as a symbolic link, which check reports until the change is staged)",
					add, c.unstaged, c.path)
			}
		}
	}
	return out, nil
}

type kind int

const (
	kindText   kind = iota // new bytes for an instruction file (lint.RepairDeleteHidden, lint.RepairTranscode)
	kindSwap               // link and target change places (lint.RepairSwap)
	kindRename             // a near miss gets its exact name (lint.RepairRename)
	kindCopy               // a link becomes a copy of its target (lint.RepairCopy)
)

// change is one planned fix of one finding.
type change struct {
	kind kind
	rule string
	path string // relative to the root, slash-separated
	what string // what the fix does, for the output
	old  *snapshot
	new  []byte
	from string // kindText: the encoding transcoded from ("" for edits)
	// kindSwap, kindCopy: the target's path, the link's text (re-checked
	// before the write) and, for a swap, the text of the link the target
	// becomes. kindRename: the new path.
	to, link, newLink string
	tracked           bool // kindRename: git mv; kindSwap, kindCopy: the link is in the index
	// kindSwap or kindCopy of a tracked link, set by apply: staged when the
	// paths written were clean and git add succeeded; otherwise unstaged
	// says why it was not tried, or stageErr why it failed.
	staged   bool
	unstaged string
	stageErr error
}

type skip struct{ path, rule, reason string }

type planner struct {
	root, gitTop, gitDir, prefix string
	cfg                          *config.Config
	limit                        int64
	attrs                        *gitattr.Checker
	inScope                      func(rel string) bool
	changes                      []*change
	skips                        []skip
	touched                      map[string]bool // paths a planned change writes
	hooks                        Hooks
	temps                        *outfile.Temps
}

func (pl *planner) skip(f lint.Finding, format string, args ...any) {
	pl.skips = append(pl.skips, skip{path: f.Path, rule: f.Rule, reason: fmt.Sprintf(format, args...)})
}

// logf writes one line of fix's output. File names may hold anything (a
// newline and "::error …", ESC, CR, U+202E): the whole line goes through
// report.SafeLine, the escaping of every other message (§10, #38.13), so
// it stays one line that cannot issue a workflow command.
func logf(w io.Writer, format string, args ...any) {
	fmt.Fprintln(w, report.SafeLine(fmt.Sprintf(format, args...)))
}

func (pl *planner) abs(rel string) string { return filepath.Join(pl.root, filepath.FromSlash(rel)) }

// scope is the PATHs' filter: a finding's file is in scope when it is a
// PATH, lies below a PATH that is a directory, or shares the directory of
// a PATH that is a file (check checks a file from its directory).
func (pl *planner) scope(p *project.Project, args []string) error {
	if len(args) == 0 {
		pl.inScope = func(string) bool { return true }
		return nil
	}
	var files, dirs []string
	for _, a := range args {
		rel, err := p.Rel(a)
		if err != nil {
			return err
		}
		if fi, err := os.Lstat(pl.abs(rel)); err == nil && fi.IsDir() {
			dirs = append(dirs, rel)
		} else {
			files = append(files, rel)
		}
	}
	pl.inScope = func(rel string) bool {
		for _, d := range dirs {
			if d == "" || rel == d || strings.HasPrefix(rel, d+"/") {
				return true
			}
		}
		for _, f := range files {
			if rel == f || path.Dir(rel) == path.Dir(f) {
				return true
			}
		}
		return false
	}
	return nil
}

// plan turns one finding into a change or a skip, by the repair the
// finding carries; findings without one are left alone.
func (pl *planner) plan(f lint.Finding) {
	switch f.Repair.Kind {
	case lint.RepairDeleteHidden:
		if f.Fix == nil {
			return
		}
	case lint.RepairTranscode, lint.RepairSwap, lint.RepairRename, lint.RepairCopy:
	default:
		return
	}
	if f.User {
		pl.skip(f, "the file is outside the project root, and fix writes only inside it")
		return
	}
	if f.Repair.Unstaged {
		pl.skip(f, "the worktree holds a regular file already, and only Git's index still records a link: `git add %s` records the file", shell.Path(f.Path))
		return
	}
	if !pl.inScope(f.Path) {
		pl.skip(f, "it is outside the PATHs given; run fix with its path, or with no PATH for the whole worktree")
		return
	}
	if pl.touched[f.Path] {
		pl.skip(f, "another fix of this run changes it; run fix again")
		return
	}
	if err := checkDirs(pl.root, f.Path); err != nil {
		pl.skip(f, "%v", err)
		return
	}
	var c *change
	var err error
	switch f.Repair.Kind {
	case lint.RepairDeleteHidden:
		c, err = pl.planEdits(f)
	case lint.RepairTranscode:
		c, err = pl.planTranscode(f)
	case lint.RepairSwap:
		c, err = pl.planSwap(f)
	case lint.RepairCopy:
		c, err = pl.planCopy(f)
	case lint.RepairRename:
		c, err = pl.planRename(f)
	}
	if err != nil {
		pl.skip(f, "%v", err)
		return
	}
	pl.touched[c.path] = true
	if c.to != "" && c.kind != kindCopy { // a copy only reads its target
		pl.touched[c.to] = true
	}
	pl.changes = append(pl.changes, c)
}

// planEdits applies the finding's own Fix (RepairDeleteHidden) to the
// file as it is now, after checking that every edit still removes only
// characters of the RL010 set.
func (pl *planner) planEdits(f lint.Finding) (*change, error) {
	snap, err := readAt(pl.root, f.Path, pl.limit)
	if err != nil {
		return nil, err
	}
	var edits []edit
	for _, e := range f.Fix.Edits {
		if e.Path != f.Path {
			return nil, fmt.Errorf("its fix edits another file (%s)", e.Path)
		}
		s, t := e.Start.Offset, e.End.Offset
		if s < 0 || t <= s || t > len(snap.data) || !hiddenOnly(snap.data[s:t]) {
			return nil, errChanged
		}
		edits = append(edits, edit{start: s, end: t, text: e.Text})
	}
	b, ok := applyEdits(snap.data, edits)
	if !ok {
		return nil, errChanged
	}
	return &change{kind: kindText, rule: f.Rule, path: f.Path, what: f.Fix.Description, old: snap, new: b}, nil
}

// hiddenOnly reports whether b is whole characters of the RL010 set (a
// space in front: a U+FEFF is hidden wherever it is not the file's first
// character).
func hiddenOnly(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	_, n := content.HiddenChars(append([]byte{' '}, b...), 0)
	return n == utf8.RuneCount(b)
}

// planTranscode re-encodes a file that is not UTF-8 (RepairTranscode) as UTF-8,
// unless a working-tree-encoding attribute makes Git write it so (F5).
func (pl *planner) planTranscode(f lint.Finding) (*change, error) {
	if v, err := pl.encodingAttr(f.Path); err != nil {
		return nil, err
	} else if v != "" {
		return nil, fmt.Errorf("its attribute %s makes Git write it in that encoding, so a checkout would re-encode a UTF-8 file; change the attribute (remove it, or set working-tree-encoding=UTF-8) and re-save the file as UTF-8", v)
	}
	snap, err := readAt(pl.root, f.Path, pl.limit)
	if err != nil {
		return nil, err
	}
	if content.CheckUTF8(snap.data) == nil {
		return nil, errChanged
	}
	text, from, err := content.ToUTF8(snap.data)
	if err != nil {
		return nil, err
	}
	if content.CheckUTF8(text) != nil {
		return nil, fmt.Errorf("decoded from %s it is still not UTF-8", from)
	}
	return &change{kind: kindText, rule: f.Rule, path: f.Path, old: snap, new: text, from: from,
		what: fmt.Sprintf("Re-encode from %s to UTF-8", from)}, nil
}

// encodingAttr is the working-tree-encoding attribute of the root-relative
// path as Git sees it in the worktree (its .gitattributes files and
// info/attributes), described; "" when none or UTF-8.
func (pl *planner) encodingAttr(rel string) (string, error) {
	if pl.attrs == nil {
		return "", nil
	}
	top := rel
	if pl.prefix != "" {
		top = pl.prefix + "/" + rel
	}
	cv, err := pl.attrs.Conversion(top)
	if err != nil {
		return "", fmt.Errorf("read the attributes of %s: %w", rel, err)
	}
	if cv.Encoding == nil {
		return "", nil
	}
	return gitattr.Describe("working-tree-encoding", cv.Encoding), nil
}

// linkTarget reads the link at the root-relative path rel as it is on disk
// and returns its text and its target, relative to the root: an error when
// it is no link, or its target is outside the root, the link itself, or
// inside a Git directory (X1).
func (pl *planner) linkTarget(rel string) (link, target string, err error) {
	abs := pl.abs(rel)
	fi, err := os.Lstat(abs)
	if err != nil {
		return "", "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		// The index records a link that a core.symlinks=false checkout
		// holds as a plain file (a replacement not staged is
		// Repair.Unstaged, skipped before): git add alone keeps the mode.
		q := shell.Path(rel)
		return "", "", fmt.Errorf("it is not a symbolic link in the worktree, only in Git's index (mode 120000), as core.symlinks=false checks links out: write the text into the file, then `git rm --cached %s` and `git add %s` (git add alone keeps the mode)", q, q)
	}
	link, err = os.Readlink(abs)
	if err != nil {
		return "", "", err
	}
	tl := filepath.ToSlash(link)
	if path.IsAbs(tl) || filepath.IsAbs(link) {
		r, ok := rootpath.Within(pl.root, filepath.Clean(link))
		if !ok {
			return "", "", fmt.Errorf("its target %s is outside the project root; replace the link with a regular file holding the text by hand", link)
		}
		target = r
	} else {
		target = path.Join(path.Dir(rel), tl)
		if target == ".." || strings.HasPrefix(target, "../") {
			return "", "", fmt.Errorf("its target %s is outside the project root; replace the link with a regular file holding the text by hand", link)
		}
	}
	if target == "." || target == "" || target == rel {
		return "", "", fmt.Errorf("its target %s is not a file", link)
	}
	if slices.Contains(strings.Split(target, "/"), ".git") {
		return "", "", fmt.Errorf("its target %s is inside a Git directory", target)
	}
	return link, target, nil
}

// planSwap turns a link to a regular file inside the root (RepairSwap) into
// that file, and the target into a relative link to it: one copy of the
// text remains, and tools that follow links still read it.
func (pl *planner) planSwap(f lint.Finding) (*change, error) {
	abs := pl.abs(f.Path)
	link, target, err := pl.linkTarget(f.Path)
	if err != nil {
		return nil, err
	}
	if inner := repo.Inner(pl.root, resolve.ParentDir(target)); inner != "" {
		// X1: another repository inside the root is outside it; its tracked
		// file must not become a link out of it.
		return nil, fmt.Errorf("its target %s lies in %s, another Git repository (a submodule or a nested repository), which fix never writes into; "+
			"replace the link with a regular file holding the text (a copy) by hand", target, inner)
	}
	if slices.Contains(pl.cfg.Candidates(), path.Base(target)) {
		return nil, fmt.Errorf("its target %s is an instruction file itself, which Rivumi would skip as a link; replace the link with a regular file holding the text (a copy) by hand", target)
	}
	if pl.touched[target] {
		return nil, fmt.Errorf("another fix of this run changes its target %s (two links to one file: only one can become the file); replace this link with a regular file holding the text", target)
	}
	if err := checkDirs(pl.root, target); err != nil {
		return nil, fmt.Errorf("its target %s: %w", target, err)
	}
	snap, err := readAt(pl.root, target, pl.limit)
	if err != nil {
		return nil, fmt.Errorf("its target %s: %w", target, err)
	}
	back, err := filepath.Rel(filepath.Dir(pl.abs(target)), abs)
	if err != nil {
		return nil, err
	}
	c := &change{kind: kindSwap, rule: f.Rule, path: f.Path, to: target, link: link, newLink: back, old: snap,
		what: fmt.Sprintf("Swap with %s: %s holds the text, %s links to it", target, f.Path, target)}
	if pl.gitDir != "" {
		if c.tracked, err = pl.isTracked(f.Path); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// planCopy replaces a link to another instruction file inside the root
// (RepairCopy) with a copy of the target's bytes: the two cannot swap, as
// the target would then be a link that Rivumi skips in its own directory
// (#33.7). Only the link's path is written, and only when it is safe
// (X1): the target is read without following a link on the way or at it
// (a chain of links is refused), and it must be a regular UTF-8 file
// within limits.max_file_bytes, else the copy would be skipped too; the
// link must not lie in another repository inside the root. The target
// is never written.
func (pl *planner) planCopy(f lint.Finding) (*change, error) {
	link, target, err := pl.linkTarget(f.Path)
	if err != nil {
		return nil, err
	}
	if inner := repo.Inner(pl.root, resolve.ParentDir(f.Path)); inner != "" {
		return nil, fmt.Errorf("it lies in %s, another Git repository (a submodule or a nested repository), which fix never writes into", inner)
	}
	if pl.touched[target] {
		return nil, fmt.Errorf("another fix of this run changes its target %s; run fix again to copy it as fixed", target)
	}
	if err := checkDirs(pl.root, target); err != nil {
		return nil, fmt.Errorf("its target %s: %w", target, err)
	}
	snap, err := readAt(pl.root, target, pl.limit)
	var big *tooBigError
	switch {
	case errors.As(err, &big):
		return nil, fmt.Errorf("its target %s is %d bytes, over limits.max_file_bytes (%d), so a copy would be skipped too (RL003); shorten the target first", target, big.size, big.limit)
	case err != nil:
		return nil, fmt.Errorf("its target %s: %w; fix copies only a regular file inside the root", target, err)
	}
	if err := content.CheckUTF8(snap.data); err != nil {
		return nil, fmt.Errorf("its target %s is not UTF-8, so a copy would be skipped too (RL004); fix the target first (rivumi-lint fix %s)", target, shell.Path(target))
	}
	c := &change{kind: kindCopy, rule: f.Rule, path: f.Path, to: target, link: link, old: snap,
		what: fmt.Sprintf("Replace the link with a copy of %s (an instruction file too, so the two cannot swap); the copy will drift from it when either is edited, so edit both", target)}
	if pl.gitDir != "" {
		if c.tracked, err = pl.isTracked(f.Path); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// planRename gives a near miss in another case (RepairRename) its exact
// name, the finding's Repair.Name.
func (pl *planner) planRename(f lint.Finding) (*change, error) {
	base := path.Base(f.Path)
	exact := f.Repair.Name
	if exact == "" || exact == base || !strings.EqualFold(exact, base) || !slices.Contains(pl.cfg.Candidates(), exact) {
		return nil, errors.New("its name is not an instruction file name in another case, so it may be another document; rename it by hand if it is meant to be one")
	}
	abs := pl.abs(f.Path)
	fi, err := os.Lstat(abs)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("it is %s, not a regular file", kindOf(fi.Mode()))
	}
	to := path.Join(path.Dir(f.Path), exact)
	d, name, err := openDir(pl.root, f.Path)
	if err != nil {
		return nil, err
	}
	err = exactFree(d, name, exact)
	d.Close()
	if err != nil {
		return nil, err
	}
	if pl.touched[to] {
		return nil, fmt.Errorf("another file of this run is renamed to %s", to)
	}
	c := &change{kind: kindRename, rule: f.Rule, path: f.Path, to: to, what: "Rename to " + exact}
	if pl.gitDir != "" {
		c.tracked, err = pl.isTracked(f.Path)
		if err != nil {
			return nil, err
		}
	}
	return c, nil
}

// exactFree returns an error when the directory d holds an entry named
// exactly exact beside name. The listing decides, not Lstat: on a
// case-insensitive disk Lstat of the exact name finds the near miss.
func exactFree(d *os.Root, name, exact string) error {
	dir, err := d.Open(".")
	if err != nil {
		return err
	}
	names, err := dir.Readdirnames(-1)
	dir.Close()
	if err != nil {
		return err
	}
	if slices.Contains(names, exact) {
		return fmt.Errorf("%s exists next to it: merge the two files by hand", exact)
	}
	if other, err := d.Lstat(exact); err == nil {
		if me, err := d.Lstat(name); err != nil || !os.SameFile(me, other) {
			return fmt.Errorf("%s exists next to it: merge the two files by hand", exact)
		}
	}
	return nil
}

// isTracked asks Git whether the root-relative path is in the index.
func (pl *planner) isTracked(rel string) (bool, error) {
	// Literal: a name holding *, ? or [ must not match other paths.
	top := pl.topRel(rel)
	cmd := repo.GitCommand(pl.gitTop, pl.gitDir, "--literal-pathspecs", "ls-files", "-z", "--full-name", "--", top)
	out, err := cmd.Output()
	if err != nil {
		return false, fmt.Errorf("git ls-files %s: %w", rel, gitErr(err))
	}
	return slices.Contains(strings.Split(string(out), "\x00"), top), nil
}

func (pl *planner) topRel(rel string) string {
	if pl.prefix != "" {
		return pl.prefix + "/" + rel
	}
	return rel
}

// gitErr adds what git said on standard error to its exit error.
func gitErr(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && len(ee.Stderr) > 0 {
		return fmt.Errorf("%w: %s", err, strings.TrimSpace(string(ee.Stderr)))
	}
	return err
}

// apply makes one planned change, re-checking first that what it read
// is unchanged. It works through handles of the directories it checked
// (openDir), never through the paths again.
func (pl *planner) apply(c *change) error {
	d, name, err := openDir(pl.root, c.path)
	if err != nil {
		return &skipError{err}
	}
	defer d.Close()
	if pl.hooks.BeforeWrite != nil {
		pl.hooks.BeforeWrite(pl.abs(c.path))
	}
	switch c.kind {
	case kindText:
		return replaceFile(d, name, c.new, c.old.mode, c.old, pl.limit, pl.temps, pl.hooks.BeforeCommit)
	case kindSwap:
		if now, err := d.Readlink(name); err != nil || now != c.link {
			return &skipError{errChanged}
		}
		td, tname, err := openDir(pl.root, c.to)
		if err != nil {
			return &skipError{fmt.Errorf("its target %s: %w", c.to, err)}
		}
		defer td.Close()
		if now, err := readIn(td, tname, pl.limit); err != nil || !now.same(c.old) {
			return &skipError{fmt.Errorf("its target %s changed since the fix read it; run fix again", c.to)}
		}
		// X1: the swap is staged only when staging adds nothing else; the
		// question is asked before the swap, which makes both paths differ.
		clean, err := pl.stageable(c, c.path, c.to)
		if err != nil {
			return err
		}
		// The link becomes the file first: should the second step fail,
		// both hold the text and nothing is lost.
		if err := replaceFile(d, name, c.old.data, c.old.mode, nil, pl.limit, pl.temps, pl.hooks.BeforeCommit); err != nil {
			return err
		}
		if err := replaceWithLink(td, tname, c.newLink, pl.temps); err != nil {
			return fmt.Errorf("%s now holds the text, but %s could not become a link to it (both are regular files now): %w", c.path, c.to, err)
		}
		if clean {
			c.stageErr = pl.stage(c.path, c.to)
			c.staged = c.stageErr == nil
		}
		return nil
	case kindCopy:
		if now, err := d.Readlink(name); err != nil || now != c.link {
			return &skipError{errChanged}
		}
		td, tname, err := openDir(pl.root, c.to)
		if err != nil {
			return &skipError{fmt.Errorf("its target %s: %w", c.to, err)}
		}
		now, err := readIn(td, tname, pl.limit)
		td.Close()
		if err != nil || !now.same(c.old) {
			return &skipError{fmt.Errorf("its target %s changed since the fix read it; run fix again", c.to)}
		}
		// X1: staged only when staging adds nothing else, asked before
		// the write, as for a swap.
		clean, err := pl.stageable(c, c.path)
		if err != nil {
			return err
		}
		if err := replaceFile(d, name, c.old.data, c.old.mode, nil, pl.limit, pl.temps, pl.hooks.BeforeCommit); err != nil {
			return err
		}
		if clean {
			c.stageErr = pl.stage(c.path)
			c.staged = c.stageErr == nil
		}
		return nil
	case kindRename:
		exact := path.Base(c.to)
		if err := exactFree(d, name, exact); err != nil {
			return &skipError{err}
		}
		if c.tracked {
			cmd := repo.GitCommand(pl.gitTop, pl.gitDir, "--literal-pathspecs", "mv", "--", pl.topRel(c.path), pl.topRel(c.to))
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("git mv: %w: %s", err, strings.TrimSpace(string(out)))
			}
			return nil
		}
		return d.Rename(name, exact)
	}
	return nil
}
