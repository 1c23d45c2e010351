package integration

// TestWindowsUnitTests is the Windows half of issue #27's unit tests: the
// test binary of every package of the module (but this one, which drives
// Linux programs) is built with GOOS=windows and run under Wine in its
// package's directory, and each top-level test is counted as passed, or
// as not run under Wine with its reason. Nothing that did not run counts
// as a pass, and a test that fails for any reason not written down here
// fails the lane. docs/platforms.md has the counts.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
)

// gitMissing are the messages of the tests that need the git binary
// (gittest.Env, the testscripts' setup, the hook tests, an exec of git),
// goMissing of those that run the go command: the Wine prefix has neither
// Git for Windows nor Go.
var (
	gitMissing = []string{
		"the git binary is needed",
		"git not found in PATH",
		`exec: "git": executable file not found`,
	}
	goMissing = []string{`exec: "go": executable file not found`}
)

// wineGap is a gap of Wine 8 that some tests fall into, as the lane's
// probe (winProbe) checks for it: a listed test is excused only while the
// probe shows the gap, so a Wine that closes it makes the test count again.
type wineGap struct {
	probe string // winProbe's key
	why   string
	tests []string // "package Test"
}

var wineGaps = []wineGap{
	{"symlink", "os.Symlink (CreateSymbolicLinkW) reports success and makes no link",
		[]string{"internal/agent/claude TestClaudeHarnessTrees", "internal/agent/claude TestClaudeInexact", "internal/agent/codex TestCodexChain",
			"internal/agent/codex TestCodexNoMarkerIsNoSharing", "internal/agent TestFollow", "internal/fix TestPlanFromFindingData"}},
	{"junction", "mklink /J makes no junction (FSCTL_SET_REPARSE_POINT)",
		[]string{"internal/resolve TestWindowsJunctionIsLink", "internal/resolve TestWindowsJunctionReadFile"}},
	{"unixlink", "a Unix symbolic link shows as the file it points to, not as a reparse point (testdata/demo/symlink/AGENTS.md)",
		[]string{"cmd/rivumi-lint TestDemo", "cmd/rivumi-lint TestDemoAgents", "cmd/rivumi-lint TestDemoTextAt100Columns", "cmd/rivumi-lint TestDemoBaselineIdentitiesB2",
			"cmd/rivumi-lint TestEveryFindingSaysHowToFix", "cmd/rivumi-lint TestDocCommands"}},
}

// windowsKnown are tests that fail on Windows itself, Wine or not, for a
// reason of the test or of the code that the lane found (docs/platforms.md
// keeps the list): package Test → why. They are not passes. None now: the
// one there was, FuzzRel, had an oracle that asked Windows for an absolute
// path Windows cannot spell.
var windowsKnown = map[string]string{}

// cleanupOnly reports whether a failed test's only output is t.TempDir's
// cleanup failing with "Directory is not empty": Wine 8 keeps a deleted
// directory's name while it is delete-pending, so the parent cannot be
// removed yet. Its checks all passed; it is not counted as a pass.
func cleanupOnly(output string) bool {
	seen := false
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "", strings.HasPrefix(line, "=== "), strings.HasPrefix(line, "--- FAIL"):
		case strings.Contains(line, "TempDir RemoveAll cleanup: ") && strings.HasSuffix(line, "Directory is not empty."):
			seen = true
		default:
			return false
		}
	}
	return seen
}

// testVerdict is what became of one top-level test.
type testVerdict struct {
	pkg, name string
	action    string // pass, skip, fail
	output    string
}

