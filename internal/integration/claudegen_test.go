package integration

// The repositories of the Claude Code differential test (claude_diff_test.go):
// from a seed, deterministically, a Git worktree with a sibling directory
// outside it and, sometimes, a user's home, full of what Claude Code
// 2.1.328's loading must get right: every CLAUDE.md-family placement beside
// and without AGENTS.md files, .claude/rules with and without paths:, links
// (CLAUDE.md to AGENTS.md at the root and below, a linked .claude, rules
// links in and out, dangling, looping), @-imports present, missing,
// cyclic, deep, outside the working directory, in code, HTML comments of
// every shape, front matter of every shape, files around the 4 MiB limit,
// invalid UTF-8, byte order marks, CRLF; the AGENTS.md plugin's modes and
// claudeMdExcludes.

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// claudeCase is one generated repository and what Claude Code is told.
type claudeCase struct {
	seed uint64
	// tree holds every entry by slash path under the base: "repo/…",
	// "outside/…", "home/…" (the user's home, when home is set). A file's
	// data may hold "{{BASE}}", the base's path, written at write time.
	tree     map[string]cxEntry
	realDirs map[string]bool // repo-relative
	chain    []string        // the deepest chain, root first
	dirs     []string        // compared
	mode     string          // instructionFiles; "" unset
	excludes []string        // claudeMdExcludes; "{{BASE}}" as in data
	home     bool            // the user's home has files
	external bool            // ~/.claude.json approves imports from outside
	// out are the repository's links that lead out of it (repo-relative).
	out  []string
	feat map[string]int
	seq  int
}

