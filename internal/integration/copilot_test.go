package integration

// TestCopilotHarnessTrees checks the Copilot CLI harness
// (copilotharness_test.go) on fixed trees, one rule (or a few) per tree,
// whose expected spans were written from the rules in docs/agent-profiles.md
// ("GitHub Copilot CLI"): since the loader is closed source, these runs of
// the pinned 1.0.102 binary are the rules' evidence (#35).

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// copilotBlock is one loaded file's part of the span: the raw text (BOM
// removed, nothing trimmed) between the tags, each on a line of its own.
func copilotBlock(text string) string {
	return "<custom_instruction>\n" + text + "\n</custom_instruction>"
}

// copilotImport is what follows an @path that names a file: a blank line
// and the file's text (raw, as a block's) in an element naming its
// absolute path. The @path itself stays.
// The text (BOM removed) loses its trailing white space and ends in a
// newline.
func copilotImport(source, text string) string {
	text = strings.TrimRight(text, " \t\r\n") + "\n"
	return "\n\n<imported_custom_instruction source=\"" + source + "\">\n" + text + "</imported_custom_instruction>"
}

// copilotSkipped follows a second @path to a file the same instruction
// file already imported.
func copilotSkipped(source string) string {
	return "\n\n<imported_custom_instruction source=\"" + source + "\" skipped=\"already-loaded\" />"
}

// copilotSpan joins parts by blank lines: the blocks among themselves, the
// inlined folder files and the table among themselves.
func copilotSpan(parts ...string) string { return strings.Join(parts, "\n\n") }

// copilotWant is the span of blocks (copilotSpan of the blocks) and folder
// (copilotSpan of the inlined files and the table): when both are there a
// blank line between them and a newline after the folder part.
func copilotWant(blocks, folder string) string {
	switch {
	case blocks == "":
		return folder
	case folder == "":
		return blocks
	}
	return blocks + "\n\n" + folder + "\n"
}

// copilotTablePreamble is the fixed paragraph before the table of
// conditional files (applyTo other than "**", or paths:).
const copilotTablePreamble = "Here is a list of instruction files that contain rules for modifying or creating new code.\n" +
	"These files are important for ensuring that the code is modified or created correctly.\n" +
	"Please make sure to follow the rules specified in these files when working with the codebase.\n" +
	"If you have not already read the file, use the `view` tool to acquire it.\n" +
	"Make sure to acquire the instructions before making any changes to the code.\n" +
	"| Pattern | File Path | Description |\n" +
	"| ------- | --------- | ----------- |\n"

// copilotTable is the paragraph and the rows, one a line (no newline after
// the last).
func copilotTable(rows ...string) string { return copilotTablePreamble + strings.Join(rows, "\n") }

// copilotNestedTable is the paragraph and the rows of the other table,
// which lists the AGENTS.md of a COPILOT_CUSTOM_INSTRUCTIONS_DIRS
// directory (not inlined).
func copilotNestedTable(rows ...string) string {
	return "Here is a list of nested AGENTS.md files that contain additional agent instructions.\n" +
		"These files provide context-specific instructions for different parts of the codebase.\n" +
		"Please make sure to follow the rules specified in these files when working with the relevant areas.\n" +
		"If you have not already read the file, use the `view` tool to acquire it.\n" +
		"Make sure to acquire the instructions before making any changes to the code in those areas.\n" +
		"| Directory | File Path | Description |\n" +
		"| --------- | --------- | ----------- |\n" + strings.Join(rows, "\n")
}

// copilotNestedRow is a row of it: the directory and the file relative to
// the working directory, and a description naming the directory's files.
func copilotNestedRow(dir string) string {
	return "| " + dir + " | '" + dir + "AGENTS.md' | Agent instructions for " + dir + "**/* |"
}

// copilotRow is one row of that table: the pattern (a list joined by ", "),
// the path relative to the directory whose folder holds the file, in single
// quotes, the description.
func copilotRow(pattern, path, description string) string {
	return "| " + pattern + " | '" + path + "' | " + description + " |"
}

// copilotTree is a fixture: files and links under a fresh root, Git
// repositories in some directories.
type copilotTree struct {
	files map[string]string
	links map[string]string // link → target, as written
	git   []string
}

