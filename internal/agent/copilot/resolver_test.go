package copilot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// copilotView resolves dir of the tree at root (a Git top) with o.
func copilotView(t *testing.T, root, dir string, o Options) *agent.View {
	t.Helper()
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeWT := wt.Close
	t.Cleanup(func() { closeWT() })
	o.RootAbs = root
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: Also(), AnyCase: AnyCase()})
	v, err := New(e, o).View(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// The expected spans are written from the rules of docs/agent-profiles.md
// ("What GitHub Copilot CLI 1.0.102 does"); TestCopilotHarnessTrees holds
// the same rules to the binary.

func block(text string) string { return "<custom_instruction>\n" + text + "\n</custom_instruction>" }

func imported(src, text string) string {
	return "\n\n<imported_custom_instruction source=\"" + src + "\">\n" + text + "\n</imported_custom_instruction>"
}

func join(parts ...string) string { return strings.Join(parts, "\n\n") }

// Rules 1–3: the root, the working directory, then the directories
// between from the working directory's parent upward, all four names each.
func TestCopilotChainOrder(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		".github/copilot-instructions.md":       "root copilot\n",
		"AGENTS.md":                             "root agents\n",
		"GEMINI.md":                             "root gemini\n",
		"AGENTS.override.md":                    "never read\n",
		"a/AGENTS.md":                           "a agents\n",
		"a/CLAUDE.md":                           "a claude\n",
		"a/b/AGENTS.md":                         "b agents\n",
		"a/b/c/.github/copilot-instructions.md": "wd copilot\n",
		"a/b/c/CLAUDE.md":                       "wd claude\n",
		"a/b/c/d/AGENTS.md":                     "below\n",
	})
	v := copilotView(t, root, "a/b/c", Options{Git: true})
	want := join(block("root copilot\n"), block("wd copilot\n"), block("root agents\n"), block("root gemini\n"),
		block("wd claude\n"), block("b agents\n"), block("a agents\n"), block("a claude\n"))
	if got := string(v.Message()); got != want || !v.Exact() {
		t.Errorf("span (exact %v, %s)\n%q\nwant\n%q", v.Exact(), v.Inexact, got, want)
	}
	// No Git: the directory alone.
	v = copilotView(t, root, "a/b/c", Options{})
	if got, want := string(v.Message()), join(block("wd copilot\n"), block("wd claude\n")); got != want {
		t.Errorf("no Git: %q, want %q", got, want)
	}
}

// Rules 5 and 7: raw text, a BOM removed, invalid UTF-8 replaced; a
// text loaded already is dropped; a link beside its target loads once,
// one elsewhere loads the raw text again.
func TestCopilotRenderingAndDuplicates(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"AGENTS.md":   "root @x.md\n",
		"x.md":        "x\n\n",
		"GEMINI.md":   "-> AGENTS.md",
		"CLAUDE.md":   "\ufeffbad \xff\r\n",
		"a/AGENTS.md": "bad \xff\r\n",
		"a/CLAUDE.md": "",
		"a/GEMINI.md": "-> ../AGENTS.md",
	})
	v := copilotView(t, root, "a", Options{Git: true})
	want := join(block("root @x.md"+imported(root+"/x.md", "x")+"\n"), block("bad \ufffd\r\n"), block(""), block("root @x.md\n"))
	if got := string(v.Message()); got != want {
		t.Errorf("span\n%q\nwant\n%q", got, want)
	}
	// The duplicate's text is in the span (once): loaded, none of its
	// bytes sent again; the link beside its target is the same file.
	states := map[string]agent.State{}
	kept := map[string]int64{}
	for _, c := range v.Candidates {
		states[c.Path], kept[c.Path] = c.State, c.Kept
	}
	if states["a/AGENTS.md"] != agent.Loaded || kept["a/AGENTS.md"] != 0 || states["GEMINI.md"] != agent.Shadowed {
		t.Errorf("states %v, kept %v", states, kept)
	}
}

// Rule 6: imports in place, a repeat by the same file skipped, another
// file's import whole again; not expanded in code, for an address, an
// absolute path, a missing file, a path out of the root.
func TestCopilotImports(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"AGENTS.md": "a @d/a.md and @d/a.md\n`@d/a.md`\n```\n@d/a.md\n```\nme@d/a.md @/etc/x @nope.md @../up.md\n",
		"d/a.md":    "in a @b.md",
		"d/b.md":    "b @a.md\n",
		"CLAUDE.md": "c @d/b.md\n",
	})
	v := copilotView(t, root, "", Options{Git: true})
	skip := func(src string) string {
		return "\n\n<imported_custom_instruction source=\"" + src + "\" skipped=\"already-loaded\" />"
	}
	a := imported(root+"/d/a.md", "in a @b.md"+imported(root+"/d/b.md", "b @a.md"+skip(root+"/d/a.md")))
	want := join(
		block("a @d/a.md"+a+" and @d/a.md"+skip(root+"/d/a.md")+"\n`@d/a.md`\n```\n@d/a.md\n```\nme@d/a.md @/etc/x @nope.md @../up.md\n"),
		block("c @d/b.md"+imported(root+"/d/b.md", "b @a.md"+imported(root+"/d/a.md", "in a @b.md"+skip(root+"/d/b.md")))+"\n"))
	if got := string(v.Message()); got != want {
		t.Errorf("span\n%q\nwant\n%q", got, want)
	}
}

