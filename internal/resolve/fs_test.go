//go:build unix

package resolve_test

// Tests of the engine over the worktree source with real files made at test
// time: the hostile inputs of §10 and the read constraints C1–C5. This is
// the external test package because it uses repo.ScanIndexOf (repo imports
// resolve); the invariant checker R5Violations comes from fuzz_test.go.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/report"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// tree writes files below a new temporary root. A value starting with "->"
// makes a symbolic link to the rest; "/" at the end of a key makes a
// directory.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, files)
	return root
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			mustT(t, os.MkdirAll(abs, 0o755))
			continue
		}
		mustT(t, os.MkdirAll(filepath.Dir(abs), 0o755))
		if target, ok := strings.CutPrefix(content, "->"); ok {
			mustT(t, os.Symlink(target, abs))
			continue
		}
		mustT(t, os.WriteFile(abs, []byte(content), 0o644))
	}
}

func mustT(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func defaultOptions() resolve.Options {
	c := config.Default()
	return resolve.Options{Overrides: c.Filenames.Override, Normals: c.Filenames.Normal, MaxFileBytes: c.Limits.MaxFileBytes}
}

func engine(t *testing.T, root string, recorded map[string]resolve.Kind, opt resolve.Options) *resolve.Engine {
	t.Helper()
	wt, err := resolve.OpenWorktree(root, recorded)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wt.Close() })
	return resolve.New(wt, opt)
}

// chain resolves dir within 10 s (C2: nothing may block), and checks the
// R4/R5 invariants of the result.
func chain(t *testing.T, e *resolve.Engine, dir string) *resolve.Resolution {
	t.Helper()
	type result struct {
		r   *resolve.Resolution
		err error
	}
	ch := make(chan result, 1)
	go func() {
		r, err := e.Chain(dir)
		ch <- result{r, err}
	}()
	select {
	case res := <-ch:
		if res.err != nil {
			t.Fatalf("Chain(%q): %v", dir, res.err)
		}
		for _, v := range resolve.R5Violations(res.r) {
			t.Errorf("Chain(%q): %s", dir, v)
		}
		return res.r
	case <-time.After(10 * time.Second):
		t.Fatalf("Chain(%q) did not return in 10s: opening must never block (C2)", dir)
		return nil
	}
}

func layer(t *testing.T, r *resolve.Resolution, p string) resolve.Layer {
	t.Helper()
	for _, l := range r.Layers {
		if l.Path == p {
			return l
		}
	}
	var have []string
	for _, l := range r.Layers {
		have = append(have, l.Path+"="+string(l.State))
	}
	t.Fatalf("chain of %q has no layer %s; have %v", r.Dir, p, have)
	return resolve.Layer{}
}

func wantRejected(t *testing.T, l resolve.Layer, rule string) {
	t.Helper()
	if l.State != resolve.Rejected || l.Rej == nil || lint.RejectionRule(l.Rej.Cause) != rule {
		t.Fatalf("layer %s: state %s rejection %+v, want rejected %s", l.Path, l.State, l.Rej, rule)
	}
	if l.Accepted() || l.Content != nil {
		t.Fatalf("layer %s: rejected %s but holds content %q", l.Path, rule, l.Content)
	}
}

// outputs runs the rules and the text and JSON reports over the resolutions.
func outputs(t *testing.T, rs ...*resolve.Resolution) (*lint.Result, string) {
	t.Helper()
	res := lint.Check(lint.Inputs{Chains: rs}, config.Default())
	var b bytes.Buffer
	for _, w := range []report.Writer{report.Text, report.JSON} {
		if err := w(&b, res, report.Options{ToolVersion: "test"}); err != nil {
			t.Fatal(err)
		}
	}
	return res, b.String()
}

// noLeak asserts that secret appears in no field of the resolutions (every
// string and byte slice reachable from them, unexported fields included)
// and in no report output (C1: nothing behind a link is read).
func noLeak(t *testing.T, secret string, rs ...*resolve.Resolution) {
	t.Helper()
	for _, r := range rs {
		if where := findBytes(reflect.ValueOf(r), []byte(secret), map[uintptr]bool{}, "Resolution"); where != "" {
			t.Errorf("secret %q found in %s (C1: never read behind a link)", secret, where)
		}
	}
	_, out := outputs(t, rs...)
	if strings.Contains(out, secret) {
		t.Errorf("secret %q appears in the text/JSON output (C1)", secret)
	}
}

