package lint

import "github.com/rivumi/rivumi-lint/internal/content"

func init() {
	register(Rule{ID: "RL021", Name: "reference-broken", Default: Warning,
		Category: "content", Precision: "high",
		Summary: "An instruction file names a path, link, make target, package script or just recipe that is not there.",
		Doc:     "An instruction file that sends the agent to a file or a command that is gone wastes its turns or misleads it. In the diff modes (--base/--head, --staged, pull requests) a warning reports every reference of the head's instruction files that resolves on the base and not on the head — broken by this change, even when the change never touches the instruction file: the message names the change (renamed to, deleted, no longer defined), and for a rename carries a text edit to the new path. A reference the change adds that resolves on neither side is reported for links, make targets and just recipes. In the worktree and PATH modes, a notice reports the unresolved links, make targets and just recipes, the classes that are precise without a change to compare (docs/references.md). Targets outside the root, behind a symbolic link, or under an ignored or vendored directory are not checked. Fix: point the reference at the new place, restore the target, or remove the reference; references.ignore and references.commands in the config narrow the check.",
		Input:   InReferences,
		run:     checkReference})
}

// Reference is the References input: one reference the pipeline found
// broken, as plain data (lint reads no snapshot: the pipeline resolves
// each reference on the sides it compares, docs/references.md).
type Reference struct {
	Path string // the instruction file
	// Start and End delimit the target as written in the file's bytes.
	Start, End content.Pos
	Message    string
	// Severity is the rule's own choice for the scope: Notice in the
	// worktree modes, Warning in the diff modes.
	Severity Severity
	// NewTarget, when not "", is the target's new spelling after a
	// rename: the finding's Fix writes it over Start..End.
	NewTarget string
	// Directories are those whose chains hold the file (R7).
	Directories []string
}

func checkReference(p *pass) {
	r := p.ref
	f := Finding{Path: r.Path, Line: r.Start.Line, Column: r.Start.Column, UTF16Column: r.Start.UTF16Column,
		Severity: r.Severity, Message: r.Message, Directories: append([]string{}, r.Directories...)}
	if r.NewTarget != "" {
		f.Fix = &Fix{Description: "Point the reference at " + r.NewTarget, Edits: []Edit{{Path: r.Path,
			Start: Pos{Line: r.Start.Line, Column: r.Start.Column, Offset: r.Start.Offset},
			End:   Pos{Line: r.End.Line, Column: r.End.Column, Offset: r.End.Offset},
			Text:  r.NewTarget}}}
	}
	p.emit(f)
}
