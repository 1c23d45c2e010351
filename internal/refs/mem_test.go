package refs

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// memSource is a Source over a map of slash paths: a value starting with
// "->" is a symbolic link, "@sub" a submodule, and a key ending in "/" an
// (empty) directory. Directories on the way exist by themselves.
type memSource struct {
	files map[string]string
	fatal string // a path whose reads fail as the source's own (a missing Git object)
}

func (m memSource) entries() map[string]map[string]resolve.Entry {
	dirs := map[string]map[string]resolve.Entry{"": {}}
	for p, v := range m.files {
		isDir := strings.HasSuffix(p, "/")
		p = strings.TrimSuffix(p, "/")
		names := strings.Split(p, "/")
		dir := ""
		for i, n := range names {
			if dirs[dir] == nil {
				dirs[dir] = map[string]resolve.Entry{}
			}
			kind := resolve.Dir
			if i == len(names)-1 && !isDir {
				switch {
				case strings.HasPrefix(v, "->"):
					kind = resolve.Symlink
				case v == "@sub":
					kind = resolve.Submodule
				default:
					kind = resolve.Regular
				}
			}
			if _, ok := dirs[dir][n]; !ok || kind != resolve.Dir {
				dirs[dir][n] = resolve.Entry{Name: n, Kind: kind, Size: int64(len(v))}
			}
			dir = path.Join(dir, n)
			if kind == resolve.Dir && dirs[dir] == nil {
				dirs[dir] = map[string]resolve.Entry{}
			}
		}
	}
	return dirs
}

func (m memSource) List(dir string) ([]resolve.Entry, error) {
	if m.fatal != "" && dir == m.fatal {
		return nil, resolve.Fatal(fs.ErrInvalid)
	}
	ents, ok := m.entries()[dir]
	if !ok {
		return nil, fs.ErrNotExist
	}
	var out []resolve.Entry
	for _, e := range ents {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (m memSource) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	if m.fatal != "" && p == m.fatal {
		return nil, 0, 0, resolve.Fatal(fs.ErrInvalid)
	}
	v, ok := m.files[p]
	if !ok {
		if _, isDir := m.entries()[p]; isDir {
			return nil, resolve.Dir, 0, nil
		}
		return nil, resolve.Missing, 0, fs.ErrNotExist
	}
	if strings.HasPrefix(v, "->") {
		return nil, resolve.Symlink, 0, nil
	}
	b := []byte(v)
	if int64(len(b)) > limit+1 {
		b = b[:limit+1]
	}
	return b, resolve.Regular, int64(len(v)), nil
}
