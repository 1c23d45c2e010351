package integration

// TestClaudeHarness checks the Claude Code harness (claudeharness_test.go)
// on fixed trees whose expected texts were written from experiments with
// the pinned release: each tree documents some of the rules the claude
// profile models (the chain, the names and their order, the labels, front
// matter, comments, imports, encoding, the AGENTS.md modes, links).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const claudePreamble = "<system-reminder>\nCodebase and user instructions are shown below. Be sure to adhere to these instructions. " +
	"IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\n"

const (
	claudeProjectLabel = " (project instructions, checked into the codebase)"
	claudeLocalLabel   = " (user's private project instructions, not checked in)"
	claudeUserLabel    = " (user's private global instructions for all projects)"
)

// claudeFile is one file's part of the instruction block.
type claudeFile struct{ path, label, text string }

// claudeText is the block Claude Code sends for files, in order: each
// "Contents of PATH LABEL:", a blank line, the text (trimmed), the files
// joined by blank lines, in <system-reminder> after the preamble.
func claudeText(files ...claudeFile) string {
	parts := make([]string, len(files))
	for i, f := range files {
		parts[i] = "Contents of " + f.path + f.label + ":\n\n" + f.text
	}
	return claudePreamble + strings.Join(parts, "\n\n") + "\n</system-reminder>"
}

// claudeTree is a fixture: files and links under a fresh root, Git
// repositories in some directories.
type claudeTree struct {
	files map[string]string
	links map[string]string // link → target, as written
	git   []string
}