var (
	claudeDirNames = []string{"a", "b", "src", "docs", "pkg", "x y", "ünï", "deep", ".hidden", "AGENTS.md"}
	claudeWords    = []string{"Use tabs.", "Run the tests before committing.", "Prefer small functions.", "é ü 日本語 😀",
		"Keep the API stable.", "word", "- item one", "- item two", "1. first step", "# Heading", "## Sub heading",
		"> quoted advice", "    indented code line", "Some *emphasis* and **strong** text.", "A `code span` here.",
		"[a link](https://example.com)", "Trailing spaces   ", "\tTabbed line"}
	claudeComments = []string{
		"<!-- a block comment -->",
		"<!-- a comment\nover two lines -->",
		"<!-- c --> trailing text",
		"text with an <!-- inline --> comment",
		"<!--->",
		"<!---->",
		"<!-- unclosed comment",
		"```\n<!-- in a fence -->\n```",
		"- <!-- in a list -->",
		"> <!-- in a quote -->",
		"<div>\n<!-- in a div -->\n</div>",
		"   <!-- indented three -->",
		"    <!-- indented four: code -->",
		"<!-- one --><!-- two -->",
		"<!-- c -->   \n\n  \nafter blank lines",
		"para line\n<!-- right after a paragraph line -->",
		"<!-- before a definition -->\n[ref]: https://example.com/ref",
		"`<!-- in a code span -->`",
	}
	claudeFronts = []string{
		"---\ndescription: a rule\n---\n",
		"---\npaths: [\"src/**\"]\n---\n",
		"---\npaths: \"**\"\n---\n",
		"---\npaths: [\"**\"]\n---\n",
		"---\npaths: src/**/*.go, docs/*\n---\n",
		"---\npaths: \"{**}\"\n---\n",
		"---\npaths: /**\n---\n",
		"---\npaths: []\n---\n",
		"---\npaths:\n---\n",
		"---\npaths: 3\n---\n",
		"---\npaths: [unclosed\n---\n",
		"---\npaths:\n  - \"**\"\n  - src/**\n---\n",
		"---\n---\n",
		"---\nname: x\nfoo: bar---\n",
		"---\r\npaths: \"*.md\"\r\n---\r\n",
		"---\n\nno closing line\n",
		"----\nnot front matter\n---\n",
		"\n---\nafter a blank line\n---\n",
		"---\ninvalid: [\n---\n",
		"\ufeff---\ndescription: after a BOM\n---\n",
		"--- \nspaces after the dashes: x\n---   \n\n\n",
	}
	// claudeHard are Markdown constructs whose token boundaries decide
	// what the comment pass keeps and which imports the scan sees.
	claudeHard = []string{
		"- item\n  - nested @IMP\n  <!-- in an item -->\n- next",
		"> quote line\nlazy continuation <!-- c -->\n> back in the quote @IMP",
		"Setext heading @IMP\n===",
		"Setext two\n---\n<!-- after a setext heading -->",
		"[ref]: https://example.com\n<!-- c -->\n[ref2]: /x",
		"<details>\n<summary>@IMP</summary>\n\n<!-- inside details -->\n</details>",
		"```\nunclosed fence @IMP\n<!-- c -->",
		"1. one\n2. two @IMP\n\n   <!-- loose item comment -->",
		"\t- tabbed item @IMP",
		"*@IMP* and _@IMP_ and **@IMP**",
		"[@IMP](https://example.com) ![@IMP](pic.png)",
		"<span>@IMP</span> <!-- inline --> @IMP",
		"    <!-- code -->\n<!-- html -->\n\n    @IMP",
		"> - quoted list @IMP\n>   <!-- c -->",
		"Term\n: @IMP",
		"line one  \nline two @IMP\\\nline three",
		"<!--\nmulti\n-->\n# Heading @IMP\n<!-- x --> y",
		"~~~\n<!-- tilde fence -->\n~~~\n@IMP",
		"| a | b |\n|---|---|\n| @IMP | <!-- c --> |",
		"<pre>\n@IMP\n<!-- in pre -->\n</pre>",
		"<!-- a -->\n\n<!-- b -->\n\n\n<!-- c -->\nend",
		"text <!-- not closed\n\nmore @IMP -->\nafter",
	}
	claudeInvalid = []string{"\xff", "\xfe", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xed\xa0\x80", "\x80"}
	claudeEdges   = []string{"\u00a0", "\u3000", "\u2028", "\ufeff", "\v", "\f", "\u0085", "\u200b", " ", "\t", "\n", "\r\n"}
)

func (c *claudeCase) count(f string, args ...any) { c.feat[fmt.Sprintf(f, args...)]++ }

func (c *claudeCase) next() int {
	c.seq++
	return c.seq
}

// claudeGenerate builds the case of seed: everything follows from it.
func claudeGenerate(seed uint64) *claudeCase {
	r := rand.New(rand.NewPCG(seed, 0xc1a0de))
	c := &claudeCase{seed: seed, tree: map[string]cxEntry{}, realDirs: map[string]bool{"": true}, feat: map[string]int{}}
	c.genDirs(r)
	c.genSupport(r)
	c.genLayout(r)
	c.genRules(r)
	c.genLinks(r)
	c.genSettings(r)
	c.genHome(r)
	c.pickDirs(r)
	return c
}

func (c *claudeCase) genDirs(r *rand.Rand) {
	depth := 1 + r.IntN(4)
	d := ""
	c.chain = []string{""}
	for i := 0; i < depth; i++ {
		d = pathJoin(d, claudeDirNames[r.IntN(len(claudeDirNames))])
		c.chain = append(c.chain, d)
		c.realDirs[d] = true
	}
	for n := r.IntN(3); n > 0; n-- {
		p := c.chain[r.IntN(len(c.chain))]
		s := pathJoin(p, fmt.Sprintf("side%d", c.next()))
		c.realDirs[s] = true
	}
	c.count("chain depth %d", depth)
}

// genSupport writes the files imports point at: plain files, one with a
// space in its name, a file of another extension, one without any, a
// cycle, a chain six deep, a file outside the repository.
func (c *claudeCase) genSupport(r *rand.Rand) {
	c.tree["repo/docs/style.md"] = cxEntry{kind: cxFile, data: []byte("style guide\n")}
	c.tree["repo/docs/my file.md"] = cxEntry{kind: cxFile, data: []byte("a file with a space\n")}
	c.tree["repo/docs/pic.png"] = cxEntry{kind: cxFile, data: []byte("not text\n")}
	c.tree["repo/Makefile"] = cxEntry{kind: cxFile, data: []byte("all:\n\techo make\n")}
	c.tree["repo/docs/cycle-a.md"] = cxEntry{kind: cxFile, data: []byte("cycle a imports @cycle-b.md\n")}
	c.tree["repo/docs/cycle-b.md"] = cxEntry{kind: cxFile, data: []byte("cycle b imports @./cycle-a.md\n")}
	for i := 1; i <= 6; i++ {
		next := ""
		if i < 6 {
			next = fmt.Sprintf(" then @d%d.md", i+1)
		}
		c.tree[fmt.Sprintf("repo/docs/deep/d%d.md", i)] = cxEntry{kind: cxFile, data: []byte(fmt.Sprintf("deep %d%s\n", i, next))}
	}
	c.tree["repo/docs/empty.md"] = cxEntry{kind: cxFile, data: []byte(" \n\t\n")}
	c.tree["repo/docs/front.md"] = cxEntry{kind: cxFile, data: []byte("---\npaths: src/**\n---\nimported, with paths\n")}
	c.tree["outside/shared.md"] = cxEntry{kind: cxFile, data: []byte("outside the repository\n")}
	c.tree["repo/docs/link.md"] = cxEntry{kind: cxLink, target: "style.md"}
	c.tree["repo/docs/out-link.md"] = cxEntry{kind: cxLink, target: "../../outside/shared.md"}
	c.out = append(c.out, "docs/out-link.md")
	c.tree["repo/docs/fifo.md"] = cxEntry{kind: cxFifo}
	c.realDirs["docs"], c.realDirs["docs/deep"], c.realDirs["docs/sub"] = true, true, true
	if r.IntN(8) == 0 {
		c.genBig(r)
	}
}

// genBig writes a file at or just over 4 MiB, imported or on the chain.
func (c *claudeCase) genBig(r *rand.Rand) {
	n := 4194304
	if r.IntN(3) > 0 {
		n++
		c.count("content: 4 MiB + 1 (skipped)")
	} else {
		c.count("content: exactly 4 MiB (loads)")
	}
	data := []byte(strings.Repeat("big ", n/4+1)[:n])
	where := []string{"repo/docs/big.md", "repo/CLAUDE.local.md", "repo/AGENTS.md"}[r.IntN(3)]
	if !c.free(strings.TrimPrefix(where, "repo/")) {
		where = "repo/docs/big.md"
	}
	c.tree[where] = cxEntry{kind: cxFile, data: data}
	c.count("big file at %s", strings.TrimPrefix(where, "repo/"))
}

// genLayout places the instruction files along the chain and beside it.
func (c *claudeCase) genLayout(r *rand.Rand) {
	layout := []string{"agents only", "mixed", "link shim", "claude heavy"}[r.IntN(4)]
	c.count("layout: %s", layout)
	dirs := c.sortedDirs()
	for _, d := range dirs {
		if strings.HasPrefix(d, "docs") {
			continue
		}
		on := slices.Contains(c.chain, d)
		p := func(n int) bool { return r.IntN(100) < n }
		put := func(name string) { c.place(r, pathJoin(d, name)) }
		switch layout {
		case "agents only":
			if p(70) {
				put("AGENTS.md")
			}
			if p(25) {
				put(".claude/AGENTS.md")
			}
			if p(15) {
				put("AGENTS.override.md")
			}
			// Files that do not count as a CLAUDE.md.
			if on && p(15) && c.free(pathJoin(d, "CLAUDE.md")) {
				c.tree["repo/"+pathJoin(d, "CLAUDE.md")] = cxEntry{kind: cxFile, data: []byte(" \n\t\n")}
				c.count("CLAUDE.md whitespace only")
			}
			if on && p(10) {
				c.link(pathJoin(d, "CLAUDE.md"), "missing-target.md", "CLAUDE.md dangling")
			}
		case "mixed":
			for _, name := range []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md", "AGENTS.md", ".claude/AGENTS.md"} {
				if p(35) {
					put(name)
				}
			}
		case "link shim":
			if (d == "" || p(30)) && c.free(pathJoin(d, "CLAUDE.md")) {
				put("AGENTS.md")
				if r.IntN(2) == 0 {
					c.link(pathJoin(d, "CLAUDE.md"), "AGENTS.md", fmt.Sprintf("CLAUDE.md -> AGENTS.md at depth %d", min(claudeDepth(d), 2)))
				} else {
					c.tree["repo/"+pathJoin(d, "CLAUDE.md")] = cxEntry{kind: cxFile, data: []byte("@AGENTS.md\n")}
					c.count("CLAUDE.md importing @AGENTS.md at depth %d", min(claudeDepth(d), 2))
				}
			} else if p(50) {
				put("AGENTS.md")
			}
			if p(20) {
				put("CLAUDE.local.md")
			}
		default:
			for _, name := range []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md"} {
				if p(55) {
					put(name)
				}
			}
			if p(30) {
				put("AGENTS.md")
			}
		}
	}
}

