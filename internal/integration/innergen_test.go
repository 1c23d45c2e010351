package integration

// The inner-repository cases of issue #38 in the differential test, beside
// addInner's initialised submodules and nested repositories (R1):
//
//	(b) an uninitialised submodule: a gitlink in the index and the tree, its
//	    directory empty or holding stray files, no .git (what `git submodule
//	    deinit` leaves, and a clone without --recursive). It is an ordinary
//	    directory of the superproject (#38.8): `git -C DIR rev-parse
//	    --show-toplevel` names the superproject, so a PATH in it is checked
//	    with the superproject's chain down to it, plus its own candidates on
//	    disk, as a runtime started there reads them;
//	(c) an inner repository whose Git directory sets core.worktree: naming
//	    any other directory than the one holding its .git is refused, exit 2
//	    naming the setting, for every scope that reaches it (R1, M4, #38.1);
//	    naming that directory itself it is an inner repository as any other;
//	(d) a linked worktree of the superproject (`git worktree add`), checked
//	    from inside it: every submodule there is uninitialised (b), the
//	    index, objects and info/exclude are the common Git directory's (F4).
//
// They draw from a stream of their own, so every other part of a seed's
// case, addInner's included, is what it was before they existed.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// uninitSub is case (b).
type uninitSub struct {
	path  string
	tree  genTree           // the submodule's one commit, never checked out here
	stray map[string][]byte // files in its directory, relative to it; no .git
	paths []string          // the PATH cases, relative to it: "" (the directory) and each stray file
}

// Where core.worktree of case (c) points, relative to the inner top p.
const (
	wtAbove   = "above the project" // the directory holding the outer worktree
	wtRoot    = "the outer root"
	wtParent  = "the directory holding p"
	wtBelow   = "a directory of p"
	wtMissing = "a missing directory"
	wtSelf    = "p itself" // the one value accepted
)

var wtTargets = []string{wtAbove, wtRoot, wtParent, wtBelow, wtMissing, wtSelf}

// elsewhereRepo is case (c): an inner repository (nested, its .git a
// directory, or a submodule, its Git directory under the outer
// .git/modules) whose Git directory sets core.worktree.
type elsewhereRepo struct {
	innerRepo
	target   string // one of wtTargets
	worktree string // the value set, relative to its Git directory (survives copying)
}

func (e elsewhereRepo) refused() bool { return e.target != wtSelf }

// gitDir is the slash path of e's Git directory in the outer worktree.
func (e elsewhereRepo) gitDir() string {
	if e.submodule {
		return ".git/modules/" + e.path // `git submodule add` names it by its path
	}
	return e.path + "/.git"
}