// make writes the tree under a fresh directory and returns its physical
// path.
func (tr copilotTree) make(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range tr.git {
		p := filepath.Join(root, filepath.FromSlash(d))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		git(t, p, "init", "-q")
	}
	files := map[string]string{}
	for name, text := range tr.files {
		files[name] = strings.ReplaceAll(text, "ROOT", root)
	}
	writeFiles(t, root, files)
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

// copilotCase is one run: a tree, the working directory in it, and the
// span expected there (ROOT in want stands for the tree's physical path).
type copilotCase struct {
	name string
	tree copilotTree
	wd   string
	want string
	// home holds files under the run's empty HOME; env is added to the
	// run's environment (ROOT in a value stands for the tree's path).
	home map[string]string
	env  []string
	// setup runs after the tree is written.
	setup func(t *testing.T, root string)
	// inexact is a word the copilot profile's preview must give as why
	// its view is not exact ("" when it must be exact).
	inexact string
	// oneOf, when set, are the spans the binary may send instead of want:
	// which one follows the directory's order on disk.
	oneOf []string
}

// copilotComparePreview runs `preview --agent copilot` in wd with vars and
// compares its instruction section with span, the binary's, byte for byte;
// when the case is one the profile does not model (inexact, a word of its
// reason), the preview must say so instead.
func copilotComparePreview(t *testing.T, rl, wd string, vars, where []string, span, inexact string) {
	t.Helper()
	environ := env(t, append(vars, "PWD="+wd)...)
	r := run(t, wd, environ, nil, rl, append([]string{"preview", "--agent", "copilot"}, append([]string{"--format", "json"}, where...)...)...)
	if r.code != 0 {
		t.Fatalf("preview --format json: exit %d: %s", r.code, r.stderr)
	}
	var doc struct {
		Agents []struct {
			Agent   string `json:"agent"`
			Exact   bool   `json:"exact"`
			Inexact string `json:"inexact"`
			Text    string `json:"text"`
		} `json:"agents"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("preview --format json: %v", err)
	}
	var exact bool
	var why, text string
	found := false
	for _, a := range doc.Agents {
		if a.Agent == "copilot" {
			exact, why, text, found = a.Exact, a.Inexact, a.Text, true
		}
	}
	if !found {
		t.Fatalf("preview --format json: no copilot agent in %s", r.stdout)
	}
	if inexact != "" {
		if exact || !strings.Contains(why, inexact) {
			t.Errorf("preview: exact %v, inexact %q; want not exact, naming %q", exact, why, inexact)
		}
		return
	}
	if !exact {
		t.Errorf("preview: not exact (%s); the binary's span is\n%q", why, span)
		return
	}
	r = run(t, wd, environ, nil, rl, append([]string{"preview", "--agent", "copilot"}, append([]string{"--section", "instructions"}, where...)...)...)
	if r.code != 0 {
		t.Fatalf("preview --section instructions: exit %d: %s", r.code, r.stderr)
	}
	if r.stdout != span {
		t.Errorf("preview --section instructions differs from the binary: %s", codexBytesDiffer("preview", r.stdout, "copilot", span))
	}
	if text != span {
		t.Errorf("preview --format json's text differs from the binary: %s", codexBytesDiffer("preview", text, "copilot", span))
	}
}

func TestCopilotHarnessTrees(t *testing.T) {
	bin := copilotBinary(t)
	rl := rivumiLint(t)
	for _, c := range copilotCases() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			root := c.tree.make(t)
			if c.setup != nil {
				c.setup(t, root)
			}
			wd := filepath.Join(root, filepath.FromSlash(c.wd))
			if err := os.MkdirAll(wd, 0o755); err != nil {
				t.Fatal(err)
			}
			home := t.TempDir()
			writeFiles(t, home, c.home)
			want := strings.ReplaceAll(strings.ReplaceAll(c.want, "ROOT", root), "HOME", home)
			opt := copilotOptions{home: home}
			for _, kv := range c.env {
				opt.env = append(opt.env, strings.ReplaceAll(kv, "ROOT", root))
			}
			got := copilotInstructions(t, bin, wd, opt)
			switch {
			case c.oneOf != nil:
				if !slices.Contains(c.oneOf, got) {
					t.Errorf("copilot in %s: span\n%q\nwant one of\n%q", c.wd, got, c.oneOf)
				}
			case got != want:
				t.Errorf("copilot in %s: span\n%q\nwant\n%q", c.wd, got, want)
			}
			// The copilot profile's preview, run where the binary ran with
			// its HOME and variables, prints the binary's span byte for
			// byte, or says why it cannot (the case's inexact).
			// Outside Git rivumi-lint needs --root: the working directory,
			// which is all Copilot reads there.
			where := []string{"."}
			if len(c.tree.git) == 0 {
				where = []string{"--root", ".", "."}
			}
			copilotComparePreview(t, rl, wd, append([]string{"HOME=" + home}, opt.env...), where, got, c.inexact)
		})
	}
}

func copilotCases() []copilotCase {
	return []copilotCase{
		{
			// Nothing to load: the span is empty.
			name: "none",
			tree: copilotTree{git: []string{"."}, files: map[string]string{"README.md": "not an instruction file\n"}},
			wd:   ".",
			want: "",
		},
		{
			// The Git root, the working directory, then the directories
			// between from the working directory's parent upward; nothing
			// above the Git root, nothing below the working directory.
			name: "chain",
			tree: copilotTree{git: []string{"repo"}, files: map[string]string{
				"AGENTS.md":               "above the Git root\n",
				"repo/AGENTS.md":          "root\n",
				"repo/a/AGENTS.md":        "a\n",
				"repo/a/b/AGENTS.md":      "a/b\n",
				"repo/a/b/c/AGENTS.md":    "a/b/c\n",
				"repo/a/b/c/d/AGENTS.md":  "below the working directory\n",
				"repo/a/b/c/x/AGENTS.md":  "below the working directory\n",
				"repo/other/AGENTS.md":    "a sibling\n",
				"repo/a/other/AGENTS.md":  "a sibling\n",
				"repo/a/b/c/d/.gitignore": "",
			}},
			wd:   "repo/a/b/c",
			want: copilotSpan(copilotBlock("root\n"), copilotBlock("a/b/c\n"), copilotBlock("a/b\n"), copilotBlock("a\n")),
		},
		{
			// The working directory is the Git root: it is read once.
			name: "wd-is-root",
			tree: copilotTree{git: []string{"."}, files: map[string]string{"AGENTS.md": "root\n"}},
			wd:   ".",
			want: copilotBlock("root\n"),
		},
		{
			// No Git: the working directory only.
			name: "no-git",
			tree: copilotTree{files: map[string]string{
				"AGENTS.md":   "parent\n",
				"a/AGENTS.md": "wd\n",
			}},
			wd:   "a",
			want: copilotBlock("wd\n"),
		},
		{
			// A nested repository: its own root is where the chain starts.
			name: "nested-git",
			tree: copilotTree{git: []string{".", "inner"}, files: map[string]string{
				"AGENTS.md":         "outer\n",
				"inner/AGENTS.md":   "inner root\n",
				"inner/a/AGENTS.md": "wd\n",
			}},
			wd:   "inner/a",
			want: copilotSpan(copilotBlock("inner root\n"), copilotBlock("wd\n")),
		},
		{
			// All four names in each directory, no first-wins: the
			// copilot-instructions.md files first (root, working
			// directory), then AGENTS/CLAUDE/GEMINI of the root and of the
			// working directory, then the directories between.
			name: "names-order",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				".github/copilot-instructions.md":     "root copilot\n",
				"AGENTS.md":                           "root agents\n",
				"CLAUDE.md":                           "root claude\n",
				"GEMINI.md":                           "root gemini\n",
				"a/.github/copilot-instructions.md":   "a copilot\n",
				"a/AGENTS.md":                         "a agents\n",
				"a/CLAUDE.md":                         "a claude\n",
				"a/GEMINI.md":                         "a gemini\n",
				"a/b/.github/copilot-instructions.md": "wd copilot\n",
				"a/b/AGENTS.md":                       "wd agents\n",
				"a/b/CLAUDE.md":                       "wd claude\n",
				"a/b/GEMINI.md":                       "wd gemini\n",
			}},
			wd: "a/b",
			want: copilotSpan(
				copilotBlock("root copilot\n"), copilotBlock("wd copilot\n"),
				copilotBlock("root agents\n"), copilotBlock("root claude\n"), copilotBlock("root gemini\n"),
				copilotBlock("wd agents\n"), copilotBlock("wd claude\n"), copilotBlock("wd gemini\n"),
				copilotBlock("a copilot\n"), copilotBlock("a agents\n"), copilotBlock("a claude\n"), copilotBlock("a gemini\n"),
			),
		},
		{
			// Names Copilot does not read.
			name: "not-read",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md":            "root\n",
				"AGENTS.override.md":   "override\n",
				"CLAUDE.local.md":      "local\n",
				".claude/CLAUDE.md":    "dot claude\n",
				".github/AGENTS.md":    "in .github\n",
				"a/AGENTS.override.md": "override\n",
				"a/CLAUDE.local.md":    "local\n",
			}},
			wd:   "a",
			want: copilotBlock("root\n"),
		},
		{
			// Root-only instruction files: inlined (raw, after every block)
			// with applyTo "**" or no front matter, else a row of the
			// table; .claude/rules likewise with paths:.
			name: "instructions-dir",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "root\n",
				".github/instructions/all.instructions.md":    "no front matter\n",
				".github/instructions/star.instructions.md":   "---\napplyTo: \"**\"\n---\nevery file\n",
				".github/instructions/src.instructions.md":    "---\napplyTo: \"src/**\"\ndescription: sources\n---\nsrc only\n",
				".github/instructions/deep/n.instructions.md": "nested\n",
				".github/instructions/notes.md":               "not *.instructions.md\n",
				".claude/rules/plain.md":                      "a rule\n",
				".claude/rules/lib.md":                        "---\npaths: [\"lib/**\"]\n---\nlib only\n",
				"a/AGENTS.md":                                 "wd\n",
			}},
			wd: "a",
			want: copilotWant(
				copilotSpan(copilotBlock("root\n"), copilotBlock("wd\n")),
				copilotSpan("no front matter\n", "nested\n", "---\napplyTo: \"**\"\n---\nevery file\n", "a rule\n",
					copilotTable(copilotRow("src/**", ".github/instructions/src.instructions.md", "sources"), copilotRow("lib/**", ".claude/rules/lib.md", ""))),
			),
		},
		{
			// The text goes in raw: no trimming, comments, front matter and
			// CRs kept, a leading BOM removed, invalid UTF-8 as U+FFFD.
			name: "rendering",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "---\ndescription: kept\n---\n\n\n  <!-- a comment -->\nline\r\nend  \n\n\n",
				"CLAUDE.md": "\ufeffafter a BOM\n",
				"GEMINI.md": "bad \xff\xc3 bytes\nno final newline",
			}},
			wd: ".",
			want: copilotSpan(
				copilotBlock("---\ndescription: kept\n---\n\n\n  <!-- a comment -->\nline\r\nend  \n\n\n"),
				copilotBlock("after a BOM\n"),
				copilotBlock("bad \ufffd\ufffd bytes\nno final newline"),
			),
		},
		{
			// An empty file and a whitespace-only one.
			name: "empty",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "",
				"CLAUDE.md": " \n\n",
				"GEMINI.md": "text\n",
			}},
			wd:   ".",
			want: copilotSpan(copilotBlock(""), copilotBlock(" \n\n"), copilotBlock("text\n")),
		},
		{
			// @imports expand in place; the second import of a file is
			// skipped as already loaded.
			name: "imports",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "see @docs/a.md\nand @docs/a.md again\n",
				"docs/a.md": "doc a\n",
				"CLAUDE.md": "also @docs/a.md\n",
			}},
			wd: ".",
			// "already loaded" is per instruction file: CLAUDE.md imports
			// it whole again.
			want: copilotSpan(
				copilotBlock("see @docs/a.md"+copilotImport("ROOT/docs/a.md", "doc a\n")+"\nand @docs/a.md"+copilotSkipped("ROOT/docs/a.md")+" again\n"),
				copilotBlock("also @docs/a.md"+copilotImport("ROOT/docs/a.md", "doc a\n")+"\n"),
			),
		},
		{
			// A link beside its target, or to a file in another directory,
			// loads once: a text already loaded is not loaded again.
			name: "links",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "root agents\n",
			}, links: map[string]string{
				"GEMINI.md":     "AGENTS.md",
				"a/b/GEMINI.md": "../../AGENTS.md",
			}},
			wd:   "a/b",
			want: copilotBlock("root agents\n"),
		},
		{
			// Identical texts side by side, not links: loaded once.
			name: "identical",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "same\n",
				"CLAUDE.md": "same\n",
			}},
			wd:   ".",
			want: copilotBlock("same\n"),
		},
		{
			// Identical texts in two directories of the chain: once.
			name: "identical-dirs",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md":   "same\n",
				"a/AGENTS.md": "same\n",
				"a/CLAUDE.md": "other\n",
			}},
			wd:   "a",
			want: copilotSpan(copilotBlock("same\n"), copilotBlock("other\n")),
		},
		{
			// A link to another directory's file that imports: the link's
			// @x.md resolves beside the link (a/b/x.md, missing), so its
			// text differs from the root's and is loaded a second time.
			name: "link-with-import",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "root @x.md\n",
				"x.md":      "x\n",
			}, links: map[string]string{
				"a/b/GEMINI.md": "../../AGENTS.md",
			}},
			wd: "a/b",
			want: copilotSpan(
				copilotBlock("root @x.md"+copilotImport("ROOT/x.md", "x\n")+"\n"),
				copilotBlock("root @x.md\n"),
			),
		},
		{
			// .github/instructions and .claude/rules: read at the Git root
			// and in the working directory (each directory's instructions,
			// then its rules), not in the directories between.
			name: "instructions-dirs-chain",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				".github/instructions/r.instructions.md":     "root instructions\n",
				".claude/rules/r.md":                         "root rule\n",
				"a/.github/instructions/a.instructions.md":   "between instructions\n",
				"a/.claude/rules/a.md":                       "between rule\n",
				"a/b/.github/instructions/b.instructions.md": "wd instructions\n",
				"a/b/.claude/rules/b.md":                     "wd rule\n",
				"a/b/.github/instructions/s.instructions.md": "---\napplyTo: \"*.go\"\n---\ngo\n",
			}},
			wd: "a/b",
			want: copilotSpan(
				"root instructions\n", "root rule\n", "wd instructions\n", "wd rule\n",
				copilotTable(copilotRow("*.go", ".github/instructions/s.instructions.md", "")),
			),
		},
		{
			// No Git: the working directory's folders.
			name: "instructions-no-git",
			tree: copilotTree{files: map[string]string{
				".github/instructions/r.instructions.md":   "parent\n",
				"a/.github/instructions/a.instructions.md": "wd instructions\n",
				"a/.claude/rules/a.md":                     "wd rule\n",
			}},
			wd:   "a",
			want: copilotSpan("wd instructions\n", "wd rule\n"),
		},
		{
			// applyTo forms: "**/*" inlined like "**"; a comma list split
			// and joined by ", "; front matter that is not YAML taken as
			// the pattern's text; a rule with paths "**" inlined; a
			// description without applyTo inlined with its front matter.
			name: "apply-to-forms",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				".github/instructions/a.instructions.md": "---\napplyTo: \"**/*\"\n---\nstar slash star\n",
				".github/instructions/b.instructions.md": "---\napplyTo: \"src/**,lib/**\"\n---\nlist\n",
				".github/instructions/c.instructions.md": "---\ndescription: d\n---\ndescribed, no applyTo\n",
				".github/instructions/d.instructions.md": "---\napplyTo: [unclosed\n---\nbad yaml\n",
				".claude/rules/e.md":                     "---\npaths: \"**\"\n---\nrule every path\n",
				".claude/rules/f.md":                     "---\npaths:\n  - \"a/**\"\n  - \"b/**\"\n---\nrule two paths\n",
			}},
			wd: ".",
			want: copilotSpan(
				"---\napplyTo: \"**/*\"\n---\nstar slash star\n",
				"---\ndescription: d\n---\ndescribed, no applyTo\n",
				"---\npaths: \"**\"\n---\nrule every path\n",
				copilotTable(
					copilotRow("src/**, lib/**", ".github/instructions/b.instructions.md", ""),
					copilotRow("[unclosed", ".github/instructions/d.instructions.md", ""),
					copilotRow("a/**, b/**", ".claude/rules/f.md", "")),
			),
		},
		{
			// Imports: nested, and a cycle cut as already loaded; not
			// expanded: a missing file, one in a code span or a fence, an
			// absolute path, one leaving the repository.
			name: "import-forms",
			tree: copilotTree{git: []string{"repo"}, files: map[string]string{
				"repo/AGENTS.md": "n @a.md\nmissing @nope.md\ncode `@b.md`\n```\n@b.md\n```\nup @../out.md\n",
				"repo/a.md":      "a then @b.md\n",
				"repo/b.md":      "b then @a.md",
				"out.md":         "outside\n",
				"repo/CLAUDE.md": "abs @ROOT/repo/c.md\n",
				"repo/c.md":      "c\n",
			}},
			wd: "repo",
			want: copilotSpan(
				copilotBlock("n @a.md"+copilotImport("ROOT/repo/a.md", "a then @b.md"+copilotImport("ROOT/repo/b.md", "b then @a.md"+copilotSkipped("ROOT/repo/a.md"))+"\n")+
					"\nmissing @nope.md\ncode `@b.md`\n```\n@b.md\n```\nup @../out.md\n"),
				copilotBlock("abs @ROOT/repo/c.md\n"),
			),
		},
		{
			// No size cut for a repository file: 300 KB arrive whole.
			name: "large",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": strings.Repeat("0123456789abcdef0123456789abcde\n", 300*1024/32),
			}},
			wd:   ".",
			want: copilotBlock(strings.Repeat("0123456789abcdef0123456789abcde\n", 300*1024/32)),
		},
		{
			// Blocks and a table without inlined files.
			name: "blocks-and-table",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md":                              "root\n",
				".github/instructions/x.instructions.md": "---\napplyTo: \"x/**\"\ndescription: for x\n---\nx\n",
			}},
			wd:   ".",
			want: copilotWant(copilotBlock("root\n"), copilotTable(copilotRow("x/**", ".github/instructions/x.instructions.md", "for x"))),
		},
		{
			// The imports that do expand: up a directory inside the
			// repository, ./, a subdirectory; the imported text's BOM
			// removed and its trailing white space cut. Not expanded: an
			// address, a file that is not UTF-8.
			name: "import-paths",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"a/AGENTS.md": "up @../x.md\ndot @./y.md\nsub @s/z.md\nlead @w.md\nmail me@example.com\nbad @bad.md\n",
				"x.md":        "x\n\n\n",
				"a/y.md":      "\ufeffy with a BOM",
				"a/s/z.md":    "z\n",
				"a/w.md":      "  \n lead  \n\n",
				"a/bad.md":    "bad \xff\n",
			}},
			wd: "a",
			want: copilotBlock("up @../x.md" + copilotImport("ROOT/x.md", "x\n") + "\ndot @./y.md" + copilotImport("ROOT/a/y.md", "y with a BOM") +
				"\nsub @s/z.md" + copilotImport("ROOT/a/s/z.md", "z\n") + "\nlead @w.md" + copilotImport("ROOT/a/w.md", "  \n lead") +
				"\nmail me@example.com\nbad @bad.md\n"),
		},
		{
			// A link in another directory to a file already loaded: a
			// linked file's imports are not expanded (not even where a/x.md
			// would resolve beside the link), so its text differs from the
			// first and loads again.
			name: "link-import-beside-link",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "root @x.md\n",
				"x.md":      "root x\n",
				"a/x.md":    "a x\n",
			}, links: map[string]string{
				"a/GEMINI.md": "../AGENTS.md",
			}},
			wd: "a",
			want: copilotSpan(
				copilotBlock("root @x.md"+copilotImport("ROOT/x.md", "root x\n")+"\n"),
				copilotBlock("root @x.md\n"),
			),
		},
		{
			// Beside the target: GEMINI.md -> AGENTS.md is the same file in
			// the same directory, loaded once even though its raw text
			// differs from AGENTS.md's expanded one.
			name: "sibling-link-imports",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "root @x.md\n",
				"x.md":      "x\n",
			}, links: map[string]string{
				"GEMINI.md": "AGENTS.md",
			}},
			wd:   ".",
			want: copilotBlock("root @x.md" + copilotImport("ROOT/x.md", "x\n") + "\n"),
		},
		{
			// A link to a file no instruction name loads: its imports are
			// not expanded, beside the link (a/y.md) or the target
			// (docs/y.md).
			name: "link-elsewhere-imports",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"docs/g.md": "g @y.md\n",
				"docs/y.md": "docs y\n",
				"a/y.md":    "a y\n",
			}, links: map[string]string{
				"a/GEMINI.md": "../docs/g.md",
			}},
			wd:   "a",
			want: copilotBlock("g @y.md\n"),
		},
		{
			// An instruction file imported by another is still loaded on
			// its own.
			name: "import-instruction-file",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "a @CLAUDE.md\n",
				"CLAUDE.md": "c\n",
			}},
			wd: ".",
			want: copilotSpan(
				copilotBlock("a @CLAUDE.md"+copilotImport("ROOT/CLAUDE.md", "c\n")+"\n"),
				copilotBlock("c\n"),
			),
		},
		{
			// Folder files: a BOM removed, CRLF front matter still read.
			name: "folder-encoding",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				".github/instructions/a.instructions.md": "\ufeffa with a BOM\n",
				".github/instructions/b.instructions.md": "---\r\napplyTo: \"b/**\"\r\n---\r\nb\r\n",
				".claude/rules/c.md":                     "c \xff\n",
			}},
			wd: ".",
			want: copilotSpan("a with a BOM\n", "c \ufffd\n",
				copilotTable(copilotRow("b/**", ".github/instructions/b.instructions.md", ""))),
		},
		{
			// The user's files under ~/.copilot: copilot-instructions.md
			// first of the blocks, instructions/ first of the folder
			// files, a conditional one's row by its absolute path; no
			// AGENTS.md there.
			name: "user-files",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "repo\n",
			}},
			home: map[string]string{
				".copilot/copilot-instructions.md":        "user copilot\n",
				".copilot/instructions/u.instructions.md": "user instructions\n",
				".copilot/instructions/s.instructions.md": "---\napplyTo: \"*.go\"\n---\nuser go\n",
				".copilot/AGENTS.md":                      "not read\n",
			},
			wd:   ".",
			want: copilotWant(copilotSpan(copilotBlock("user copilot\n"), copilotBlock("repo\n")), copilotSpan("user instructions\n", copilotTable(copilotRow("*.go", "HOME/.copilot/instructions/s.instructions.md", "")))),
		},
		{
			// COPILOT_CUSTOM_INSTRUCTIONS_DIRS: a directory's
			// .github/instructions is inlined, its AGENTS.md listed in a
			// table of its own (by paths relative to the working
			// directory), its .github/copilot-instructions.md not read.
			name: "custom-dirs",
			tree: copilotTree{git: []string{"repo"}, files: map[string]string{
				"repo/AGENTS.md":                               "repo\n",
				"extra/AGENTS.md":                              "extra agents\n",
				"extra/.github/copilot-instructions.md":        "extra copilot\n",
				"extra/.github/instructions/e.instructions.md": "extra instructions\n",
			}},
			env: []string{"COPILOT_CUSTOM_INSTRUCTIONS_DIRS=ROOT/extra"},
			// Not modelled yet: the preview says so.
			inexact: "COPILOT_CUSTOM_INSTRUCTIONS_DIRS",
			wd:      "repo",
			want:    copilotWant(copilotBlock("repo\n"), copilotSpan("extra instructions\n", copilotNestedTable(copilotNestedRow("../extra/")))),
		},
		{
			// A linked worktree (.git is a file): its own top is the root.
			name: "worktree",
			tree: copilotTree{git: []string{"main"}, files: map[string]string{
				"main/AGENTS.md": "main\n",
			}},
			setup: func(t *testing.T, root string) {
				main := filepath.Join(root, "main")
				git(t, main, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "x")
				git(t, main, "worktree", "add", "-q", filepath.Join(root, "wt"))
				writeFiles(t, root, map[string]string{"wt/AGENTS.md": "wt root\n", "wt/a/AGENTS.md": "wt a\n"})
			},
			wd:   "wt/a",
			want: copilotSpan(copilotBlock("wt root\n"), copilotBlock("wt a\n")),
		},
		{
			// Ignored by Git: still loaded.
			name: "gitignored",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				".gitignore":    "a/\n",
				"a/AGENTS.md":   "ignored a\n",
				"a/b/AGENTS.md": "wd\n",
			}},
			wd:   "a/b",
			want: copilotSpan(copilotBlock("wd\n"), copilotBlock("ignored a\n")),
		},
		{
			// Many folder files: is there an entry limit?
			name: "many-folder-files",
			tree: copilotTree{git: []string{"."}, files: manyInstructionFiles(600)},
			wd:   ".",
			want: copilotSpan(manyInstructionTexts(600)...),
		},
		{
			// A name in another letter case loads where it is the only
			// entry of that name; the folder's name counts only as it is.
			name: "other-case",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"a/agents.md":                       "lower agents\n",
				"a/Claude.md":                       "mixed claude\n",
				"a/.github/Copilot-Instructions.md": "copilot in another case\n",
				"a/.GITHUB/copilot-instructions.md": "never: the folder in another case\n",
				"a/b/gemini.md":                     "wd gemini\n",
			}},
			wd: "a/b",
			want: copilotSpan(copilotBlock("wd gemini\n"), copilotBlock("copilot in another case\n"),
				copilotBlock("lower agents\n"), copilotBlock("mixed claude\n")),
		},
		{
			// The same name in two cases in one directory: Copilot takes the
			// first in the directory's order on disk, which no listing
			// keeps: not exact.
			name: "case-twins",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "upper\n",
				"agents.md": "lower\n",
			}},
			wd:      ".",
			oneOf:   []string{copilotBlock("upper\n"), copilotBlock("lower\n")},
			inexact: "names that differ only in case",
		},
		{
			// .claude/CLAUDE.md: in the directories between, after
			// CLAUDE.md; not at the root, not in the working directory.
			name: "dot-claude-between",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				".claude/CLAUDE.md":     "root dot\n",
				"a/CLAUDE.md":           "a claude\n",
				"a/.claude/CLAUDE.md":   "a dot\n",
				"a/GEMINI.md":           "a gemini\n",
				"a/b/.claude/CLAUDE.md": "wd dot\n",
				"a/b/AGENTS.md":         "wd\n",
			}},
			wd:   "a/b",
			want: copilotSpan(copilotBlock("wd\n"), copilotBlock("a claude\n"), copilotBlock("a dot\n"), copilotBlock("a gemini\n")),
		},
		{
			// A GEMINI.md never has its imports expanded, a plain file too.
			name: "gemini-imports",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"GEMINI.md": "gemini @x.md\n",
				"CLAUDE.md": "claude @x.md\n",
				"x.md":      "x\n",
			}},
			wd: ".",
			want: copilotSpan(copilotBlock("claude @x.md"+copilotImport("ROOT/x.md", "x\n")+"\n"),
				copilotBlock("gemini @x.md\n")),
		},
		{
			// An instruction file importing itself: already loaded.
			name: "self-import",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"AGENTS.md": "self @AGENTS.md\n",
			}},
			wd:   ".",
			want: copilotBlock("self @AGENTS.md" + copilotSkipped("ROOT/AGENTS.md") + "\n"),
		},
		{
			// No Git: an import leaving the working directory is not
			// expanded; one below it is.
			name: "import-no-git",
			tree: copilotTree{files: map[string]string{
				"up.md":       "up\n",
				"a/AGENTS.md": "a @../up.md @sub/x.md\n",
				"a/sub/x.md":  "x\n",
			}},
			wd:   "a",
			want: copilotBlock("a @../up.md @sub/x.md" + copilotImport("ROOT/a/sub/x.md", "x\n") + "\n"),
		},
		{
			// A link of another name than GEMINI.md expands its target's
			// imports beside the link.
			name: "link-other-name-imports",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"docs/r.md": "r @x.md\n",
				"docs/x.md": "docs x\n",
				"a/x.md":    "a x\n",
			}, links: map[string]string{
				"a/CLAUDE.md": "../docs/r.md",
			}},
			wd:   "a",
			want: copilotBlock("r @x.md" + copilotImport("ROOT/a/x.md", "a x\n") + "\n"),
		},
		{
			// In one directory a file another name led to already is not
			// loaded again: the link first (CLAUDE.md -> GEMINI.md, its
			// imports expanded), the target after it skipped; two links to
			// one file elsewhere load once.
			name: "same-file-in-directory",
			tree: copilotTree{git: []string{"."}, files: map[string]string{
				"GEMINI.md": "g @n.md\n",
				"n.md":      "n\n",
				"docs/r.md": "r @x.md\n",
				"docs/x.md": "docs x\n",
				"a/x.md":    "a x\n",
			}, links: map[string]string{
				"CLAUDE.md":   "GEMINI.md",
				"a/AGENTS.md": "../docs/r.md",
				"a/GEMINI.md": "../docs/r.md",
			}},
			wd: "a",
			want: copilotSpan(copilotBlock("g @n.md"+copilotImport("ROOT/n.md", "n\n")+"\n"),
				copilotBlock("r @x.md"+copilotImport("ROOT/a/x.md", "a x\n")+"\n")),
		},
	}
}

// manyInstructionFiles are n unconditional .github/instructions files,
// i000.instructions.md … (sorted as numbered).
func manyInstructionFiles(n int) map[string]string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf(".github/instructions/i%03d.instructions.md", i)] = fmt.Sprintf("i%03d\n", i)
	}
	return files
}

func manyInstructionTexts(n int) []string {
	var texts []string
	for i := range n {
		texts = append(texts, fmt.Sprintf("i%03d\n", i))
	}
	return texts
}
