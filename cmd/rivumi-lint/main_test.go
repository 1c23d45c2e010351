package main

// The testscript harness: every testdata/script/*.txtar at the repository
// root is one end-to-end scenario that runs the real command line against a
// real Git repository made by the script. Each script cites the SPEC clauses
// it checks in its leading comment.
//
// Programs available to `exec` in scripts (registered in TestMain, they are
// this test binary re-executed under another name):
//
//	rivumi-lint ARGS...           the CLI (run in main.go)
//	want-exit N PROG ARGS...      run PROG; succeed only when it exits with
//	                              status N (testscript itself only tells zero
//	                              from non-zero; §6 needs 0, 1 and 2 apart).
//	                              PROG's stdout and stderr pass through.
//	nodac PROG ARGS...            run PROG without the power to read files
//	                              regardless of their mode: as root, through
//	                              setpriv with CAP_DAC_OVERRIDE and
//	                              CAP_DAC_READ_SEARCH dropped from the bounding
//	                              set (so chmod 000 really makes a file
//	                              unreadable, C5); otherwise PROG as is.
//
// Custom script commands (Params.Cmds below):
//
//	mkfifo NAME                   make a FIFO (C2)
//	mksock NAME                   make a Unix socket file (C2)
//	sparse NAME SIZE              make a sparse file of SIZE bytes (C3);
//	                              SIZE may end in KiB, MiB or GiB
//	writebytes 'NAME' 'TEXT'      write TEXT to NAME, both after Go string
//	                              unescaping (\xff, \u202e, \n, …): invalid
//	                              UTF-8, invisible characters and control
//	                              characters stay visible in the script
//	json FILE shape               FILE (or stdout) is a §7 JSON report
//	json FILE finding K=V...      some finding matches every K=V (keys: rule,
//	                              name, severity, path, line, column,
//	                              message; KEY~=V is a substring match;
//	                              dir=D: D is in the finding's directories)
//	json FILE dir path=P          directories holds P
//	json FILE layer dir=D K=V...  directory D has a layer matching K=V (path,
//	                              scope, state, reason, bytes)
//	json FILE summary K=N...      summary counts are exactly these
//	json FILE count KIND N K=V... exactly N findings / dirs / layers match
//	chomp FILE                    remove one trailing newline from FILE
//
// `! json …` asserts that nothing matches.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptEnv is the environment of the testscripts' rivumi-lint: the
// process's, with RIVUMI_LINT_TEST_VERSION standing in for the release
// stamp (init_release.txtar); only this test binary reads it.
func scriptEnv() env {
	e := processEnv()
	if v := os.Getenv("RIVUMI_LINT_TEST_VERSION"); v != "" {
		e.Version = func() string { return v }
	}
	return e
}

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"rivumi-lint":          func() { os.Exit(run(os.Args[1:], scriptEnv())) },
		"want-exit":            wantExitMain,
		"nodac":                nodacMain,
		"rss-probe":            rssProbeMain, // hostile_test.go
		"rivumi-lint-midwrite": midWriteMain, // signals_test.go
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/script",
		Setup:               setupScript,
		Cmds:                scriptCmds,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
	})
}

// setupScript gives every script a Git identity in a HOME of its own, kept
// outside $WORK so that the repositories the scripts make hold only their
// own files.
func setupScript(env *testscript.Env) error {
	if _, err := exec.LookPath("git"); err != nil {
		return errors.New("git not found in PATH: install git (apt-get install git) to run the script tests")
	}
	home, err := os.MkdirTemp("", "rivumi-lint-home")
	if err != nil {
		return err
	}
	env.Defer(func() { os.RemoveAll(home) })
	gitconfig := "[user]\n\tname = Rivumi Test\n\temail = test@example.com\n" +
		"[init]\n\tdefaultBranch = main\n" +
		"[commit]\n\tgpgsign = false\n" +
		"[advice]\n\tdetachedHead = false\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		return err
	}
	env.Setenv("HOME", home)
	env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	env.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	return nil
}