// free reports whether an entry may be written at the repo-relative p:
// no directory of the case is there or below.
func (c *claudeCase) free(p string) bool {
	for d := range c.realDirs {
		if d == p || strings.HasPrefix(d, p+"/") {
			return false
		}
	}
	return true
}

// place writes a generated instruction file at the repo-relative p.
func (c *claudeCase) place(r *rand.Rand, p string) {
	if !c.free(p) {
		return
	}
	c.tree["repo/"+p] = cxEntry{kind: cxFile, data: c.text(r, pathParent("repo/"+p))}
	c.count("file: %s", pathBase(p))
}

// genRules writes .claude/rules in some chain directories.
func (c *claudeCase) genRules(r *rand.Rand) {
	for _, d := range c.chain {
		if r.IntN(3) != 0 {
			continue
		}
		base := pathJoin(d, ".claude/rules")
		names := []string{"style.md", "testing.md", ".dot.md", "sub/nested.md", "U.MD", "notes.txt", "CLAUDE.md", "z.md"}
		n := 1 + r.IntN(4)
		for i := 0; i < n; i++ {
			name := names[r.IntN(len(names))]
			var b strings.Builder
			if r.IntN(2) == 0 {
				f := claudeFronts[r.IntN(len(claudeFronts))]
				b.WriteString(f)
				c.count("rules: front matter %q", f)
			}
			b.WriteString(fmt.Sprintf("rule %s in %s\n", name, resolveDisplay(d)))
			if r.IntN(4) == 0 {
				b.WriteString(c.importLine(r, "repo/"+base))
			}
			c.tree["repo/"+base+"/"+name] = cxEntry{kind: cxFile, data: []byte(b.String())}
			c.count("rules: %s", name)
		}
		if r.IntN(5) == 0 {
			c.tree["repo/"+base+"/empty.md"] = cxEntry{kind: cxFile, data: []byte("\n\n")}
			c.count("rules: whitespace-only rule")
		}
	}
}

