package drift

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// mem is a tree in memory: path → content; content "->T" is a symlink to T.
type mem map[string]string

func (m mem) isDir(d string) bool {
	if d == "" {
		return true
	}
	for p := range m {
		if strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

func (m mem) Name() string { return "memory" }

func (m mem) List(dir string) ([]resolve.Entry, error) {
	if !m.isDir(dir) {
		return nil, fs.ErrNotExist
	}
	seen := map[string]bool{}
	var out []resolve.Entry
	for p, c := range m {
		rest, ok := strings.CutPrefix(p, dir+"/")
		if dir == "" {
			rest, ok = p, true
		}
		if !ok {
			continue
		}
		name, _, isDir := strings.Cut(rest, "/")
		if seen[name] {
			continue
		}
		seen[name] = true
		k := resolve.Regular
		switch {
		case isDir:
			k = resolve.Dir
		case strings.HasPrefix(c, "->"):
			k = resolve.Symlink
		}
		out = append(out, resolve.Entry{Name: name, Kind: k, Size: -1})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (m mem) Lstat(p string) (resolve.Entry, error) {
	return resolve.Entry{Name: path.Base(p), Kind: resolve.Missing}, nil
}

func (m mem) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	c, ok := m[p]
	if !ok {
		return nil, resolve.Missing, -1, fs.ErrNotExist
	}
	if int64(len(c)) > limit {
		return nil, resolve.Regular, int64(len(c)), nil
	}
	return []byte(c), resolve.Regular, int64(len(c)), nil
}

func (m mem) LinkTarget(p string) (string, error) { return strings.TrimPrefix(m[p], "->"), nil }

var opts = resolve.Options{
	Overrides:    []string{"RIVUMI.override.md", "AGENTS.override.md"},
	Normals:      []string{"RIVUMI.md", "AGENTS.md"},
	MaxFileBytes: 64,
}

func compare(t *testing.T, base, head mem, dirs ...string) []lint.Drift {
	t.Helper()
	he := resolve.New(head, opts)
	var res []*resolve.Resolution
	for _, d := range dirs {
		r, err := he.Chain(d)
		if err != nil {
			t.Fatalf("head %q: %v", d, err)
		}
		res = append(res, r)
	}
	out, err := Compare(resolve.New(base, opts), res, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func show(ds []lint.Drift) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "[%s]", strings.Join(d.Directories, " "))
		for _, c := range d.Changes {
			fmt.Fprintf(&b, " %s %s", c.Change, c.Path)
			if c.Detail != "" {
				fmt.Fprintf(&b, " (%s)", c.Detail)
			}
			b.WriteString(";")
		}
		b.WriteString("\n")
	}
	return b.String()
}

func base() mem {
	return mem{
		"AGENTS.md":            "root",
		"a/AGENTS.md":          "a",
		"a/b/AGENTS.md":        "b",
		"a/b/keep.go":          "",
		"c/AGENTS.md":          "c",
		"s/AGENTS.md":          "s",
		"s/RIVUMI.md":          "rivumi",
		"o/AGENTS.override.md": "override",
		"o/p/AGENTS.md":        "p",
		"r/AGENTS.md":          "bad \xff",
	}
}

func with(m mem, kv ...string) mem {
	out := mem{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			delete(out, kv[i])
			continue
		}
		out[kv[i]] = kv[i+1]
	}
	return out
}

// TestDrift is R9: each kind of layer change, and the grouping of
// directories whose changes are identical.
func TestDrift(t *testing.T) {
	all := []string{"", "a", "a/b", "c", "s", "o", "o/p", "r"}
	for _, tc := range []struct {
		name string
		head mem
		dirs []string
		want string
	}{
		{"nothing changed", base(), all, ""},
		{"root modified: one group over different chains", with(base(), "AGENTS.md", "root, longer"), all,
			"[. a a/b c o o/p r s] modified AGENTS.md (4 → 12 bytes);\n"},
		{"override added", with(base(), "a/AGENTS.override.md", "silence"), []string{"a", "a/b"},
			"[a a/b] suppressed AGENTS.md (by a/AGENTS.override.md, was active); shadowed a/AGENTS.md (by a/AGENTS.override.md, was active); added a/AGENTS.override.md;\n"},
		{"override deleted", with(base(), "o/AGENTS.override.md", ""), []string{"o/p"},
			"[o/p] unsuppressed AGENTS.md (active now, was suppressed by o/AGENTS.override.md); removed o/AGENTS.override.md;\n"},
		{"newly rejected", with(base(), "c/AGENTS.md", "->../AGENTS.md"), []string{"c"},
			"[c] rejected c/AGENTS.md (RL001: it is a symbolic link to ../AGENTS.md);\n"},
		{"oversized", with(base(), "c/AGENTS.md", strings.Repeat("x", 65)), []string{"c"},
			"[c] rejected c/AGENTS.md (RL003: it is 65 bytes, over the limit of 64 (limits.max_file_bytes));\n"},
		{"rejection fixed", with(base(), "r/AGENTS.md", "good"), []string{"r"},
			"[r] modified r/AGENTS.md (accepted now, was rejected: RL004: it is not valid UTF-8: first invalid byte at line 1, column 5 (offset 4));\n"},
		{"shadowing file removed", with(base(), "s/RIVUMI.md", ""), []string{"s"},
			"[s] unshadowed s/AGENTS.md (active now, was shadowed by s/RIVUMI.md); removed s/RIVUMI.md;\n"},
		{"shadowed file edited: not drift (never read)", with(base(), "s/AGENTS.md", "edited"), []string{"s"}, ""},
		{"new directory: compared with its nearest ancestor", with(base(), "a/new/deep/AGENTS.md", "new"), []string{"a/new/deep"},
			"[a/new/deep] added a/new/deep/AGENTS.md;\n"},
		{"deeper file removed", with(base(), "a/b/AGENTS.md", ""), []string{"a/b"}, "[a/b] removed a/b/AGENTS.md;\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := compare(t, base(), tc.head, tc.dirs...)
			if show(got) != tc.want {
				t.Errorf("got\n%swant\n%s", show(got), tc.want)
			}
		})
	}
}

// TestDriftFingerprints: a group of identical chains carries their
// fingerprints; a group of different chains (same changes) carries none.
func TestDriftFingerprints(t *testing.T) {
	head := with(base(), "AGENTS.md", "root, longer")
	got := compare(t, base(), head, "c", "r", "a/b")
	if len(got) != 1 || got[0].Base != "" || got[0].Head != "" {
		t.Fatalf("mixed chains: %+v", got)
	}
	got = compare(t, base(), head, "")
	hr, _ := resolve.New(head, opts).Chain("")
	br, _ := resolve.New(base(), opts).Chain("")
	if len(got) != 1 || got[0].Base != br.Fingerprint || got[0].Head != hr.Fingerprint {
		t.Fatalf("one chain: %+v", got)
	}
}
