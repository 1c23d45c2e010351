package integration

// The repositories of the Copilot differential test (copilot_diff_test.go):
// from a seed, deterministically, a repository (a Git worktree, nothing
// committed, since Copilot reads the disk; or no Git at all), a sibling
// directory outside it and the user's ~/.copilot, full of what the rules
// of docs/agent-profiles.md ("What GitHub Copilot CLI 1.0.102 does") must
// get right: chains up to five directories deep with all four names in a
// directory, names Copilot never reads, .github/instructions and
// .claude/rules at the root, in the working directory and between, with
// and without applyTo/paths; @imports beside, below and above, missing,
// repeated, in cycles, in code spans; links beside their target, to
// another directory, dangling, to a directory and out of the repository;
// identical files; BOMs, CRLF, invalid UTF-8, empty and whitespace-only
// files, front matter and comments, files of 300 KB; nested repositories
// and submodules.

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
)

// cpCase is one generated repository.
type cpCase struct {
	seed uint64
	git  bool
	// files are the repository's files by repo-relative slash path;
	// outside are those of the sibling directory "outside"; home those of
	// the user's home (".copilot/…").
	files, outside, home map[string]string
	// links are the repository's links: path → target as written.
	links map[string]string
	// inner are directories holding a repository of their own (git init);
	// submodule, when set, is a submodule's path (a gitfile, the module's
	// own files committed in a repository beside the case's).
	inner     []string
	submodule string
	ignore    string // .gitignore's text ("" none)
	// dirs are the real directories (repo-relative, "" the root); compare
	// some of them.
	dirs, compare []string
	feat          map[string]int
}

var (
	cpDirNames = []string{"a", "b", "src", "pkg", "x y", "ünï", "docs", "-dash", "inc"}
	cpWords    = []string{"alpha ", "beta", " gamma", "é", "€", "😀", "日本語", "- item", "# Title", "`code`", "\t", " ", "\n", "\n", "\r\n", "<!-- a comment -->", "**bold**"}
	cpInvalid  = []string{"\xff", "\xfe", "\x80", "\xc3", "\xe2\x82", "\xf0\x9f\x98", "\xed\xa0\x80"}
	// The names Copilot reads in a directory (rule 2) and some it never reads.
	cpChainNames = []string{".github/copilot-instructions.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md"}
	cpUnread     = []string{"AGENTS.override.md", "CLAUDE.local.md", ".claude/AGENTS.md", ".github/AGENTS.md", "RIVUMI.md", ".GITHUB/copilot-instructions.md"}
	// Names in another letter case, which Copilot reads where the name
	// itself is not there (rule 2).
	cpOtherCase = []string{"agents.md", "Agents.md", "claude.md", "Gemini.md", ".github/Copilot-Instructions.md", "AGENTS.MD", ".claude/claude.md"}
	// Front matter of folder files: inlined, then tabled (rule 4).
	cpInstructionsFM = []string{"", "---\napplyTo: \"**\"\n---\n", "---\napplyTo: '**/*'\n---\n", "---\ndescription: plain\n---\n",
		"---\napplyTo: \"src/**/*.go\"\ndescription: Go files\n---\n", "---\napplyTo: \"a/**, b/**\"\n---\n",
		"---\napplyTo:\n  - \"**/*.ts\"\n  - \"*.md\"\n---\n", "---\napplyTo: docs/*.md\n---\n", "---\r\napplyTo: \"**\"\r\n---\r\n"}
	cpRulesFM = []string{"", "---\npaths: \"**\"\n---\n", "---\npaths:\n  - \"src/**\"\n---\n", "---\npaths: src/**\ndescription: sources\n---\n", "---\ndescription: no paths\n---\n"}
)

func (c *cpCase) count(f string, args ...any) { c.feat[fmt.Sprintf(f, args...)]++ }