func findBytes(v reflect.Value, secret []byte, seen map[uintptr]bool, where string) string {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return ""
		}
		seen[v.Pointer()] = true
		return findBytes(v.Elem(), secret, seen, where)
	case reflect.Interface:
		if v.IsNil() {
			return ""
		}
		return findBytes(v.Elem(), secret, seen, where)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if w := findBytes(v.Field(i), secret, seen, where+"."+v.Type().Field(i).Name); w != "" {
				return w
			}
		}
	case reflect.String:
		if strings.Contains(v.String(), string(secret)) {
			return where
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, v.Len())
			for i := range b {
				b[i] = byte(v.Index(i).Uint())
			}
			if bytes.Contains(b, secret) {
				return where
			}
			return ""
		}
		for i := 0; i < v.Len(); i++ {
			if w := findBytes(v.Index(i), secret, seen, fmt.Sprintf("%s[%d]", where, i)); w != "" {
				return w
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if w := findBytes(it.Key(), secret, seen, where+"{key}"); w != "" {
				return w
			}
			if w := findBytes(it.Value(), secret, seen, fmt.Sprintf("%s[%v]", where, it.Key())); w != "" {
				return w
			}
		}
	}
	return ""
}

func TestSymlinkToFileOutsideRepo(t *testing.T) {
	// C1, RL001: the link is rejected and its target named; the target is
	// never opened, its content appears nowhere.
	const secret = "SECRET-4f1d9a-outside-the-repo"
	base := t.TempDir()
	outside := filepath.Join(base, "outside", "notes.md")
	writeTree(t, base, map[string]string{
		"outside/notes.md":     secret + "\n",
		"repo/AGENTS.md":       "->../outside/notes.md",
		"repo/sub/RIVUMI.md":   "->" + outside,
		"repo/sub/AGENTS.md":   "shadowed, never read\n",
		"repo/other/AGENTS.md": "fine\n",
	})
	root := filepath.Join(base, "repo")
	stop := watchOpens(t, outside, filepath.Dir(outside))
	e := engine(t, root, nil, defaultOptions())
	r0 := chain(t, e, "")
	rs := chain(t, e, "sub")
	ro := chain(t, e, "other")
	if opened := stop(); len(opened) > 0 {
		t.Fatalf("C1: the link target was opened: %v", opened)
	}
	l := layer(t, r0, "AGENTS.md")
	wantRejected(t, l, "RL001")
	if l.Rej.Target != "../outside/notes.md" || !strings.Contains(l.Rej.Reason, "../outside/notes.md") {
		t.Errorf("RL001 must say where the link points: target %q, reason %q", l.Rej.Target, l.Rej.Reason)
	}
	wantRejected(t, layer(t, rs, "sub/RIVUMI.md"), "RL001")
	if got := layer(t, rs, "sub/RIVUMI.md").Rej.Target; got != outside {
		t.Errorf("target %q, want %q", got, outside)
	}
	if sh := layer(t, rs, "sub/AGENTS.md"); sh.State != resolve.Shadowed || sh.By != "sub/RIVUMI.md" {
		t.Errorf("R2: sub/AGENTS.md is %s by %q, want shadowed by sub/RIVUMI.md (no fall-back)", sh.State, sh.By)
	}
	if len(r0.Active()) != 0 {
		t.Errorf("the root contributes no layer (no fall-back), got %d active", len(r0.Active()))
	}
	if got := len(ro.Active()); got != 1 {
		t.Errorf("other has %d active layers, want 1", got)
	}
	noLeak(t, secret, r0, rs, ro)
	res, _ := outputs(t, r0, rs)
	if n := countRule(res, "RL001"); n != 2 {
		t.Errorf("%d RL001 findings, want 2: %+v", n, res.Findings)
	}
}

