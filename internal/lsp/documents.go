package lsp

import (
	"encoding/json"
	"path"
)

// This file keeps the open documents (full sync) and starts a
// diagnostics run for every event that may change what check says.

func (s *Server) didOpen(params json.RawMessage) (any, error) {
	var p didOpenParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	fp, err := pathOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	d := &document{uri: p.TextDocument.URI, path: fp, version: p.TextDocument.Version, text: []byte(p.TextDocument.Text)}
	d.root, d.rel = s.projectOf(fp)
	s.docs[fp] = d
	if d.root != "" {
		s.lint(d.root)
	}
	return nil, nil
}

func (s *Server) didChange(params json.RawMessage) (any, error) {
	var p didChangeParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "didChange of a document that is not open: " + p.TextDocument.URI}
	}
	for _, c := range p.ContentChanges {
		if c.Range != nil {
			// The server asked for full sync (textDocumentSync.change = 1).
			return nil, &rpcError{Code: codeInvalidParams, Message: "incremental change received; the server uses full document sync"}
		}
		d.text = []byte(c.Text)
	}
	d.version = p.TextDocument.Version
	if d.root != "" {
		s.lint(d.root)
	}
	return nil, nil
}

func (s *Server) didSave(params json.RawMessage) (any, error) {
	var p didSaveParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, nil
	}
	if p.Text != nil {
		d.text = []byte(*p.Text)
	}
	if d.root != "" {
		s.lint(d.root)
	}
	return nil, nil
}

func (s *Server) didClose(params json.RawMessage) (any, error) {
	var p didCloseParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.document(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if d == nil {
		return nil, nil
	}
	delete(s.docs, d.path)
	s.publish(d.uri, nil, []Diagnostic{})
	// Its saved bytes now stand where its unsaved text stood, in every
	// chain it reaches (R7).
	if d.root != "" && len(s.openIn(d.root)) > 0 {
		s.lint(d.root)
	}
	return nil, nil
}

// didChangeWatchedFiles re-runs every project a changed file lies in:
// a change made outside the editor may reach the chain of any open
// document below it (R7), and a changed config is reloaded.
func (s *Server) didChangeWatchedFiles(params json.RawMessage) (any, error) {
	var p didChangeWatchedFilesParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	roots := map[string]bool{}
	for _, c := range p.Changes {
		fp, err := pathOf(c.URI)
		if err != nil {
			continue
		}
		for root := range s.openRoots() {
			if _, ok := relTo(root, fp); ok {
				roots[root] = true
			}
		}
	}
	for root := range roots {
		s.lint(root)
	}
	return nil, nil
}

// openRoots are the project roots with an open document.
func (s *Server) openRoots() map[string]bool {
	out := map[string]bool{}
	for _, d := range s.docs {
		if d.root != "" {
			out[d.root] = true
		}
	}
	return out
}

// dirOf is a document's directory relative to the root ("" for the root).
func dirOf(rel string) string {
	if d := path.Dir(rel); d != "." {
		return d
	}
	return ""
}