// Rule 4: folder files of the root and the working directory, inlined or
// tabled by applyTo/paths; the table after the inlined ones.
func TestCopilotFolderFiles(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"AGENTS.md":                                  "root\n",
		".github/instructions/b.instructions.md":     "---\napplyTo: \"src/**, lib/**\"\ndescription: code\n---\nb\n",
		".github/instructions/a/z.instructions.md":   "---\napplyTo: \"**\"\n---\nz\n",
		".github/instructions/c.md":                  "not an instructions file\n",
		".claude/rules/r.md":                         "---\npaths:\n  - \"x/**\"\n---\nr\n",
		".claude/rules/s.md":                         "\ufeffs\n",
		"m/.github/instructions/m.instructions.md":   "between: never\n",
		"m/w/.github/instructions/w.instructions.md": "---\napplyTo: [\"*.go\"]\n---\nw\n",
	})
	v := copilotView(t, root, "m/w", Options{Git: true})
	table := tablePreamble + strings.Join([]string{
		"| src/**, lib/** | '.github/instructions/b.instructions.md' | code |",
		"| x/** | '.claude/rules/r.md' |  |",
		"| *.go | '.github/instructions/w.instructions.md' |  |",
	}, "\n")
	want := block("root\n") + "\n\n" + join("---\napplyTo: \"**\"\n---\nz\n", "s\n", table) + "\n"
	if got := string(v.Message()); got != want {
		t.Errorf("span\n%q\nwant\n%q", got, want)
	}
}

// Rule 8: the user's files first; COPILOT_CUSTOM_INSTRUCTIONS_DIRS makes
// a view not exact; so does a root below the Git top.
func TestCopilotUserAndInexact(t *testing.T) {
	home := t.TempDir()
	for p, c := range map[string]string{
		"copilot-instructions.md":        "user\n",
		"instructions/u.instructions.md": "---\napplyTo: \"*.md\"\n---\nu\n",
		"AGENTS.md":                      "not read\n",
	} {
		full := filepath.Join(home, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u, err := ReadUser(home)
	if err != nil {
		t.Fatal(err)
	}
	root := agenttest.Tree(t, map[string]string{"AGENTS.md": "repo\n"})
	v := copilotView(t, root, "", Options{Git: true, User: u})
	want := join(block("user\n"), block("repo\n")) + "\n\n" + tablePreamble + "| *.md | '" + filepath.ToSlash(home) + "/instructions/u.instructions.md' |  |\n"
	if got := string(v.Message()); got != want || !v.Exact() {
		t.Errorf("span (exact %v)\n%q\nwant\n%q", v.Exact(), got, want)
	}
	if v := copilotView(t, root, "", Options{Git: true, CustomDirs: "/x"}); v.Exact() {
		t.Error("COPILOT_CUSTOM_INSTRUCTIONS_DIRS set: the view says it is exact")
	}
	// A root below the Git top: the chain is modelled from the root (the
	// part of it in the repository), and the view is not exact.
	root = agenttest.Tree(t, map[string]string{"AGENTS.md": "repo\n", "a/AGENTS.md": "a\n"})
	v = copilotView(t, root, "a", Options{GitAbove: true})
	if v.Exact() {
		t.Error("a root below the Git top: the view says it is exact")
	}
	if got, want := string(v.Message()), join(block("repo\n"), block("a\n")); got != want {
		t.Errorf("below the Git top: %q, want %q", got, want)
	}
}

func TestCopilotFileState(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{"AGENTS.md": "x\n", "a/.github/copilot-instructions.md": "y\n", "README.md": "z\n"})
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	r := New(resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: Also()}), Options{RootAbs: root, Git: true})
	for p, want := range map[string]bool{"AGENTS.md": true, "a/.github/copilot-instructions.md": true, "README.md": false, "CLAUDE.md": false} {
		if c, ok := r.FileState(p); ok != want || ok && c.State != agent.Loaded {
			t.Errorf("FileState(%s) = %v, %v; want %v", p, c.State, ok, want)
		}
	}
}

