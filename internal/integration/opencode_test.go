package integration

// TestOpenCodeHarnessTrees checks the OpenCode harness
// (opencodeharness_test.go) on fixed trees, one rule (or two) per tree,
// whose expected spans were written from the rules of OpenCode 1.18.33's
// loader (Instruction.systemPaths and Instruction.system in the binary;
// packages/opencode/src/session/instruction.ts upstream): these runs of
// the pinned binary are the rules' evidence (#36).
//
// The rules, as these trees settle them:
//   - The user file comes first: the first of ~/.config/opencode/AGENTS.md
//     (XDG_CONFIG_HOME/opencode) and ~/.claude/CLAUDE.md that exists, even
//     when it is empty (and then dropped): the second is not looked at.
//   - Then the project chain: for each name of AGENTS.md, CLAUDE.md,
//     CONTEXT.md in turn, every file of that name from the working
//     directory up to the worktree root (Git's top level; outside Git the
//     filesystem root), deepest first; the first name with any match wins
//     for the whole chain. A match is anything that exists (a link is
//     followed: a dangling one is no match, a directory is one).
//   - Then the instructions arrays of the project's opencode.json(c) and
//     .opencode/opencode.json, in that order: a relative entry is a glob
//     matched in each directory from the working directory up to the
//     worktree root (whichever config holds it), an absolute one (or ~/)
//     a glob in its directory. Several matches in one directory come in
//     the directory's order, not sorted (seen: c, a, B, b), so every tree
//     here has at most one.
//   - A path is listed once, where it first came (a glob matching a chain
//     file adds nothing).
//   - Each entry is "Instructions from: " + the absolute path (a link's
//     own, not its target's) + "\n" + the file's text as read (a leading
//     byte order mark removed), nothing trimmed, comments kept; an empty
//     (or unreadable) file is dropped. The entries are joined by "\n".
//   - Nothing below the working directory is loaded at start.

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// opencodeEntryOf is one loaded file's entry.
func opencodeEntryOf(path, text string) string { return opencodeEntry + path + "\n" + text }

// opencodeSpan joins entries as the system message does, by "\n".
func opencodeSpan(entries ...string) string { return strings.Join(entries, "\n") }

// opencodeCase is one run: a tree (copilotTree: files, links, Git
// repositories), the working directory in it, and the span expected there
// (ROOT in want stands for the tree's physical path, HOME for the run's).
type opencodeCase struct {
	name string
	tree copilotTree
	wd   string
	want string
	// home holds files under the run's empty HOME; env is added to the
	// run's environment.
	home map[string]string
	env  []string
	// above holds files written in the tree's parent (the test's own
	// temporary directory, checked clean before), ABOVE in want.
	above map[string]string
	// setup runs after the tree is written.
	setup func(t *testing.T, root string)
}

// opencodeFiles are the names whose presence above a tree would change a
// run: the chain's names and the project config that findUp reads up to
// the worktree root (outside Git the filesystem root).
var opencodeFiles = []string{"AGENTS.md", "CLAUDE.md", "CONTEXT.md", "opencode.json", "opencode.jsonc", ".opencode"}

// needOpenCodeCleanAbove fails the test when a directory above dir holds
// one of opencodeFiles: outside Git OpenCode's chain runs up to the
// filesystem root, so such a file would join the expected text.
func needOpenCodeCleanAbove(t *testing.T, dir string) {
	t.Helper()
	var found []string
	for d := filepath.Dir(dir); ; d = filepath.Dir(d) {
		for _, name := range opencodeFiles {
			p := filepath.Join(d, name)
			if _, err := os.Lstat(p); err == nil {
				found = append(found, p)
			}
		}
		if d == filepath.Dir(d) {
			break
		}
	}
	if len(found) > 0 {
		t.Fatalf("OpenCode would read these in every run outside Git under %s (its chain runs to the filesystem root): %s; move them or set TMPDIR elsewhere", dir, strings.Join(found, ", "))
	}
}

// opencodeRuns is how many runs TestOpenCodeHarnessTrees has going at
// once: a run alone takes about 10 s of which 6 s CPU (the rest is its own
// waiting), so two at once, t.Parallel's limit on 2 cores, leave the cores
// idle for part of the time and four keep them busy.
const opencodeRuns = 4

