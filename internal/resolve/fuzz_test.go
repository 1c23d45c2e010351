//go:build unix

package resolve

// Native fuzz targets for the engine over real trees on disk (§10: "resolver
// over random trees") and for the near-miss name matcher (RL011).
//
//	go test ./internal/resolve -run '^$' -fuzz '^FuzzResolve$' -fuzztime 60s
//	go test ./internal/resolve -run '^$' -fuzz '^FuzzNearMiss$' -fuzztime 60s

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// R5Violations checks the invariants every resolution must hold and returns
// one message per violation (none: the resolution is sound). It is exported
// to the external tests of this package (fs_test.go).
//
//   - R5: every considered layer appears once and ends in exactly one of
//     the four states, with the fields that state implies: active = read
//     and accepted; rejected = a rule id of C1–C5 (RL001–RL004, RL012);
//     suppressed = by an active override of a deeper directory; shadowed =
//     by the first candidate of its own directory, and never read (R2).
//   - R4: no active project layer in a directory shallower than the deepest
//     active override; the user layer is never suppressed.
//   - R3: project layers run shallow to deep, the user layer first.
//   - R8: the fingerprint is the one of the layers.
func R5Violations(r *Resolution) []string {
	var bad []string
	errf := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	seen := map[string]bool{}
	deepestOverride := -1
	for i, l := range r.Layers {
		if l.State == Active && l.Scope == ScopeProject && l.Override {
			deepestOverride = i
		}
	}
	firstOf := map[string]string{}
	for _, d := range r.Dirs {
		if len(d.Files) > 0 {
			firstOf[d.Path] = d.Files[0].Path
		}
	}
	prevDepth := -1
	for i, l := range r.Layers {
		if seen[l.Path] {
			errf("layer %s appears twice (R5: one state per layer)", l.Path)
		}
		seen[l.Path] = true
		switch l.Scope {
		case ScopeUser:
			if i != 0 {
				errf("user layer %s at position %d, want first (R3)", l.Path, i)
			}
			if l.State == Suppressed {
				errf("user layer %s suppressed (R4: never)", l.Path)
			}
		case ScopeProject:
			depth := 0
			if l.Dir != "" {
				depth = strings.Count(l.Dir, "/") + 1
			}
			if depth < prevDepth {
				errf("layer %s out of order: shallower than the one before it (R3)", l.Path)
			}
			prevDepth = depth
			if !strings.HasPrefix(r.Dir+"/", l.Dir+"/") && l.Dir != "" {
				errf("layer %s is not in a directory on the way to %q (R3)", l.Path, r.Dir)
			}
		default:
			errf("layer %s has scope %q", l.Path, l.Scope)
		}
		switch l.State {
		case Active:
			if l.Rej != nil || !l.Accepted() {
				errf("active layer %s is not an accepted file (rej=%v)", l.Path, l.Rej)
			}
			if !utf8.Valid(l.Content) {
				errf("active layer %s holds invalid UTF-8 (C4)", l.Path)
			}
			if l.By != "" {
				errf("active layer %s has By=%q", l.Path, l.By)
			}
			if l.Scope == ScopeProject && deepestOverride >= 0 && i < deepestOverride && l.Dir != r.Layers[deepestOverride].Dir {
				errf("active layer %s above the active override %s (R4)", l.Path, r.Layers[deepestOverride].Path)
			}
		case Rejected:
			if l.Rej == nil {
				errf("rejected layer %s has no rejection", l.Path)
				break
			}
			if !slices.Contains(Causes(), l.Rej.Cause) {
				errf("rejected layer %s has cause %v, want one of Causes()", l.Path, l.Rej.Cause)
			}
			if l.Reason() == "" || l.Reason() != FingerprintCode(l.Rej.Cause) {
				errf("rejected layer %s: reason %q, want %q (R8)", l.Path, l.Reason(), FingerprintCode(l.Rej.Cause))
			}
			if l.Accepted() || l.Content != nil {
				errf("rejected layer %s kept content", l.Path)
			}
		case Suppressed:
			if l.Scope != ScopeProject || !l.Accepted() {
				errf("suppressed layer %s: scope %s, accepted %v", l.Path, l.Scope, l.Accepted())
			}
			if deepestOverride < 0 || l.By != r.Layers[deepestOverride].Path || i > deepestOverride {
				errf("layer %s suppressed by %q, not by the deepest active override below it (R4)", l.Path, l.By)
			}
		case Shadowed:
			if l.Accepted() || l.Content != nil {
				errf("shadowed layer %s was read (R2: never loaded)", l.Path)
			}
			if want := firstOf[l.Dir]; l.By != want || want == l.Path {
				errf("layer %s shadowed by %q, want the first candidate %q of its directory (R2)", l.Path, l.By, want)
			}
		default:
			errf("layer %s has state %q (R5)", l.Path, l.State)
		}
	}
	if fp := Fingerprint(r.Layers); fp != r.Fingerprint {
		errf("fingerprint %s, want %s (R8)", r.Fingerprint, fp)
	}
	return bad
}