func TestWindowsUnitTests(t *testing.T) {
	wine, wenv := wineEnv(t)
	t.Parallel() // beside TestEmulatedPlatforms
	root := moduleRoot(t)
	out := filepath.Join(scratch, "windows-tests")
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	list := run(t, root, os.Environ(), nil, "go", "list", "-f", "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}} {{.Dir}}{{end}}", "./...")
	if list.code != 0 {
		t.Fatalf("go list: %s", list)
	}
	dirs := map[string]string{} // import path → directory
	var pkgs []string
	for _, line := range strings.Split(strings.TrimSpace(list.stdout), "\n") {
		ip, dir, _ := strings.Cut(line, " ")
		if ip == "" || strings.HasSuffix(ip, "/internal/integration") {
			continue
		}
		dirs[ip] = dir
		pkgs = append(pkgs, ip)
	}
	args := []string{"test", "-c", "-o", out + string(filepath.Separator)}
	probe := winProbe(t, wine, wenv)
	if overlay := removeAllOverlay(t, probe["removeall"]); overlay != "" {
		args = append(args, "-overlay", overlay)
	}
	build := exec.Command("go", append(args, pkgs...)...)
	build.Dir = root
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("GOOS=windows go %s: %v\n%s", strings.Join(args, " "), err, msg)
	}

	var mu sync.Mutex
	var verdicts []testVerdict
	work := make(chan string)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ip := range work {
				v, err := runWindowsTests(wine, wenv, root, dirs[ip], ip, filepath.Join(out, filepath.Base(ip)+".test.exe"))
				mu.Lock()
				if err != nil {
					t.Errorf("%s under Wine: %v", ip, err)
				}
				verdicts = append(verdicts, v...)
				mu.Unlock()
			}
		}()
	}
	for _, ip := range pkgs {
		work <- ip
	}
	close(work)
	wg.Wait()

	gaps := map[string]string{} // test → the gap the probe shows
	noLink := ""                // the symlink gap, while the probe shows it
	for _, g := range wineGaps {
		if probe[g.probe] != "ok" {
			for _, k := range g.tests {
				gaps[k] = g.why + " (probe: " + probe[g.probe] + ")"
			}
			if g.probe == "symlink" {
				noLink = g.why + " (agenttest.Tree: " + agenttest.NoLink + ")"
			}
		}
	}
	type row struct{ ran, passed, git, gap, cleanup, known, skipped int }
	rows := map[string]*row{}
	reasons := map[string][]string{} // why not a pass → tests
	for _, v := range verdicts {
		rel := strings.TrimPrefix(strings.TrimPrefix(v.pkg, "github.com/rivumi/rivumi-lint"), "/")
		r := rows[rel]
		if r == nil {
			r = &row{}
			rows[rel] = r
		}
		r.ran++
		key := rel + " " + v.name
		why := ""
		switch {
		case v.action == "pass":
			r.passed++
		case v.action == "skip":
			r.skipped++
			why = "skipped: " + skipReason(v.output)
		case containsAny(v.output, gitMissing):
			r.git++
			why = "needs the git binary (no Git for Windows under Wine)"
		case containsAny(v.output, goMissing):
			r.git++
			why = "needs the go command (none under Wine)"
		case gaps[key] != "":
			r.gap++
			why = "Wine gap: " + gaps[key]
		case noLink != "" && strings.Contains(v.output, agenttest.NoLink):
			// agenttest.Tree saw the gap itself, whatever the test's name.
			r.gap++
			why = "Wine gap: " + noLink
		case cleanupOnly(v.output):
			r.cleanup++
			why = "checks passed, t.TempDir's cleanup failed: Wine keeps a delete-pending directory's name (\"Directory is not empty\")"
		case windowsKnown[key] != "":
			r.known++
			why = "fails on Windows: " + windowsKnown[key]
		default:
			t.Errorf("%s fails under Wine, and it is not a documented gap:\n%s", key, v.output)
			why = "FAILED"
		}
		if why != "" {
			reasons[why] = append(reasons[why], key)
		}
	}
	var names []string
	for n := range rows {
		names = append(names, n)
	}
	sort.Strings(names)
	var table strings.Builder
	var tot row
	fmt.Fprintf(&table, "| package | ran | passed | needs git or go | Wine gap | cleanup only | fails on Windows | skipped |\n|---|---|---|---|---|---|---|---|\n")
	for _, n := range names {
		r := rows[n]
		fmt.Fprintf(&table, "| %s | %d | %d | %d | %d | %d | %d | %d |\n", n, r.ran, r.passed, r.git, r.gap, r.cleanup, r.known, r.skipped)
		tot.ran, tot.passed, tot.git, tot.gap = tot.ran+r.ran, tot.passed+r.passed, tot.git+r.git, tot.gap+r.gap
		tot.cleanup, tot.known, tot.skipped = tot.cleanup+r.cleanup, tot.known+r.known, tot.skipped+r.skipped
	}
	fmt.Fprintf(&table, "| all | %d | %d | %d | %d | %d | %d | %d |\n", tot.ran, tot.passed, tot.git, tot.gap, tot.cleanup, tot.known, tot.skipped)
	var why []string
	for w := range reasons {
		why = append(why, w)
	}
	sort.Strings(why)
	for _, w := range why {
		fmt.Fprintf(&table, "\n%s (%d): %s", w, len(reasons[w]), strings.Join(reasons[w], ", "))
	}
	t.Logf("Windows unit tests under Wine: %d packages, %d top-level tests: %d passed, %d need git or go, %d hit a Wine gap, "+
		"%d failed only in t.TempDir's cleanup, %d fail on Windows (listed), %d skipped\n%s",
		len(pkgs), tot.ran, tot.passed, tot.git, tot.gap, tot.cleanup, tot.known, tot.skipped, table.String())
}

