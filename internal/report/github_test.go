package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/sethvargo/go-githubactions"
)

// runnerCommand is a workflow command as the Actions runner reads it.
type runnerCommand struct {
	name  string
	props map[string]string
	data  string
}

// runnerLines splits output the way the runner reads a step's output
// (.NET ReadLine: LF, CR and CRLF end a line).
func runnerLines(out string) []string {
	out = strings.ReplaceAll(out, "\r\n", "\n")
	out = strings.ReplaceAll(out, "\r", "\n")
	lines := strings.Split(out, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// parseRunnerCommand parses one line as the runner does (ActionCommand
// TryParseV2): after leading white space a line starting with "::" is a
// command; the command info runs to the next "::"; the name ends at the
// first space; properties are split on ',', each on its first '=', empty
// keys or values dropped; then %0D %0A %3A %2C and, last, %25 are unescaped
// in property values, and %0D %0A then %25 in the data. Any "::" line is
// reported as a command, whatever its name.
func parseRunnerCommand(line string) (runnerCommand, bool) {
	l := strings.TrimLeft(line, " \t\v\f")
	if !strings.HasPrefix(l, "::") {
		return runnerCommand{}, false
	}
	end := strings.Index(l[2:], "::")
	if end < 0 {
		return runnerCommand{}, false
	}
	info := l[2 : 2+end]
	cmd := runnerCommand{props: map[string]string{}}
	name, props, hasProps := strings.Cut(info, " ")
	cmd.name = name
	if hasProps {
		for _, p := range strings.Split(strings.TrimSpace(props), ",") {
			k, v, ok := strings.Cut(p, "=")
			if !ok || k == "" || v == "" {
				continue
			}
			cmd.props[k] = unescapeRunner(v, "%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%")
		}
	}
	cmd.data = unescapeRunner(l[2+end+2:], "%0D", "\r", "%0A", "\n", "%25", "%")
	return cmd, true
}

// unescapeRunner replaces each escape in turn over the whole string, as the
// runner's loop over its escape mappings does.
func unescapeRunner(s string, pairs ...string) string {
	for i := 0; i < len(pairs); i += 2 {
		s = strings.ReplaceAll(s, pairs[i], pairs[i+1])
	}
	return s
}

// githubEnv is a getenv over a fixed map.
func githubEnv(env map[string]string) func(string) string {
	return func(k string) string { return env[k] }
}

func writeGitHubOut(t testing.TB, r *lint.Result, env map[string]string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := writeGitHub(&buf, r, Options{}, githubEnv(env)); err != nil {
		t.Fatal(err)
	}
	// The library ends lines with its platform EOL; goldens use LF.
	return strings.ReplaceAll(buf.String(), githubactions.EOF, "\n")
}

// commands parses every output line and fails on a line that is neither a
// command nor our plain "rivumi-lint:" note.
func commands(t testing.TB, out string) []runnerCommand {
	t.Helper()
	var cmds []runnerCommand
	for _, line := range runnerLines(out) {
		c, ok := parseRunnerCommand(line)
		if !ok {
			if !strings.HasPrefix(line, "rivumi-lint: ") {
				t.Fatalf("unexpected output line %q", line)
			}
			continue
		}
		switch c.name {
		case "error", "warning", "notice":
		default:
			t.Fatalf("line %q issues workflow command %q", line, c.name)
		}
		cmds = append(cmds, c)
	}
	return cmds
}

// §7 github: annotations, step summary and outputs of the fixture, through
// the real environment variables.
func TestGitHubGolden(t *testing.T) {
	dir := t.TempDir()
	summary, output := filepath.Join(dir, "summary.md"), filepath.Join(dir, "output")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	t.Setenv("GITHUB_OUTPUT", output)
	var buf bytes.Buffer
	if err := GitHub(&buf, fixtureResult(), Options{ToolVersion: "1.2.3"}); err != nil {
		t.Fatal(err)
	}
	out := strings.ReplaceAll(buf.String(), githubactions.EOF, "\n")
	golden(t, "github_annotations.golden", []byte(out))
	s, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "github_step_summary.golden", []byte(strings.ReplaceAll(string(s), githubactions.EOF, "\n")))
	o, err := os.ReadFile(output)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "github_output.golden", []byte(strings.ReplaceAll(string(o), githubactions.EOF, "\n")))

	// §7: the summary is the markdown format (nothing was left out here).
	var md bytes.Buffer
	if err := Markdown(&md, fixtureResult(), Options{}); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSuffix(string(s), githubactions.EOF); got != md.String() {
		t.Errorf("step summary differs from the markdown format:\n%s\n---\n%s", got, md.String())
	}
	// §7: outputs errors, warnings, directories.
	want := "errors<<_GitHubActionsFileCommandDelimeter_\n4\n_GitHubActionsFileCommandDelimeter_\n" +
		"warnings<<_GitHubActionsFileCommandDelimeter_\n4\n_GitHubActionsFileCommandDelimeter_\n" +
		"directories<<_GitHubActionsFileCommandDelimeter_\n5\n_GitHubActionsFileCommandDelimeter_\n"
	if got := strings.ReplaceAll(string(o), githubactions.EOF, "\n"); got != want {
		t.Errorf("GITHUB_OUTPUT =\n%s\nwant\n%s", got, want)
	}
}

