package lsp

import (
	"errors"
	"fmt"
	"path/filepath"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/project"
)

// run is one pass of check's pipeline over the project at root for the
// open documents docs: their unsaved texts are the overlay, their paths
// the scope (a file is checked from its directory, and an instruction
// file brings every directory below it whose chain it reaches, R7), as
// `rivumi-lint check PATH...` would check them once saved.
// The disk views it judged are each document's, in docs' order.
func (s *Server) run(root string, docs []*document) (*lint.Result, []*diskView, error) {
	ov, views := overlay(root, docs)
	paths := make([]string, 0, len(docs))
	for _, d := range docs {
		paths = append(paths, filepath.Join(root, filepath.FromSlash(d.rel)))
	}
	res, _, err := s.runScope(root, ov, project.Scope{Paths: paths, Memory: s.opts.Memory})
	return res, views, err
}

// runScope runs the pipeline over scope with the overlay.
func (s *Server) runScope(root string, overlay map[string][]byte, scope project.Scope) (*lint.Result, *project.Run, error) {
	out, err := project.Do(project.Request{
		Options: project.Options{Root: root, UserInstructions: s.opts.UserInstructions, Overlay: overlay, Env: s.Env},
		Scope:   scope,
	})
	if err != nil {
		return nil, nil, err
	}
	defer out.Close()
	return out.Result, out.Run, nil
}

// lint re-runs the project at root and publishes the diagnostics of each
// of its open documents: the findings of the run whose Path is that
// document, as check reports them.
func (s *Server) lint(root string) {
	docs := s.openIn(root)
	if len(docs) == 0 {
		return
	}
	res, views, err := s.run(root, docs)
	cfgURI := uriOf(filepath.Join(root, project.ConfigName))
	var cerr *config.Error
	if errors.As(err, &cerr) {
		// A broken config is one diagnostic on the config file, never a
		// failure of the server; the other documents keep what they had.
		line := max(cerr.Line-1, 0)
		diag := Diagnostic{Range: Range{Start: Position{Line: line}, End: Position{Line: line + 1}},
			Severity: severityError, Code: "config", Source: "rivumi-lint", Message: err.Error()}
		s.publish(s.uriFor(root, project.ConfigName, cfgURI), nil, []Diagnostic{diag})
		s.broken[root] = cfgURI
		return
	}
	if u, ok := s.broken[root]; ok {
		delete(s.broken, root)
		if s.docs[filepath.Join(root, project.ConfigName)] == nil {
			s.publish(u, nil, []Diagnostic{})
		}
	}
	if err != nil {
		// Not a finding: a source that cannot be read, a user file that
		// does not exist. Said once until it changes.
		if s.lastErr[root] != err.Error() {
			s.lastErr[root] = err.Error()
			s.showMessage(messageError, "rivumi-lint: "+err.Error())
		}
		return
	}
	delete(s.lastErr, root)
	byPath := map[string][]lint.Finding{}
	for _, f := range res.Findings {
		byPath[f.Path] = append(byPath[f.Path], f)
	}
	for i, d := range docs {
		d.findings, d.disk = byPath[d.rel], views[i]
		s.publish(d.uri, &d.version, s.diagnostics(d))
	}
}

// uriFor is the URI the client opened the file rel of root under, else
// fallback.
func (s *Server) uriFor(root, rel, fallback string) string {
	if d := s.docs[filepath.Join(root, filepath.FromSlash(rel))]; d != nil {
		return d.uri
	}
	return fallback
}

// diagnostics are a document's findings in the negotiated encoding.
func (s *Server) diagnostics(d *document) []Diagnostic {
	out := make([]Diagnostic, 0, len(d.findings))
	for _, f := range d.findings {
		out = append(out, s.findingDiagnostics(d, f)...)
	}
	return out
}

// findingDiagnostics are one finding's diagnostics: one at its position,
// and for RL010 one more at each further character its fix deletes (the
// finding gives only the first; the editor should mark every one).
func (s *Server) findingDiagnostics(d *document, f lint.Finding) []Diagnostic {
	sev := severityInformation
	switch f.Severity {
	case lint.Error:
		sev = severityError
	case lint.Warning:
		sev = severityWarning
	}
	msg := f.Message
	switch {
	case d.disk != nil && d.disk.replaced != nil && f.Repair.Kind == lint.RepairTranscode:
		// Saving this text would write U+FFFD over the bytes: say so
		// rather than "saving it unchanged writes them again".
		msg += "; on disk the file is not UTF-8: the editor shows each invalid byte sequence as U+FFFD. Saving this text would replace the original characters; reopen the file in its encoding (often Windows-1252) before saving it as UTF-8, or run `rivumi-lint fix`"
	case d.disk != nil && f.Repair.Kind == lint.RepairTranscode:
		msg += fmt.Sprintf("; on disk the file is %s, which the editor shows decoded: saving it unchanged writes %s again", d.disk.from, d.disk.from)
	}
	first := Diagnostic{Range: Range{}, Severity: sev, Code: f.Rule, Source: "rivumi-lint", Message: msg}
	if off, ok := offset(d.read(), f.Line, f.Column); ok {
		first.Range = s.rangeAt(d, off)
	}
	out := []Diagnostic{first}
	if f.Repair.Kind != lint.RepairDeleteHidden || f.Fix == nil {
		return out
	}
	hidden := hiddenIn(d, f.Fix)
	for i, h := range hidden {
		r := s.rangeAt(d, h.off)
		if r == first.Range {
			continue
		}
		out = append(out, Diagnostic{Range: r, Severity: sev, Code: f.Rule, Source: "rivumi-lint",
			Message: fmt.Sprintf("Rivumi will pass this character a reviewer cannot see (%U, %d of %d in this file) to the model. Fix: delete it", h.r, i+1, len(hidden))})
	}
	return out
}

// rangeAt is the range of the character at offset off of the bytes the
// check read, in the document's text; the start of the file when it has
// no place there.
func (s *Server) rangeAt(d *document, off int) Range {
	t, ok := d.textOffset(off)
	if !ok {
		return Range{}
	}
	return s.enc.charRange(d.text, t)
}

type hiddenChar struct {
	off int
	r   rune
}

// hiddenIn are the characters RL010's fix deletes from d: every character
// of each of its edits (adjacent ones share an edit).
func hiddenIn(d *document, fix *lint.Fix) []hiddenChar {
	read := d.read()
	var out []hiddenChar
	for _, e := range fix.Edits {
		if e.Path != d.rel || e.Start.Offset < 0 || e.End.Offset > len(read) {
			continue
		}
		for o := e.Start.Offset; o < e.End.Offset; {
			r, size := utf8.DecodeRune(read[o:])
			out = append(out, hiddenChar{o, r})
			o += size
		}
	}
	return out
}

func (s *Server) publish(uri string, version *int, diags []Diagnostic) {
	if err := s.out.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Version: version, Diagnostics: diags}); err != nil {
		s.logf("publish diagnostics: %v", err)
	}
}