// The root's folders are listed once per resolver and serve every view:
// each view still has the same span and the same inexact reason.
func TestCopilotFoldersShared(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		".github/instructions/a.instructions.md": "a\n",
		".github/instructions/l.instructions.md": "-> a.instructions.md",
		"x/AGENTS.md":                            "x\n",
	})
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	r := New(resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: Also()}), Options{RootAbs: root, Git: true})
	for dir, want := range map[string]string{"": "a\n", "x": block("x\n") + "\n\na\n\n"} {
		v, err := r.View(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(v.Message()); got != want || v.Exact() || !strings.Contains(v.Inexact, "l.instructions.md") {
			t.Errorf("%q: %q (inexact %q), want %q, not exact", dir, got, v.Inexact, want)
		}
	}
}

// A directory that adds nothing shares the view of the directories below
// the same nearest one that does (quietKey): the same message and files as
// its own resolution, in whatever order the views are asked for.
func TestCopilotQuietDirectoriesShare(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		".github/copilot-instructions.md":     "root copilot\n",
		"AGENTS.md":                           "root agents\n",
		"a/AGENTS.md":                         "a agents\n",
		"a/b/c/keep":                          "",
		"a/b/d/CLAUDE.md":                     "d claude\n",
		"a/b/d/e/f/keep":                      "",
		"a/x/.github/copilot-instructions.md": "x copilot\n",
		"a/x/y/keep":                          "",
		"q/r/keep":                            "",
	})
	dirs := []string{"a/b/d/e/f", "a/b/c", "a/b", "a/b/d/e", "a/x/y", "q/r", "q", "a", "", "a/b/d", "a/x"}
	open := func() agent.Engine {
		wt, err := resolve.OpenWorktree(root, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { wt.Close() })
		return resolve.New(wt, resolve.Options{Normals: []string{"AGENTS.md"}, MaxFileBytes: 32768, Also: Also()})
	}
	o := Options{RootAbs: root, Git: true}
	shared := New(open(), o)
	shares := 0
	for _, d := range dirs {
		got, err := shared.View(d)
		if err != nil {
			t.Fatal(err)
		}
		want, err := New(open(), o).View(d)
		if err != nil {
			t.Fatal(err)
		}
		if got.Dir != d || string(got.Message()) != string(want.Message()) || len(got.Candidates) != len(want.Candidates) || got.Inexact != want.Inexact {
			t.Errorf("%s: shared view %q (%d files), own %q (%d files)", d, got.Message(), len(got.Candidates), want.Message(), len(want.Candidates))
		}
		if got.Shares != nil {
			shares++
		}
	}
	// a/b/c shares with a/b (both below a), a/b/d/e/f with a/b/d/e, q/r with q.
	if shares != 3 {
		t.Errorf("%d views shared, want 3", shares)
	}
}

// Rule 2: Copilot reads the entry that is the name in any letter case. A GEMINI.md, in any case, has its
// imports not expanded; the others expand theirs, a link's beside it.
func TestCopilotOtherCaseAndImports(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"a/agents.md":                       "lower @x.md\n",
		"a/x.md":                            "x\n",
		"a/Gemini.md":                       "gemini @x.md\n",
		"c/.github/Copilot-Instructions.md": "copilot in another case\n",
		"e/AGENTS.md":                       "self @AGENTS.md\n",
		"f/AGENTS.md":                       "bad \xfe @AGENTS.md\n",
	})
	for dir, want := range map[string]string{
		"a": join(block("lower @x.md"+imported(root+"/a/x.md", "x")+"\n"), block("gemini @x.md\n")),
		"c": block("copilot in another case\n"),
		"e": block("self @AGENTS.md\n\n<imported_custom_instruction source=\"" + root + "/e/AGENTS.md\" skipped=\"already-loaded\" />\n"),
		// Not UTF-8 itself, it is still the file loaded.
		"f": block("bad \ufffd @AGENTS.md\n\n<imported_custom_instruction source=\"" + root + "/f/AGENTS.md\" skipped=\"already-loaded\" />\n"),
	} {
		v := copilotView(t, root, dir, Options{Git: true})
		if got := string(v.Message()); got != want || !v.Exact() {
			t.Errorf("%s: span (exact %v, %s)\n%q\nwant\n%q", dir, v.Exact(), v.Inexact, got, want)
		}
	}
}

// Rule 2: two entries of one directory that are the same name in two
// cases make the view not exact (Copilot takes the first in the
// directory's order on disk). Only a case-sensitive file system holds
// them.
func TestCopilotCaseTwins(t *testing.T) {
	files := map[string]string{
		"b/AGENTS.md": "upper\n",
		"b/agents.md": "lower\n",
		"d/Agents.md": "one\n",
		"d/aGENTS.md": "two\n",
	}
	root := agenttest.Tree(t, files)
	for p, text := range files {
		if got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p))); err != nil || string(got) != text {
			t.Skipf("the file system folds case (%s reads %q, %v): it cannot hold two names that differ only in case", p, got, err)
		}
	}
	for dir, names := range map[string]string{"b": "AGENTS.md and agents.md", "d": "Agents.md and aGENTS.md"} {
		if v := copilotView(t, root, dir, Options{Git: true}); v.Exact() || !strings.Contains(v.Inexact, names) {
			t.Errorf("%s: exact %v (%q), want not exact naming %s", dir, v.Exact(), v.Inexact, names)
		}
	}
}