func resolveDisplay(d string) string {
	if d == "" {
		return "the root"
	}
	return d
}

func claudeDepth(d string) int {
	if d == "" {
		return 0
	}
	return strings.Count(d, "/") + 1
}

// genLinks adds links of every kind Claude Code meets.
func (c *claudeCase) genLinks(r *rand.Rand) {
	chainDir := func() string { return c.chain[r.IntN(len(c.chain))] }
	for n := r.IntN(4); n > 0; n-- {
		d := chainDir()
		switch x := r.IntN(12); x {
		case 0:
			c.link(pathJoin(d, "CLAUDE.local.md"), cxRel(pathParent("repo/"+pathJoin(d, "x")), "repo/docs/style.md"), "CLAUDE.local.md -> a file in the repository")
		case 1:
			c.link(pathJoin(d, ".claude/rules/linked.md"), cxRel("repo/"+pathJoin(d, ".claude/rules"), "repo/docs/style.md"), "rules file -> a file in the repository")
		case 2:
			c.link(pathJoin(d, ".claude/rules/out.md"), "@/outside/shared.md", "rules file -> outside the repository")
			c.out = append(c.out, pathJoin(d, ".claude/rules/out.md"))
		case 3:
			c.link(pathJoin(d, ".claude/rules/dangling.md"), "nowhere.md", "rules file dangling")
		case 4:
			c.link(pathJoin(d, ".claude/rules/loop.md"), "loop.md", "rules file looping")
		case 5:
			if _, ok := c.tree["repo/"+pathJoin(d, ".claude")]; !ok && !c.hasUnder(pathJoin(d, ".claude")) {
				c.tree["repo/docs/claude-dir/CLAUDE.md"] = cxEntry{kind: cxFile, data: []byte("in a linked .claude\n")}
				c.tree["repo/docs/claude-dir/rules/r.md"] = cxEntry{kind: cxFile, data: []byte("a rule of a linked .claude\n")}
				c.link(pathJoin(d, ".claude"), cxRel(pathParent("repo/"+pathJoin(d, ".claude")), "repo/docs/claude-dir"), ".claude -> a directory in the repository")
			}
		case 6:
			c.link(pathJoin(d, ".claude/rules/subdir"), cxRel("repo/"+pathJoin(d, ".claude/rules"), "repo/docs/deep"), "rules subdirectory -> a directory in the repository")
		case 7:
			if _, ok := c.tree["repo/"+pathJoin(d, "CLAUDE.md")]; !ok && c.free(pathJoin(d, "CLAUDE.md")) {
				c.link(pathJoin(d, "CLAUDE.md"), cxRel(pathParent("repo/"+pathJoin(d, "x")), "repo/AGENTS.md"), "CLAUDE.md -> the root's AGENTS.md")
				if _, ok := c.tree["repo/AGENTS.md"]; !ok && c.free("AGENTS.md") {
					c.tree["repo/AGENTS.md"] = cxEntry{kind: cxFile, data: []byte("root AGENTS.md\n")}
				}
			}
		case 8:
			c.link(pathJoin(d, "AGENTS.md"), "CLAUDE.md", "AGENTS.md -> CLAUDE.md")
		case 9:
			c.link(pathJoin(d, "CLAUDE.local.md"), "@/outside/shared.md", "CLAUDE.local.md -> outside the repository")
			c.out = append(c.out, pathJoin(d, "CLAUDE.local.md"))
		case 10:
			if c.free(pathJoin(d, "CLAUDE.md")) {
				c.tree["repo/"+pathJoin(d, "CLAUDE.md")] = cxEntry{kind: cxDir}
				c.count("CLAUDE.md a directory")
			}
		default:
			if c.free(pathJoin(d, "CLAUDE.md")) {
				c.tree["repo/"+pathJoin(d, "CLAUDE.md")] = cxEntry{kind: cxFifo}
				c.count("CLAUDE.md a FIFO")
			}
		}
	}
}

