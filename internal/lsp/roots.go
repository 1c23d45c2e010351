package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/rootpath"
)

// rootInfo is the project found for a workspace folder or a directory.
type rootInfo struct {
	root string // the Git worktree's top level; "" when there is none
}

// rootOf is the project root of a workspace folder or a document's
// directory, found as check finds it from a working directory there (R1):
// the top of the Git worktree around it. Outside a Git repository (or in
// a bare one) there is none: the user is told once, and the documents
// there get no diagnostics.
func (s *Server) rootOf(dir string) string {
	if ri, ok := s.roots[dir]; ok {
		return ri.root
	}
	loc, err := repo.Locate(dir)
	if err == nil {
		err = loc.Elsewhere()
	}
	ri := rootInfo{}
	switch {
	case err == nil && loc.Top != "":
		ri.root = loc.Top
	case err == nil || errors.Is(err, repo.ErrNotGit):
		if !s.saidNotGit {
			s.saidNotGit = true
			s.showMessage(messageWarning, "rivumi-lint: "+dir+" is not in a Git worktree, so rivumi-lint serves no diagnostics there "+
				"(the project root is the top of the Git worktree): open a folder inside a Git repository, or run git init there")
		}
	default:
		s.showMessage(messageError, "rivumi-lint: "+err.Error())
	}
	s.roots[dir] = ri
	return ri.root
}

// projectOf is the project root and the root-relative slash path of a
// document at path: the innermost workspace folder holding it decides
// the project, else the document's own directory. A document inside
// another repository below the folder (a submodule, a nested repository)
// belongs to that repository, as check run from there would see it (R1).
func (s *Server) projectOf(path string) (root, rel string) {
	start := filepath.Dir(path)
	best := ""
	for _, f := range s.folders {
		if _, ok := rootpath.Within(f, path); ok && len(f) > len(best) {
			best = f
		}
	}
	if best != "" {
		start = best
		// R1: a submodule's checkout or a nested repository holding the
		// document is its project.
		if rel, ok := rootpath.Within(best, filepath.Dir(path)); ok {
			if inner := repo.Inner(best, rel); inner != "" {
				start = filepath.Join(best, filepath.FromSlash(inner))
			}
		}
	}
	root = s.rootOf(start)
	if root == "" {
		return "", ""
	}
	rel, ok := relTo(root, path)
	if !ok {
		// A document outside its folder's worktree (a nested repository
		// without the folder's knowledge): its own directory decides.
		if root = s.rootOf(filepath.Dir(path)); root == "" {
			return "", ""
		}
		if rel, ok = relTo(root, path); !ok {
			return "", ""
		}
	}
	return root, rel
}

// relTo is path relative to root, also when one of them is reached
// through a link (an editor may open /tmp/x for /private/tmp/x).
func relTo(root, path string) (string, bool) {
	if rel, ok := rootpath.Within(root, path); ok && rel != "" {
		return rel, true
	}
	rr, err1 := filepath.EvalSymlinks(root)
	pd, err2 := filepath.EvalSymlinks(filepath.Dir(path))
	if err1 != nil || err2 != nil {
		return "", false
	}
	rel, ok := rootpath.Within(rr, filepath.Join(pd, filepath.Base(path)))
	return rel, ok && rel != ""
}

// expandHome turns a leading ~/ into the home directory
// (initializationOptions paths are often written so).
func expandHome(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			return filepath.Join(home, rest)
		}
	}
	return p
}
