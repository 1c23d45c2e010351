package lint

import (
	"fmt"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// The content rules read the text of each active layer (P2).

func init() {
	register(Rule{ID: "RL008", Name: "boundary-marker", Default: Error,
		Category: "content", Precision: "very-high", SecuritySeverity: "7.5",
		Summary: "Instruction text contains `<rivumi:` or `</rivumi:`, which could forge or close a prompt section.",
		Doc:     "Layers are rendered inside `<rivumi:section>` and `<rivumi:layer>` markers (P2). Text that contains the marker prefix can close the layer early or pretend to be another section or a user-level layer. Fix: remove the marker text, or write it differently (for example in a code span with the angle bracket escaped).",
		run:     checkMarkers})
	register(Rule{ID: "RL009", Name: "empty", Default: Warning,
		Category: "content", Precision: "very-high",
		Summary: "An active layer has no text; an empty override silences every layer above it.",
		Doc:     "A layer whose text is empty after normalisation (P2: BOM dropped, trailing white space trimmed) adds nothing. An empty override is worse: it still suppresses every shallower project layer, so the directory ends up with no project instructions; that case is an error. Fix: write the intended text or delete the file.",
		run:     checkEmpty})
	register(Rule{ID: "RL010", Name: "hidden-unicode", Default: Error,
		Category: "content", Precision: "very-high", SecuritySeverity: "8.0",
		Summary: "Instruction text contains characters a reviewer cannot see.",
		Doc:     "Bidirectional controls (U+202A-U+202E, U+2066-U+2069), zero-width characters (U+200B-U+200D, U+2060, U+FEFF other than a leading byte-order mark), tag characters (U+E0000-U+E007F) and C0 control characters other than tab, LF and CR (NUL included) change what the model reads without showing in a diff. The finding gives the position of the first one and the count. Fix: delete them.",
		run:     checkHidden})
}

func checkMarkers(p *pass) {
	for _, l := range p.res.Active() {
		f := p.facts.of(l)
		if f.markers == 0 {
			continue
		}
		p.report(l.Path, f.marker, 0, "Rivumi will load this text inside a <rivumi:layer> element, and it contains %d section marker(s) (<rivumi: or </rivumi:) that could close the layer or forge a section. Fix: remove the marker text, or escape its angle bracket (&lt;rivumi:)", f.markers)
	}
}

func checkEmpty(p *pass) {
	for _, l := range p.res.Active() {
		if !p.facts.of(l).empty {
			continue
		}
		if l.Override && l.Scope == resolve.ScopeProject {
			p.report(l.Path, noPos, Error, "Rivumi will load this empty override, which silences every project layer above it and adds no text. Fix: write the intended text, or delete the file to restore the layers above")
			continue
		}
		p.report(l.Path, noPos, Warning, "Rivumi will load this layer, but it has no text. Fix: write the intended text, or delete the file")
	}
}

func checkHidden(p *pass) {
	for _, l := range p.res.Active() {
		f := p.facts.of(l)
		if f.hidden == 0 {
			continue
		}
		fd := Finding{Path: l.Path, Line: f.firstHide.Line, Column: f.firstHide.Column, UTF16Column: f.firstHide.UTF16Column,
			Message: fmt.Sprintf("Rivumi will pass %d character(s) a reviewer cannot see to the model; the first is %s. Fix: delete them (an editor that shows invisible characters, or a search for the code point, finds them)", f.hidden, f.firstHide.Name),
			Fix:     hiddenFix(l.Path, l.Content)}
		if fd.Fix != nil {
			fd.Repair.Kind = RepairDeleteHidden
		}
		p.emit(fd)
	}
}

// hiddenFix is RL010's repair (X1): delete every character of the RL010
// set, C0 controls included. RL010 reports once per file, so the one Fix
// covers the whole file; a run of adjacent characters is one edit. None of
// them is a line break, so an edit never spans lines.
func hiddenFix(path string, b []byte) *Fix {
	all, total := content.HiddenChars(b, 0)
	if total == 0 {
		return nil
	}
	fix := &Fix{Description: fmt.Sprintf("Remove %d hidden character(s)", total)}
	for _, h := range all {
		_, size := utf8.DecodeRune(b[h.Offset:])
		end := Pos{Line: h.Line, Column: h.Column + size, Offset: h.Offset + size}
		if n := len(fix.Edits); n > 0 && fix.Edits[n-1].End.Offset == h.Offset {
			fix.Edits[n-1].End = end
			continue
		}
		fix.Edits = append(fix.Edits, Edit{Path: path,
			Start: Pos{Line: h.Line, Column: h.Column, Offset: h.Offset}, End: end})
	}
	return fix
}