// make writes the tree under a fresh directory and returns its physical
// path: Claude Code names files by the physical working directory.
func (tr claudeTree) make(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	needClaudeCleanAbove(t, root)
	for _, d := range tr.git {
		p := filepath.Join(root, filepath.FromSlash(d))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		git(t, p, "init", "-q")
	}
	writeFiles(t, root, tr.files)
	for link, target := range tr.links {
		p := filepath.Join(root, filepath.FromSlash(link))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// claudeMode is the --settings that picks the built-in agents-md plugin's
// mode (the /config row "Project instructions").
func claudeMode(mode string) map[string]any {
	return map[string]any{"pluginConfigs": map[string]any{
		"cc-plugin-agents-md@builtin": map[string]any{"options": map[string]any{"instructionFiles": mode}},
	}}
}

func TestClaudeHarness(t *testing.T) {
	bin := claudeBinary(t)

	t.Run("chain", func(t *testing.T) {
		t.Parallel()
		root := claudeTree{
			git: []string{"repo"},
			files: map[string]string{
				// Above the Git root: the chain runs from the filesystem
				// root (itself left out) to the working directory.
				"CLAUDE.md": "above the repository\n",
				// Front matter and a block-level comment are dropped; the
				// import leaves the working directory, so it is not loaded.
				"repo/CLAUDE.md":          "---\ndescription: dropped\n---\n\nrepo CLAUDE.md\n\n<!-- a block comment -->\n\nimports @docs/style.md (outside the working directory)\n\n\n",
				"repo/docs/style.md":      "style\n",
				"repo/.claude/CLAUDE.md":  "repo .claude/CLAUDE.md\n",
				"repo/.claude/rules/a.md": "---\npaths: [\"**\"]\n---\nrule for every path\n",
				// A rule with paths other than ** waits for a matching file.
				"repo/.claude/rules/scoped.md": "---\npaths: \"src/**\"\n---\nscoped rule\n",
				"repo/.claude/rules/notes.txt": "not .md\n",
				"repo/CLAUDE.local.md":         "repo local\n",
				"repo/AGENTS.md":               "not loaded: a CLAUDE.md is on the chain\n",
				// An inline comment stays; an import inside the working
				// directory follows its file; a code span is no import.
				"repo/sub/CLAUDE.md": "sub CLAUDE.md, an inline <!-- kept --> comment\n@notes.md\n`@code.md` is not an import\n",
				// No "<!--" in the file: a CR stays.
				"repo/sub/notes.md": "notes\r\nwith a CR\n",
				"repo/sub/code.md":  "never\n",
				// Invalid UTF-8: U+FFFD per maximal invalid sequence.
				"repo/sub/CLAUDE.local.md":    "local \xff\xc3 bytes\n",
				"repo/sub/below/CLAUDE.md":    "below the working directory\n",
				"repo/sub/.claude/rules/x.md": "  \n\t\n", // whitespace only: left out
			},
		}.make(t)
		res := runClaude(t, bin, filepath.Join(root, "repo", "sub"), claudeOptions{
			home: map[string]string{".claude/CLAUDE.md": "user file\n"},
		})
		got, ok, err := claudeBlock(res.bodies)
		if err != nil {
			t.Fatalf("%v\n%s", err, res)
		}
		want := claudeText(
			claudeFile{res.home + "/.claude/CLAUDE.md", claudeUserLabel, "user file"},
			claudeFile{root + "/CLAUDE.md", claudeProjectLabel, "above the repository"},
			claudeFile{root + "/repo/CLAUDE.md", claudeProjectLabel, "repo CLAUDE.md\n\nimports @docs/style.md (outside the working directory)"},
			claudeFile{root + "/repo/.claude/CLAUDE.md", claudeProjectLabel, "repo .claude/CLAUDE.md"},
			claudeFile{root + "/repo/.claude/rules/a.md", claudeProjectLabel, "rule for every path"},
			claudeFile{root + "/repo/CLAUDE.local.md", claudeLocalLabel, "repo local"},
			claudeFile{root + "/repo/sub/CLAUDE.md", claudeProjectLabel, "sub CLAUDE.md, an inline <!-- kept --> comment\n@notes.md\n`@code.md` is not an import"},
			claudeFile{root + "/repo/sub/notes.md", claudeProjectLabel, "notes\r\nwith a CR"},
			claudeFile{root + "/repo/sub/CLAUDE.local.md", claudeLocalLabel, "local \ufffd\ufffd bytes"},
		)
		if !ok || got != want {
			t.Errorf("instruction block (ok %v):\n%q\nwant:\n%q", ok, got, want)
		}
	})

	// agents: no CLAUDE.md of the project's own on the chain (a
	// whitespace-only one, one over 4 MiB and a rules file do not count), so
	// the default mode loads every AGENTS.md and .claude/AGENTS.md, each
	// after the files of its directory; instructionFiles claude-md does not.
	agents := claudeTree{
		git: []string{"repo"},
		files: map[string]string{
			"repo/AGENTS.md":            "repo AGENTS.md\n",
			"repo/CLAUDE.local.md":      strings.Repeat("x", 4<<20+1), // over 4 MiB: skipped whole
			"repo/a/CLAUDE.md":          " \n\t\n",
			"repo/a/.claude/rules/r.md": "a rule\n",
			"repo/a/AGENTS.md":          "a AGENTS.md @notes.md\n",
			"repo/a/notes.md":           "a notes\n",
			"repo/a/AGENTS.override.md": "never read\n",
			"repo/a/.claude/AGENTS.md":  "a .claude/AGENTS.md\n",
			"repo/a/b/AGENTS.md":        "below the working directory\n",
		},
	}
	for _, c := range []struct {
		name     string
		settings map[string]any
		want     func(root string) string
	}{
		{"agents/default", nil, func(root string) string {
			return claudeText(
				claudeFile{root + "/repo/AGENTS.md", claudeProjectLabel, "repo AGENTS.md"},
				claudeFile{root + "/repo/a/.claude/rules/r.md", claudeProjectLabel, "a rule"},
				claudeFile{root + "/repo/a/AGENTS.md", claudeProjectLabel, "a AGENTS.md @notes.md"},
				claudeFile{root + "/repo/a/notes.md", claudeProjectLabel, "a notes"},
				claudeFile{root + "/repo/a/.claude/AGENTS.md", claudeProjectLabel, "a .claude/AGENTS.md"},
			)
		}},
		{"agents/claude-md", claudeMode("claude-md"), func(root string) string {
			return claudeText(claudeFile{root + "/repo/a/.claude/rules/r.md", claudeProjectLabel, "a rule"})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := agents.make(t)
			got, ok := claudeInstructions(t, bin, filepath.Join(root, "repo", "a"), c.settings)
			if want := c.want(root); !ok || got != want {
				t.Errorf("instruction block (ok %v):\n%q\nwant:\n%q", ok, got, want)
			}
		})
	}

	// link: a CLAUDE.md that links to AGENTS.md is a CLAUDE.md (named by
	// the link), so the default mode loads no AGENTS.md anywhere; beside
	// CLAUDE.md (claude-md-and-agents-md) an AGENTS.md whose text CLAUDE.md
	// already carries is not loaded twice; managed-only loads nothing here.
	link := claudeTree{
		git:   []string{"repo"},
		links: map[string]string{"repo/CLAUDE.md": "AGENTS.md"},
		files: map[string]string{
			"repo/AGENTS.md":         "shared AGENTS.md\n",
			"repo/a/AGENTS.md":       "a AGENTS.md\n",
			"repo/a/CLAUDE.local.md": "a local\n",
		},
	}
	for _, c := range []struct {
		name     string
		settings map[string]any
		want     func(root string) string
	}{
		{"link/default", nil, func(root string) string {
			return claudeText(
				claudeFile{root + "/repo/CLAUDE.md", claudeProjectLabel, "shared AGENTS.md"},
				claudeFile{root + "/repo/a/CLAUDE.local.md", claudeLocalLabel, "a local"},
			)
		}},
		{"link/claude-md-and-agents-md", claudeMode("claude-md-and-agents-md"), func(root string) string {
			return claudeText(
				claudeFile{root + "/repo/CLAUDE.md", claudeProjectLabel, "shared AGENTS.md"},
				claudeFile{root + "/repo/a/CLAUDE.local.md", claudeLocalLabel, "a local"},
				claudeFile{root + "/repo/a/AGENTS.md", claudeProjectLabel, "a AGENTS.md"},
			)
		}},
		{"link/managed-only", claudeMode("managed-only"), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := link.make(t)
			got, ok := claudeInstructions(t, bin, filepath.Join(root, "repo", "a"), c.settings)
			switch {
			case c.want == nil && ok:
				t.Errorf("an instruction block where none is sent:\n%q", got)
			case c.want != nil && (!ok || got != c.want(root)):
				t.Errorf("instruction block (ok %v):\n%q\nwant:\n%q", ok, got, c.want(root))
			}
		})
	}
}

// TestClaudeBlock checks how the harness reads a request body, without the
// binary.
func TestClaudeBlock(t *testing.T) {
	block := claudePreamble + "Contents of /r/CLAUDE.md" + claudeProjectLabel + ":\n\nx\n</system-reminder>"
	body := func(texts ...string) []byte {
		var b strings.Builder
		b.WriteString(`{"model":"m","messages":[{"role":"user","content":[`)
		for i, s := range texts {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`{"type":"text","text":` + s + `}`)
		}
		b.WriteString(`]}]}`)
		return []byte(b.String())
	}
	quote := func(s string) string { return `"` + strings.NewReplacer("\n", `\n`, `"`, `\"`).Replace(s) + `"` }

	got, ok, err := claudeBlock([][]byte{body(quote(block), `"hello"`), body(quote(block), `"hello"`)})
	if err != nil || !ok || got != block {
		t.Errorf("two equal bodies: %q, %v, %v", got, ok, err)
	}
	if _, ok, err := claudeBlock([][]byte{body(`"<system-reminder>\nAs you answer"`, `"hello"`)}); err != nil || ok {
		t.Errorf("no instruction block: ok %v, %v", ok, err)
	}
	if _, _, err := claudeBlock([][]byte{body(quote(block)), body(quote(block + " "))}); err == nil {
		t.Error("bodies that disagree: no error")
	}
	if _, _, err := claudeBlock([][]byte{body(quote(block + `\ud800`))}); err == nil {
		t.Error("a lone surrogate: no error")
	}
	if got, _, err := claudeBlock([][]byte{body(quote(block + `\ud83d\ude00 \\ud800`))}); err != nil || !strings.HasSuffix(got, "\U0001F600 \\ud800") {
		t.Errorf("a surrogate pair and an escaped backslash: %q, %v", got, err)
	}
}