// copilotGenerate builds the case of seed: everything follows from it.
func copilotGenerate(seed uint64) *cpCase {
	r := rand.New(rand.NewPCG(seed, 0xc091))
	c := &cpCase{seed: seed, files: map[string]string{}, outside: map[string]string{}, home: map[string]string{},
		links: map[string]string{}, feat: map[string]int{}, dirs: []string{""}}
	c.git = r.IntN(10) != 0
	if !c.git {
		c.count("no Git")
	}
	// The directories: a tree of up to five levels.
	for n := 1 + r.IntN(6); n > 0; n-- {
		parent := c.dirs[r.IntN(len(c.dirs))]
		if strings.Count(parent, "/") >= 4 {
			continue
		}
		d := path.Join(parent, cpDirNames[r.IntN(len(cpDirNames))])
		if !slices.Contains(c.dirs, d) {
			c.dirs = append(c.dirs, d)
		}
	}
	sort.Strings(c.dirs)
	c.count("directories %d", len(c.dirs))
	if c.git && len(c.dirs) > 2 && r.IntN(8) == 0 {
		d := c.dirs[1+r.IntN(len(c.dirs)-1)]
		c.inner = append(c.inner, d)
		c.count("a nested repository")
	}
	if c.git && r.IntN(12) == 0 {
		c.submodule = "mod"
		c.dirs = append(c.dirs, "mod", "mod/sub")
		c.count("a submodule")
	}
	if c.git && len(c.dirs) > 1 && r.IntN(8) == 0 {
		c.ignore = c.dirs[1] + "/\n"
		c.count("a Git-ignored directory")
	}
	// The chain files.
	for _, d := range c.dirs {
		if d == "mod" || strings.HasPrefix(d, "mod/") {
			continue // the submodule's files are its own repository's
		}
		for _, name := range cpChainNames {
			if r.IntN(3) == 0 {
				c.files[path.Join(d, name)] = c.text(r, d)
				c.count("%s", name)
			}
		}
		if r.IntN(5) == 0 {
			// Read in the directories between only (rule 2).
			c.files[path.Join(d, ".claude/CLAUDE.md")] = c.text(r, d)
			c.count(".claude/CLAUDE.md")
		}
		if r.IntN(5) == 0 {
			name := cpUnread[r.IntN(len(cpUnread))]
			c.files[path.Join(d, name)] = c.text(r, d)
			c.count("a name Copilot does not read (%s)", name)
		}
		if r.IntN(8) == 0 {
			name := cpOtherCase[r.IntN(len(cpOtherCase))]
			c.files[path.Join(d, name)] = c.text(r, d)
			c.count("a name in another case")
			if r.IntN(3) == 0 {
				// Two of them: which one loads follows the disk's order.
				other := cpOtherCase[r.IntN(len(cpOtherCase))]
				if other != name {
					c.files[path.Join(d, other)] = c.text(r, d)
					c.count("two names in other cases")
				}
			}
		}
		if r.IntN(4) == 0 {
			c.folder(r, d)
		}
	}
	// Identical files side by side or in two directories (rule 7).
	if r.IntN(5) == 0 && len(c.files) > 0 {
		src := c.pickFile(r)
		d := c.dirs[r.IntN(len(c.dirs))]
		if !strings.HasPrefix(d, "mod") {
			dst := path.Join(d, cpChainNames[r.IntN(len(cpChainNames))])
			if dst != src {
				c.files[dst] = c.files[src]
				c.count("identical files")
			}
		}
	}
	c.genLinks(r)
	if r.IntN(30) == 0 {
		// A large file: no cut (rule 5).
		var b strings.Builder
		for b.Len() < 300<<10 {
			b.WriteString("line of a large file, ")
			b.WriteString(cpWords[r.IntN(len(cpWords))])
			b.WriteString("\n")
		}
		c.files["AGENTS.md"] = b.String()
		c.count("a file of 300 KB")
	}
	// The user's files (rules 3, 4, 8).
	if r.IntN(6) == 0 {
		c.home[".copilot/copilot-instructions.md"] = "user " + c.words(r, 6)
		c.count("the user's copilot-instructions.md")
	}
	if r.IntN(10) == 0 {
		c.home[".copilot/instructions/u.instructions.md"] = cpInstructionsFM[r.IntN(len(cpInstructionsFM))] + "user folder " + c.words(r, 4)
		c.count("the user's instructions folder")
	}
	// The directories compared: the root and up to three more, deeper first.
	c.compare = []string{""}
	others := slices.Clone(c.dirs[1:])
	r.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	for _, d := range others {
		if len(c.compare) >= 1+1+r.IntN(3) {
			break
		}
		if c.underLink(d) {
			continue
		}
		c.compare = append(c.compare, d)
	}
	c.count("directories compared %d", len(c.compare))
	return c
}