// §7 github: the fixture's annotations parse back, as the runner reads them,
// to exactly one command per finding with the finding's file, position,
// title and message; most severe first.
func TestGitHubAnnotationsRoundTrip(t *testing.T) {
	r := fixtureResult()
	cmds := commands(t, writeGitHubOut(t, r, nil))
	fs := orderFindings(r)
	if len(cmds) != len(fs) {
		t.Fatalf("%d commands for %d findings", len(cmds), len(fs))
	}
	for i, c := range cmds {
		checkAnnotation(t, c, fs[i])
	}
}

func checkAnnotation(t testing.TB, c runnerCommand, f lint.Finding) {
	t.Helper()
	if c.name != f.Severity.String() {
		t.Errorf("command %q for a %s finding", c.name, f.Severity)
	}
	want := map[string]string{"title": f.Rule + " " + f.Name}
	// SafeLine's escaping is the only one left once the runner has read
	// the command (§10: no raw control or format character reaches the log).
	wantMsg := safe(f.Message)
	if f.User {
		wantMsg = safe(f.Path + ": " + f.Message)
	} else if f.Path != "" {
		want["file"] = safe(f.Path)
		if f.Line > 0 {
			want["line"] = fmt.Sprint(f.Line)
			if f.Column > 0 {
				want["col"] = fmt.Sprint(f.UTF16Column)
			}
		}
	}
	if fmt.Sprint(c.props) != fmt.Sprint(want) {
		t.Errorf("properties %q, want %q", c.props, want)
	}
	if c.data != wantMsg {
		t.Errorf("message %q, want %q", c.data, wantMsg)
	}
}

// §7 github, §10: hostile file names and messages cannot end the command or
// start another one, and come back exactly.
func TestGitHubAnnotationEscaping(t *testing.T) {
	hostile := []string{
		"\n::error file=x::pwned",
		"a\r::set-env name=X::y",
		"%0A",
		"%250A%",
		"a,b:c",
		"x::y",
		"title=z,line=99",
		"cr\rlf\r\nend\n",
		"::add-path::/tmp",
		"%%0D%0a%3A%2c",
		"  ::warning::indented",
		"ünïcode/\u202eAGENTS.md",
	}
	for _, s := range hostile {
		for _, sev := range []lint.Severity{lint.Error, lint.Warning, lint.Notice} {
			f := lint.Finding{Rule: "RL010", Name: "hidden-unicode", Severity: sev, Path: s + "/AGENTS.md", Line: 4, Column: 2, UTF16Column: 2, Message: "msg " + s}
			out := writeGitHubOut(t, &lint.Result{Findings: []lint.Finding{f}}, nil)
			if lines := runnerLines(out); len(lines) != 1 {
				t.Fatalf("%q: %d lines, want 1:\n%s", s, len(lines), out)
			}
			cmds := commands(t, out)
			if len(cmds) != 1 {
				t.Fatalf("%q: %d commands", s, len(cmds))
			}
			checkAnnotation(t, cmds[0], f)
		}
	}
}

