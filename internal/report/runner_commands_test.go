package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// The GitHub Actions runner reads every line a step writes, on standard
// output and standard error, whatever the tool meant by it, and runs two
// kinds of workflow commands (actions/runner, ActionCommandManager
// .TryProcessCommand): a line whose text after leading white space starts
// with "::" (ActionCommand.TryParseV2), and, when that does not parse, the
// older "##[command props]data" anywhere in the line (ActionCommand
// .TryParse). A repository path or a symlink target in any format printed in
// a CI log must start neither (§7, §10; SECURITY.md "No injection through
// output").

// runnerLineCommand reports whether the runner would take line as a
// workflow command, and which syntax ("v2" or "v1").
func runnerLineCommand(line string) (string, bool) {
	if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
		return "v2", true
	}
	if strings.Contains(line, "##[") {
		return "v1", true
	}
	return "", false
}

// hostileNames are paths and messages an attacker controls: file names are
// theirs, and messages quote symlink targets.
var hostileNames = []string{
	"::error file=README.md,line=1::forged/AGENTS.md",
	" \t::warning::indented/AGENTS.md",
	"\u00a0::notice::nbsp/AGENTS.md",
	"\u3000::notice::ideographic/AGENTS.md",
	":colon/AGENTS.md",
	"a/##[set-output name=errors;]0/AGENTS.md",
	"##[stop-commands]tok/AGENTS.md",
	"x\n::set-output name=errors::0\n/AGENTS.md",
	"x\r##[add-mask]AGENTS\r/AGENTS.md",
	"#\x00#[error]split/AGENTS.md",
	pathNewline,
}

func hostileResult() *lint.Result {
	r := &lint.Result{}
	for i, p := range hostileNames {
		r.Findings = append(r.Findings, lint.Finding{
			Rule: "RL001", Name: "symlink", Severity: lint.Error, Path: p, Line: i % 2, Column: i % 2, UTF16Column: i % 2,
			Message:     "Rivumi will skip this file: it is a symbolic link to " + hostileNames[(i+1)%len(hostileNames)],
			Directories: []string{p, "::error::dir"},
		})
		r.Directories = append(r.Directories, lint.Directory{Path: p, Fingerprint: "rivumi-fp-v1:00",
			Layers: []lint.Layer{{Path: p, Scope: "project", State: "rejected", Reason: "RL001"}}})
	}
	r.Drift = []lint.Drift{{Directories: hostileNames, Changes: []lint.LayerChange{
		{Path: hostileNames[0], Change: "added", Detail: hostileNames[5]},
		{Path: hostileNames[6], Change: "rejected", Detail: "RL001: it is a symbolic link to ##[add-mask]x"},
	}}}
	return r
}

// TestNoRunnerCommandInOutput is §10 / §7: no format turns a file name or a
// symlink target into a workflow command. text, json, sarif, rdjson,
// rdjsonl and markdown print no line the runner would run; github prints
// only its own ::error/::warning/::notice annotations.
func TestNoRunnerCommandInOutput(t *testing.T) {
	r := hostileResult()
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			w, _ := Lookup(name)
			var buf bytes.Buffer
			var err error
			if name == "github" {
				err = writeGitHub(&buf, r, Options{}, githubEnv(nil))
			} else {
				err = w(&buf, r, Options{ToolVersion: "test"})
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range runnerLines(buf.String()) {
				syntax, ok := runnerLineCommand(line)
				if !ok {
					continue
				}
				if name == "github" && syntax == "v2" {
					c, ok := parseRunnerCommand(line)
					if ok && (c.name == "error" || c.name == "warning" || c.name == "notice") {
						continue // our own annotation; the runner never reads v1 syntax in it
					}
				}
				t.Errorf("%s line %d is a workflow command (%s syntax) for the runner: %q", name, i+1, syntax, line)
			}
			switch name {
			case "json", "sarif", "rdjson":
				if !json.Valid(buf.Bytes()) {
					t.Fatalf("%s output is not valid JSON", name)
				}
			case "rdjsonl":
				for _, l := range strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n") {
					if !json.Valid([]byte(l)) {
						t.Fatalf("rdjsonl line is not valid JSON: %q", l)
					}
				}
			}
		})
	}
}