func TestOpenCodeHarnessTrees(t *testing.T) {
	bin := opencodeBinary(t)
	// The subtests are run from goroutines of their own, opencodeRuns at
	// once, rather than by t.Parallel, whose limit is -parallel (GOMAXPROCS).
	slots := make(chan struct{}, opencodeRuns)
	var wg sync.WaitGroup
	defer wg.Wait()
	for _, c := range opencodeCases() {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			t.Run(c.name, func(t *testing.T) { opencodeTree(t, bin, c) })
		}()
	}
}

// opencodeTree runs case c and compares the span.
func opencodeTree(t *testing.T, bin string, c opencodeCase) {
	root := c.tree.make(t)
	needOpenCodeCleanAbove(t, root)
	writeFiles(t, filepath.Dir(root), c.above)
	if c.setup != nil {
		c.setup(t, root)
	}
	wd := filepath.Join(root, filepath.FromSlash(c.wd))
	if err := os.MkdirAll(wd, 0o755); err != nil {
		t.Fatal(err)
	}
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, home, c.home)
	want := strings.ReplaceAll(c.want, "ABOVE", filepath.Dir(root))
	want = strings.ReplaceAll(strings.ReplaceAll(want, "ROOT", root), "HOME", home)
	got := opencodeInstructions(t, bin, wd, opencodeOptions{home: home, env: c.env})
	if got != want {
		t.Errorf("opencode in %s: span\n%q\nwant\n%q", c.wd, got, want)
	}
}

