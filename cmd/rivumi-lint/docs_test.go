package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The documented commands (issue #33.14). A fenced block whose info string
// is `console`, in README.md, CONTRIBUTING.md or docs/*.md, is a transcript
// (CONTRIBUTING.md has the convention):
//
//	```console
//	$ rivumi-lint check --root testdata/demo
//	the command's standard output, line for line
//	...
//	```
//
// Each `$ ` line is a rivumi-lint command, run from the repository root by
// the binary testscript puts on PATH (this test binary as rivumi-lint);
// the lines up to the next `$ ` line or the fence are its standard output,
// compared exactly, where a line `...` stands for any run of lines. The
// command gets an empty HOME and COLUMNS=100, and nothing else of the
// environment but PATH (and what Windows needs to start a process), so the
// machine's user files, terminal and CI variables stay out.

// docFiles are the documents whose transcripts are run.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{filepath.Join("..", "..", "README.md"), filepath.Join("..", "..", "CONTRIBUTING.md")}, docs...)
}

// transcript is one `$ ` command of a console block and the output the
// document quotes for it.
type transcript struct {
	line    int      // of the `$ ` line, 1-based
	command string   // after "$ "
	want    []string // the quoted output lines
	// start and end are the byte offsets of the quoted output in the
	// document, for -update.
	start, end int
}

// errNotConsole is a block that shows a `$ ` command without being a
// console block: its output would go unchecked.
var errNotConsole = errors.New("a fenced block starts with a `$ ` command but its info string is not console: make it ```console so TestDocCommands runs it, or drop the prompt")

// transcripts parses doc's console blocks. A block with another info
// string whose first line is a `$ ` command is an error, so a transcript
// cannot be left out by its fence.
func transcripts(doc string) ([]transcript, error) {
	var (
		out     []transcript
		inBlock bool
		console bool
		first   bool
		fence   string // the opening run of backticks
		indent  string // before it
		cur     *transcript
	)
	off := 0
	for n, raw := range strings.SplitAfter(doc, "\n") {
		lineNo := n + 1
		l := strings.TrimSuffix(raw, "\n")
		start := off
		off += len(raw)
		if !inBlock {
			if t := strings.TrimLeft(l, " "); strings.HasPrefix(t, "```") {
				// CommonMark: the fence is the run of backticks, and
				// only a line of at least as many closes it (a ````
				// block can show a ``` one).
				ticks := len(t) - len(strings.TrimLeft(t, "`"))
				inBlock, first = true, true
				indent, fence = l[:len(l)-len(t)], t[:ticks]
				console = strings.TrimSpace(t[ticks:]) == "console"
			}
			continue
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, fence) && strings.Trim(t, "`") == "" {
			if cur != nil {
				cur.end = start
				out = append(out, *cur)
				cur = nil
			}
			if console && first {
				return nil, fmt.Errorf("line %d: an empty console block", lineNo)
			}
			inBlock = false
			continue
		}
		l = strings.TrimPrefix(l, indent) // a block indented in a list
		wasFirst := first
		first = false
		if !console {
			if wasFirst && strings.HasPrefix(l, "$ ") {
				return nil, fmt.Errorf("line %d: %w", lineNo, errNotConsole)
			}
			continue
		}
		if strings.HasPrefix(l, "$ ") {
			if cur != nil {
				cur.end = start
				out = append(out, *cur)
			}
			cur = &transcript{line: lineNo, command: strings.TrimPrefix(l, "$ "), start: off}
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("line %d: a console block must start with a `$ ` command, not %q", lineNo, l)
		}
		cur.want = append(cur.want, l)
	}
	if inBlock {
		return nil, errors.New("a fenced block is not closed")
	}
	return out, nil
}

// splitCommand splits a documented command into words as sh would for
// the plain commands the docs show: white space, and '…' or "…" quoting.
// A pipe, redirection, variable or glob is refused: the test runs no
// shell, so what it runs must be what a reader pastes.
func splitCommand(s string) ([]string, error) {
	var (
		words []string
		w     strings.Builder
		in    bool // inside a word
		quote rune
	)
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				w.WriteRune(r)
			}
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
		case strings.ContainsRune("|&;<>()$`\\*?[#~", r):
			return nil, fmt.Errorf("%q holds %q: a documented command is run without a shell, so it must be plain words", s, r)
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, fmt.Errorf("%q: an unclosed quote", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words, nil
}