// wantExitMain is `want-exit N PROG ARGS...`.
func wantExitMain() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: want-exit N PROG [ARGS...]")
		os.Exit(3)
	}
	want, err := strconv.Atoi(os.Args[1])
	if err != nil {
		fmt.Fprintf(os.Stderr, "want-exit: bad status %q\n", os.Args[1])
		os.Exit(3)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err = cmd.Run()
	got := 0
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		got = ee.ExitCode()
	default:
		fmt.Fprintf(os.Stderr, "want-exit: %v\n", err)
		os.Exit(3)
	}
	if got != want {
		fmt.Fprintf(os.Stderr, "want-exit: %s exited with status %d, want %d\n", os.Args[2], got, want)
		os.Exit(1)
	}
}

// nodacMain is `nodac PROG ARGS...`.
func nodacMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: nodac PROG [ARGS...]")
		os.Exit(3)
	}
	argv := os.Args[1:]
	if os.Geteuid() == 0 {
		if _, err := exec.LookPath("setpriv"); err != nil {
			fmt.Fprintln(os.Stderr, "nodac: setpriv not found: install util-linux (setpriv), needed to test unreadable files as root")
			os.Exit(3)
		}
		argv = append([]string{"setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"}, argv...)
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		fmt.Fprintf(os.Stderr, "nodac: %v\n", err)
		os.Exit(3)
	}
	err = syscall.Exec(prog, argv, os.Environ())
	fmt.Fprintf(os.Stderr, "nodac: exec %s: %v\n", prog, err)
	os.Exit(3)
}

var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"mkfifo":     cmdMkfifo,
	"mksock":     cmdMksock,
	"sparse":     cmdSparse,
	"writebytes": cmdWriteBytes,
	"json":       cmdJSON,
	"chomp":      cmdChomp,
}

// cmdChomp removes one trailing newline from FILE: a txtar file always
// ends with one, an exact output (Codex's message, A3) may not.
func cmdChomp(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: chomp FILE")
	}
	p := ts.MkAbs(args[0])
	ts.Check(os.WriteFile(p, []byte(strings.TrimSuffix(ts.ReadFile(args[0]), "\n")), 0o666))
}

func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo NAME")
	}
	p := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o777))
	ts.Check(makeFIFO(p))
}

func cmdMksock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mksock NAME")
	}
	p := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o777))
	if len(p) >= 108 {
		ts.Fatalf("mksock: path %s is %d bytes, too long for a Unix socket (max 107); use a shorter name", p, len(p))
	}
	l, err := net.Listen("unix", p)
	ts.Check(err)
	l.(*net.UnixListener).SetUnlinkOnClose(false)
	ts.Check(l.Close())
	fi, err := os.Lstat(p)
	ts.Check(err)
	if fi.Mode()&os.ModeSocket == 0 {
		ts.Fatalf("mksock: %s is %v, not a socket", p, fi.Mode())
	}
}

func cmdSparse(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: sparse NAME SIZE")
	}
	size, err := parseSize(args[1])
	ts.Check(err)
	p := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o777))
	f, err := os.Create(p)
	ts.Check(err)
	ts.Check(f.Close())
	ts.Check(os.Truncate(p, size))
}

func parseSize(s string) (int64, error) {
	mult := int64(1)
	for suf, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if strings.HasSuffix(s, suf) {
			s, mult = strings.TrimSuffix(s, suf), m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("bad size %q", s)
	}
	return n * mult, nil
}

func cmdWriteBytes(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: writebytes 'GO-ESCAPED NAME' 'GO-ESCAPED TEXT'")
	}
	unescape := func(s string) string {
		u, err := strconv.Unquote(`"` + strings.ReplaceAll(s, `"`, `\"`) + `"`)
		if err != nil {
			ts.Fatalf("writebytes: cannot unescape %q: %v", s, err)
		}
		return u
	}
	data := unescape(args[1])
	p := ts.MkAbs(unescape(args[0]))
	ts.Check(os.MkdirAll(filepath.Dir(p), 0o777))
	ts.Check(os.WriteFile(p, []byte(data), 0o644))
}

