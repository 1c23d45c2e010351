package gitignore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/repo"
	"github.com/rivumi/rivumi-lint/resolve"
)

// Sparse holds the .gitignore files that a sparse checkout leaves out of
// the worktree but Git still reads (F4): when a directory's .gitignore
// cannot be opened, Git's add_patterns (dir.c) reads the index entry of
// that path instead, if it is marked skip-worktree, from its blob. A nil
// *Sparse has none, and its methods are then the plain worktree reads.
type Sparse struct {
	lists map[string]*List // by directory ("" for the top)
}

// ReadSparse collects the skip-worktree .gitignore entries of the index
// Git reads for the worktree top (GIT_INDEX_FILE when set, as for Git)
// and parses their blobs. An index of version 2 cannot mark an entry
// skip-worktree (the flag needs version 3's extended flags), so for the
// common index only its 8-byte header is read; nil then.
func ReadSparse(top, gitDir string) (*Sparse, error) {
	if v, err := indexVersion(repo.IndexFile(top, gitDir)); err != nil || v < 3 {
		// A missing or unreadable index is the index reader's to report
		// (the walk reads it too); here it holds no skip-worktree entry.
		return nil, nil
	}
	r, err := repo.OpenAt(top, gitDir)
	if err != nil {
		return nil, fmt.Errorf("read skip-worktree .gitignore files: %w", err)
	}
	defer r.Close()
	x, err := r.Index()
	if err != nil {
		return nil, fmt.Errorf("read skip-worktree .gitignore files: %w", err)
	}
	s := &Sparse{lists: map[string]*List{}}
	for _, e := range x.Entries() {
		if !e.SkipWorktree || e.Stage != 0 || path.Base(e.Path) != ".gitignore" {
			continue
		}
		data, kind, size, err := x.Read(e.Path, MaxFileBytes)
		if err != nil || kind != resolve.Regular {
			continue // a link or an unreadable blob: Git reads no pattern either
		}
		if size > MaxFileBytes || len(data) > MaxFileBytes {
			return nil, tooLarge(":" + e.Path)
		}
		dir := path.Dir(e.Path)
		if dir == "." {
			dir = ""
		}
		// Source names the index entry as Git's revision syntax does.
		s.lists[dir] = Parse(data, ":"+e.Path, dir)
	}
	if len(s.lists) == 0 {
		return nil, nil
	}
	return s, nil
}

// indexVersion reads the version field of the index file's header.
func indexVersion(name string) (uint32, error) {
	f, err := os.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var h [8]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		return 0, err
	}
	if string(h[:4]) != "DIRC" {
		return 0, errors.New("not an index")
	}
	return binary.BigEndian.Uint32(h[4:]), nil
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
