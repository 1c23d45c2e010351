package lsp

import (
	"encoding/json"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// codeAction offers, for the findings under the range asked about, X1's
// fixes that are text edits (lint.Finding.Fix) as quick fixes: the same
// edits `rivumi-lint fix` applies, converted to the negotiated encoding.
func (s *Server) codeAction(params json.RawMessage) (any, error) {
	var p codeActionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	actions := []CodeAction{}
	if !wantsQuickFix(p.Context.Only) {
		return actions, nil
	}
	d, err := s.document(p.TextDocument.URI)
	if err != nil || d == nil { // not a file (untitled:), or not open
		return actions, nil
	}
	for _, f := range d.findings {
		if f.Fix == nil {
			continue
		}
		var diags []Diagnostic
		for _, diag := range s.findingDiagnostics(d, f) {
			if overlaps(p.Range, diag.Range) {
				diags = append(diags, diag)
			}
		}
		if len(diags) == 0 {
			continue
		}
		edit, ok := s.workspaceEdit(d, f.Fix)
		if !ok {
			continue
		}
		actions = append(actions, CodeAction{Title: f.Fix.Description, Kind: "quickfix",
			Diagnostics: diags, IsPreferred: true, Edit: edit})
	}
	return actions, nil
}

// wantsQuickFix reports whether a context.only filter admits quickfix.
func wantsQuickFix(only []string) bool {
	if len(only) == 0 {
		return true
	}
	for _, k := range only {
		if k == "quickfix" {
			return true
		}
	}
	return false
}

// workspaceEdit converts a fix found in document d. Each edit's file must
// be open (its text is what the offsets refer to); ok is false otherwise,
// or when a text no longer holds the edited bytes.
func (s *Server) workspaceEdit(d *document, fix *lint.Fix) (WorkspaceEdit, bool) {
	byPath := map[string][]lint.Edit{}
	var order []string
	for _, e := range fix.Edits {
		if _, ok := byPath[e.Path]; !ok {
			order = append(order, e.Path)
		}
		byPath[e.Path] = append(byPath[e.Path], e)
	}
	we := WorkspaceEdit{Changes: map[string][]TextEdit{}}
	for _, p := range order {
		target := d
		if p != d.rel {
			target = s.docs[filepath.Join(d.root, filepath.FromSlash(p))]
		}
		if target == nil {
			return WorkspaceEdit{}, false
		}
		// The offsets are in the bytes the check read (the disk's, with a
		// byte-order mark the text lacks).
		mapped := make([]lint.Edit, 0, len(byPath[p]))
		for _, e := range byPath[p] {
			start, ok1 := target.textOffset(e.Start.Offset)
			end, ok2 := target.textOffset(e.End.Offset)
			if !ok1 || !ok2 {
				return WorkspaceEdit{}, false
			}
			e.Start.Offset, e.End.Offset = start, end
			mapped = append(mapped, e)
		}
		edits, ok := s.enc.textEdits(target.text, mapped)
		if !ok {
			return WorkspaceEdit{}, false
		}
		we.Changes[target.uri] = edits
	}
	return we, len(we.Changes) > 0
}