func TestSymlinkToEtcPasswd(t *testing.T) {
	// §10 hostile input: a link to /etc/passwd is RL001, and none of the
	// file's text reaches the engine or the output (C1).
	passwd, err := os.ReadFile("/etc/passwd")
	if err != nil || len(passwd) == 0 {
		t.Fatalf("this test needs a readable /etc/passwd to compare against: %v", err)
	}
	firstLine, _, _ := strings.Cut(string(passwd), "\n")
	root := tree(t, map[string]string{"AGENTS.md": "->/etc/passwd"})
	e := engine(t, root, nil, defaultOptions())
	r := chain(t, e, "")
	l := layer(t, r, "AGENTS.md")
	wantRejected(t, l, "RL001")
	if l.Rej.Target != "/etc/passwd" {
		t.Errorf("target %q, want /etc/passwd", l.Rej.Target)
	}
	noLeak(t, firstLine, r)
}

func TestSymlinkedDirectoryInChain(t *testing.T) {
	// C1: no directory between the root and the entry may be a link.
	// Candidates behind the link are found by lstat, rejected RL001 and
	// never opened; the directory behind the link is never listed.
	const secret = "SECRET-b7e2-behind-a-directory-link"
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"outside/AGENTS.md":      secret + " top\n",
		"outside/RIVUMI.md":      secret + " rivumi\n",
		"outside/deep/AGENTS.md": secret + " deep\n",
		"repo/AGENTS.md":         "root rules\n",
		"repo/linked":            "->../outside",
	})
	root := filepath.Join(base, "repo")
	out := filepath.Join(base, "outside")
	stop := watchOpens(t, out, filepath.Join(out, "AGENTS.md"), filepath.Join(out, "RIVUMI.md"),
		filepath.Join(out, "deep"), filepath.Join(out, "deep", "AGENTS.md"))
	e := engine(t, root, nil, defaultOptions())
	r1 := chain(t, e, "linked")
	r2 := chain(t, e, "linked/deep")
	if opened := stop(); len(opened) > 0 {
		t.Fatalf("C1: something behind the directory link was opened: %v", opened)
	}
	first := layer(t, r1, "linked/RIVUMI.md")
	wantRejected(t, first, "RL001")
	if first.Rej.Target != "../outside" || !strings.Contains(first.Rej.Reason, "linked") {
		t.Errorf("RL001 must name the linked directory and its target: %+v", first.Rej)
	}
	if l := layer(t, r1, "linked/AGENTS.md"); l.State != resolve.Shadowed || l.Accepted() {
		t.Errorf("linked/AGENTS.md: %s accepted=%v, want shadowed and unread", l.State, l.Accepted())
	}
	wantRejected(t, layer(t, r2, "linked/deep/AGENTS.md"), "RL001")
	if l := layer(t, r2, "AGENTS.md"); l.State != resolve.Active {
		t.Errorf("the root layer above the link is %s, want active", l.State)
	}
	noLeak(t, secret, r1, r2)
}

func TestSymlinkLoops(t *testing.T) {
	// §10: symlink loops give a finding, never a hang or an error.
	root := tree(t, map[string]string{
		"AGENTS.md":           "->AGENTS.md",
		"a":                   "->b",
		"b":                   "->a",
		"self":                "->self",
		"up":                  "->.",
		"ok/RIVUMI.md":        "->../ok/RIVUMI.md",
		"ok/AGENTS.md":        "shadowed\n",
		"plain/AGENTS.md":     "plain\n",
		"plain/x/placeholder": "",
	})
	e := engine(t, root, nil, defaultOptions())
	wantRejected(t, layer(t, chain(t, e, ""), "AGENTS.md"), "RL001")
	for _, d := range []string{"a", "b", "self", "a/x", "ok"} {
		chain(t, e, d)
	}
	wantRejected(t, layer(t, chain(t, e, "ok"), "ok/RIVUMI.md"), "RL001")
	// up -> . : the root's own AGENTS.md seen through the link is RL001 too.
	wantRejected(t, layer(t, chain(t, e, "up"), "up/AGENTS.md"), "RL001")
	if l := layer(t, chain(t, e, "plain/x"), "plain/AGENTS.md"); l.State != resolve.Active {
		t.Errorf("plain/AGENTS.md: %s, want active", l.State)
	}
}

