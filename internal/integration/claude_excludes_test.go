package integration

// TestClaudeExcludesSettings proves the claude profile's reading of
// claudeMdExcludes from Claude Code's settings files (#33.4) against the
// real Claude Code 2.1.328: on a few trees, the instruction block the
// binary sends from one directory and `rivumi-lint preview --agent claude
// --section instructions` must be the same bytes, and the JSON must call
// the view exact (or, where the profile cannot model a file, not exact,
// naming it). Nothing is passed through --settings or the config: the
// patterns come from the files alone.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClaudeExcludesSettings(t *testing.T) {
	bin := claudeBinary(t)
	lint := rivumiLint(t)
	shared := map[string]string{
		"CLAUDE.md":              "root\n",
		"sub/CLAUDE.md":          "sub @imp.md\n",
		"sub/imp.md":             "imp\n",
		"sub/CLAUDE.local.md":    "sub local\n",
		"sub/.claude/CLAUDE.md":  "sub .claude/CLAUDE.md\n",
		"sub/.claude/rules/r.md": "rule r\n",
		"sub/.claude/rules/q.md": "rule q\n",
		"sub/deep/notes.txt":     "not an instruction file\n",
	}
	for i, c := range []struct {
		name  string
		files map[string]string // besides shared, in the repository
		home  map[string]string // the user's home
		dir   string
		// inexact is a part of the reason the product must give; "" for
		// an exact view, whose text must be the binary's.
		inexact string
	}{
		// Every settings file Claude Code reads from sub, merged: the
		// user's, the Git top's local one, sub's shared and local ones; the
		// top's shared settings.json is not read from sub. picomatch
		// braces, "*" within a segment, a relative pattern matching
		// nothing, an empty one dropped, a byte-order mark and "$schema"
		// allowed; an excluded file's import goes with it; the user's rule
		// is excluded like a project's.
		{name: "merged", dir: "sub",
			files: map[string]string{
				".claude/settings.local.json":     `{"claudeMdExcludes": ["**/.claude/rules/q.md"]}`,
				".claude/settings.json":           `{"claudeMdExcludes": ["**/repo/CLAUDE.md"]}`,
				"sub/.claude/settings.json":       `{"claudeMdExcludes": ["**/sub/{CLAUDE.local,none}.md"]}`,
				"sub/.claude/settings.local.json": "\ufeff" + `{"$schema": "https://json.schemastore.org/claude-code-settings.json", "claudeMdExcludes": ["*/CLAUDE.md", "**/sub/CLAUDE.md", "relative/CLAUDE.md", ""]}`,
			},
			home: map[string]string{
				".claude/CLAUDE.md":     "user file\n",
				".claude/rules/u.md":    "user rule\n",
				".claude/settings.json": `{"claudeMdExcludes": ["**/.claude/rules/u.md"]}`,
			}},
		// A negated pattern excludes every other file (and its imports).
		{name: "negation", dir: "sub",
			files: map[string]string{"sub/.claude/settings.local.json": `{"claudeMdExcludes": ["!**/sub/CLAUDE.md"]}`}},
		// A directory below sub reads neither sub's settings nor shares
		// sub's view; an empty settings file is no settings.
		{name: "below", dir: "sub/deep",
			files: map[string]string{
				"sub/.claude/settings.local.json": `{"claudeMdExcludes": ["**/CLAUDE.md"]}`,
				".claude/settings.local.json":     "",
			}},
		// Not JSON: Claude Code drops the file (and says so on stderr);
		// the profile says it does not model it.
		{name: "bad JSON", dir: "sub",
			files:   map[string]string{"sub/.claude/settings.local.json": `{"claudeMdExcludes": ["**/sub/CLAUDE.md"],}`},
			inexact: "sub/.claude/settings.local.json is not valid JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			needClaudeCleanAbove(t, base)
			p := claudePaths{base: base, repo: filepath.Join(base, "repo")}
			if err := os.MkdirAll(p.repo, 0o755); err != nil {
				t.Fatal(err)
			}
			git(t, p.repo, "init", "-q")
			writeFiles(t, p.repo, shared)
			writeFiles(t, p.repo, c.files)
			cfg := filepath.Join(base, "rivumi-lint.yaml")
			if err := os.WriteFile(cfg, []byte("version: 1\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res := runClaude(t, bin, filepath.Join(p.repo, filepath.FromSlash(c.dir)), claudeOptions{home: c.home})
			want, _, err := claudeBlock(res.bodies)
			if err != nil {
				t.Fatalf("%v\n%s", err, res)
			}
			a := claudeCLI(t, lint, p, cfg, res.home, c.dir, i)
			switch {
			case a.err != "":
				t.Fatalf("%s (%s)", a.err, a.how)
			case c.inexact != "":
				if a.exact || !strings.Contains(a.inexact, c.inexact) {
					t.Errorf("exact %v (%q), want not exact: …%s… (%s)", a.exact, a.inexact, c.inexact, a.how)
				}
			case !a.exact:
				t.Errorf("not exact: %s (%s)", a.inexact, a.how)
			case a.text != want:
				t.Errorf("claude and rivumi-lint differ (%s): %s", a.how, claudeByteDiff(want, a.text))
			}
		})
	}
}