// words is n random words.
func (c *cpCase) words(r *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(cpWords[r.IntN(len(cpWords))])
	}
	return b.String()
}

// text is an instruction file's text for directory d: words, maybe imports,
// front matter, a BOM, CRLF, invalid UTF-8, or nothing at all.
func (c *cpCase) text(r *rand.Rand, d string) string {
	switch r.IntN(20) {
	case 0:
		c.count("an empty file")
		return ""
	case 1:
		c.count("a whitespace-only file")
		return []string{" ", "\n", "\n\n", "\t \r\n", " \u3000\n"}[r.IntN(5)]
	}
	s := c.words(r, 1+r.IntN(8)) + "\n"
	if r.IntN(4) == 0 {
		s = c.imports(r, d, s)
	}
	if r.IntN(8) == 0 {
		s = "---\ndescription: " + c.words(r, 1) + "\napplyTo: \"**\"\n---\n" + s
		c.count("front matter in a chain file")
	}
	if r.IntN(10) == 0 {
		s = strings.ReplaceAll(s, "\n", "\r\n")
		c.count("CRLF")
	}
	if r.IntN(12) == 0 {
		i := r.IntN(len(s) + 1)
		s = s[:i] + cpInvalid[r.IntN(len(cpInvalid))] + s[i:]
		c.count("invalid UTF-8")
	}
	if r.IntN(10) == 0 {
		s = "\ufeff" + s
		c.count("a BOM")
	}
	if r.IntN(15) == 0 {
		s = strings.TrimRight(s, "\r\n") // no final newline
		c.count("no final newline")
	}
	return s
}

// imports adds @path tokens to s, a file's text in d, and writes what they
// name (rule 6).
func (c *cpCase) imports(r *rand.Rand, d, s string) string {
	for n := 1 + r.IntN(3); n > 0; n-- {
		var tok string
		switch k := r.IntN(11); k {
		case 0, 1, 2: // beside or below, maybe importing again (a cycle)
			name := fmt.Sprintf("inc/i%d.md", r.IntN(3))
			if r.IntN(2) == 0 {
				name = fmt.Sprintf("note%d.md", r.IntN(2))
			}
			p := path.Join(d, name)
			if _, ok := c.files[p]; !ok {
				body := c.words(r, 1+r.IntN(4)) + "\n"
				if r.IntN(3) == 0 {
					// Back to the importer's sibling: a cycle or a repeat.
					rel, _ := filepath.Rel(path.Dir(p), path.Join(d, "note0.md"))
					body += "see @" + filepath.ToSlash(rel) + "\n"
					c.files[path.Join(d, "note0.md")] = "note zero " + c.words(r, 2) + "\n"
					c.count("an import in an imported file")
				}
				if r.IntN(6) == 0 {
					body += " \n\n"
					c.count("trailing white space in an imported file")
				}
				c.files[p] = body
			}
			tok = "@" + name
			if r.IntN(3) == 0 {
				tok = "@./" + name
			}
			c.count("an import beside or below")
		case 3: // above
			if d == "" {
				continue
			}
			p := path.Join(path.Dir(d), "up.md")
			if path.Dir(d) == "." {
				p = "up.md"
			}
			if _, ok := c.files[p]; !ok {
				c.files[p] = "from above " + c.words(r, 2) + "\n"
			}
			tok = "@../up.md"
			c.count("an import above")
		case 4:
			tok = "@missing/none.md"
			c.count("a missing import")
		case 5:
			tok = "`@inc/i0.md`"
			c.files[path.Join(d, "inc/i0.md")] = "zero\n"
			c.count("an import in a code span")
		case 6:
			tok = "me@example.com"
			c.count("an address")
		case 7:
			tok = "@/nonexistent/abs.md"
			c.count("an absolute import")
		case 8: // the same file twice
			p := path.Join(d, "twice.md")
			c.files[p] = "twice " + c.words(r, 2) + "\n"
			tok = "@twice.md and again @twice.md"
			c.count("an import repeated")
		case 9: // in a fence
			tok = "\n```\n@inc/i1.md\n```\n"
			c.files[path.Join(d, "inc/i1.md")] = "one\n"
			c.count("an import in a fence")
		case 10: // an instruction file of the chain
			tok = "@AGENTS.md"
			c.count("an import of a chain file")
		}
		sep := []string{" ", "\n", "\t"}[r.IntN(3)]
		s += "read " + tok + sep
	}
	return s
}

