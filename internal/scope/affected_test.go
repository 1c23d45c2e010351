package scope

import (
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// memSource is a tree of regular files in memory.
type memSource map[string]string

func (m memSource) Name() string { return "memory" }

func (m memSource) dirs() map[string]bool {
	out := map[string]bool{"": true}
	for p := range m {
		for d := resolve.ParentDir(p); d != ""; d = resolve.ParentDir(d) {
			out[d] = true
		}
	}
	return out
}

func (m memSource) List(dir string) ([]resolve.Entry, error) {
	if !m.dirs()[dir] {
		return nil, fs.ErrNotExist
	}
	seen := map[string]bool{}
	var out []resolve.Entry
	for p := range m {
		if dir != "" && !strings.HasPrefix(p, dir+"/") {
			continue
		}
		rest := strings.TrimPrefix(p, dir+"/")
		if dir == "" {
			rest = p
		}
		name, sub, isDir := strings.Cut(rest, "/")
		_ = sub
		if seen[name] {
			continue
		}
		seen[name] = true
		k := resolve.Regular
		if isDir {
			k = resolve.Dir
		}
		out = append(out, resolve.Entry{Name: name, Kind: k, Size: -1})
	}
	return out, nil
}

func (m memSource) Lstat(p string) (resolve.Entry, error) {
	if _, ok := m[p]; ok {
		return resolve.Entry{Name: path.Base(p), Kind: resolve.Regular}, nil
	}
	return resolve.Entry{Name: path.Base(p), Kind: resolve.Missing}, nil
}

func (m memSource) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	s, ok := m[p]
	if !ok {
		return nil, resolve.Missing, -1, fs.ErrNotExist
	}
	return []byte(s), resolve.Regular, int64(len(s)), nil
}

func (m memSource) LinkTarget(string) (string, error) { return "", nil }

// memSnap is a memSource as the directory stage reads it
// (resolve.Snapshot), counting the CandidateDirsBelow calls.
type memSnap struct {
	memSource
	calls *int
}

func (m memSource) snap(calls *int) memSnap { return memSnap{m, calls} }

func (m memSnap) DirsBelow(p string) ([]string, error) {
	var out []string
	for d := range m.dirs() {
		if p == "" || d == p || strings.HasPrefix(d, p+"/") {
			out = append(out, d)
		}
	}
	sort.Strings(out)
	return out, nil
}

func (m memSnap) CandidateDirsBelow(p string, _ []string) ([]string, error) {
	*m.calls++
	return m.DirsBelow(p)
}

func (m memSnap) DirLink(string) (bool, error)    { return false, nil }
func (m memSnap) Prefetch(_, _ []string, _ int64) {}

var opts = resolve.Options{Overrides: []string{"AGENTS.override.md"}, Normals: []string{"AGENTS.md"}, MaxFileBytes: 1000}

func head() memSource {
	return memSource{
		"AGENTS.md":            "root",
		"a/x.go":               "",
		"a/b/c/AGENTS.md":      "deep",
		"a/b/c/d/e.go":         "",
		"q/AGENTS.override.md": "q",
		"q/r/AGENTS.md":        "r",
		"x/y/z.go":             "",
		"new/x.go":             "",
	}
}

// TestAffected is R7: directories of changed paths, both sides of a
// rename, and below a changed instruction file every directory that holds
// a candidate at the checked revision.
func TestAffected(t *testing.T) {
	for _, tc := range []struct {
		name    string
		changed []string
		want    string
		calls   int
	}{
		{"root AGENTS.md grows: every deeper chain with a candidate", []string{"AGENTS.md"}, ",a/b/c,q,q/r", 1},
		{"plain file: its directory only", []string{"a/b/c/d/e.go"}, "a/b/c/d", 0},
		{"rename: both sides", []string{"old/x.go", "new/x.go"}, "new,old", 0},
		{"deleted override: P and below", []string{"q/AGENTS.override.md"}, "q,q/r", 1},
		{"a directory named like a candidate is its parent's layer", []string{"q/r/AGENTS.md/inner.txt"}, "q/r,q/r/AGENTS.md", 1},
		{"nested candidates are expanded once", []string{"AGENTS.md", "q/AGENTS.override.md", "a/b/c/AGENTS.md"}, ",a/b/c,q,q/r", 1},
		{"gone directory is kept for the engine to skip", []string{"gone/AGENTS.md"}, "gone", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head()
			e := resolve.New(src, opts)
			calls := 0
			got, err := Affected(e, src.snap(&calls), tc.changed)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, ",") != tc.want {
				t.Errorf("Affected(%q) = %q, want %q", tc.changed, strings.Join(got, ","), tc.want)
			}
			if calls != tc.calls {
				t.Errorf("CandidateDirsBelow called %d times, want %d", calls, tc.calls)
			}
		})
	}
}