// jsonReport mirrors the JSON document of §7, strictly: decoding fails on a
// missing or renamed field (checked by jsonShape) and on a wrong type.
type jsonReport struct {
	Version     *int            `json:"version"`
	Findings    []reportFinding `json:"findings"`
	Directories []reportDir     `json:"directories"`
	Drift       []any           `json:"drift"`
	Summary     map[string]int  `json:"summary"`
	Baseline    map[string]any  `json:"baseline"`
}

type reportFinding struct {
	Rule        string   `json:"rule"`
	Name        string   `json:"name"`
	Severity    string   `json:"severity"`
	Path        string   `json:"path"`
	Line        int      `json:"line"`
	Column      int      `json:"column"`
	Message     string   `json:"message"`
	Directories []string `json:"directories"`
	User        bool     `json:"user"`
	Baseline    string   `json:"baseline"`
	// New is "new" of the diff and staged scopes (B6); nil when absent.
	New *bool `json:"new"`
}

type reportDir struct {
	Path          string        `json:"path"`
	Fingerprint   string        `json:"fingerprint"`
	Layers        []reportLayer `json:"layers"`
	RenderedBytes int           `json:"rendered_bytes"`
	BudgetBytes   int           `json:"budget_bytes"`
}

type reportLayer struct {
	Path   string `json:"path"`
	Scope  string `json:"scope"`
	State  string `json:"state"`
	Reason string `json:"reason"`
	Bytes  int64  `json:"bytes"`
}

func cmdJSON(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: json FILE shape|finding|dir|layer|summary|baseline|count ...")
	}
	raw := ts.ReadFile(args[0])
	var doc jsonReport
	dec := json.NewDecoder(strings.NewReader(raw))
	if err := dec.Decode(&doc); err != nil {
		ts.Fatalf("json: %s does not decode as a §7 report: %v", args[0], err)
	}
	op, rest := args[1], args[2:]
	switch op {
	case "shape":
		err := jsonShape([]byte(raw))
		if neg && err == nil {
			ts.Fatalf("json: %s unexpectedly has the §7 shape", args[0])
		}
		if !neg && err != nil {
			ts.Fatalf("json: %s: %v", args[0], err)
		}
	case "summary":
		want := map[string]int{}
		for _, kv := range rest {
			k, v, ok := strings.Cut(kv, "=")
			n, err := strconv.Atoi(v)
			if !ok || err != nil {
				ts.Fatalf("json summary: bad %q (want KEY=N)", kv)
			}
			want[k] = n
		}
		match := true
		for k, v := range want {
			got, ok := doc.Summary[k]
			if !ok {
				ts.Fatalf("json summary: no key %q in %v", k, doc.Summary)
			}
			if got != v {
				match = false
			}
		}
		if match == neg {
			ts.Fatalf("json summary: got %v, want %s%v", doc.Summary, map[bool]string{true: "not ", false: ""}[neg], want)
		}
	case "baseline":
		// json FILE baseline K=V...: the baseline object (B3); negated,
		// that the report has none.
		if neg {
			if doc.Baseline != nil {
				ts.Fatalf("json baseline: unexpected baseline %v", doc.Baseline)
			}
			return
		}
		if doc.Baseline == nil {
			ts.Fatalf("json baseline: the report has no baseline object")
		}
		for _, kv := range rest {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				ts.Fatalf("json baseline: bad %q (want KEY=VALUE)", kv)
			}
			got, ok := doc.Baseline[k]
			if !ok {
				ts.Fatalf("json baseline: no key %q in %v", k, doc.Baseline)
			}
			if fmt.Sprint(got) != v {
				ts.Fatalf("json baseline: %s is %v, want %s (have %v)", k, got, v, doc.Baseline)
			}
		}
	case "finding", "dir", "layer":
		n, all := countMatches(ts, &doc, op, rest)
		if neg && n > 0 {
			ts.Fatalf("json: unexpected %s matching %v; have:\n%s", op, rest, all)
		}
		if !neg && n == 0 {
			ts.Fatalf("json: no %s matches %v; have:\n%s", op, rest, all)
		}
	case "count":
		if len(rest) < 2 {
			ts.Fatalf("usage: json FILE count finding|dir|layer N K=V...")
		}
		want, err := strconv.Atoi(rest[1])
		ts.Check(err)
		n, all := countMatches(ts, &doc, rest[0], rest[2:])
		if (n == want) == neg {
			ts.Fatalf("json: %d %s(s) match %v, want %s%d; have:\n%s", n, rest[0], rest[2:], map[bool]string{true: "not ", false: ""}[neg], want, all)
		}
	default:
		ts.Fatalf("json: unknown operation %q", op)
	}
}

