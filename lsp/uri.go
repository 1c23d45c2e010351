package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
)

// pathOf is the local path of a file: URI.
func pathOf(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("document URI %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("document URI %q: only file: URIs name files rivumi-lint can check", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/") // file:///C:/x
	}
	return filepath.Clean(filepath.FromSlash(p)), nil
}

// uriOf is the file: URI of a local path.
func uriOf(path string) string {
	p := filepath.ToSlash(path)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// document is the open document uri names, nil when it is not open.
func (s *Server) document(uri string) (*document, error) {
	fp, err := pathOf(uri)
	if err != nil {
		return nil, err
	}
	return s.docs[fp], nil
}
