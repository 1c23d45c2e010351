package lint

import (
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

// The engine rejects a layer for a cause (C1–C5, F5); each of these rules
// reports the causes of its rejects, the one mapping of causes to rule ids
// (RejectionRule). RL012 also reports a layer file that a checkout
// converts through a filter (F5).

func init() {
	register(Rule{ID: "RL001", Name: "symlink", Default: Error,
		Category: "loading", Precision: "very-high", SecuritySeverity: "5.5",
		Summary: "An instruction file is a symbolic link, sits in a symlinked directory, or is recorded by Git as a symlink.",
		Doc:     "Rivumi never follows symbolic links when it loads instruction files (C1): a layer that is a link, that sits below a symlinked directory, or that Git records with mode 120000 (even where the checkout holds a plain file because core.symlinks=false) is skipped without a word, and since the runtime does not fall back to the next candidate the directory contributes no instructions at all. The finding says where the link points; the linter never opens the target. Fix: replace the link with a regular file holding the text.",
		rejects: []resolve.Cause{resolve.CauseSymlink, resolve.CauseBehindLink},
		run:     checkRejected("RL001")})
	register(Rule{ID: "RL002", Name: "not-regular", Default: Error,
		Category: "loading", Precision: "very-high",
		Summary: "An instruction candidate is a directory, FIFO, socket, device or submodule.",
		Doc:     "Only regular files are loaded (C2). The first candidate name that has any directory entry is the directory's layer, whatever its type, so a directory or FIFO named AGENTS.md makes Rivumi skip the directory's instructions entirely. Fix: rename or remove the entry so that the instruction file is a regular file.",
		rejects: []resolve.Cause{resolve.CauseNotRegular},
		run:     checkRejected("RL002")})
	register(Rule{ID: "RL003", Name: "oversized", Default: Error,
		Category: "loading", Precision: "very-high",
		Summary: "An instruction file is larger than limits.max_file_bytes.",
		Doc:     "Files larger than max_file_bytes (default 32768 bytes) are rejected whole (C3): Rivumi loads none of the text, not a truncated part. Fix: shorten the file or move detail into deeper directories' files; raise limits.max_file_bytes only if the runtime is configured the same way.",
		rejects: []resolve.Cause{resolve.CauseOversized},
		run:     checkRejected("RL003")})
	register(Rule{ID: "RL004", Name: "invalid-utf8", Default: Error,
		Category: "loading", Precision: "very-high",
		Summary: "An instruction file is not valid UTF-8.",
		Doc:     "Instruction files must be UTF-8 (C4); any invalid byte rejects the whole file. The finding gives the line, column (in bytes) and byte offset of the first invalid byte, and names a UTF-16 or UTF-32 byte-order mark when the file starts with one. Fix: re-save the file as UTF-8 (without converting it to UTF-16, which many Windows editors do by default).",
		rejects: []resolve.Cause{resolve.CauseNotUTF8, resolve.CauseCheckoutEncoding},
		run:     checkRejected("RL004")})
	register(Rule{ID: "RL012", Name: "unreadable", Default: Error,
		Category: "loading", Precision: "very-high",
		Summary: "An instruction file could not be read.",
		Doc:     "An I/O error while opening or reading a chosen layer (permissions, a vanished file) rejects the layer (C5); the run goes on. The finding carries the error text. Fix: make the file readable by the user the agent runs as. In diff and staged modes it also reports a layer file that a filter attribute (filter=lfs, Git LFS) converts on checkout: the runtime then reads bytes this check could not read; the layer is not rejected (F5, docs/behaviour.md). Fix: unset the filter for instruction files (AGENTS.md -filter).",
		rejects: []resolve.Cause{resolve.CauseUnreadable, resolve.CauseVanished, resolve.CauseCheckoutFails, resolve.CauseConflict},
		run: func(p *pass) {
			checkRejected("RL012")(p)
			checkFiltered(p)
		}})
}

// checkRejected reports the rejected layers whose cause the rule id
// reports.
func checkRejected(id string) func(p *pass) {
	return func(p *pass) {
		for _, l := range p.res.Layers {
			if l.State != resolve.Rejected || RejectionRule(l.Rej.Cause) != id {
				continue
			}
			msg := "Rivumi will skip this file: %s; %s. Fix: %s"
			if l.Rej.Cause == resolve.CauseConflict {
				// The runtime would load the file, markers and all: the
				// check is what skips it.
				msg = "This file has an unresolved merge conflict: %s; the check takes neither side, so %s. Fix: %s"
			}
			p.emit(Finding{Path: l.Path, Line: l.Rej.Pos.Line, Column: l.Rej.Pos.Column, UTF16Column: l.Rej.Pos.UTF16Column,
				Message: fmt.Sprintf(msg, l.Rej.Reason, consequence(p.res, l), rejectedFix(l)),
				Subject: copySubject(msg, p.res, l),
				Repair:  linkRepair(l.Rej)})
		}
	}
}

// copySubject is the baseline subject (B2) of the RL001 of a link to
// another instruction file: its message before #33.7 reworded the fix, so
// that a baseline recorded earlier still knows the finding; "" (the
// message) for every other rejection.
func copySubject(msg string, r *resolve.Resolution, l resolve.Layer) string {
	t := l.Rej.TargetIn
	if l.Rej.Cause != resolve.CauseSymlink || l.Scope == resolve.ScopeUser || l.Rej.Target == "" || t == nil ||
		t.Path == l.Path || t.Kind != resolve.Regular || !t.Candidate {
		return ""
	}
	p := shell.Path(l.Path)
	copyCmd := "`cp " + p + " " + shell.Path(l.Path+".tmp") + " && mv " + shell.Path(l.Path+".tmp") + " " + p + "`"
	return fmt.Sprintf(msg, l.Rej.Reason, consequence(r, l),
		"replace the link with a copy of "+t.Path+" (an instruction file itself, which Rivumi would skip as a link, so it cannot become the link): "+copyCmd)
}

// linkRepair is the repair of a rejection: rejectedRepair's, and for a
// link the one its target allows. fix swaps a link to a regular file
// inside the root with it; a link to another instruction file cannot be
// swapped (the target would become a link, which Rivumi skips in its own
// directory), so fix replaces it with a copy (#33.7). It refuses a link
// elsewhere (nil TargetIn: absolute, outside the root), one to anything
// but a regular file, and one behind a linked directory (X1).
func linkRepair(r *resolve.Rejection) Repair {
	rp := Repair{Kind: rejectedRepair(r.Cause)}
	switch r.Cause {
	case resolve.CauseBehindLink:
		rp.Refused = true
	case resolve.CauseSymlink:
		t := r.TargetIn
		if t != nil && t.Candidate {
			rp.Kind = RepairCopy // refused or not, fix's reason is the copy's
		}
		rp.Refused = t == nil || t.Kind != resolve.Regular
		rp.Unstaged = r.Unstaged
	}
	return rp
}

// rejectedRepair is what `rivumi-lint fix` does about a rejection of cause
// c. A link is swapped with its target, and a file not UTF-8 re-encoded;
// fix looks at the disk first and says why it does not where it cannot (a
// file behind a linked directory, whose directory fix never writes
// through; a working-tree-encoding attribute, which a checkout applies to
// the new bytes too).
func rejectedRepair(c resolve.Cause) RepairKind {
	switch c {
	case resolve.CauseSymlink, resolve.CauseBehindLink:
		return RepairSwap
	case resolve.CauseNotUTF8, resolve.CauseCheckoutEncoding:
		return RepairTranscode
	}
	return RepairNone
}

// rejectedFix says, in the finding itself, how to make the runtime load
// the layer again.
func rejectedFix(l resolve.Layer) string {
	r := l.Rej
	switch r.Cause {
	case resolve.CauseBehindLink:
		return "move the file into a directory that is not a link, or replace the linked directory with the real one"
	case resolve.CauseSymlink:
		return linkFix(l)
	case resolve.CauseNotRegular:
		return "remove or rename the entry so that " + path.Base(l.Path) + " is a regular file"
	case resolve.CauseOversized:
		return fmt.Sprintf("shorten the file to at most %d bytes, or move detail into deeper directories' files", r.Limit)
	case resolve.CauseNotUTF8, resolve.CauseCheckoutEncoding:
		return "re-save the file as UTF-8 (not UTF-16, which some Windows editors write)"
	case resolve.CauseConflict:
		return "resolve the conflict, then `git add " + shell.Path(l.Path) + "`"
	case resolve.CauseUnreadable, resolve.CauseVanished, resolve.CauseCheckoutFails:
		return "make the file readable by the user the agent runs as"
	}
	return "make it a regular, readable UTF-8 file within limits.max_file_bytes"
}

// linkFix is RL001's fix for a link, by what its target is (the engine's
// LinkTargetInfo). The commands run at the root, as pasted; the swap and
// the copy of another instruction file are the ones `rivumi-lint fix`
// makes (fix.planSwap, fix.planCopy); elsewhere (a target outside the
// root, in .git) the advice is a copy by hand.
func linkFix(l resolve.Layer) string {
	const replace = "replace the link with a regular file holding the text"
	r, p := l.Rej, shell.Path(l.Path)
	// cp follows the link: the copy holds the target's text.
	copyCmd := "`cp " + p + " " + shell.Path(l.Path+".tmp") + " && mv " + shell.Path(l.Path+".tmp") + " " + p + "`"
	t := r.TargetIn
	switch {
	case r.Unstaged:
		// The link is replaced already; only the index lags (#33.8).
		return "the index still records a link; the worktree holds a regular file: `git add " + p + "`"
	case r.Target == "" || l.Scope == resolve.ScopeUser:
		return replace
	case t == nil:
		// Absolute, outside the root, or not looked at: a copy works
		// wherever the target is.
		return replace + ", for example a copy of its target: " + copyCmd
	case t.Path == l.Path:
		return "the link points at itself, so there is no text to keep: replace it with a regular file holding the instructions (`rm " + p + "`, then write the file)"
	case t.Kind == resolve.Missing:
		return "its target " + t.Path + " does not exist: replace the link with a regular file holding the instructions (`rm " + p + "`, then write the file)"
	case t.Kind == resolve.Symlink:
		return replace + ", for example a copy of what its target (a link too) leads to: " + copyCmd
	case t.Kind != resolve.Regular:
		return replace + " (its target " + t.Path + " is a " + t.Kind.String() + ")"
	case t.Candidate:
		// Say plainly why the usual swap is not offered, and what a copy
		// costs: no rule compares the two (#33.7).
		return "replace the link with a copy of " + t.Path + ". It cannot be swapped with its target as other links are: " +
			t.Path + " is an instruction file too, and Rivumi follows no link, so as the link it would be skipped in its own directory. " +
			"The copy will drift from " + t.Path + " when either is edited, and no check reports that: edit both. To copy: " + copyCmd
	case t.Path == ".git" || strings.HasPrefix(t.Path, ".git/"):
		return "replace the link with a copy of its target, which is inside the Git directory: " + copyCmd
	}
	// Usually AGENTS.md -> CLAUDE.md: the other tool follows links, Rivumi
	// does not, so the link can point the other way. Its text is relative
	// to the target's directory.
	back, err := filepath.Rel(filepath.FromSlash(path.Dir(t.Path)), filepath.FromSlash(l.Path))
	if err != nil {
		return replace
	}
	return replace + "; to keep one copy, make " + t.Path + " the link to it: `mv " + shell.Path(t.Path) + " " + p + " && ln -s " +
		shell.Path(filepath.ToSlash(back)) + " " + shell.Path(t.Path) + "` (as `rivumi-lint fix` does)"
}

// consequence says what skipping a layer costs: the runtime has no fall-back.
func consequence(r *resolve.Resolution, l resolve.Layer) string {
	if l.Scope == resolve.ScopeUser {
		return "the user-level instructions will not be loaded"
	}
	var next []string
	for _, d := range r.Dirs {
		if d.Path == l.Dir {
			for _, f := range d.Files[1:] {
				next = append(next, f.Path)
			}
		}
	}
	s := "its directory contributes no instructions"
	if l.Override {
		s += " and it overrides nothing"
	}
	if len(next) > 0 {
		s += " (there is no fall-back to " + strings.Join(next, ", ") + ")"
	}
	return s
}

// checkFiltered reports each accepted project layer that a filter
// attribute converts on checkout (F5): the bytes the runtime reads are not
// the ones this check could read. The layer is not rejected: without the
// driver the checkout holds the blob.
func checkFiltered(p *pass) {
	if p.checkout == nil {
		return
	}
	var paths []string
	for _, l := range p.res.Layers {
		if !l.Accepted() || l.Scope != resolve.ScopeProject {
			continue
		}
		if co := p.checkout(l.Path); co != nil && co.Filtered {
			paths = append(paths, l.Path)
		}
	}
	sort.Strings(paths)
	for _, path := range paths {
		co := p.checkout(path)
		p.report(path, noPos, 0, "%s", fmt.Sprintf(
			"Rivumi will read this file as Git's checkout writes it, through the filter %q (%s): where that filter's driver is installed (Git LFS for \"lfs\") a checkout holds what the driver writes, not the committed bytes this check read, so they are unchecked; remove the filter for instruction files (for example a line `%s -filter` after it) so that the repository holds their text",
			co.Filter, co.FilterSource, path))
	}
}

// CheckoutFile is how a Git checkout writes one layer file (F5), for the
// diff modes, where the content is read from a tree or the index.
type CheckoutFile struct {
	// CRLF, when not "", says how the checkout differs in size because Git
	// adds CRs; the budget finding shows it next to the layer's bytes.
	CRLF string
	// Filtered is set when a filter attribute converts the file on
	// checkout: Filter is its value, FilterSource where it is set.
	Filtered             bool
	Filter, FilterSource string
}