func TestFIFONamedAgents(t *testing.T) {
	// C2, §10: a FIFO named AGENTS.md is RL002 and never blocks: not in the
	// engine, not when read directly, not as the user layer.
	root := tree(t, map[string]string{"sub/": ""})
	fifo := filepath.Join(root, "AGENTS.md")
	mustT(t, unix.Mkfifo(fifo, 0o644))
	mustT(t, unix.Mkfifo(filepath.Join(root, "sub", "user.md"), 0o644))
	opt := defaultOptions()
	opt.User = &resolve.UserFile{Path: filepath.Join(root, "sub", "user.md"), Display: "~/user.md"}
	e := engine(t, root, nil, opt)
	r := chain(t, e, "sub")
	l := layer(t, r, "AGENTS.md")
	wantRejected(t, l, "RL002")
	if !strings.Contains(l.Rej.Reason, "FIFO") {
		t.Errorf("reason %q should name the FIFO", l.Rej.Reason)
	}
	u := layer(t, r, "~/user.md")
	wantRejected(t, u, "RL002")
	if u.Scope != resolve.ScopeUser {
		t.Errorf("user layer scope %q", u.Scope)
	}

	// Read through the source and through ReadFile: the O_NONBLOCK open.
	wt, err := resolve.OpenWorktree(root, nil)
	mustT(t, err)
	defer wt.Close()
	done := make(chan struct{})
	var kind1, kind2 resolve.Kind
	var data1, data2 []byte
	go func() {
		defer close(done)
		data1, kind1, _, _ = wt.Read("AGENTS.md", 32768)
		data2, kind2, _, _ = resolve.ReadFile(fifo, 32768)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO blocked (C2: open with O_NONBLOCK, check the descriptor)")
	}
	if kind1 != resolve.Special || data1 != nil || kind2 != resolve.Special || data2 != nil {
		t.Errorf("FIFO read: kinds %v/%v data %q/%q, want special and no data", kind1, kind2, data1, data2)
	}
}

func TestDirectoryNamedAgents(t *testing.T) {
	// C2 / RL002, R2: the first candidate with an entry is the layer,
	// whatever its type, with no fall-back to a later regular file.
	root := tree(t, map[string]string{
		"AGENTS.md/.keep":   "",
		"a/RIVUMI.md/.keep": "",
		"a/AGENTS.md":       "never loaded\n",
		"b/RIVUMI.md":       "loaded\n",
		"b/AGENTS.md/.keep": "",
	})
	e := engine(t, root, nil, defaultOptions())
	r := chain(t, e, "a")
	l := layer(t, r, "AGENTS.md")
	wantRejected(t, l, "RL002")
	if !strings.Contains(l.Rej.Reason, "directory") {
		t.Errorf("reason %q should say directory", l.Rej.Reason)
	}
	wantRejected(t, layer(t, r, "a/RIVUMI.md"), "RL002")
	if sh := layer(t, r, "a/AGENTS.md"); sh.State != resolve.Shadowed || sh.Accepted() {
		t.Errorf("a/AGENTS.md: %s, want shadowed and unread (R2: no fall-back)", sh.State)
	}
	if len(r.Active()) != 0 {
		t.Errorf("%d active layers, want 0", len(r.Active()))
	}
	rb := chain(t, e, "b")
	if l := layer(t, rb, "b/RIVUMI.md"); l.State != resolve.Active {
		t.Errorf("b/RIVUMI.md %s, want active", l.State)
	}
	if l := layer(t, rb, "b/AGENTS.md"); l.State != resolve.Shadowed {
		t.Errorf("b/AGENTS.md (a directory, second) %s, want shadowed", l.State)
	}
	// The directory named AGENTS.md is itself a directory of the tree.
	chain(t, e, "AGENTS.md")
}

