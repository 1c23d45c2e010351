package resolve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// memSource is an in-memory Source for engine tests; errs injects read errors.
type memSource struct {
	files map[string]string // path -> content; "dir/" keys make empty directories
	kinds map[string]Kind   // overrides the kind of a path
	errs  map[string]error
	reads map[string]int
}

func (m *memSource) Name() string { return "mem" }

func (m *memSource) kind(p string) Kind {
	if k, ok := m.kinds[p]; ok {
		return k
	}
	if _, ok := m.files[p]; ok {
		return Regular
	}
	for k := range m.files {
		if strings.HasPrefix(k, p+"/") {
			return Dir
		}
	}
	return Missing
}

func (m *memSource) List(dir string) ([]Entry, error) {
	if dir != "" && m.kind(dir) != Dir {
		return nil, fs.ErrNotExist
	}
	seen := map[string]bool{}
	var out []Entry
	prefix := ""
	if dir != "" {
		prefix = dir + "/"
	}
	for k := range m.files {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(k, prefix), "/")
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, Entry{Name: name, Kind: m.kind(path.Join(dir, name)), Size: -1})
	}
	return out, nil
}

func (m *memSource) Lstat(p string) (Entry, error) {
	return Entry{Name: path.Base(p), Kind: m.kind(p)}, nil
}

func (m *memSource) Read(p string, limit int64) ([]byte, Kind, int64, error) {
	if m.reads == nil {
		m.reads = map[string]int{}
	}
	m.reads[p]++
	if err := m.errs[p]; err != nil {
		return nil, Regular, -1, err
	}
	if k := m.kind(p); k != Regular {
		return nil, k, -1, nil
	}
	b := []byte(m.files[p])
	if int64(len(b)) > limit {
		return nil, Regular, int64(len(b)), nil
	}
	return b, Regular, int64(len(b)), nil
}

func (m *memSource) LinkTarget(p string) (string, error) { return "", nil }

func newMem(files map[string]string) *memSource { return &memSource{files: files} }

var defaultOpts = Options{
	Overrides:    []string{"RIVUMI.override.md", "AGENTS.override.md"},
	Normals:      []string{"RIVUMI.md", "AGENTS.md"},
	MaxFileBytes: 100,
}

