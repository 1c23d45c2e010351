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
	"github.com/rivumi/rivumi-lint/internal/repo/internal/odb"
)

// objectStore reads objects by id: the native object database, or the
// git binary (catFile) where it cannot read the repository.
type objectStore = odb.Store

// openStorage opens go-git's storage of the Git directory, with the common
// directory of a linked worktree (as PlainOpenWithOptions{EnableDotGitCommonDir:
// true} does). Only references are read through it; objects are read by
// odb.Native.
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