// Rule 6: outside Git an import that leaves the working directory is not
// expanded, even where the root the check was given holds it.
func TestCopilotNoGitImportLeavesDirectory(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"up.md":       "up\n",
		"a/AGENTS.md": "a @../up.md @sub/x.md\n",
		"a/sub/x.md":  "x\n",
	})
	v := copilotView(t, root, "a", Options{})
	want := block("a @../up.md @sub/x.md" + imported(root+"/a/sub/x.md", "x") + "\n")
	if got := string(v.Message()); got != want || !v.Exact() {
		t.Errorf("span (exact %v, %s)\n%q\nwant\n%q", v.Exact(), v.Inexact, got, want)
	}
}

// Rule 2: .claude/CLAUDE.md is read in the directories between the root
// and the working directory, after CLAUDE.md, and not at either end.
func TestCopilotDotClaudeBetween(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		".claude/CLAUDE.md":     "root dot\n",
		"a/CLAUDE.md":           "a claude\n",
		"a/GEMINI.md":           "a gemini\n",
		"a/.claude/CLAUDE.md":   "a dot\n",
		"a/b/.claude/CLAUDE.md": "wd dot\n",
		"a/b/AGENTS.md":         "wd\n",
	})
	v := copilotView(t, root, "a/b", Options{Git: true})
	want := join(block("wd\n"), block("a claude\n"), block("a dot\n"), block("a gemini\n"))
	if got := string(v.Message()); got != want || !v.Exact() {
		t.Errorf("span (exact %v, %s)\n%q\nwant\n%q", v.Exact(), v.Inexact, got, want)
	}
	if got := string(copilotView(t, root, "a", Options{Git: true}).Message()); got != join(block("a claude\n"), block("a gemini\n")) {
		t.Errorf("from a: %q", got)
	}
}

// Rule 7: in one directory a file another of its names led to already is
// not loaded again, whichever of the two is the link; in another
// directory it is a text of its own.
func TestCopilotSameFileInDirectory(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"GEMINI.md":   "g @n.md\n",
		"n.md":        "n\n",
		"CLAUDE.md":   "-> GEMINI.md",
		"docs/r.md":   "r @x.md\n",
		"docs/x.md":   "docs x\n",
		"a/x.md":      "a x\n",
		"a/AGENTS.md": "-> ../docs/r.md",
		"a/GEMINI.md": "-> ../docs/r.md",
	})
	v := copilotView(t, root, "", Options{Git: true})
	if got, want := string(v.Message()), block("g @n.md"+imported(root+"/n.md", "n")+"\n"); got != want || !v.Exact() {
		t.Errorf("root: span (exact %v, %s)\n%q\nwant\n%q", v.Exact(), v.Inexact, got, want)
	}
	v = copilotView(t, root, "a", Options{Git: true})
	want := join(block("g @n.md"+imported(root+"/n.md", "n")+"\n"), block("r @x.md"+imported(root+"/a/x.md", "a x")+"\n"))
	if got := string(v.Message()); got != want || !v.Exact() {
		t.Errorf("a: span (exact %v, %s)\n%q\nwant\n%q", v.Exact(), v.Inexact, got, want)
	}
}

// Rule 6: an imported file is named, and known as loaded, by its real
// path: x.md -> docs/y.md and @docs/y.md are one file, and a link to a
// file importing its own link's name imports itself.
func TestCopilotImportRealPath(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"AGENTS.md":   "top @x.md @docs/y.md\n",
		"docs/y.md":   "Y\n",
		"x.md":        "-> docs/y.md",
		"docs/s.md":   "self @AGENTS.md\n",
		"a/AGENTS.md": "-> ../docs/s.md",
	})
	skipped := func(p string) string {
		return "\n\n<imported_custom_instruction source=\"" + root + "/" + p + "\" skipped=\"already-loaded\" />"
	}
	top := block("top @x.md" + imported(root+"/docs/y.md", "Y") + " @docs/y.md" + skipped("docs/y.md") + "\n")
	if got := string(copilotView(t, root, "", Options{Git: true}).Message()); got != top {
		t.Errorf("root: %q, want %q", got, top)
	}
	if got, want := string(copilotView(t, root, "a", Options{Git: true}).Message()), join(top, block("self @AGENTS.md"+skipped("docs/s.md")+"\n")); got != want {
		t.Errorf("a: %q, want %q", got, want)
	}
}