func TestSocketNamedAgents(t *testing.T) {
	// C2 / RL002: a socket is not a regular file.
	root := tree(t, map[string]string{"sub/x": ""})
	p := filepath.Join(root, "sub", "AGENTS.md")
	if len(p) >= 108 {
		t.Fatalf("socket path %s too long for a Unix socket; set TMPDIR to a shorter directory", p)
	}
	l, err := net.Listen("unix", p)
	mustT(t, err)
	defer l.Close()
	e := engine(t, root, nil, defaultOptions())
	la := layer(t, chain(t, e, "sub"), "sub/AGENTS.md")
	wantRejected(t, la, "RL002")
	if !strings.Contains(la.Rej.Reason, "socket") {
		t.Errorf("reason %q should name the socket", la.Rej.Reason)
	}
}

func TestSparse2GiB(t *testing.T) {
	// C3 / RL003, §9: a 2 GiB sparse AGENTS.md is rejected with its size and
	// the limit, and costs no more memory than a small file.
	root := tree(t, map[string]string{"AGENTS.md": ""})
	const size = 2 << 30
	mustT(t, os.Truncate(filepath.Join(root, "AGENTS.md"), size))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	e := engine(t, root, nil, defaultOptions())
	r := chain(t, e, "")
	runtime.ReadMemStats(&after)
	l := layer(t, r, "AGENTS.md")
	wantRejected(t, l, "RL003")
	if l.Rej.Size != size || l.Rej.Limit != 32768 {
		t.Errorf("RL003 size %d limit %d, want %d and 32768", l.Rej.Size, l.Rej.Limit, size)
	}
	if !strings.Contains(l.Rej.Reason, "2147483648") || !strings.Contains(l.Rej.Reason, "32768") {
		t.Errorf("reason %q should give the size and the limit", l.Rej.Reason)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc >= 10<<20 {
		t.Errorf("resolving a 2 GiB file allocated %d bytes, want < 10 MiB (C3)", alloc)
	}
}

func TestSizeLimitBoundary(t *testing.T) {
	// C3: at most max_file_bytes; never read more than max_file_bytes + 1.
	root := tree(t, map[string]string{
		"at/AGENTS.md":   strings.Repeat("a", 100),
		"over/AGENTS.md": strings.Repeat("a", 101),
		"big/AGENTS.md":  strings.Repeat("a", 4<<20),
	})
	opt := defaultOptions()
	opt.MaxFileBytes = 100
	e := engine(t, root, nil, opt)
	if l := layer(t, chain(t, e, "at"), "at/AGENTS.md"); l.State != resolve.Active || len(l.Content) != 100 {
		t.Errorf("a file of exactly the limit: %s, %d bytes; want active, 100", l.State, len(l.Content))
	}
	lo := layer(t, chain(t, e, "over"), "over/AGENTS.md")
	wantRejected(t, lo, "RL003")
	if lo.Rej.Size != 101 || lo.Rej.Limit != 100 {
		t.Errorf("RL003 size %d limit %d, want 101 and 100", lo.Rej.Size, lo.Rej.Limit)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	wantRejected(t, layer(t, chain(t, e, "big"), "big/AGENTS.md"), "RL003")
	runtime.ReadMemStats(&after)
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc >= 1<<20 {
		t.Errorf("rejecting a 4 MiB file with a 100-byte limit allocated %d bytes (C3: read at most limit+1)", alloc)
	}
}

const unreadableEnv = "RIVUMI_RESOLVE_UNREADABLE_ROOT"

func TestUnreadable(t *testing.T) {
	// C5 / RL012: an I/O error rejects the layer with the error text and
	// never aborts the run. Root reads every file whatever its mode, so as
	// root the check runs in a copy of this test binary as user nobody.
	if root := os.Getenv(unreadableEnv); root != "" {
		if os.Geteuid() == 0 {
			t.Fatal("the unreadable check must not run as root")
		}
		checkUnreadable(t, root)
		return
	}
	root, err := os.MkdirTemp("", "rivumi-unreadable")
	mustT(t, err)
	t.Cleanup(func() { os.RemoveAll(root) })
	mustT(t, os.Chmod(root, 0o755))
	writeTree(t, root, map[string]string{
		"AGENTS.md":        "root\n",
		"locked/AGENTS.md": "locked text\n",
		"other/AGENTS.md":  "other\n",
	})
	for _, d := range []string{root, filepath.Join(root, "locked"), filepath.Join(root, "other")} {
		mustT(t, os.Chmod(d, 0o755))
	}
	mustT(t, os.Chmod(filepath.Join(root, "locked", "AGENTS.md"), 0))
	if os.Geteuid() != 0 {
		checkUnreadable(t, root)
		return
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Fatal("setpriv not found: install util-linux (setpriv) to run the unreadable-file test as root")
	}
	exe, err := os.Executable()
	mustT(t, err)
	bindir, err := os.MkdirTemp("", "rivumi-unreadable-bin")
	mustT(t, err)
	t.Cleanup(func() { os.RemoveAll(bindir) })
	mustT(t, os.Chmod(bindir, 0o755))
	bin := filepath.Join(bindir, "resolve.test")
	copyFile(t, exe, bin, 0o755)
	cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--clear-groups",
		bin, "-test.run=^TestUnreadable$", "-test.v", "-test.count=1")
	cmd.Dir = bindir
	cmd.Env = append(os.Environ(), unreadableEnv+"="+root)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestUnreadable") {
		t.Fatalf("unreadable check as nobody failed (%v):\n%s", err, out)
	}
}

