package repo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

type objType uint8

const (
	objCommit objType = iota + 1
	objTree
	objBlob
)

func (t objType) String() string {
	switch t {
	case objCommit:
		return "commit"
	case objTree:
		return "tree"
	case objBlob:
		return "blob"
	}
	return "object"
}

// objectStore reads objects by id. Both methods fail with a
// *MissingObjectError when the object is not in the repository.
type objectStore interface {
	// size returns the object's size from its header, without reading or
	// inflating its content (C3: a 2 GiB blob costs nothing).
	size(h Hash) (int64, error)
	// read returns the first bytes of the object's content, at most
	// limit+1 of them, and its full size from the header. The object must be
	// of type typ.
	read(h Hash, typ objType, limit int64) (data []byte, size int64, err error)
	close() error
}

// largeObject is the size above which go-git streams an object from disk
// instead of holding it in memory (LargeObjectThreshold).
const largeObject = 1 << 20

// openStorage opens the object and reference storage with go-git: the Git
// directory, with the common directory of a linked worktree (as
// PlainOpenWithOptions{EnableDotGitCommonDir: true} does), then one storage
// per alternate object directory, searched in order. Pack indexes are read
// once and pack descriptors kept open until Close.
func (r *Repo) openStorage() ([]*filesystem.Storage, error) {
	opts := filesystem.Options{KeepDescriptors: true, LargeObjectThreshold: largeObject}
	var fs billy.Filesystem = osfs.New(r.GitDir)
	if r.CommonDir != r.GitDir {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(r.CommonDir))
	}
	st := []*filesystem.Storage{filesystem.NewStorageWithOptions(fs, cache.NewObjectLRUDefault(), opts)}
	for _, alt := range alternates(filepath.Join(r.CommonDir, "objects"), 0) {
		// A storage is rooted at the directory that holds "objects".
		st = append(st, filesystem.NewStorageWithOptions(osfs.New(filepath.Dir(alt)), cache.NewObjectLRU(16<<20), opts))
	}
	return st, nil
}

// alternates lists the object directories objects/info/alternates names,
// recursively (Git follows up to 5 levels).
func alternates(objects string, depth int) []string {
	if depth > 5 {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(objects, "info", "alternates"))
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(objects, line)
		}
		line = filepath.Clean(line)
		out = append(out, line)
		out = append(out, alternates(line, depth+1)...)
	}
	return out
}

func closeStores(st []*filesystem.Storage) {
	for _, s := range st {
		s.Close()
	}
}

// goGitObjects reads objects through go-git's filesystem storage.
type goGitObjects struct {
	stores   []*filesystem.Storage
	hashSize int
}

func toPlumbing(h Hash) plumbing.Hash {
	var p plumbing.Hash
	copy(p[:], h.Bytes())
	return p
}

// find returns the storage that holds h and the object's size from its
// header (a loose object's zlib header, or the pack entry header; for a
// delta, the result size recorded in the delta).
func (g *goGitObjects) find(h Hash) (*filesystem.Storage, int64, error) {
	if int(h.n) != g.hashSize {
		return nil, 0, fmt.Errorf("object id %s has the wrong length for this repository", h)
	}
	ph := toPlumbing(h)
	for _, s := range g.stores {
		n, err := s.EncodedObjectSize(ph)
		if err == nil {
			return s, n, nil
		}
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			return nil, 0, fmt.Errorf("object %s: %w", h.Short(), err)
		}
	}
	return nil, 0, &MissingObjectError{Hash: h}
}

func (g *goGitObjects) size(h Hash) (int64, error) {
	_, n, err := g.find(h)
	return n, err
}

func (g *goGitObjects) read(h Hash, typ objType, limit int64) ([]byte, int64, error) {
	if int(h.n) != g.hashSize {
		return nil, 0, fmt.Errorf("object id %s has the wrong length for this repository", h)
	}
	// Blobs are read only after size (Tree.Read checks the header first).
	// Trees and commits are looked up directly: go-git searches the pack
	// index before the loose objects, which saves a failed open per object
	// on a packed repository.
	var o plumbing.EncodedObject
	var err error
	for _, s := range g.stores {
		o, err = s.EncodedObject(plumbing.AnyObject, toPlumbing(h))
		if !errors.Is(err, plumbing.ErrObjectNotFound) {
			break
		}
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, 0, &MissingObjectError{Hash: h}
	}
	if err != nil {
		return nil, 0, fmt.Errorf("object %s: %w", h.Short(), err)
	}
	if got := o.Type().String(); got != typ.String() {
		return nil, 0, fmt.Errorf("object %s is a %s, not a %s", h.Short(), got, typ)
	}
	rc, err := o.Reader()
	if err != nil {
		return nil, 0, fmt.Errorf("object %s: %w", h.Short(), err)
	}
	defer rc.Close()
	want := min(o.Size(), limit) + 1
	if want < 1 {
		want = 1
	}
	buf := make([]byte, 0, want)
	data, err := readUpTo(rc, buf, limit+1)
	if err != nil {
		return nil, 0, fmt.Errorf("read object %s: %w", h.Short(), err)
	}
	return data, o.Size(), nil
}

// readUpTo appends at most n bytes of r to buf.
func readUpTo(r io.Reader, buf []byte, n int64) ([]byte, error) {
	lr := io.LimitReader(r, n)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		m, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

func (g *goGitObjects) close() error { return nil }