// runWindowsTests runs one package's Windows test binary under Wine in the
// package's directory (as go test does) and returns the verdict of each
// top-level test, read through test2json.
func runWindowsTests(wine string, wenv []string, root, dir, ip, exe string) ([]testVerdict, error) {
	if _, err := os.Stat(exe); err != nil {
		return nil, fmt.Errorf("no test binary: %w", err)
	}
	cmd := exec.Command(wine, exe, "-test.v=test2json", "-test.timeout=5m")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), wenv...)
	f, err := os.CreateTemp(scratch, "wintest")
	if err != nil {
		return nil, err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	// A file, not a pipe: see emuTarget.run.
	cmd.Stdout, cmd.Stderr = f, f
	runErr := cmd.Run()
	raw, err := os.ReadFile(f.Name())
	if err != nil {
		return nil, err
	}
	conv := exec.Command("go", "tool", "test2json", "-p", ip)
	conv.Dir = root
	conv.Stdin = bytes.NewReader(raw)
	events, err := conv.Output()
	if err != nil {
		return nil, fmt.Errorf("go tool test2json: %v", err)
	}
	var order []string
	byName := map[string]*testVerdict{}
	sc := bufio.NewScanner(bytes.NewReader(events))
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var ev struct{ Action, Test, Output string }
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			return nil, fmt.Errorf("test2json: %v", err)
		}
		top, _, _ := strings.Cut(ev.Test, "/")
		if top == "" {
			continue
		}
		v := byName[top]
		if v == nil {
			v = &testVerdict{pkg: ip, name: top}
			byName[top] = v
			order = append(order, top)
		}
		switch ev.Action {
		case "output":
			v.output += ev.Output
		case "pass", "fail", "skip":
			if ev.Test == top {
				v.action = ev.Action
			}
		}
	}
	var out []testVerdict
	failed := false
	for _, n := range order {
		v := byName[n]
		if v.action == "" {
			return nil, fmt.Errorf("%s did not finish (a crash or a timeout): %v\n%s", n, runErr, lastLines(string(raw), 30))
		}
		failed = failed || v.action == "fail"
		out = append(out, *v)
	}
	if runErr != nil && !failed {
		return nil, fmt.Errorf("the test binary failed with no failed test: %v\n%s", runErr, lastLines(string(raw), 30))
	}
	return out, nil
}

// winProbe runs a small Windows program under Wine that tries what the
// gaps are about and returns, for each, "ok" or what went wrong:
// removeall (os.RemoveAll of a directory with a file), symlink (os.Symlink,
// then os.Lstat sees a link), junction (mklink /J, then os.Lstat sees a
// reparse point), unixlink (a link made on the Unix side shows as one).
func winProbe(t *testing.T, wine string, wenv []string) map[string]string {
	t.Helper()
	dir := filepath.Join(scratch, "wine-probe")
	if err := os.MkdirAll(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "unixlink")); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte(winProbeSource), 0o644); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "probe.exe")
	build := exec.Command("go", "build", "-o", exe, src)
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0", "GO111MODULE=off")
	if msg, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the Wine probe: %v\n%s", err, msg)
	}
	probe := emuTarget{name: "windows/amd64", env: wenv, command: func(args ...string) (string, []string) {
		return wine, append([]string{exe}, args...)
	}}
	r := probe.run(t, dir, os.Environ(), nil)
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok {
			out[k] = v
		}
	}
	for _, k := range []string{"removeall", "symlink", "junction", "unixlink"} {
		if out[k] == "" {
			t.Fatalf("the Wine probe said nothing about %s: %s", k, r)
		}
	}
	t.Logf("Wine probe: %v", out)
	return out
}