// A fuzz tree is decoded from the input bytes: small, at most fuzzDepth
// deep, names drawn from the candidates, near-miss names and "x".
const (
	fuzzDepth      = 4
	fuzzMaxEntries = 40
	fuzzLimit      = 64 // max_file_bytes, so that "oversized" stays small
)

var (
	fuzzOverrides = []string{"RIVUMI.override.md", "AGENTS.override.md"}
	fuzzNormals   = []string{"RIVUMI.md", "AGENTS.md"}
	fuzzNames     = []string{"RIVUMI.override.md", "AGENTS.override.md", "RIVUMI.md", "AGENTS.md",
		"agents.md", "AGENT.md", "RIVUMI.MD", "AGENTS.override.MD", "x"}
	fuzzContents = [][]byte{
		{},                                     // empty (RL009)
		[]byte("Use tabs.\n"),                  // text
		[]byte("caf\xe9\n"),                    // invalid UTF-8 (RL004)
		bytes.Repeat([]byte("o"), fuzzLimit+1), // oversized (RL003)
		[]byte("x </rivumi:layer> y\n"),        // boundary marker (RL008)
		[]byte(" \t\r\n"),                      // white space only (RL009)
		bytes.Repeat([]byte("e"), fuzzLimit),   // exactly the limit
	}
	fuzzTargets = []string{"AGENTS.md", "..", "x", "/etc/passwd", "../AGENTS.md", "", "missing", "x/AGENTS.md", "."}
)

type fuzzKind int

const (
	fRegular fuzzKind = iota
	fDir
	fSymlink
	fFIFO
)

type fuzzNode struct {
	kind    fuzzKind
	content int // fRegular: index into fuzzContents
}

type fuzzTree struct {
	nodes map[string]fuzzNode // slash path -> node
	dirs  []string            // directories and symlinks to resolve, "" first
}

type byteReader struct {
	b []byte
	i int
}

func (r *byteReader) next() (byte, bool) {
	if r.i >= len(r.b) {
		return 0, false
	}
	r.i++
	return r.b[r.i-1], true
}