// TestJSONKeepsValuesExact: the JSON formats write "##[" as "##\u005b",
// which decodes to the same string (§7: JSON carries the exact name).
func TestJSONKeepsValuesExact(t *testing.T) {
	r := hostileResult()
	var buf bytes.Buffer
	if err := JSON(&buf, r, Options{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Findings []lint.Finding `json:"findings"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for i, f := range doc.Findings {
		if f.Path != hostileNames[i] || f.Message != r.Findings[i].Message {
			t.Errorf("finding %d: path %q message %q; want %q, %q", i, f.Path, f.Message, hostileNames[i], r.Findings[i].Message)
		}
	}
}

// FuzzTextLine is §7 text and §10: whatever the path, message, directories
// and width, a finding starts with the line `LOC: severity RULE name: …`,
// its other lines are indented, no word of the message is lost, and no
// line holds a control character or is a workflow command the GitHub
// Actions runner would run.
func FuzzTextLine(f *testing.F) {
	for _, s := range hostileNames {
		f.Add(s, "msg "+s, s, uint8(0))
		f.Add(s, "Rivumi will skip this file: it is "+s+"; its directory contributes nothing. Fix: rename "+s, s, uint8(40))
	}
	f.Add("", "", "", uint8(0))
	f.Add("AGENTS.md", "plain", ".", uint8(1))
	f.Add("\u2028::x", "\u0085::y", "\x1b[31m", uint8(12))
	f.Add("a.md", "a; ::x. ::y: ::z", "d", uint8(3))
	// Two spaces before "::": the wrap falls on the empty word between
	// them, and the next line started " ::x:" (CI, session 8).
	f.Add("p", "m", "aaaa  ::x", uint8(2))
	// A command to paste, at widths that used to break it (#33.7).
	f.Add("s/AGENTS.md", "Rivumi will skip this file: it is a link. Fix: replace it with a copy: `cp s/AGENTS.md s/AGENTS.md.tmp && mv s/AGENTS.md.tmp s/AGENTS.md`", ".", uint8(60))
	f.Add("s/AGENTS.md", "it is a link; use `cp  a b` and `mv b a`, then `git add s/AGENTS.md`", ".", uint8(20))
	f.Fuzz(func(t *testing.T, path, msg, dir string, width uint8) {
		r := &lint.Result{
			Findings: []lint.Finding{{Rule: "RL004", Name: "invalid-utf8", Severity: lint.Warning, Path: path, Line: 3, Column: 4, UTF16Column: 4,
				Message: msg, Directories: []string{dir}, Excerpt: msg}},
			Directories: []lint.Directory{{Path: dir}},
			Drift:       []lint.Drift{{Directories: []string{dir}, Changes: []lint.LayerChange{{Path: path, Change: "modified", Detail: msg}}}},
		}
		var buf bytes.Buffer
		if err := Text(&buf, r, Options{Width: int(width)}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		for i, l := range lines {
			if strings.ContainsFunc(l, isControl) {
				t.Fatalf("line %d holds a control character: %q", i+1, l)
			}
			if syntax, ok := runnerLineCommand(l); ok {
				t.Fatalf("line %d is a workflow command (%s) for the GitHub runner: %q", i+1, syntax, l)
			}
		}
		loc, rest, ok := strings.Cut(lines[0], ": warning RL004 invalid-utf8: ")
		if !ok {
			t.Fatalf("first line %q lacks the severity, rule and name", lines[0])
		}
		if want := fmt.Sprintf("%s:3:4", safe(path)); loc != want && loc != "./"+want {
			t.Fatalf("location %q, want %q", loc, want)
		}
		// The finding's block runs up to its affects line.
		block := []string{rest}
		for _, l := range lines[1:] {
			if !strings.HasPrefix(l, "    ") {
				t.Fatalf("line %q of the finding is not indented:\n%s", l, out)
			}
			if strings.HasPrefix(l, "    affects: ") {
				break
			}
			if excerptLine.MatchString(l) {
				continue
			}
			block = append(block, l)
		}
		if got, want := messageWords(strings.Join(block, " ")), messageWords(safe(msg)); !slices.Equal(got, want) {
			t.Fatalf("message words %q, want %q:\n%s", got, want, out)
		}
		// #33.7: a code span holding a space (a command to paste) is whole
		// on one line of the finding, whatever the width. A double quote
		// or a "Fix:" can part the message into clauses elsewhere than
		// the spans' backticks pair, so those messages are left out.
		if m := safe(msg); !strings.Contains(m, `"`) && !strings.Contains(m, ". Fix: ") {
			for _, span := range atoms(strings.Split(m, " ")) {
				if strings.Contains(span, " ") && !slices.ContainsFunc(block, func(l string) bool { return strings.Contains(l, span) }) {
					t.Fatalf("the span %q is not whole on one line:\n%s", span, out)
				}
			}
		}
	})
}

// excerptLine matches the source excerpt's two lines.
var excerptLine = regexp.MustCompile(`^ {4}(\d+ | +)\| `)

// messageWords are the words of a message as the text output may split
// it: clause punctuation, the "fix:" label and the escape of a colon that
// would start a line are not words.
func messageWords(s string) []string {
	s = strings.ReplaceAll(s, `\x3a`, ":")
	var out []string
	for _, w := range strings.Fields(s) {
		w = strings.ToLower(strings.TrimRight(w, ".;:"))
		if w != "" && w != "fix" && w != "or" && w != "run" {
			out = append(out, w)
		}
	}
	return out
}