// winProbeSource is the probe winProbe runs (in the probe's directory).
const winProbeSource = `package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

func main() {
	d, err := os.MkdirTemp("", "probe")
	if err == nil {
		err = os.WriteFile(filepath.Join(d, "f"), nil, 0o644)
	}
	if err == nil {
		err = os.RemoveAll(d)
	}
	fmt.Printf("removeall=%s\n", okOr(err))
	d, _ = os.MkdirTemp("", "probe")
	err = os.Symlink("f", filepath.Join(d, "l"))
	fmt.Printf("symlink=%s\n", okOr(isLink(filepath.Join(d, "l"), err)))
	out, err := exec.Command("cmd", "/c", "mklink", "/J", filepath.Join(d, "j"), d).CombinedOutput()
	if err != nil {
		err = fmt.Errorf("%v: %q", err, out)
	}
	fmt.Printf("junction=%s\n", okOr(isLink(filepath.Join(d, "j"), err)))
	fmt.Printf("unixlink=%s\n", okOr(isLink("unixlink", nil)))
}

func isLink(p string, err error) error {
	if err != nil {
		return err
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return err
	}
	if fi.Mode()&os.ModeSymlink == 0 && fi.Mode()&os.ModeIrregular == 0 {
		return fmt.Errorf("%s is a %v, not a link", p, fi.Mode().Type())
	}
	return nil
}

func okOr(err error) string {
	if err == nil {
		return "ok"
	}
	return err.Error()
}
`

// removeAllOverlay answers the gap that makes t.TempDir's cleanup fail
// (removeall is the probe's answer): Go's os.RemoveAll deletes with
// NtSetInformationFile(FileDispositionInformationEx), which Wine 8
// answers with STATUS_NOT_IMPLEMENTED, a status Go's fall-back to the
// older call does not expect ("Invalid function"). With that gap it
// returns a -overlay file for the test builds that adds the status to the
// fall-back's list in the standard library's internal/syscall/windows
// (the command under test never removes a directory tree; the built
// rivumi-lint.exe is untouched); "" without it.
func removeAllOverlay(t *testing.T, removeall string) string {
	t.Helper()
	dir := filepath.Join(scratch, "wine-probe")
	if removeall == "ok" {
		t.Logf("os.RemoveAll works under this Wine: the test binaries are built as they are")
		return ""
	}
	if !strings.Contains(removeall, "Invalid function") {
		t.Fatalf("the os.RemoveAll probe under Wine: %s", removeall)
	}
	goroot := goEnv(t, "GOROOT")
	at := filepath.Join(goroot, "src", "internal", "syscall", "windows", "at_windows.go")
	orig, err := os.ReadFile(at)
	if err != nil {
		t.Fatal(err)
	}
	const anchor = "\tcase STATUS_INVALID_INFO_CLASS, // the operating system doesn't support FileDispositionInformationEx\n"
	if !bytes.Contains(orig, []byte(anchor)) {
		t.Fatalf("os.RemoveAll fails under Wine (%s), and %s no longer holds the line the lane's overlay extends (%q): update removeAllOverlay for this Go", removeall, at, anchor)
	}
	patched := bytes.Replace(orig, []byte(anchor), []byte("\tcase NTStatus(0xC0000002), // STATUS_NOT_IMPLEMENTED: Wine 8 (the lane's overlay)\n\t\tSTATUS_INVALID_INFO_CLASS, // the operating system doesn't support FileDispositionInformationEx\n"), 1)
	file := filepath.Join(dir, "at_windows.go")
	if err := os.WriteFile(file, patched, 0o644); err != nil {
		t.Fatal(err)
	}
	ov, err := json.Marshal(map[string]map[string]string{"Replace": {at: file}})
	if err != nil {
		t.Fatal(err)
	}
	overlay := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlay, ov, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("os.RemoveAll fails under this Wine (%s): the test binaries are built with %s", removeall, overlay)
	return overlay
}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// skipReason is the message a skipped test gave.
func skipReason(output string) string {
	for _, line := range strings.Split(output, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "=== ") || strings.HasPrefix(line, "--- ") {
			continue
		}
		if _, msg, ok := strings.Cut(line, ": "); ok {
			return msg
		}
		return line
	}
	return "(no reason given)"
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