// §7 github: the library escapes data (%, CR, LF) and property values (%,
// CR, LF, ':' and ','), once: this writer hands it raw values, and an
// already escaped-looking value is escaped again by the library, not left
// alone, so it reads back unchanged.
func TestGitHubLibraryEscapes(t *testing.T) {
	var buf bytes.Buffer
	a := githubactions.New(githubactions.WithWriter(&buf))
	a.WithFieldsMap(map[string]string{"file": "a%b\rc\nd:e,f"}).Errorf("%s", "m%n\ro\np:q,r")
	want := "::error file=a%25b%0Dc%0Ad%3Ae%2Cf::m%25n%0Do%0Ap:q,r" + githubactions.EOF
	if buf.String() != want {
		t.Fatalf("library output %q, want %q", buf.String(), want)
	}
	out := writeGitHubOut(t, &lint.Result{Findings: []lint.Finding{{Rule: "RL001", Name: "symlink", Severity: lint.Error,
		Path: "%0A:x", Message: "%0A"}}}, nil)
	if want := "::error file=%250A%3Ax,title=RL001 symlink::%250A\n"; out != want {
		t.Errorf("annotation %q, want %q (escaped exactly once)", out, want)
	}
}

// §7 github: a message is never a format string.
func TestGitHubMessageNotFormat(t *testing.T) {
	f := lint.Finding{Rule: "RL001", Name: "symlink", Severity: lint.Error, Path: "a.md", Message: "100%s %d %!v %%"}
	cmds := commands(t, writeGitHubOut(t, &lint.Result{Findings: []lint.Finding{f}}, nil))
	checkAnnotation(t, cmds[0], f)
}

// §7 github: at most 10 annotations per level and 50 in all, most severe
// first; the rest are counted in a plain log line and in the step summary.
func TestGitHubLimits(t *testing.T) {
	var fs []lint.Finding
	add := func(n int, sev lint.Severity, rule, name string) {
		for i := 0; i < n; i++ {
			fs = append(fs, lint.Finding{Rule: rule, Name: name, Severity: sev, Path: fmt.Sprintf("d%02d/AGENTS.md", i), Message: "m"})
		}
	}
	add(12, lint.Notice, "RL005", "override")
	add(40, lint.Error, "RL001", "symlink")
	add(15, lint.Warning, "RL007", "shadowed")
	summary := filepath.Join(t.TempDir(), "summary.md")
	out := writeGitHubOut(t, &lint.Result{Findings: fs}, map[string]string{"GITHUB_STEP_SUMMARY": summary})
	cmds := commands(t, out)
	count := map[string]int{}
	order := []string{}
	for _, c := range cmds {
		if len(order) == 0 || order[len(order)-1] != c.name {
			order = append(order, c.name)
		}
		count[c.name]++
	}
	if count["error"] != 10 || count["warning"] != 10 || count["notice"] != 10 {
		t.Errorf("annotations per level = %v, want 10 each", count)
	}
	if fmt.Sprint(order) != "[error warning notice]" {
		t.Errorf("levels in order %v, want most severe first", order)
	}
	if cmds[0].props["file"] != "d00/AGENTS.md" || cmds[9].props["file"] != "d09/AGENTS.md" {
		t.Errorf("errors not sorted by path: first %q, tenth %q", cmds[0].props["file"], cmds[9].props["file"])
	}
	note := "37 findings are not shown as annotations: GitHub shows at most 10 annotations of each level per step and 50 per job."
	if !strings.Contains(out, "\nrivumi-lint: "+note+"\n") {
		t.Errorf("log does not say how many were left out:\n%s", out)
	}
	s, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(s), "\n"+note+"\n") {
		t.Errorf("step summary does not say how many were left out:\n%s", s)
	}
	// Every finding is in the summary, annotated or not.
	if n := strings.Count(string(s), "/AGENTS.md |"); n != len(fs) {
		t.Errorf("summary lists %d findings, want %d", n, len(fs))
	}
	// The job-wide cap holds whatever the per-level cap.
	if len(cmds) > maxAnnotationsPerJob {
		t.Errorf("%d annotations, more than %d", len(cmds), maxAnnotationsPerJob)
	}
}