// countMatches counts the findings, directories or layers of doc that match
// every KEY=VALUE filter, and lists all of them for the failure message.
func countMatches(ts *testscript.TestScript, doc *jsonReport, kind string, filters []string) (int, string) {
	type kv struct{ k, v string }
	var fs []kv
	for _, f := range filters {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			ts.Fatalf("json: bad filter %q (want KEY=VALUE)", f)
		}
		fs = append(fs, kv{k, v})
	}
	matches := func(fields map[string]string, dirs []string) bool {
		for _, f := range fs {
			switch {
			case f.k == "dir" && dirs != nil:
				found := false
				for _, d := range dirs {
					found = found || d == f.v
				}
				if !found {
					return false
				}
			case strings.HasSuffix(f.k, "~"):
				got, ok := fields[strings.TrimSuffix(f.k, "~")]
				if !ok {
					ts.Fatalf("json: unknown %s key %q", kind, f.k)
				}
				if !strings.Contains(got, f.v) {
					return false
				}
			default:
				got, ok := fields[f.k]
				if !ok {
					ts.Fatalf("json: unknown %s key %q", kind, f.k)
				}
				if got != f.v {
					return false
				}
			}
		}
		return true
	}
	n := 0
	var all strings.Builder
	switch kind {
	case "finding":
		for _, f := range doc.Findings {
			fields := map[string]string{"rule": f.Rule, "name": f.Name, "severity": f.Severity, "path": f.Path,
				"line": strconv.Itoa(f.Line), "column": strconv.Itoa(f.Column), "message": f.Message,
				"user": strconv.FormatBool(f.User), "baseline": f.Baseline, "new": "absent"}
			if f.New != nil {
				fields["new"] = strconv.FormatBool(*f.New)
			}
			fmt.Fprintf(&all, "  %s %s %s:%d:%d dirs=%v baseline=%q %q\n", f.Rule, f.Severity, f.Path, f.Line, f.Column, f.Directories, f.Baseline, f.Message)
			dirs := f.Directories
			if dirs == nil {
				dirs = []string{}
			}
			if matches(fields, dirs) {
				n++
			}
		}
	case "dir":
		for _, d := range doc.Directories {
			fields := map[string]string{"path": d.Path, "fingerprint": d.Fingerprint,
				"rendered_bytes": strconv.Itoa(d.RenderedBytes), "budget_bytes": strconv.Itoa(d.BudgetBytes)}
			fmt.Fprintf(&all, "  %s rendered=%d budget=%d\n", d.Path, d.RenderedBytes, d.BudgetBytes)
			if matches(fields, nil) {
				n++
			}
		}
	case "layer":
		var dir string
		var rest []kv
		for _, f := range fs {
			if f.k == "dir" {
				dir = f.v
				continue
			}
			rest = append(rest, f)
		}
		if dir == "" {
			ts.Fatalf("json layer: dir=D is required")
		}
		fs = rest
		for _, d := range doc.Directories {
			if d.Path != dir {
				continue
			}
			for _, l := range d.Layers {
				fields := map[string]string{"path": l.Path, "scope": l.Scope, "state": l.State, "reason": l.Reason,
					"bytes": strconv.FormatInt(l.Bytes, 10)}
				fmt.Fprintf(&all, "  %s: %s %s %s reason=%q bytes=%d\n", d.Path, l.Path, l.Scope, l.State, l.Reason, l.Bytes)
				if matches(fields, nil) {
					n++
				}
			}
		}
	default:
		ts.Fatalf("json: unknown kind %q (want finding, dir or layer)", kind)
	}
	return n, all.String()
}