func (c *claudeCase) link(p, target, what string) {
	if !c.free(p) {
		return
	}
	c.tree["repo/"+p] = cxEntry{kind: cxLink, target: target}
	c.count("link: %s", what)
}

func (c *claudeCase) hasUnder(d string) bool {
	for p := range c.tree {
		if strings.HasPrefix(p, "repo/"+d+"/") {
			return true
		}
	}
	return false
}

// genSettings picks the plugin's mode and the excludes.
func (c *claudeCase) genSettings(r *rand.Rand) {
	switch x := r.IntN(20); {
	case x < 11:
		c.count("mode: unset")
	case x < 13:
		c.mode = "claude-md"
	case x < 17:
		c.mode = "claude-md-and-agents-md"
	case x < 18:
		c.mode = "managed-only"
	case x < 19:
		c.mode = "claude-md-or-agents-md"
	default:
		c.mode = "no-such-mode"
	}
	if c.mode != "" {
		c.count("mode: %s", c.mode)
	}
	if r.IntN(8) == 0 {
		c.external = true
		c.tree["home/.claude.json"] = cxEntry{kind: cxFile, data: []byte(`{"projects": {"{{BASE}}/repo": {"hasClaudeMdExternalIncludesApproved": true}}}`)}
		c.count("external imports approved")
	}
	if r.IntN(6) == 0 {
		ex := [][]string{{"**/CLAUDE.local.md"}, {"**/.claude/rules/**"}, {"**/AGENTS.md"}, {"CLAUDE.md"},
			{"{{BASE}}/repo/CLAUDE.md"}, {"**/docs/**"}}[r.IntN(6)]
		c.excludes = ex
		c.count("claudeMdExcludes %q", ex)
	}
}

// genHome gives the user a CLAUDE.md and a rule, sometimes.
func (c *claudeCase) genHome(r *rand.Rand) {
	if r.IntN(7) != 0 {
		return
	}
	c.home = true
	c.tree["home/.claude/CLAUDE.md"] = cxEntry{kind: cxFile, data: []byte("user instructions\n@notes.md\n")}
	c.tree["home/.claude/notes.md"] = cxEntry{kind: cxFile, data: []byte("user notes\n")}
	if r.IntN(2) == 0 {
		c.tree["home/.claude/rules/user-rule.md"] = cxEntry{kind: cxFile, data: []byte("a user rule\n")}
	}
	c.count("user: home files")
}