func opencodeCases() []opencodeCase {
	e := opencodeEntryOf
	return []opencodeCase{
		{
			// Nothing to load: the span is empty. A directory named
			// AGENTS.md is a match (it exists) that reads as nothing: it
			// turns CLAUDE.md off, and is dropped.
			name: "none",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"README.md":      "not an instruction file\n",
				"AGENTS.md/x.md": "inside a directory named AGENTS.md\n",
				"CLAUDE.md":      "root claude\n",
			}},
			wd:   ".",
			want: "",
		},
		{
			// Every AGENTS.md from the working directory up to the Git
			// root, deepest first; nothing above the Git root (here the
			// root of a nested repository: the outer one's file is not
			// read), nothing below the working directory (a nested file is
			// not loaded at start), no sibling.
			name: "chain",
			tree: copilotTree{git: []string{".", "repo"}, files: map[string]string{
				"AGENTS.md":            "above the Git root, in the outer repository\n",
				"repo/AGENTS.md":       "root\n",
				"repo/a/AGENTS.md":     "a\n",
				"repo/a/b/AGENTS.md":   "a/b\n",
				"repo/a/b/c/AGENTS.md": "below the working directory\n",
				"repo/a/b/c/CLAUDE.md": "below the working directory\n",
				"repo/other/AGENTS.md": "a sibling\n",
			}},
			wd:   "repo/a/b",
			want: opencodeSpan(e("ROOT/repo/a/b/AGENTS.md", "a/b\n"), e("ROOT/repo/a/AGENTS.md", "a\n"), e("ROOT/repo/AGENTS.md", "root\n")),
		},
		{
			// One AGENTS.md anywhere on the path turns every CLAUDE.md and
			// CONTEXT.md off, above it and below it.
			name: "agents-wins",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"CLAUDE.md":      "root claude\n",
				"CONTEXT.md":     "root context\n",
				"a/AGENTS.md":    "a agents\n",
				"a/b/CLAUDE.md":  "wd claude\n",
				"a/b/CONTEXT.md": "wd context\n",
			}},
			wd:   "a/b",
			want: e("ROOT/a/AGENTS.md", "a agents\n"),
		},
		{
			// No AGENTS.md (a dangling AGENTS.md link is none: it does not
			// exist): every CLAUDE.md, deepest first, and CONTEXT.md is
			// off. The user file ~/.claude/CLAUDE.md (there is no
			// ~/.config/opencode/AGENTS.md) comes before them.
			name: "claude-chain",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"CLAUDE.md":      "root claude\n",
				"a/CONTEXT.md":   "a context\n",
				"a/b/CLAUDE.md":  "wd claude\n",
				"a/b/CONTEXT.md": "wd context\n",
			}, links: map[string]string{"a/AGENTS.md": "nowhere.md"}},
			home: map[string]string{".claude/CLAUDE.md": "user claude\n"},
			wd:   "a/b",
			want: opencodeSpan(e("HOME/.claude/CLAUDE.md", "user claude\n"), e("ROOT/a/b/CLAUDE.md", "wd claude\n"), e("ROOT/CLAUDE.md", "root claude\n")),
		},
		{
			// CONTEXT.md is the last name: with neither AGENTS.md nor
			// CLAUDE.md on the path, every CONTEXT.md, deepest first.
			name: "context-last",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"CONTEXT.md":   "root context\n",
				"a/CONTEXT.md": "wd context\n",
			}},
			wd:   "a",
			want: opencodeSpan(e("ROOT/a/CONTEXT.md", "wd context\n"), e("ROOT/CONTEXT.md", "root context\n")),
		},
		{
			// OPENCODE_DISABLE_CLAUDE_CODE_PROMPT takes CLAUDE.md out of
			// the names, and ~/.claude/CLAUDE.md out of the user files:
			// CONTEXT.md wins.
			name: "claude-off",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"CLAUDE.md":    "root claude\n",
				"CONTEXT.md":   "root context\n",
				"a/CLAUDE.md":  "wd claude\n",
				"a/CONTEXT.md": "wd context\n",
			}},
			home: map[string]string{".claude/CLAUDE.md": "user claude\n"},
			env:  []string{"OPENCODE_DISABLE_CLAUDE_CODE_PROMPT=1"},
			wd:   "a",
			want: opencodeSpan(e("ROOT/a/CONTEXT.md", "wd context\n"), e("ROOT/CONTEXT.md", "root context\n")),
		},
		{
			// Outside Git the chain runs up to the filesystem root (the
			// test checks that nothing above the tree holds such a file):
			// past the tree's root to its parent.
			name: "no-git",
			tree: copilotTree{files: map[string]string{
				"AGENTS.md":     "tree root\n",
				"a/AGENTS.md":   "a\n",
				"a/b/AGENTS.md": "wd\n",
			}},
			above: map[string]string{"AGENTS.md": "above the tree\n"},
			wd:    "a/b",
			want:  opencodeSpan(e("ROOT/a/b/AGENTS.md", "wd\n"), e("ROOT/a/AGENTS.md", "a\n"), e("ROOT/AGENTS.md", "tree root\n"), e("ABOVE/AGENTS.md", "above the tree\n")),
		},
		{
			// A linked worktree (git worktree add): the chain stops at its
			// own root, as at a repository's (the tree's root above both
			// worktrees is not read); the committed AGENTS.md is its own
			// checkout's, under its path, and turns its CLAUDE.md off.
			name: "linked-worktree",
			tree: copilotTree{git: []string{"main"}, files: map[string]string{
				"AGENTS.md":      "above both worktrees\n",
				"main/AGENTS.md": "main worktree\n",
			}},
			setup: func(t *testing.T, root string) {
				main := filepath.Join(root, "main")
				git(t, main, "add", "-A")
				git(t, main, "commit", "-q", "-m", "first")
				git(t, main, "worktree", "add", "-q", filepath.Join(root, "wt"))
				writeFiles(t, root, map[string]string{
					"wt/a/AGENTS.md": "wd\n",
					"wt/CLAUDE.md":   "linked root claude\n",
				})
			},
			wd:   "wt/a",
			want: opencodeSpan(e("ROOT/wt/a/AGENTS.md", "wd\n"), e("ROOT/wt/AGENTS.md", "main worktree\n")),
		},
		{
			// The user file ~/.config/opencode/AGENTS.md comes first, before
			// the project's; ~/.claude/CLAUDE.md is then not read.
			name: "user-file",
			tree: copilotTree{git: []string{"."}, files: map[string]string{"AGENTS.md": "project\n"}},
			home: map[string]string{
				".config/opencode/AGENTS.md": "user agents\n",
				".claude/CLAUDE.md":          "user claude\n",
			},
			wd:   ".",
			want: opencodeSpan(e("HOME/.config/opencode/AGENTS.md", "user agents\n"), e("ROOT/AGENTS.md", "project\n")),
		},
		{
			// An empty file is dropped, a whitespace-only one kept as it
			// is. An empty file still counts as found: the empty
			// AGENTS.md keeps CLAUDE.md off, the empty user AGENTS.md keeps
			// ~/.claude/CLAUDE.md off.
			name: "empty-whitespace",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md":   " \n\t\n",
				"a/AGENTS.md": "",
				"a/CLAUDE.md": "wd claude\n",
			}},
			home: map[string]string{
				".config/opencode/AGENTS.md": "",
				".claude/CLAUDE.md":          "user claude\n",
			},
			wd:   "a",
			want: e("ROOT/AGENTS.md", " \n\t\n"),
		},
		{
			// The text as read: no trim, comments kept, CRLF kept, no
			// final newline added; only the UTF-8 decoding's changes: a
			// leading byte order mark removed, an invalid byte read as
			// U+FFFD.
			name: "raw-text",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md":     "\ufeff<!-- a comment -->\r\n\n  indented  \n\n\n",
				"a/AGENTS.md":   "an invalid \xff byte\n",
				"a/b/AGENTS.md": "no final newline",
			}},
			wd: "a/b",
			want: opencodeSpan(e("ROOT/a/b/AGENTS.md", "no final newline"), e("ROOT/a/AGENTS.md", "an invalid \ufffd byte\n"),
				e("ROOT/AGENTS.md", "<!-- a comment -->\r\n\n  indented  \n\n\n")),
		},
		{
			// A link is followed and listed under its own path; a dangling
			// AGENTS.md link is not listed (claude-chain: it is no match),
			// and the other AGENTS.md turns CLAUDE.md off.
			name: "links",
			tree: copilotTree{git: []string{"repo"}, files: map[string]string{
				"common.md":        "common\n",
				"repo/a/CLAUDE.md": "wd claude\n",
			}, links: map[string]string{
				"repo/AGENTS.md":   "../common.md",
				"repo/a/AGENTS.md": "missing.md",
			}},
			wd:   "repo/a",
			want: e("ROOT/repo/AGENTS.md", "common\n"),
		},
		{
			// The instructions array of the project's opencode.json, after
			// the chain, entry by entry: a relative glob in each directory
			// from the working directory up to the Git root (not above),
			// a relative path the same way, an entry matching nothing, a
			// glob matching the chain's files (listed once, where the
			// chain put them), an absolute glob, a ~/ path. The config is
			// opencode.jsonc (comments allowed); the array of
			// .opencode/opencode.json comes after it, and its relative
			// entries too are matched from the working directory, not from
			// .opencode.
			name: "instructions",
			tree: copilotTree{git: []string{"repo"}, files: map[string]string{
				"repo/opencode.jsonc":          "{\n  // the project's\n  \"instructions\": [\"docs/*.md\", \"rules/style.md\", \"missing.md\", \"AGENTS.md\", \"ROOT/extra/*.txt\", \"~/notes.md\"]\n}\n",
				"repo/.opencode/opencode.json": `{"instructions":["rules/dot.md"]}`,
				"repo/rules/dot.md":            "dot\n",
				"repo/.opencode/rules/dot.md":  "beside the .opencode config\n",
				"repo/AGENTS.md":               "root\n",
				"repo/a/AGENTS.md":             "wd\n",
				"repo/docs/one.md":             "docs root\n",
				"repo/a/docs/two.md":           "docs wd\n",
				"repo/rules/style.md":          "style\n",
				"docs/three.md":                "above the Git root\n",
				"extra/x.txt":                  "extra\n",
				"extra/y.md":                   "not a .txt\n",
			}},
			home: map[string]string{"notes.md": "notes\n"},
			wd:   "repo/a",
			want: opencodeSpan(
				e("ROOT/repo/a/AGENTS.md", "wd\n"), e("ROOT/repo/AGENTS.md", "root\n"),
				e("ROOT/repo/a/docs/two.md", "docs wd\n"), e("ROOT/repo/docs/one.md", "docs root\n"),
				e("ROOT/repo/rules/style.md", "style\n"),
				e("ROOT/extra/x.txt", "extra\n"),
				e("HOME/notes.md", "notes\n"),
				e("ROOT/repo/rules/dot.md", "dot\n"),
			),
		},
	}
}
