package project

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// dropObject makes the object at rev (e.g. "HEAD:path") unreadable the
// way a broken clone does: loose, it deletes the file; packed, it
// rewrites the pack without it.
func dropObject(t *testing.T, g *gittest.Repo, rev string, packed bool) string {
	t.Helper()
	id := strings.TrimSpace(g.Git("rev-parse", rev))
	if !packed {
		g.Remove(".git/objects/" + id[:2] + "/" + id[2:])
		return id
	}
	g.Git("repack", "-adq")
	var keep []string
	for _, l := range gittest.Lines(g.Git("rev-list", "--objects", "--all")) {
		if f := strings.Fields(l); len(f) > 0 && f[0] != id {
			keep = append(keep, f[0])
		}
	}
	old, err := filepath.Glob(filepath.Join(g.Dir, ".git/objects/pack/pack-*"))
	if err != nil {
		t.Fatal(err)
	}
	g.Input(strings.Join(keep, "\n")+"\n", "pack-objects", "-q", ".git/objects/pack/pack")
	for _, p := range old {
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g.Try("cat-file", "-e", id); err == nil {
		t.Fatalf("object %s still readable", id)
	}
	return id
}

// TestMissingObjectIsFatal is F6: an object the run needs (a SKILL.md, the
// config, a link's blob, a tree) that cannot be read is an error naming
// it and the fix, in --base/--head and --staged, loose and packed, never
// a smaller rendered size or a missing layer. Before F6 the SKILL.md
// cases passed with the skill left out of the budget.
func TestMissingObjectIsFatal(t *testing.T) {
	for _, tc := range []struct {
		name, rev, path string
	}{
		{"skill", ":.rivumi/skills/x/SKILL.md", ".rivumi/skills/x/SKILL.md"},
		{"skills tree", ":.rivumi/skills/x", ".rivumi/skills/x"},
		{"config", ":" + ConfigName, ConfigName},
		{"link", ":s/AGENTS.md", "s/AGENTS.md"},
		{"layer", ":AGENTS.md", "AGENTS.md"},
	} {
		for _, packed := range []bool{false, true} {
			for _, staged := range []bool{false, true} {
				if staged && tc.name == "skills tree" {
					continue // the index lists blobs: --staged never reads that tree
				}
				name := tc.name
				if packed {
					name += "/packed"
				}
				if staged {
					name += "/staged"
				}
				t.Run(name, func(t *testing.T) {
					g := gittest.New(t)
					g.Write("AGENTS.md", "root\n", ".rivumi/skills/x/SKILL.md", "---\ndescription: a skill of some length\n---\nbody\n",
						ConfigName, "version: 1\n", "t/AGENTS.md", "t\n")
					g.Symlink("../t/AGENTS.md", "s/AGENTS.md")
					g.Commit("one")
					g.Write("AGENTS.md", "root two\n")
					d := repo.Range{Kind: repo.RangeStaged}
					if staged {
						g.Git("add", "AGENTS.md")
					} else {
						g.Commit("two")
						d = repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"}
					}
					if res, _, err := tryDiff(g.Dir, d); err != nil || len(res.Directories) == 0 {
						t.Fatalf("intact repository: %v", err)
					}
					id := dropObject(t, g, "HEAD"+tc.rev, packed)
					res, _, err := tryDiff(g.Dir, d)
					if err == nil {
						t.Fatalf("missing %s (%s): no error; rendered %d bytes (F6)", tc.path, id, res.Directories[0].RenderedBytes)
					}
					var me *repo.MissingObjectError
					if !errors.As(err, &me) && !strings.Contains(err.Error(), id) && !strings.Contains(err.Error(), id[:12]) {
						t.Fatalf("error %q does not name the object %s", err, id)
					}
					if me != nil && !strings.Contains(err.Error(), "Fix:") {
						t.Errorf("error %q names no fix", err)
					}
				})
			}
		}
	}
}

// TestFatalErrorNotRL012 is F6 at the engine: a source's fatal error stops
// Chain with that error; it is not a rejected layer (RL012), while an
// ordinary read error still is (C5).
func TestFatalErrorNotRL012(t *testing.T) {
	for _, tc := range []struct {
		err   error
		fatal bool
	}{
		{resolve.Fatal(errors.New("object 1234 is missing")), true},
		{errors.New("permission denied"), false},
	} {
		e := resolve.New(failingSource{tc.err}, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 100})
		r, err := e.Chain("")
		if tc.fatal {
			if !resolve.IsFatal(err) {
				t.Errorf("Chain = %v, %v; want the fatal error (F6)", r, err)
			}
			continue
		}
		if err != nil || len(r.Layers) != 1 || r.Layers[0].Rej == nil || r.Layers[0].Rej.Cause != resolve.CauseUnreadable {
			t.Errorf("Chain = %+v, %v; want an RL012 layer (C5)", r, err)
		}
	}
}

type failingSource struct{ err error }

func (failingSource) Name() string { return "tree" }
func (failingSource) List(dir string) ([]resolve.Entry, error) {
	return []resolve.Entry{{Name: "AGENTS.md", Kind: resolve.Regular, Size: 5}}, nil
}
func (failingSource) Lstat(p string) (resolve.Entry, error) {
	return resolve.Entry{Name: filepath.Base(p), Kind: resolve.Regular, Size: 5}, nil
}
func (s failingSource) Read(string, int64) ([]byte, resolve.Kind, int64, error) {
	return nil, resolve.Regular, -1, s.err
}
func (failingSource) LinkTarget(string) (string, error) { return "", nil }