func checkUnreadable(t *testing.T, root string) {
	if _, err := os.ReadFile(filepath.Join(root, "locked", "AGENTS.md")); !errors.Is(err, os.ErrPermission) {
		t.Fatalf("the locked file is readable (%v): the test cannot make an unreadable file here", err)
	}
	e := engine(t, root, nil, defaultOptions())
	r := chain(t, e, "locked")
	l := layer(t, r, "locked/AGENTS.md")
	wantRejected(t, l, "RL012")
	if !strings.Contains(l.Rej.Reason, "permission denied") {
		t.Errorf("RL012 reason %q should carry the error text", l.Rej.Reason)
	}
	if la := layer(t, r, "AGENTS.md"); la.State != resolve.Active {
		t.Errorf("root layer %s, want active", la.State)
	}
	if lo := layer(t, chain(t, e, "other"), "other/AGENTS.md"); lo.State != resolve.Active {
		t.Errorf("the run goes on after an I/O error: other/AGENTS.md %s", lo.State)
	}
	res, out := outputs(t, r)
	if countRule(res, "RL012") != 1 || !strings.Contains(out, " RL012 unreadable: ") {
		t.Errorf("want one RL012 finding; got %+v", res.Findings)
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(from)
	mustT(t, err)
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	mustT(t, err)
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	mustT(t, out.Close())
}

func TestLatin1(t *testing.T) {
	// C4 / RL004, §10: Latin-1 text is rejected at the first invalid byte,
	// line:column 1-based (bytes) and offset.
	root := tree(t, map[string]string{"AGENTS.md": "Regeln\nCaf\xe9 au lait\n"})
	l := layer(t, chain(t, engine(t, root, nil, defaultOptions()), ""), "AGENTS.md")
	wantRejected(t, l, "RL004")
	if l.Rej.Pos.Line != 2 || l.Rej.Pos.Column != 4 || l.Rej.Pos.Offset != 10 {
		t.Errorf("position %+v, want line 2 column 4 offset 10", l.Rej.Pos)
	}
	if l.Rej.BOM != "" {
		t.Errorf("BOM %q for a Latin-1 file", l.Rej.BOM)
	}
}

func TestUTF16WithBOM(t *testing.T) {
	// C4: a UTF-16 byte-order mark is named as such, with the fix.
	root := tree(t, map[string]string{
		"le/AGENTS.md": "\xff\xfeR\x00u\x00l\x00e\x00\n\x00",
		"be/AGENTS.md": "\xfe\xff\x00R\x00u\x00l\x00e\x00\n",
		"u8/AGENTS.md": "\xef\xbb\xbfUTF-8 with BOM\n",
	})
	e := engine(t, root, nil, defaultOptions())
	for dir, bom := range map[string]string{"le": "UTF-16LE", "be": "UTF-16BE"} {
		l := layer(t, chain(t, e, dir), dir+"/AGENTS.md")
		wantRejected(t, l, "RL004")
		if l.Rej.BOM != bom || !strings.Contains(l.Rej.Reason, bom) || !strings.Contains(l.Rej.Reason, "UTF-8") {
			t.Errorf("%s: BOM %q reason %q, want %s named with the fix", dir, l.Rej.BOM, l.Rej.Reason, bom)
		}
	}
	if l := layer(t, chain(t, e, "u8"), "u8/AGENTS.md"); l.State != resolve.Active {
		t.Errorf("a UTF-8 BOM is valid UTF-8: %s", l.State)
	}
}

func TestHiddenUnicodeIsLoaded(t *testing.T) {
	// RL010: bidi and zero-width characters are valid UTF-8, so the engine
	// loads the layer (C4 passes) and the rule reports line:column.
	root := tree(t, map[string]string{
		"bidi/AGENTS.md": "ok\nx \u202e y\n",
		"zw/AGENTS.md":   "a\u200bb\n",
	})
	e := engine(t, root, nil, defaultOptions())
	rb, rz := chain(t, e, "bidi"), chain(t, e, "zw")
	for _, r := range []*resolve.Resolution{rb, rz} {
		if l := r.Layers[0]; l.State != resolve.Active {
			t.Errorf("%s: %s, want active", l.Path, l.State)
		}
	}
	res, _ := outputs(t, rb, rz)
	want := map[string][2]int{"bidi/AGENTS.md": {2, 3}, "zw/AGENTS.md": {1, 2}}
	for _, f := range res.Findings {
		if f.Rule != "RL010" {
			continue
		}
		if pos, ok := want[f.Path]; ok && f.Line == pos[0] && f.Column == pos[1] {
			delete(want, f.Path)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing RL010 findings at %v; got %+v", want, res.Findings)
	}
}

func TestEmptyOverride(t *testing.T) {
	// R4 / RL009: an empty override is accepted and still suppresses every
	// project layer above it; the rule makes that an error.
	root := tree(t, map[string]string{
		"AGENTS.md":              "root\n",
		"a/AGENTS.md":            "a\n",
		"a/b/AGENTS.override.md": "",
		"a/b/c/AGENTS.md":        "c\n",
	})
	r := chain(t, engine(t, root, nil, defaultOptions()), "a/b/c")
	for _, p := range []string{"AGENTS.md", "a/AGENTS.md"} {
		if l := layer(t, r, p); l.State != resolve.Suppressed || l.By != "a/b/AGENTS.override.md" {
			t.Errorf("%s: %s by %q, want suppressed by a/b/AGENTS.override.md", p, l.State, l.By)
		}
	}
	if l := layer(t, r, "a/b/AGENTS.override.md"); l.State != resolve.Active || len(l.Content) != 0 {
		t.Errorf("empty override: %s", l.State)
	}
	if l := layer(t, r, "a/b/c/AGENTS.md"); l.State != resolve.Active {
		t.Errorf("the layer below the override is %s, want active", l.State)
	}
	res, _ := outputs(t, r)
	found := false
	for _, f := range res.Findings {
		found = found || (f.Rule == "RL009" && f.Path == "a/b/AGENTS.override.md" && f.Severity == lint.Error)
	}
	if !found {
		t.Errorf("no RL009 error on the empty override: %+v", res.Findings)
	}
}

func TestIndexRecordedSymlink(t *testing.T) {
	// C1: a path Git records as a symlink (mode 120000) is rejected even
	// where the checkout holds a plain file with the target text
	// (core.symlinks=false). The recorded map comes from repo.ScanIndexOf.
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git not found: install git (apt-get install git)")
	}
	root := tree(t, map[string]string{
		"docs/rules.md": "the rules\n",
		"AGENTS.md":     "->docs/rules.md",
		"sub/AGENTS.md": "plain\n",
	})
	env := append(gittest.Env(t), "HOME="+t.TempDir()) // no global ignore file either
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = root
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "init")
	// What a core.symlinks=false checkout holds.
	mustT(t, os.Remove(filepath.Join(root, "AGENTS.md")))
	mustT(t, os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("docs/rules.md"), 0o644))
	if out := git("ls-files", "-s", "AGENTS.md"); !strings.HasPrefix(out, "120000 ") {
		t.Fatalf("index entry %q, want mode 120000", out)
	}
	scan, err := repo.ScanIndexOf(root, false)
	mustT(t, err)
	kinds := scan.Kinds
	if kinds["AGENTS.md"] != resolve.Symlink {
		t.Fatalf("ScanIndexOf: AGENTS.md is %v, want Symlink; map %v", kinds["AGENTS.md"], kinds)
	}
	r := chain(t, engine(t, root, kinds, defaultOptions()), "sub")
	l := layer(t, r, "AGENTS.md")
	wantRejected(t, l, "RL001")
	if !strings.Contains(l.Rej.Reason, "120000") {
		t.Errorf("reason %q should say Git records a symlink", l.Rej.Reason)
	}
	if ls := layer(t, r, "sub/AGENTS.md"); ls.State != resolve.Active {
		t.Errorf("sub/AGENTS.md %s, want active", ls.State)
	}
	// Without the index's word the plain file would pass: the map matters.
	if l := layer(t, chain(t, engine(t, root, nil, defaultOptions()), ""), "AGENTS.md"); l.State != resolve.Active {
		t.Errorf("without recorded kinds the plain file is %s", l.State)
	}
}