// jsonShape checks the §7 field names and JSON types exactly: every field
// the spec names is present with its type, at every level.
func jsonShape(raw []byte) error {
	var top map[string]any
	if err := json.Unmarshal(raw, &top); err != nil {
		return err
	}
	if err := hasKeys("top level", top, map[string]string{
		"version": "number", "findings": "array", "directories": "array", "drift": "array", "summary": "object"}); err != nil {
		return err
	}
	if v := top["version"].(float64); v != 1 {
		return fmt.Errorf("version is %v, want 1", v)
	}
	for i, f := range top["findings"].([]any) {
		m, ok := f.(map[string]any)
		if !ok {
			return fmt.Errorf("findings[%d] is not an object", i)
		}
		if err := hasKeys(fmt.Sprintf("findings[%d]", i), m, map[string]string{
			"rule": "string", "name": "string", "severity": "string", "path": "string",
			"line": "number", "column": "number", "message": "string", "directories": "array",
			"directories_total": "number"}); err != nil {
			return err
		}
		switch m["severity"] {
		case "error", "warning", "notice":
		default:
			return fmt.Errorf("findings[%d].severity is %v", i, m["severity"])
		}
	}
	for i, d := range top["directories"].([]any) {
		m, ok := d.(map[string]any)
		if !ok {
			return fmt.Errorf("directories[%d] is not an object", i)
		}
		where := fmt.Sprintf("directories[%d]", i)
		if err := hasKeys(where, m, map[string]string{
			"path": "string", "fingerprint": "string", "layers": "array", "rendered_bytes": "number", "budget_bytes": "number"}); err != nil {
			return err
		}
		if fp := m["fingerprint"].(string); !strings.HasPrefix(fp, "rivumi-fp-v1:") || len(fp) != len("rivumi-fp-v1:")+64 {
			return fmt.Errorf("%s.fingerprint %q is not rivumi-fp-v1: + 64 hex digits (R8)", where, fp)
		}
		for j, l := range m["layers"].([]any) {
			lm, ok := l.(map[string]any)
			if !ok {
				return fmt.Errorf("%s.layers[%d] is not an object", where, j)
			}
			if err := hasKeys(fmt.Sprintf("%s.layers[%d]", where, j), lm, map[string]string{
				"path": "string", "scope": "string", "state": "string", "reason": "string", "bytes": "number"}); err != nil {
				return err
			}
		}
	}
	return hasKeys("summary", top["summary"].(map[string]any), map[string]string{
		"errors": "number", "warnings": "number", "notices": "number", "directories": "number"})
}

func hasKeys(where string, m map[string]any, want map[string]string) error {
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, ok := m[k]
		if !ok {
			return fmt.Errorf("%s: no field %q (have %v)", where, k, mapKeys(m))
		}
		if got := jsonType(v); got != want[k] {
			return fmt.Errorf("%s.%s is a JSON %s, want %s", where, k, got, want[k])
		}
	}
	return nil
}

func mapKeys(m map[string]any) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "bool"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return reflect.TypeOf(v).String()
}