// folder writes .github/instructions and .claude/rules files in d (rule 4).
func (c *cpCase) folder(r *rand.Rand, d string) {
	for n := 1 + r.IntN(3); n > 0; n-- {
		if r.IntN(3) != 0 {
			sub := []string{"", "lang/", "deep/er/"}[r.IntN(3)]
			name := fmt.Sprintf("%s.github/instructions/%sf%d.instructions.md", "", sub, r.IntN(4))
			fm := cpInstructionsFM[r.IntN(len(cpInstructionsFM))]
			c.files[path.Join(d, name)] = fm + "instructions " + c.words(r, 3) + "\n"
			c.count("a .github/instructions file (front matter %d)", slices.Index(cpInstructionsFM, fm))
			if r.IntN(6) == 0 {
				c.files[path.Join(d, ".github/instructions/plain.md")] = "not an instructions file\n"
				c.count("a .github/instructions file without the extension")
			}
		} else {
			name := fmt.Sprintf(".claude/rules/%sr%d.md", []string{"", "sub/"}[r.IntN(2)], r.IntN(3))
			fm := cpRulesFM[r.IntN(len(cpRulesFM))]
			c.files[path.Join(d, name)] = fm + "rule " + c.words(r, 3) + "\n"
			c.count("a .claude/rules file (front matter %d)", slices.Index(cpRulesFM, fm))
		}
	}
	if d == "" {
		c.count("folder files at the root")
	} else {
		c.count("folder files below the root")
	}
}

// pickFile is one of the files written so far, of the chain's names.
func (c *cpCase) pickFile(r *rand.Rand) string {
	var names []string
	for p := range c.files {
		if slices.Contains(cpChainNames, path.Base(p)) || strings.HasSuffix(p, "copilot-instructions.md") {
			names = append(names, p)
		}
	}
	if len(names) == 0 {
		return ""
	}
	sort.Strings(names)
	return names[r.IntN(len(names))]
}

// genLinks writes links among the chain's names (rule 7).
func (c *cpCase) genLinks(r *rand.Rand) {
	for n := r.IntN(3); n > 0; n-- {
		d := c.dirs[r.IntN(len(c.dirs))]
		if strings.HasPrefix(d, "mod") {
			continue
		}
		name := []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"}[r.IntN(3)]
		p := path.Join(d, name)
		if _, ok := c.files[p]; ok {
			continue
		}
		if _, ok := c.links[p]; ok {
			continue
		}
		switch r.IntN(6) {
		case 0, 1: // beside its target
			for _, t := range []string{"AGENTS.md", "CLAUDE.md", "GEMINI.md"} {
				if _, ok := c.files[path.Join(d, t)]; ok && t != name {
					c.links[p] = t
					c.count("a link beside its target")
					break
				}
			}
		case 2: // to a file in another directory
			src := c.pickFile(r)
			if src == "" || path.Dir(src) == path.Dir(p) {
				continue
			}
			rel, _ := filepath.Rel(filepath.FromSlash(path.Dir(p)), filepath.FromSlash(src))
			c.links[p] = filepath.ToSlash(rel)
			c.count("a link to another directory's file")
		case 3:
			c.links[p] = "missing.md"
			c.count("a dangling link")
		case 4:
			c.links[p] = "."
			c.count("a link to a directory")
		case 5: // out of the repository
			c.outside["o.md"] = "outside " + c.words(r, 3) + "\n"
			up := strings.Repeat("../", strings.Count(p, "/")+1)
			c.links[p] = up + "outside/o.md"
			c.count("a link out of the repository")
		}
	}
	if len(c.dirs) > 1 && r.IntN(10) == 0 {
		// A directory link: not compared below it (the preview says why).
		c.links["lnk"] = c.dirs[1]
		c.count("a link to a directory of the chain")
	}
}

// underLink reports whether d lies below a linked directory.
func (c *cpCase) underLink(d string) bool {
	for l, target := range c.links {
		if target != "." && (d == l || strings.HasPrefix(d, l+"/")) {
			return true
		}
	}
	return false
}