// addInnerCases gives g the cases (b), (c) and (d), in directories real
// at the head and when staged. The differential test adds them (other
// users of generate, the emulated platform lanes, leave them out).
func (g *genSpec) addInnerCases() {
	r := rand.New(rand.NewPCG(g.seed, 0x38b0))
	both := g.both
	taken := map[string]bool{}
	for _, in := range g.inner {
		taken[in.path] = true
	}
	// place finds a free path for an inner repository named name, as
	// addInner does, and clears the untracked files there.
	place := func(name string) (string, bool) {
		if len(both) == 0 {
			return "", false
		}
		p := pathJoin(both[r.IntN(len(both))], name)
		if _, ok := g.head[p]; ok || taken[p] || hasPrefixEntry(g.head, p) || hasPrefixEntry(g.staged, p) || !plainDirs(p, g.head, g.staged, g.untracked) {
			return "", false
		}
		if _, ok := g.staged[p]; ok {
			return "", false
		}
		if strings.HasPrefix(p, "-") || strings.Contains(p, "/-") {
			return "", false // `git submodule add` takes a path starting with - for an option, even after --
		}
		for q := range g.untracked {
			if q == p || strings.HasPrefix(q, p+"/") {
				delete(g.untracked, q)
			}
		}
		taken[p] = true
		return p, true
	}
	// The inner repository's own content: instruction files, some of them
	// rejected, so a descent into it from outside shows.
	innerTree := func() genTree {
		ig := &genSpec{seed: g.seed, maxFileBytes: 32768}
		m := genTree{}
		m.put("AGENTS.md", genEntry{modeFile, ig.content(r)})
		for n := 1 + r.IntN(4); n > 0; n-- {
			ig.addRandom(r, m)
		}
		return m
	}
	if r.IntN(3) > 0 {
		if p, ok := place("unmod"); ok {
			u := uninitSub{path: p, tree: innerTree(), stray: map[string][]byte{}}
			// Stray files: build output, and candidates a runtime started
			// there reads; sometimes none at all (the empty directory Git leaves).
			for n := r.IntN(4); n > 0; n-- {
				var q string
				switch r.IntN(4) {
				case 0:
					q = "build.o"
				case 1:
					q = genCandidates[r.IntN(len(genCandidates))]
				case 2:
					q = "out/" + genCandidates[r.IntN(len(genCandidates))]
				default:
					q = "out/log.txt"
				}
				u.stray[q] = g.content(r)
			}
			u.paths = append([]string{""}, sortedKeys(mapKeys(u.stray))...)
			g.uninit = append(g.uninit, u)
		}
	}
	if r.IntN(3) > 0 {
		if p, ok := place("elsew"); ok {
			e := elsewhereRepo{innerRepo: innerRepo{path: p, submodule: r.IntN(2) == 0, maxFileBytes: 32768, tree: innerTree()}}
			e.target = wtTargets[r.IntN(len(wtTargets))]
			var below []string
			for _, d := range realDirs(e.tree) {
				if d != "" {
					below = append(below, d)
				}
			}
			e.dirs = []string{""}
			if len(below) > 0 {
				e.dirs = append(e.dirs, below[r.IntN(len(below))])
			}
			// Relative to the Git directory, so the value means the same in
			// every copy of the repository.
			up := strings.Repeat("../", strings.Count(e.gitDir(), "/")+1) // to the outer root
			switch e.target {
			case wtAbove:
				e.worktree = up + ".."
			case wtRoot:
				e.worktree = strings.TrimSuffix(up, "/")
			case wtParent:
				e.worktree = strings.TrimSuffix(up+pathParent(p), "/")
			case wtBelow:
				if len(e.dirs) > 1 {
					e.worktree = up + p + "/" + e.dirs[1]
				} else {
					e.target, e.worktree = wtMissing, up+p+"/missing"
				}
			case wtMissing:
				e.worktree = up + p + "/missing"
			case wtSelf:
				e.worktree = up + p
			}
			g.elsewhere = append(g.elsewhere, e)
		}
	}
	g.linked = r.IntN(3) > 0
}

// buildInnerCases adds (b) and (c) to the committed repository at dir;
// each submodule is committed, so it returns the new head.
func buildInnerCases(t *testing.T, g *genSpec, parent, dir, head string) string {
	t.Helper()
	submodule := func(src, p string) {
		gitCmd(t, dir, nil, nil, "-c", "protocol.file.allow=always", "submodule", "add", "-q", "-f", "--", src, p) // -f: the parent may be ignored
		gitCmd(t, dir, nil, nil, "commit", "-q", "-m", "submodule "+p)
		head = strings.TrimSpace(gitCmd(t, dir, nil, nil, "rev-parse", "HEAD"))
	}
	for i, u := range g.uninit {
		src := filepath.Join(parent, fmt.Sprintf("uninit-%d", i))
		initRepo(t, src, u.tree)
		submodule(src, u.path)
		// deinit leaves the empty directory, the gitlink and .gitmodules.
		gitCmd(t, dir, nil, nil, "submodule", "deinit", "-q", "-f", "--", u.path)
		writeStray(t, dir, u)
	}
	for i, e := range g.elsewhere {
		if e.submodule {
			src := filepath.Join(parent, fmt.Sprintf("elsewhere-%d", i))
			initRepo(t, src, e.tree)
			submodule(src, e.path)
		} else {
			initRepo(t, filepath.Join(dir, filepath.FromSlash(e.path)), e.tree)
		}
		cfg := filepath.Join(dir, filepath.FromSlash(e.gitDir()), "config")
		gitCmd(t, dir, nil, nil, "config", "--file", cfg, "core.worktree", e.worktree)
	}
	return head
}

// writeStray writes the stray files of u into its directory under dir.
func writeStray(t *testing.T, dir string, u uninitSub) {
	t.Helper()
	for q, data := range u.stray {
		f := filepath.Join(dir, filepath.FromSlash(u.path), filepath.FromSlash(q))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// submodulePaths are the paths of every submodule of g (initialised or
// not, whatever its core.worktree), sorted: in a linked worktree each is
// an uninitialised one.
func (g *genSpec) submodulePaths() []string {
	var out []string
	for _, in := range g.inner {
		if in.submodule {
			out = append(out, in.path)
		}
	}
	for _, u := range g.uninit {
		out = append(out, u.path)
	}
	for _, e := range g.elsewhere {
		if e.submodule {
			out = append(out, e.path)
		}
	}
	sort.Strings(out)
	return out
}
