package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
)

// pathOf is the local path of a file: URI. Only an absolute path on
// this machine is one: "file:NAME" (no path) would resolve against the
// server's working directory, and file://HOST/... names another machine's
// file (a UNC path on Windows).
func pathOf(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("document URI %q: %w", uri, err)
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("document URI %q: only file: URIs name files rivumi-lint can check", uri)
	}
	if u.Opaque != "" || u.Path == "" {
		return "", fmt.Errorf("document URI %q: a file: URI needs an absolute path (file:///dir/AGENTS.md)", uri)
	}
	p := u.Path
	if runtime.GOOS == "windows" {
		p = strings.TrimPrefix(p, "/") // file:///C:/x
		if u.Host != "" && u.Host != "localhost" {
			p = "//" + u.Host + "/" + p // file://server/share/x
		}
	} else if u.Host != "" && u.Host != "localhost" {
		return "", fmt.Errorf("document URI %q: the file is on host %q, not on this machine", uri, u.Host)
	}
	p = filepath.Clean(filepath.FromSlash(p))
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("document URI %q: a file: URI needs an absolute path", uri)
	}
	return p, nil
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