// write puts the case under base: base/repo, base/outside and the
// submodule's source, base/sub-src.
func (c *cpCase) write(t *testing.T, base string) string {
	t.Helper()
	repo := filepath.Join(base, "repo")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range c.dirs {
		if c.submodule != "" && (d == c.submodule || strings.HasPrefix(d, c.submodule+"/")) {
			continue // the submodule's checkout makes them
		}
		if err := os.MkdirAll(filepath.Join(repo, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if c.git {
		git(t, repo, "init", "-q")
		if c.ignore != "" {
			writeFiles(t, repo, map[string]string{".gitignore": c.ignore})
		}
	}
	for _, d := range c.inner {
		git(t, filepath.Join(repo, filepath.FromSlash(d)), "init", "-q")
	}
	if c.submodule != "" {
		src := filepath.Join(base, "sub-src")
		writeFiles(t, src, map[string]string{"AGENTS.md": "module root\n", "sub/AGENTS.md": "module sub @x.md\n", "sub/x.md": "x of the module\n",
			".github/instructions/m.instructions.md": "module folder\n"})
		git(t, src, "init", "-q")
		git(t, src, "add", "-A")
		git(t, src, "commit", "-q", "-m", "module")
		git(t, repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, c.submodule)
	}
	writeFiles(t, repo, c.files)
	writeFiles(t, filepath.Join(base, "outside"), c.outside)
	links := make([]string, 0, len(c.links))
	for l := range c.links {
		links = append(links, l)
	}
	sort.Strings(links)
	for _, l := range links {
		p := filepath.Join(repo, filepath.FromSlash(l))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.FromSlash(c.links[l]), p); err != nil {
			t.Fatal(err)
		}
	}
	return repo
}

// explains reports whether the case holds what makes d's view not exact:
// a link out of the repository (or out of the nested repository d lies in)
// on d's chain, two names of a directory on it that differ only in case.
func (c *cpCase) explains(d, why string) (string, bool) {
	top := c.top(d)
	onChain := func(od string) bool {
		return (od == top || top == "" || strings.HasPrefix(od, top+"/")) && (od == "" || od == d || strings.HasPrefix(d, od+"/"))
	}
	switch {
	case strings.Contains(why, "symbolic link out of the repository"):
		for l, target := range c.links {
			od := pathParent(l)
			to := path.Join(od, target)
			if onChain(od) && (to == ".." || strings.HasPrefix(to, "../") || top != "" && to != top && !strings.HasPrefix(to, top+"/")) {
				return "a link out of the repository", true
			}
		}
	case strings.Contains(why, "names that differ only in case"):
		for _, od := range c.dirs {
			if !onChain(od) {
				continue
			}
			for _, name := range cpChainNames {
				n := 0
				paths := slices.Collect(maps.Keys(c.files))
				for l := range c.links {
					paths = append(paths, l)
				}
				for _, p := range paths {
					if pathParent(p) == od || strings.HasPrefix(name, ".github/") && pathParent(p) == path.Join(od, ".github") {
						rel := strings.TrimPrefix(strings.TrimPrefix(p, od), "/")
						if len(rel) == len(name) && strings.EqualFold(rel, name) && (!strings.HasPrefix(name, ".github/") || strings.HasPrefix(rel, ".github/")) {
							n++
						}
					}
				}
				if n > 1 {
					return "names that differ only in case in one directory", true
				}
			}
		}
	}
	return "", false
}

// top is the repository d lies in: a nested one's directory, the
// submodule's, else the root ("").
func (c *cpCase) top(d string) string {
	top := ""
	for _, in := range append(slices.Clone(c.inner), c.submodule) {
		if in != "" && (d == in || strings.HasPrefix(d, in+"/")) && len(in) > len(top) {
			top = in
		}
	}
	return top
}

// describe lists the case's files for a mismatch's message.
func (c *cpCase) describe(d string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    Git %v, inner %q, submodule %q, ignore %q, dir %q\n", c.git, c.inner, c.submodule, c.ignore, d)
	keys := make([]string, 0, len(c.files))
	for k := range c.files {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := c.files[k]
		if len(v) > 200 {
			v = v[:200] + fmt.Sprintf("… (%d bytes)", len(c.files[k]))
		}
		fmt.Fprintf(&b, "    %s: %q\n", k, v)
	}
	for l, target := range c.links {
		fmt.Fprintf(&b, "    %s -> %s\n", l, target)
	}
	for k, v := range c.home {
		fmt.Fprintf(&b, "    ~/%s: %q\n", k, v)
	}
	return b.String()
}