// TestColorOnTTY checks §6 (--no-color, --color, NO_COLOR, TERM=dumb) and §7 (text: colour on
// a TTY); RL010 gives it a finding to print: colour on a terminal, none with
// --no-color or NO_COLOR. (Scripts cannot give the command a terminal on
// stdout, so this runs run() in-process with a pseudo-terminal.)
func TestColorOnTTY(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("bidi \u202e here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		args    []string
		noColor string
		color   bool
		term    string // TERM; "": unset
	}{
		{"tty", nil, "", true, ""},
		{"no-color flag", []string{"--no-color"}, "", false, ""},
		{"NO_COLOR", nil, "1", false, ""},
		{"color=never", []string{"--color=never"}, "", false, ""},
		{"color=auto", []string{"--color=auto"}, "", true, "xterm"},
		{"TERM=dumb", nil, "", false, "dumb"},
		{"TERM=dumb color=always", []string{"--color=always"}, "", true, "dumb"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tc.noColor)
			if tc.noColor == "" {
				os.Unsetenv("NO_COLOR")
			}
			t.Setenv("TERM", tc.term)
			if tc.term == "" {
				os.Unsetenv("TERM")
			}
			for _, k := range []string{"FORCE_COLOR", "CLICOLOR_FORCE"} {
				t.Setenv(k, "")
				os.Unsetenv(k)
			}
			master, slave := openPTY(t)
			var stderr bytes.Buffer
			args := append([]string{"check", "--root", dir}, tc.args...)
			code := run(args, env{Stdout: slave, Stderr: &stderr})
			if code != exitFindings {
				t.Fatalf("exit %d, want 1 (RL010 on AGENTS.md); stderr: %s", code, stderr.String())
			}
			slave.Close()
			out := readAll(t, master)
			if !strings.Contains(out, "AGENTS.md:1:6:") || !strings.Contains(out, " RL010 hidden-unicode: ") {
				t.Fatalf("no RL010 finding in terminal output:\n%q", out)
			}
			if has := strings.Contains(out, "\x1b["); has != tc.color {
				t.Fatalf("escape codes present = %v, want %v (§6 --no-color, NO_COLOR; §7 text); output:\n%q", has, tc.color, out)
			}
		})
	}
}

// readAll drains a pty master until the slave side is closed (EIO).
func readAll(t *testing.T, f *os.File) string {
	t.Helper()
	var out []byte
	buf := make([]byte, 4096)
	deadline := time.Now().Add(10 * time.Second)
	f.SetReadDeadline(deadline)
	for {
		n, err := f.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			if time.Now().After(deadline) {
				t.Fatalf("timed out reading the terminal")
			}
			return string(out)
		}
	}
}

// TestWantColor is the one colour decision (§6, issue #26) over every
// input: --color, NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE, TERM, --output
// FILE and whether standard output is a terminal.
func TestWantColor(t *testing.T) {
	for _, tc := range []struct {
		mode             colorMode
		env              map[string]string
		toFile, terminal bool
		want             bool
	}{
		{colorAuto, nil, false, true, true},
		{colorAuto, nil, false, false, false},
		{colorAuto, nil, true, true, false},
		{colorAuto, map[string]string{"NO_COLOR": "1"}, false, true, false},
		{colorAuto, map[string]string{"TERM": "dumb"}, false, true, false},
		{colorAuto, map[string]string{"TERM": "xterm"}, false, true, true},
		{colorAuto, map[string]string{"FORCE_COLOR": "1"}, false, false, true},
		{colorAuto, map[string]string{"FORCE_COLOR": "0"}, false, false, false},
		{colorAuto, map[string]string{"FORCE_COLOR": "0"}, false, true, true},
		{colorAuto, map[string]string{"CLICOLOR_FORCE": "yes"}, false, false, true},
		{colorAuto, map[string]string{"CLICOLOR_FORCE": "0"}, false, false, false},
		{colorAuto, map[string]string{"FORCE_COLOR": "1"}, true, false, false},
		{colorAuto, map[string]string{"FORCE_COLOR": "1", "TERM": "dumb"}, false, true, true},
		{colorAuto, map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, false, true, false},
		{colorNever, map[string]string{"FORCE_COLOR": "1"}, false, true, false},
		{colorAlways, map[string]string{"NO_COLOR": "1", "TERM": "dumb"}, true, false, true},
	} {
		getenv := func(k string) string { return tc.env[k] }
		if got := wantColor(tc.mode, getenv, tc.toFile, tc.terminal); got != tc.want {
			t.Errorf("wantColor(%s, %v, toFile %v, terminal %v) = %v, want %v", tc.mode, tc.env, tc.toFile, tc.terminal, got, tc.want)
		}
	}
}