// text is a generated instruction file: words, and by chance front
// matter, HTML comments, imports, encodings and edge whitespace.
func (c *claudeCase) text(r *rand.Rand, dir string) []byte {
	var b strings.Builder
	switch x := r.IntN(40); {
	case x == 0:
		c.count("content: empty")
		return nil
	case x == 1:
		c.count("content: whitespace only")
		return []byte(claudeEdges[r.IntN(len(claudeEdges))] + " \n")
	case x < 6:
		f := claudeFronts[r.IntN(len(claudeFronts))]
		b.WriteString(f)
		c.count("front matter %q", f)
	}
	lines := 1 + r.IntN(6)
	for i := 0; i < lines; i++ {
		switch x := r.IntN(22); {
		case x >= 20:
			h := claudeHard[r.IntN(len(claudeHard))]
			c.count("markdown %q", h)
			if strings.Contains(h, "@IMP") {
				target := strings.TrimSuffix(strings.TrimPrefix(c.importLine(r, dir), "@"), "\n")
				if i := strings.LastIndex(target, "@"); i >= 0 {
					target = target[i+1:]
				}
				target = strings.Fields(target + " x")[0]
				h = strings.ReplaceAll(h, "@IMP", "@"+target)
			}
			b.WriteString(h)
		case x < 4:
			cm := claudeComments[r.IntN(len(claudeComments))]
			b.WriteString(cm)
			c.count("comment %q", cm)
		case x < 8:
			b.WriteString(c.importLine(r, dir))
			continue
		case x == 8:
			b.WriteString(claudeInvalid[r.IntN(len(claudeInvalid))] + " invalid bytes")
			c.count("content: invalid UTF-8")
		default:
			b.WriteString(claudeWords[r.IntN(len(claudeWords))])
		}
		b.WriteString("\n")
		if r.IntN(4) == 0 {
			b.WriteString("\n")
		}
	}
	s := b.String()
	if r.IntN(6) == 0 {
		s = strings.ReplaceAll(s, "\n", "\r\n")
		c.count("content: CRLF")
	}
	if r.IntN(10) == 0 {
		s = "\ufeff" + s
		c.count("content: byte order mark")
	}
	if r.IntN(8) == 0 {
		e := claudeEdges[r.IntN(len(claudeEdges))]
		s = e + s + e
		c.count("content: edge whitespace %q", e)
	}
	return []byte(s)
}

// importLine is one line holding an @-import, of a kind drawn at random;
// dir is the importing file's directory (base-relative).
func (c *claudeCase) importLine(r *rand.Rand, dir string) string {
	rel := func(to string) string { return cxRel(dir, to) }
	var target, kind string
	switch x := r.IntN(24); x {
	case 18:
		target, kind = rel("repo/"+pathJoin(c.chain[len(c.chain)-1], "CLAUDE.md")), "the deepest chain directory's CLAUDE.md"
	case 19:
		target, kind = rel("repo/docs/sub"), "a directory"
	case 20:
		target, kind = rel("repo/docs/link.md"), "a link in the repository"
	case 21:
		target, kind = rel("repo/docs/out-link.md"), "a link out of the repository"
	case 22:
		target, kind = rel("repo/docs/fifo.md"), "a FIFO"
	case 23:
		target, kind = rel("repo/.claude/rules/style.md"), "a rules file"
	case 0, 1:
		target, kind = rel("repo/docs/style.md"), "present"
	case 2:
		target, kind = "./"+rel("repo/docs/style.md"), "present, ./"
	case 3:
		target, kind = rel("repo/docs/missing.md"), "missing"
	case 4:
		target, kind = rel("repo/docs/cycle-a.md"), "cyclic"
	case 5:
		target, kind = rel("repo/docs/deep/d1.md"), "six deep"
	case 6:
		target, kind = rel("outside/shared.md"), "outside the repository"
	case 7:
		target, kind = "{{BASE}}/repo/docs/style.md", "absolute in the repository"
	case 8:
		target, kind = "{{BASE}}/outside/shared.md", "absolute outside"
	case 9:
		target, kind = "~/notes.md", "~/"
	case 10:
		target, kind = strings.ReplaceAll(rel("repo/docs/my file.md"), " ", `\ `), "escaped space"
	case 11:
		target, kind = rel("repo/docs/pic.png"), "another extension"
	case 12:
		target, kind = rel("repo/Makefile"), "no extension"
	case 13:
		target, kind = rel("repo/AGENTS.md"), "the root's AGENTS.md"
	case 14:
		target, kind = rel("repo/docs/style.md")+"#section", "with #fragment"
	case 15:
		target, kind = rel("repo/docs/empty.md"), "whitespace-only file"
	case 16:
		target, kind = rel("repo/docs/front.md"), "a file with paths:"
	default:
		target, kind = rel("repo/CLAUDE.local.md"), "the root's CLAUDE.local.md"
	}
	shape := r.IntN(10)
	var line string
	switch shape {
	case 0:
		line = "See @" + target + " for more."
	case 1:
		line = "- @" + target
	case 2:
		line = "`@" + target + "`"
	case 3:
		line = "```\n@" + target + "\n```"
	case 4:
		line = "\\@" + target
	case 5:
		line = "(@" + target + ")"
	case 6:
		line = "> @" + target
	case 7:
		line = "<!-- @" + target + " -->"
	default:
		line = "@" + target
	}
	c.count("import: %s", kind)
	if shape < 8 && shape != 0 && shape != 1 && shape != 6 {
		c.count("import shape %d (not an import)", shape)
	}
	return line + "\n"
}