func TestUserSymlinkNamesTarget(t *testing.T) {
	// RL001 (§5: "say where the link points, never read it") for the user
	// layer (R3): the rejection names the link target, as it does for
	// project layers.
	base := t.TempDir()
	writeTree(t, base, map[string]string{
		"home/real.md":   "user text\n",
		"home/user.md":   "->real.md",
		"repo/AGENTS.md": "root\n",
	})
	opt := defaultOptions()
	opt.User = &resolve.UserFile{Path: filepath.Join(base, "home", "user.md"), Display: "~/user.md"}
	r := chain(t, engine(t, filepath.Join(base, "repo"), nil, opt), "")
	u := layer(t, r, "~/user.md")
	wantRejected(t, u, "RL001")
	if u.Scope != resolve.ScopeUser {
		t.Errorf("scope %q", u.Scope)
	}
	if u.Rej.Target != "real.md" || !strings.Contains(u.Rej.Reason, "real.md") {
		t.Errorf("user-layer RL001 does not say where the link points: target %q, reason %q", u.Rej.Target, u.Rej.Reason)
	}
}

func TestOverridesOnDisk(t *testing.T) {
	// R4 over the worktree: two overrides (the deeper wins, the earlier one
	// suppressed) and a rejected override (overrides nothing).
	root := tree(t, map[string]string{
		"AGENTS.md":                "root\n",
		"a/AGENTS.override.md":     "a override\n",
		"a/b/AGENTS.md":            "b\n",
		"a/b/c/RIVUMI.override.md": "c override\n",
		"x/AGENTS.md":              "x\n",
		"x/y/AGENTS.override.md":   "bad \xff\n",
	})
	e := engine(t, root, nil, defaultOptions())
	r := chain(t, e, "a/b/c")
	for _, p := range []string{"AGENTS.md", "a/AGENTS.override.md", "a/b/AGENTS.md"} {
		if l := layer(t, r, p); l.State != resolve.Suppressed || l.By != "a/b/c/RIVUMI.override.md" {
			t.Errorf("%s: %s by %q, want suppressed by the deeper override", p, l.State, l.By)
		}
	}
	rb := chain(t, e, "a/b")
	if l := layer(t, rb, "a/b/AGENTS.md"); l.State != resolve.Active {
		t.Errorf("below the first override a/b/AGENTS.md is %s", l.State)
	}
	rx := chain(t, e, "x/y")
	wantRejected(t, layer(t, rx, "x/y/AGENTS.override.md"), "RL004")
	for _, p := range []string{"AGENTS.md", "x/AGENTS.md"} {
		if l := layer(t, rx, p); l.State != resolve.Active {
			t.Errorf("a rejected override overrides nothing: %s is %s", p, l.State)
		}
	}
}

func countRule(res *lint.Result, rule string) int {
	n := 0
	for _, f := range res.Findings {
		if f.Rule == rule {
			n++
		}
	}
	return n
}
