package mcp

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/rootpath"
)

// maxPathBytes bounds a path argument: PATH_MAX on Linux. A longer one
// names no file; refusing it keeps a hostile argument from costing more.
const maxPathBytes = 4096

// target is a tool's path argument as an absolute OS path inside the
// project root (M4): relative to the root, or absolute inside it. A
// ".." element is refused as on the command line (§10), and so is a path
// whose nearest existing part reaches outside the root through a link.
func (s *Server) target(arg string) (string, error) {
	switch {
	case arg == "":
		return "", errors.New(`path is empty: give a path relative to the project root ("." for the root)`)
	case len(arg) > maxPathBytes:
		return "", fmt.Errorf("path is %d bytes long, over %d: no file has such a name", len(arg), maxPathBytes)
	case strings.ContainsRune(arg, 0):
		return "", errors.New("path holds a NUL byte: no file has such a name")
	}
	for _, el := range strings.Split(filepath.ToSlash(arg), "/") {
		if el == ".." {
			return "", fmt.Errorf("path %q: \"..\" is not allowed; pass paths inside the project root %s", arg, s.root)
		}
	}
	abs := filepath.Clean(arg)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.root, abs)
	}
	_, in := rootpath.Within(s.root, abs)
	if !in {
		// An absolute path may name the root by its resolved form.
		if _, in = rootpath.Within(s.realRoot, abs); !in {
			return "", fmt.Errorf("path %q is outside the project root %s", arg, s.root)
		}
	}
	real, err := nearestReal(abs)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", arg, err)
	}
	if _, ok := rootpath.Within(s.realRoot, real); !ok {
		return "", fmt.Errorf("path %q leads outside the project root %s through a link (to %s)", arg, s.root, real)
	}
	return abs, nil
}

// nearestReal is the nearest existing path at or above p with every link
// resolved: where p's name leads. A path below a file, or one that does
// not exist, leads where its nearest existing parent does.
func nearestReal(p string) (string, error) {
	for q := p; ; q = filepath.Dir(q) {
		real, err := filepath.EvalSymlinks(q)
		if err == nil {
			return real, nil
		}
		if filepath.Dir(q) == q {
			return "", err
		}
	}
}

// previewDir is what the preview is asked about for abs: abs itself when
// it exists (a file previews its directory, as `preview FILE` does), and
// for a path that does not exist yet (a file the agent is about to
// create) its nearest existing directory, which holds every instruction
// file that path would get; note says so.
func (s *Server) previewDir(abs string) (dir, note string) {
	if exists(abs) {
		return abs, ""
	}
	for q := filepath.Dir(abs); ; q = filepath.Dir(q) {
		if fi, err := os.Stat(q); err == nil && fi.IsDir() {
			rel, _ := rootpath.Within(s.root, abs)
			at, _ := rootpath.Within(s.root, q)
			if at == "" {
				at = "."
			}
			return q, fmt.Sprintf("%s does not exist: the chain shown is that of %s, its nearest existing directory", rel, at)
		}
		if filepath.Dir(q) == q {
			return abs, ""
		}
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