// pickDirs chooses where to compare: the chain's leaf, often the root, a
// middle directory, a side directory.
func (c *claudeCase) pickDirs(r *rand.Rand) {
	add := func(d string) {
		if !slices.Contains(c.dirs, d) {
			c.dirs = append(c.dirs, d)
		}
	}
	add(c.chain[len(c.chain)-1])
	if r.IntN(3) == 0 {
		add("")
	}
	if len(c.chain) > 2 && r.IntN(2) == 0 {
		add(c.chain[1+r.IntN(len(c.chain)-2)])
	}
	if r.IntN(4) == 0 {
		ds := c.sortedDirs()
		add(ds[r.IntN(len(ds))])
	}
}

// sortedDirs are the repository's real directories, sorted.
func (c *claudeCase) sortedDirs() []string {
	ds := make([]string, 0, len(c.realDirs))
	for d := range c.realDirs {
		ds = append(ds, d)
	}
	sort.Strings(ds)
	return ds
}

// claudePaths are where one case lives on disk.
type claudePaths struct {
	base, repo string
}

// write puts the case under base: the repository (git init, nothing
// committed: Claude Code reads the disk), the outside directory, and the
// home's files, returned for the harness (which writes them itself).
func (c *claudeCase) write(t *testing.T, base string) (claudePaths, map[string]string) {
	t.Helper()
	p := claudePaths{base: base, repo: filepath.Join(base, "repo")}
	if err := os.MkdirAll(p.repo, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, p.repo, "init", "-q")
	for _, d := range c.sortedDirs() {
		if err := os.MkdirAll(filepath.Join(p.repo, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	home := map[string]string{}
	keys := make([]string, 0, len(c.tree))
	for k := range c.tree {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := c.tree[k]
		if h, ok := strings.CutPrefix(k, "home/"); ok {
			home[h] = strings.ReplaceAll(string(e.data), "{{BASE}}", filepath.ToSlash(base))
			continue
		}
		abs := filepath.Join(base, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch e.kind {
		case cxFile:
			err = os.WriteFile(abs, []byte(strings.ReplaceAll(string(e.data), "{{BASE}}", filepath.ToSlash(base))), 0o644)
		case cxDir:
			err = os.MkdirAll(abs, 0o755)
		case cxLink:
			target := filepath.FromSlash(e.target)
			if rest, ok := strings.CutPrefix(e.target, "@/"); ok {
				target = filepath.Join(base, filepath.FromSlash(rest))
			}
			err = os.Symlink(target, abs)
		case cxFifo:
			err = codexMkfifo(abs)
		}
		if err != nil {
			t.Fatalf("write %s: %v", k, err)
		}
	}
	return p, home
}

// settings is what --settings carries besides disableAllHooks.
func (c *claudeCase) settings(base string) map[string]any {
	s := map[string]any{}
	if c.mode != "" {
		s["pluginConfigs"] = map[string]any{"cc-plugin-agents-md@builtin": map[string]any{"options": map[string]any{"instructionFiles": c.mode}}}
	}
	if len(c.excludes) > 0 {
		var ex []string
		for _, e := range c.excludes {
			ex = append(ex, strings.ReplaceAll(e, "{{BASE}}", filepath.ToSlash(base)))
		}
		s["claudeMdExcludes"] = ex
	}
	return s
}