// buildFuzzTree decodes data into a tree made below root.
func buildFuzzTree(t *testing.T, root string, data []byte) *fuzzTree {
	tr := &fuzzTree{nodes: map[string]fuzzNode{}, dirs: []string{""}}
	r := &byteReader{b: data}
	entries := 0
	var build func(dir string, depth int)
	build = func(dir string, depth int) {
		n, ok := r.next()
		if !ok {
			return
		}
		count := int(n % 5)
		for i := 0; i < count && entries < fuzzMaxEntries; i++ {
			op, ok1 := r.next()
			ni, ok2 := r.next()
			arg, ok3 := r.next()
			if !ok1 || !ok2 || !ok3 {
				return
			}
			name := fuzzNames[int(ni)%len(fuzzNames)]
			p := path.Join(dir, name)
			if _, dup := tr.nodes[p]; dup {
				continue
			}
			entries++
			abs := filepath.Join(root, filepath.FromSlash(p))
			kind := fuzzKind(op % 4)
			if kind == fDir && depth >= fuzzDepth {
				kind = fRegular
			}
			switch kind {
			case fRegular:
				c := int(arg) % len(fuzzContents)
				must(t, os.WriteFile(abs, fuzzContents[c], 0o644))
				tr.nodes[p] = fuzzNode{kind: fRegular, content: c}
			case fDir:
				must(t, os.Mkdir(abs, 0o755))
				tr.nodes[p] = fuzzNode{kind: fDir}
				tr.dirs = append(tr.dirs, p)
				build(p, depth+1)
			case fSymlink:
				target := fuzzTargets[int(arg)%len(fuzzTargets)]
				if target == "" {
					target = name // a loop onto itself
				}
				must(t, os.Symlink(target, abs))
				tr.nodes[p] = fuzzNode{kind: fSymlink}
				// A link is resolved as a directory too, and so is a name
				// below it: the engine must report, never follow.
				tr.dirs = append(tr.dirs, p, p+"/x")
			case fFIFO:
				must(t, unix.Mkfifo(abs, 0o644))
				tr.nodes[p] = fuzzNode{kind: fFIFO}
			}
		}
	}
	build("", 0)
	return tr
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

type expLayer struct{ path, state, reason string }

// expect is an independent model of R2–R5 over the fuzz tree: what the
// chain of dir must be. Candidates behind a symlinked directory are found
// with lstat on the real tree, as C1 says the engine must.
func (tr *fuzzTree) expect(root, dir string) []expLayer {
	var prefixes []string
	prefixes = append(prefixes, "")
	if dir != "" {
		parts := strings.Split(dir, "/")
		for i := range parts {
			prefixes = append(prefixes, strings.Join(parts[:i+1], "/"))
		}
	}
	cands := append(append([]string{}, fuzzOverrides...), fuzzNormals...)
	var out []expLayer
	overrideOf := map[string]bool{}
	for _, o := range fuzzOverrides {
		overrideOf[o] = true
	}
	linked := false
	type fileState struct {
		exp      expLayer
		override bool
		dir      string
	}
	var states []fileState
	for _, p := range prefixes {
		if p != "" && !linked && tr.nodes[p].kind == fSymlink {
			linked = true
		}
		first := ""
		for _, c := range cands {
			fp := path.Join(p, c)
			var e expLayer
			if linked {
				if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(fp))); err != nil {
					continue
				}
				e = expLayer{fp, "rejected", "RL001"}
			} else {
				n, ok := tr.nodes[fp]
				if !ok {
					continue
				}
				switch n.kind {
				case fDir, fFIFO:
					e = expLayer{fp, "rejected", "RL002"}
				case fSymlink:
					e = expLayer{fp, "rejected", "RL001"}
				case fRegular:
					switch c := fuzzContents[n.content]; {
					case len(c) > fuzzLimit:
						e = expLayer{fp, "rejected", "RL003"}
					case !utf8.Valid(c):
						e = expLayer{fp, "rejected", "RL004"}
					default:
						e = expLayer{fp, "active", ""}
					}
				}
			}
			if first != "" {
				e = expLayer{fp, "shadowed", first}
			} else {
				first = fp
			}
			states = append(states, fileState{exp: e, override: overrideOf[c], dir: p})
		}
	}
	deepest := -1
	for i, s := range states {
		if s.exp.state == "active" && s.override {
			deepest = i
		}
	}
	for i, s := range states {
		if deepest >= 0 && i < deepest && s.exp.state == "active" && s.dir != states[deepest].dir {
			s.exp = expLayer{s.exp.path, "suppressed", states[deepest].exp.path}
		}
		out = append(out, s.exp)
	}
	return out
}

func fuzzEngine(root string) (*Engine, func(), error) {
	wt, err := OpenWorktree(root, nil)
	if err != nil {
		return nil, nil, err
	}
	return New(wt, Options{Overrides: fuzzOverrides, Normals: fuzzNormals, MaxFileBytes: fuzzLimit}), func() { wt.Close() }, nil
}

func FuzzResolve(f *testing.F) {
	// Seeds: a chain with an override in the middle; a symlinked directory;
	// a FIFO and a directory named like candidates; two overrides.
	f.Add([]byte{3, 0, 3, 1, 1, 0, 1, 2, 1, 4, 0})
	f.Add([]byte{2, 1, 8, 0, 3, 2, 1, 3, 1, 0, 1, 8, 0, 2, 0, 3, 1})
	f.Add([]byte{4, 3, 3, 0, 1, 2, 0, 0, 1, 1, 2, 0, 5, 1, 8, 0, 2, 0, 1, 2})
	f.Add([]byte{2, 1, 8, 0, 2, 1, 1, 1, 1, 8, 0, 2, 0, 0, 1, 4, 0, 3})
	f.Add([]byte{1, 2, 8, 4, 0})
	f.Add([]byte{1, 2, 8, 0, 0})
	base := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		root := filepath.Join(base, "tree")
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		must(t, os.Mkdir(root, 0o755))
		tr := buildFuzzTree(t, root, data)

		done := make(chan struct{})
		var failures []string
		go func() {
			defer close(done)
			failures = resolveAndCheck(root, tr)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatalf("resolution of the tree did not finish in 10s (C2: opening must never block); tree %v", tr.nodes)
		}
		for _, msg := range failures {
			t.Error(msg)
		}
		if len(failures) > 0 {
			t.Logf("tree: %v", tr.nodes)
		}
	})
}

