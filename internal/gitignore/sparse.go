package gitignore

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Sparse holds the .gitignore files that a sparse checkout leaves out of
// the worktree but Git still reads (F4): when a directory's .gitignore
// cannot be opened, Git's add_patterns (dir.c) reads the index entry of
// that path instead, if it is marked skip-worktree, from its blob. A nil
// *Sparse has none, and its methods are then the plain worktree reads.
type Sparse struct {
	lists map[string]*List // by directory ("" for the top)
}

// ReadSparse reads the skip-worktree .gitignore entries an index scan
// found (repo.IndexScan.SkipIgnores) from their blobs (Repo.ReadEntries),
// through the repository open returns: the caller's, opened when first
// asked for. It is nil when there are none, which is every checkout that
// is not sparse: then open is not called, and nothing more than the scan
// is read.
func ReadSparse(ents []repo.IndexEntry, open func() (*repo.Repo, error)) (*Sparse, error) {
	if len(ents) == 0 {
		return nil, nil
	}
	r, err := open()
	if err != nil {
		return nil, fmt.Errorf("read skip-worktree .gitignore files: %w", err)
	}
	blobs := r.ReadEntries(ents, MaxFileBytes)
	s := &Sparse{lists: map[string]*List{}}
	for _, b := range blobs {
		if b.Err != nil || b.Kind != resolve.Regular {
			continue // a link or an unreadable blob: Git reads no pattern either
		}
		if b.Size > MaxFileBytes || len(b.Data) > MaxFileBytes {
			return nil, tooLarge(":" + b.Entry.Path)
		}
		dir := path.Dir(b.Entry.Path)
		if dir == "." {
			dir = ""
		}
		// Source names the index entry as Git's revision syntax does.
		s.lists[dir] = Parse(b.Data, ":"+b.Entry.Path, dir)
	}
	if len(s.lists) == 0 {
		return nil, nil
	}
	return s, nil
}

// Has reports whether the index supplies a .gitignore for dir: the walk
// must then load dir's rules even though its listing has no .gitignore.
func (s *Sparse) Has(dir string) bool {
	if s == nil {
		return false
	}
	_, ok := s.lists[dir]
	return ok
}

// ReadDirFile is the package's ReadDirFile, falling back to the index as
// Git does when the worktree file cannot be opened (missing, or a link,
// which Git opens without following) and the index marks it
// skip-worktree.
func (s *Sparse) ReadDirFile(top, dir string) (*List, error) {
	if s == nil {
		return ReadDirFile(top, dir)
	}
	l, ok := s.lists[dir]
	if !ok {
		return ReadDirFile(top, dir)
	}
	name := filepath.Join(top, filepath.FromSlash(dir), ".gitignore")
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink == 0 {
		return ReadDirFile(top, dir) // the checkout has it after all: Git reads that
	}
	return l, nil
}