// matchLines reports whether got matches want, where a want line "..."
// matches any run of lines (none included).
func matchLines(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for i := 0; i <= len(got); i++ {
			if matchLines(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && matchLines(want[1:], got[1:])
}

// commandEnv is the environment of a documented command: PATH (git and
// the rivumi-lint testscript set up), an empty home, 100 columns.
func commandEnv(home string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "COLUMNS=100", "TZ=UTC"}
	if runtime.GOOS == "windows" {
		for _, k := range []string{"SYSTEMROOT", "TEMP", "TMP", "PATHEXT", "COMSPEC"} {
			env = append(env, k+"="+os.Getenv(k))
		}
		env = append(env, "USERPROFILE="+home)
	}
	return env
}

// TestDocCommands runs every console block's commands of the docs and
// compares each output with the one the document quotes (#33.14). With
// -update it writes the outputs into the documents instead, where a block
// has no "..." line (one that has is edited by hand: the failure prints
// the whole output).
func TestDocCommands(t *testing.T) {
	requireDemoSymlink(t) // the demo's outputs show its RL001 link
	bin, err := exec.LookPath("rivumi-lint")
	if err != nil {
		t.Fatalf("the rivumi-lint testscript puts on PATH: %v", err)
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	total := 0
	for _, path := range docFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		name, _ := filepath.Rel(root, mustAbs(t, path))
		name = filepath.ToSlash(name)
		doc := string(data)
		ts, err := transcripts(doc)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		// Rewritten from the last block back, so the offsets stay valid.
		updated := doc
		for i := len(ts) - 1; i >= 0; i-- {
			tr := ts[i]
			total++
			got, ok := runDocCommand(t, bin, root, home, name, tr)
			if !ok {
				continue
			}
			if matchLines(tr.want, got) {
				continue
			}
			if *updateDocs && !containsLine(tr.want, "...") {
				updated = updated[:tr.start] + strings.Join(got, "\n") + "\n" + updated[tr.end:]
				continue
			}
			t.Errorf("%s:%d: `%s` prints other than the document quotes (if intended: go test ./cmd/rivumi-lint -run TestDocCommands -update, or edit a block with \"...\" by hand); it prints:\n%s",
				name, tr.line, tr.command, strings.Join(got, "\n"))
		}
		if updated != doc {
			if err := os.WriteFile(path, []byte(updated), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The README's preview and docs/text-output.md's demo at least: a
	// convention the parser stopped seeing must not pass by running nothing.
	if total < 2 {
		t.Errorf("%d documented commands found, want at least 2 (README.md's preview, docs/text-output.md's demo)", total)
	}
}

// runDocCommand runs one transcript's command and returns its standard
// output as lines; ok is false when it could not be run (reported).
func runDocCommand(t *testing.T, bin, root, home, name string, tr transcript) ([]string, bool) {
	t.Helper()
	words, err := splitCommand(tr.command)
	if err != nil {
		t.Errorf("%s:%d: %v", name, tr.line, err)
		return nil, false
	}
	if len(words) == 0 || words[0] != "rivumi-lint" {
		t.Errorf("%s:%d: `%s`: a documented command is a rivumi-lint command", name, tr.line, tr.command)
		return nil, false
	}
	cmd := exec.Command(bin, words[1:]...)
	cmd.Dir, cmd.Env = root, commandEnv(home)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() == exitError {
			t.Errorf("%s:%d: `%s`: %v\n%s", name, tr.line, tr.command, err, stderr.String())
			return nil, false
		}
	}
	out := strings.ReplaceAll(stdout.String(), home, "$HOME")
	return strings.Split(strings.TrimSuffix(out, "\n"), "\n"), true
}

func containsLine(lines []string, s string) bool {
	for _, l := range lines {
		if l == s {
			return true
		}
	}
	return false
}

func mustAbs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// The parser's own cases: what the convention accepts and refuses.
func TestDocTranscriptsParse(t *testing.T) {
	doc := "# x\n\n```console\n$ rivumi-lint version\nv1\n$ rivumi-lint rules RL004\na\n...\n```\n\n```sh\ngo test ./...\n```\n"
	ts, err := transcripts(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 2 || ts[0].command != "rivumi-lint version" || strings.Join(ts[0].want, "|") != "v1" ||
		ts[1].line != 6 || strings.Join(ts[1].want, "|") != "a|..." || doc[ts[0].start:ts[0].end] != "v1\n" {
		t.Errorf("transcripts: %+v", ts)
	}
	for _, bad := range []string{
		"```\n$ rivumi-lint check\nout\n```\n",    // a transcript outside a console block
		"```sh\n$ rivumi-lint check\n```\n",       // the same
		"```console\nout\n$ rivumi-lint x\n```\n", // output before any command
		"```console\n```\n",                       // nothing in it
		"```console\n$ rivumi-lint x\n",           // never closed
		"````\n```\n$ x\n```\n",                   // the inner fence does not close the outer one
	} {
		if _, err := transcripts(bad); err == nil {
			t.Errorf("transcripts accepted %q", bad)
		}
	}
	for in, want := range map[string]string{
		`rivumi-lint check --root testdata/demo`: "rivumi-lint|check|--root|testdata/demo",
		`rivumi-lint rules 'a b' "c"`:            "rivumi-lint|rules|a b|c",
	} {
		if w, err := splitCommand(in); err != nil || strings.Join(w, "|") != want {
			t.Errorf("splitCommand(%q) = %q, %v", in, w, err)
		}
	}
	for _, bad := range []string{"rivumi-lint check | head", "rivumi-lint check > x", "rivumi-lint check $X", "rivumi-lint 'a"} {
		if _, err := splitCommand(bad); err == nil {
			t.Errorf("splitCommand accepted %q", bad)
		}
	}
	if !matchLines([]string{"a", "...", "d"}, []string{"a", "b", "c", "d"}) || matchLines([]string{"a", "d"}, []string{"a", "b", "d"}) ||
		!matchLines([]string{"...", "x", "..."}, []string{"x"}) || matchLines([]string{"a"}, []string{"a", "b"}) {
		t.Error("matchLines")
	}
}

// TestDocModuleCount keeps docs/pre-commit.md's count of the modules the
// command links (D4, #33.14: it said 12 when the command linked 21) equal
// to what go list says, the main module left out.
func TestDocModuleCount(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	mods := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		if m != "github.com/rivumi/rivumi-lint" {
			mods[m] = true
		}
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "pre-commit.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(data)), " ") // the sentence may wrap
	if want := fmt.Sprintf("The command links %d modules besides its own", len(mods)); !strings.Contains(doc, want) {
		t.Errorf("docs/pre-commit.md lacks %q: the command links %d modules besides its own (go list -deps)", want, len(mods))
	}
	if want := fmt.Sprintf("| now | %d |", len(mods)); !strings.Contains(doc, want) {
		t.Errorf("docs/pre-commit.md's table lacks the row %q", want)
	}
}