// §7 github: the step summary stays under 1 MiB, saying how many findings it
// left out.
func TestGitHubSummaryUnder1MiB(t *testing.T) {
	var fs []lint.Finding
	long := strings.Repeat("<|`*_x", 100)
	for i := 0; i < 5000; i++ {
		fs = append(fs, lint.Finding{Rule: "RL006", Name: "budget", Severity: lint.Warning,
			Path: fmt.Sprintf("dir%05d/AGENTS.md", i), Message: long})
	}
	var dirs []lint.Directory
	for i := 0; i < 20000; i++ {
		dirs = append(dirs, lint.Directory{Path: fmt.Sprintf("dir%05d", i), RenderedBytes: i, BudgetBytes: 57344})
	}
	r := &lint.Result{Findings: fs, Directories: dirs, Drift: []lint.Drift{{Directories: []string{"a"},
		Changes: []lint.LayerChange{{Path: "a/AGENTS.md", Change: "added"}}}}}
	summary := filepath.Join(t.TempDir(), "summary.md")
	writeGitHubOut(t, r, map[string]string{"GITHUB_STEP_SUMMARY": summary})
	s, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if len(s) >= 1<<20 {
		t.Fatalf("step summary is %d bytes, not under 1 MiB", len(s))
	}
	for _, want := range []string{"more findings left out to keep this summary under 1 MiB.", "1 drift group left out", "20000 budget rows left out"} {
		if !bytes.Contains(s, []byte(want)) {
			t.Errorf("summary lacks %q", want)
		}
	}
}

// §7 github: without the Actions environment nothing but annotations is
// written, and no file is created.
func TestGitHubNoEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	out := writeGitHubOut(t, fixtureResult(), nil)
	if len(commands(t, out)) != len(fixtureResult().Findings) {
		t.Errorf("annotations missing:\n%s", out)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written without GITHUB_STEP_SUMMARY/GITHUB_OUTPUT: %v", entries)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

// §10: a failing writer or summary file is an error, never a panic.
func TestGitHubWriteErrors(t *testing.T) {
	if err := writeGitHub(failWriter{}, fixtureResult(), Options{}, githubEnv(nil)); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("failing writer: err = %v", err)
	}
	bad := filepath.Join(t.TempDir(), "missing-dir", "summary.md")
	var buf bytes.Buffer
	if err := writeGitHub(&buf, fixtureResult(), Options{}, githubEnv(map[string]string{"GITHUB_STEP_SUMMARY": bad})); err == nil {
		t.Errorf("unwritable step summary: no error")
	}
}

// §10: for any file name and message, one finding is exactly one output
// line, an ::error command that parses back to the file and message as
// SafeLine shows them, with no control or format character left.
func FuzzGitHubAnnotation(f *testing.F) {
	f.Add("AGENTS.md", "plain")
	f.Add("\n::error file=x::pwned", "\n::error file=x::pwned")
	f.Add("%0A", "%0A")
	f.Add("a,b:c", "a,b:c")
	f.Add("cr\r", "cr\r")
	f.Add(pathNewline, msgHostile)
	f.Add(pathUser, "user")
	f.Add("", "")
	f.Add("=", "=")
	f.Add(" x ", "%s%d")
	f.Fuzz(func(t *testing.T, file, message string) {
		fd := lint.Finding{Rule: "RL010", Name: "hidden-unicode", Severity: lint.Error, Path: file, Line: 1, Column: 1, UTF16Column: 1, Message: message, User: isUserLevelPath(file)}
		out := writeGitHubOut(t, &lint.Result{Findings: []lint.Finding{fd}}, nil)
		lines := runnerLines(out)
		if len(lines) != 1 || !strings.HasPrefix(lines[0], "::error ") {
			t.Fatalf("want one ::error line, got %q", lines)
		}
		c, ok := parseRunnerCommand(lines[0])
		if !ok || c.name != "error" {
			t.Fatalf("%q does not parse as ::error", lines[0])
		}
		wantMsg := safe(message)
		wantFile, hasFile := safe(file), file != ""
		if isUserLevelPath(file) {
			wantMsg, hasFile = safe(file+": "+message), false
		}
		if strings.ContainsFunc(c.data+c.props["file"], invisibleRune) {
			t.Fatalf("annotation %q holds a control or format character", lines[0])
		}
		if got, ok := c.props["file"]; ok != hasFile || got != map[bool]string{true: wantFile}[hasFile] {
			t.Fatalf("file = %q (%v), want %q (%v)", got, ok, wantFile, hasFile)
		}
		if c.data != wantMsg {
			t.Fatalf("message = %q, want %q", c.data, wantMsg)
		}
	})
}
