package repo

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

type objType uint8

const (
	objCommit objType = iota + 1
	objTree
	objBlob
	objTag
)

func (t objType) String() string {
	switch t {
	case objCommit:
		return "commit"
	case objTree:
		return "tree"
	case objBlob:
		return "blob"
	case objTag:
		return "tag"
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

// intoReader is an object store that can read into a caller's buffer.
// scratch reports that the returned bytes belong to the caller alone
// (dst's storage or a new allocation): only then may it write to them or
// pass them as dst again. Otherwise they are shared, cached bytes (F1).
type intoReader interface {
	readInto(h Hash, typ objType, limit int64, dst []byte) (data []byte, size int64, scratch bool, err error)
}

// openStorage opens go-git's storage of the Git directory, with the common
// directory of a linked worktree (as PlainOpenWithOptions{EnableDotGitCommonDir:
// true} does). Only references are read through it; objects are read by
// nativeObjects.
func (r *Repo) openStorage() ([]*filesystem.Storage, error) {
	var fs billy.Filesystem = osfs.New(r.GitDir)
	if r.CommonDir != r.GitDir {
		fs = dotgit.NewRepositoryFilesystem(fs, osfs.New(r.CommonDir))
	}
	return []*filesystem.Storage{filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(1<<20), filesystem.Options{})}, nil
}

// objectDirs are the object directories searched, in order: the common
// directory's, then the alternates.
func (r *Repo) objectDirs() []string {
	objects := filepath.Join(r.CommonDir, "objects")
	return append([]string{objects}, alternates(objects, 0)...)
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