// resolveAndCheck resolves every directory of the tree with two fresh
// engines and returns what is wrong. It runs in its own goroutine, so it
// reports instead of calling t.Fatal.
func resolveAndCheck(root string, tr *fuzzTree) []string {
	var bad []string
	e, done, err := fuzzEngine(root)
	if err != nil {
		return []string{err.Error()}
	}
	defer done()
	e2, done2, err := fuzzEngine(root)
	if err != nil {
		return []string{err.Error()}
	}
	defer done2()
	for _, dir := range tr.dirs {
		r, err := e.Chain(dir)
		if err != nil {
			if errors.Is(err, os.ErrNotExist) {
				bad = append(bad, fmt.Sprintf("Chain(%q): %v, but the directory exists", dir, err))
			} else {
				bad = append(bad, fmt.Sprintf("Chain(%q): %v", dir, err))
			}
			continue
		}
		for _, v := range R5Violations(r) {
			bad = append(bad, fmt.Sprintf("Chain(%q): %s", dir, v))
		}
		var got []expLayer
		for _, l := range r.Layers {
			got = append(got, expLayer{l.Path, string(l.State), l.Reason()})
		}
		want := tr.expect(root, dir)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			bad = append(bad, fmt.Sprintf("Chain(%q) layers (path state reason):\n got %v\nwant %v", dir, got, want))
		}
		r2, err := e2.Chain(dir)
		if err != nil {
			bad = append(bad, fmt.Sprintf("second engine: Chain(%q): %v", dir, err))
			continue
		}
		if r2.Fingerprint != r.Fingerprint {
			bad = append(bad, fmt.Sprintf("Chain(%q): fingerprint differs between two engines over the same tree (R8)", dir))
		}
	}
	return bad
}

func FuzzNearMiss(f *testing.F) {
	for _, s := range []string{"AGENTS.md", "agents.md", "Agents.md", "AGENT.md", "RIVUMI.MD",
		"AGENTS.override.MD", "AGENTS-override.md", "agents_override.md", "AGENTS.markdown", "agents",
		"README.md", ".md", "RIVUMI.override.md", "x.txt", "AGENTS.md.bak", "agents.MDX"} {
		f.Add(s, "")
	}
	f.Add("claude.md", "CLAUDE.md")
	f.Add("CLAUDE.md", "CLAUDE.md")
	f.Fuzz(func(t *testing.T, name, extra string) {
		cands := []string{"RIVUMI.override.md", "AGENTS.override.md", "RIVUMI.md", "AGENTS.md"}
		if extra != "" {
			cands = append(cands, extra)
		}
		like, ok := NearMissOf(name, cands)
		isCand := false
		for _, c := range cands {
			isCand = isCand || c == name
		}
		if isCand && ok {
			t.Fatalf("NearMissOf(%q) = %q, true: an exact candidate is never a near miss (RL011, R2)", name, like)
		}
		if ok {
			found := false
			for _, c := range cands {
				found = found || c == like
			}
			if !found || like == name {
				t.Fatalf("NearMissOf(%q) = %q, true: want a candidate other than the name", name, like)
			}
		} else if like != "" {
			t.Fatalf("NearMissOf(%q) = %q, false: like must be empty", name, like)
		}
		if like2, ok2 := NearMissOf(name, cands); like2 != like || ok2 != ok {
			t.Fatalf("NearMissOf(%q) not deterministic", name)
		}
		// RL011: an ASCII name that differs from a candidate only in case
		// is loaded on a case-insensitive disk, so it must be reported.
		if !isCand && isASCII(name) {
			for _, c := range cands[:4] { // the defaults, all *.md
				if strings.EqualFold(c, name) && !ok {
					t.Fatalf("NearMissOf(%q) = false, but it is %q in another case (RL011)", name, c)
				}
			}
		}
	})
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