func states(r *Resolution) string {
	var parts []string
	for _, l := range r.Layers {
		s := l.Path + "=" + string(l.State)
		if reason := l.Reason(); reason != "" {
			s += "(" + reason + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

func chain(t *testing.T, src Source, opt Options, dir string) *Resolution {
	t.Helper()
	r, err := New(src, opt).Chain(dir)
	if err != nil {
		t.Fatalf("Chain(%q): %v", dir, err)
	}
	return r
}

// R3, R4: an override in the middle suppresses the layers above it, not
// those below; R2: its sibling is shadowed.
func TestOverrideInTheMiddle(t *testing.T) {
	src := newMem(map[string]string{
		"AGENTS.md":            "root",
		"a/AGENTS.override.md": "over",
		"a/AGENTS.md":          "sibling",
		"a/b/RIVUMI.md":        "deeper",
	})
	got := states(chain(t, src, defaultOpts, "a/b"))
	want := "AGENTS.md=suppressed(a/AGENTS.override.md) a/AGENTS.override.md=active a/AGENTS.md=shadowed(a/AGENTS.override.md) a/b/RIVUMI.md=active"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if src.reads["a/AGENTS.md"] != 0 {
		t.Errorf("shadowed file was read %d times (R2: never loaded)", src.reads["a/AGENTS.md"])
	}
}

// R4: a deeper override suppresses everything above it, earlier overrides
// included; the user layer is never suppressed.
func TestTwoOverridesAndUserLayer(t *testing.T) {
	src := newMem(map[string]string{
		"AGENTS.md":                "root",
		"a/RIVUMI.override.md":     "first",
		"a/b/AGENTS.md":            "mid",
		"a/b/c/AGENTS.override.md": "second",
	})
	e := New(src, defaultOpts)
	e.user = &File{Path: "~/.rivumi/RIVUMI.md", Scope: ScopeUser, read: true, Content: []byte("u")}
	r, err := e.Chain("a/b/c")
	if err != nil {
		t.Fatal(err)
	}
	want := "~/.rivumi/RIVUMI.md=active AGENTS.md=suppressed(a/b/c/AGENTS.override.md) a/RIVUMI.override.md=suppressed(a/b/c/AGENTS.override.md) a/b/AGENTS.md=suppressed(a/b/c/AGENTS.override.md) a/b/c/AGENTS.override.md=active"
	if got := states(r); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// R4, C4: a rejected override overrides nothing; R2: no fall-back to its sibling.
func TestRejectedOverride(t *testing.T) {
	src := newMem(map[string]string{
		"AGENTS.md":            "root",
		"a/AGENTS.override.md": "bad \xff byte",
		"a/AGENTS.md":          "sibling",
	})
	want := "AGENTS.md=active a/AGENTS.override.md=rejected(RL004) a/AGENTS.md=shadowed(a/AGENTS.override.md)"
	if got := states(chain(t, src, defaultOpts, "a")); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// C5: an I/O error rejects the layer with the error text (RL012) and never
// aborts the run; the rest of the chain resolves.
func TestReadErrorRejectsLayer(t *testing.T) {
	src := newMem(map[string]string{"AGENTS.md": "root", "a/AGENTS.md": "x", "a/b/AGENTS.md": "deep"})
	src.errs = map[string]error{"a/AGENTS.md": errors.New("read: input/output error")}
	r := chain(t, src, defaultOpts, "a/b")
	want := "AGENTS.md=active a/AGENTS.md=rejected(RL012) a/b/AGENTS.md=active"
	if got := states(r); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if reason := r.Layers[1].Rej.Reason; !strings.Contains(reason, "input/output error") {
		t.Errorf("reason %q lacks the error text", reason)
	}
}

// C2, C3: kinds and sizes reject with their rule ids.
func TestKindsAndSize(t *testing.T) {
	src := newMem(map[string]string{
		"a/AGENTS.md/x": "dir named AGENTS.md",
		"b/AGENTS.md":   strings.Repeat("x", 101),
		"c/AGENTS.md":   "fifo",
		"d/AGENTS.md":   "link",
		"e/AGENTS.md":   "sub",
	})
	src.kinds = map[string]Kind{"c/AGENTS.md": Special, "d/AGENTS.md": Symlink, "e/AGENTS.md": Submodule}
	for dir, cause := range map[string]Cause{"a": CauseNotRegular, "b": CauseOversized, "c": CauseNotRegular, "d": CauseSymlink, "e": CauseNotRegular} {
		r := chain(t, src, defaultOpts, dir)
		if len(r.Layers) != 1 || r.Layers[0].State != Rejected || r.Layers[0].Rej.Cause != cause {
			t.Errorf("%s: %s, want rejected(%s)", dir, states(r), cause)
		}
	}
	if src.reads["d/AGENTS.md"] != 0 || src.reads["c/AGENTS.md"] != 0 {
		t.Errorf("a link or FIFO was opened: %v", src.reads)
	}
}

// R7: each file is read at most once per run, however many chains use it.
func TestReadOnce(t *testing.T) {
	src := newMem(map[string]string{"AGENTS.md": "r", "a/x": "", "a/b/x": "", "c/x": ""})
	e := New(src, defaultOpts)
	for _, d := range []string{"", "a", "a/b", "c", "a/b"} {
		if _, err := e.Chain(d); err != nil {
			t.Fatal(err)
		}
	}
	if n := src.reads["AGENTS.md"]; n != 1 {
		t.Errorf("AGENTS.md read %d times, want 1", n)
	}
}

// R7: a directory that does not exist is reported as such, for callers to skip.
func TestMissingDirectory(t *testing.T) {
	_, err := New(newMem(map[string]string{"AGENTS.md": "r"}), defaultOpts).Chain("gone/deeper")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err = %v, want fs.ErrNotExist", err)
	}
}

// R8: the fingerprint depends on content and states, not on error texts,
// and is the same for the same content read twice.
func TestFingerprint(t *testing.T) {
	a := newMem(map[string]string{"AGENTS.md": "same", "x/AGENTS.md": "bad"})
	b := newMem(map[string]string{"AGENTS.md": "same", "x/AGENTS.md": "bad"})
	a.errs = map[string]error{"x/AGENTS.md": errors.New("one error text")}
	b.errs = map[string]error{"x/AGENTS.md": errors.New("another error text")}
	fa, fb := chain(t, a, defaultOpts, "x").Fingerprint, chain(t, b, defaultOpts, "x").Fingerprint
	if fa != fb {
		t.Errorf("error text changed the fingerprint: %s vs %s", fa, fb)
	}
	if !strings.HasPrefix(fa, FingerprintPrefix) || len(fa) != len(FingerprintPrefix)+64 {
		t.Errorf("fingerprint %q has the wrong form", fa)
	}
	c := newMem(map[string]string{"AGENTS.md": "changed", "x/AGENTS.md": "bad"})
	c.errs = a.errs
	if chain(t, c, defaultOpts, "x").Fingerprint == fa {
		t.Error("a content change kept the fingerprint")
	}
}

// R2: near-miss names are listed, exact candidates and directories are not.
func TestNearMisses(t *testing.T) {
	src := newMem(map[string]string{"agents.md": "", "AGENT.md": "", "RIVUMI.MD": "", "AGENTS.override.MD": "", "AGENTS.md": "ok", "agents/x.go": ""})
	info, err := New(src, defaultOpts).Dir("")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, nm := range info.NearMisses {
		got = append(got, nm.Path+"~"+nm.Like)
	}
	want := map[string]bool{"agents.md~AGENTS.md": true, "AGENT.md~AGENTS.md": true, "RIVUMI.MD~RIVUMI.md": true, "AGENTS.override.MD~AGENTS.override.md": true}
	if len(got) != len(want) {
		t.Fatalf("near misses %v, want %v", got, want)
	}
	for _, g := range got {
		if !want[g] {
			t.Errorf("unexpected near miss %s", g)
		}
	}
}

// WithAncestors (R2: a chain needs every directory from the root down)
// lists each directory and its ancestors once, the root last of its line.
func TestWithAncestors(t *testing.T) {
	got := WithAncestors([]string{"a/b/c", "a/d", "", "x"})
	want := []string{"a/b/c", "a/b", "a", "", "a/d", "x"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("WithAncestors = %q, want %q", got, want)
	}
}

// R7: Reserve sizes the memo, it does not empty it: a chain resolved
// before is not resolved again (no second read), and a worktree's listing
// kept before Reserve is still served once from memory.
func TestReserveKeepsWhatIsThereR7(t *testing.T) {
	src := newMem(map[string]string{"AGENTS.md": "r", "a/x": "", "a/b/AGENTS.md": "s"})
	e := New(src, defaultOpts)
	before, err := e.Chain("a/b")
	if err != nil {
		t.Fatal(err)
	}
	e.Reserve(100)
	after, err := e.Chain("a/b")
	if err != nil {
		t.Fatal(err)
	}
	if before != after || src.reads["AGENTS.md"] != 1 || src.reads["a/b/AGENTS.md"] != 1 {
		t.Errorf("after Reserve: chain rebuilt (%v) or files read again (%v)", before != after, src.reads)
	}

	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.ListKeep(""); err != nil {
		t.Fatal(err)
	}
	w.Reserve(100)
	if err := os.Remove(filepath.Join(root, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	first, err := w.List("")
	if err != nil {
		t.Fatal(err)
	}
	second, err := w.List("")
	if err != nil {
		t.Fatal(err)
	}
	if len(first) != 1 || len(second) != 0 {
		t.Errorf("List after Reserve = %v then %v; want the kept listing once, then the disk's", first, second)
	}
}
