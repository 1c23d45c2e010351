package integration

// The repositories of the Codex differential test (codex_test.go): from a
// seed, deterministically, a Git worktree (nothing committed: Codex reads
// the disk), a sibling directory outside it, a CODEX_HOME and the two
// configs, full of what Codex's AGENTS.md discovery (agents_md.rs) must
// get right: chains up to eight directories deep; override, default and
// fallback names; whitespace-only and empty files; links to files, to
// directories, dangling, out of the repository, in chains, through linked
// directories and in loops; invalid UTF-8, byte order marks, CRLF; and one
// chain per repository laid out so that the shared byte budget runs out at
// a chosen position, inside a character of a chosen width.

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

type cxKind uint8

const (
	cxFile cxKind = iota
	cxDir
	cxLink
	cxFifo
)

// cxEntry is one entry of a case.
type cxEntry struct {
	kind cxKind
	data []byte // a file's bytes
	// target is a link's text; one starting with "@/" names a path under
	// the case's base directory and is written absolute (the base differs
	// from run to run).
	target string
}

// codexCase is one generated repository and what Codex is told.
type codexCase struct {
	seed uint64
	// tree holds every entry but the directories a path implies, by slash
	// path under the base: "repo/…", "outside/…", "home/…" (CODEX_HOME).
	tree map[string]cxEntry
	// realDirs are the repository's directories (repo-relative, "" the
	// root), never reached through a link; dirs, some of them, are compared.
	realDirs map[string]bool
	dirs     []string
	// The three Codex options; set false leaves the key out of both
	// configs, so both sides take their defaults.
	maxBytes                         int
	fallbacks, markers               []string
	setMax, setFallbacks, setMarkers bool
	markerDirs                       []string
	// What only rivumi-lint reads, which must not change its answer: its
	// own file limit, ignore rules, and a commit the worktree then leaves.
	rivumiMax int
	ignore    string
	commit    bool
	after     map[string]*cxEntry // applied after the commit; nil deletes
	pending   []cxPending
	feat      map[string]int
	seq       int // names the helper entries
}

// cxPending is a link whose target is chosen once every file exists.
type cxPending struct {
	path, intent string
}

var (
	// codexNames are the names candidates are written under: Codex's two,
	// the fallbacks the configs name (RIVUMI.md is also rivumi-lint's own
	// candidate), and names Codex never matches (case differs).
	codexNames     = []string{"AGENTS.override.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md", "RIVUMI.md", "README.md", "agents.md", "AGENTS.MD"}
	codexDirNames  = []string{"a", "b", "src", "pkg", "deep", "x y", "ünï", "AGENTS.md", "CLAUDE.md", "-dash", "docs"}
	codexCutChars  = [][]string{1: {"Z", "-"}, 2: {"é", "ß", "\u0085"}, 3: {"€", "日", "\u3000", "\u200b"}, 4: {"😀", "𝄞"}}
	codexSpace     = []string{" ", "\t", "\n", "\r\n", "\r", "\v", "\f", "\u00a0", "\u3000", "\u2028", "\u0085", "\u2003", "\u202f"}
	codexNearSpace = []string{"\u200b", "\ufeff", "\x00", "\u180e"}
	codexInvalid   = []string{"\xff", "\xfe", "\x80", "\xbf", "\xc0\xaf", "\xe0\x80\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80",
		"\xe2\x82", "\xf0\x9f\x98", "\xc3", "\xf8\x88\x80\x80\x80", "\xef\xbf"}
	codexWords = []string{"alpha ", "beta", " gamma", "é", "€", "😀", "日本語", "- item", "# Title", "`code`", "\t", " ", "\n", "\n", "\r\n"}
)

func (c *codexCase) budget() int {
	if c.setMax {
		return c.maxBytes
	}
	return 32768
}

// candidates are the names Codex tries in each directory, in order.
func (c *codexCase) candidates() []string {
	names := []string{"AGENTS.override.md", "AGENTS.md"}
	for _, f := range c.fallbacks {
		if f != "" && !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	return names
}

func (c *codexCase) rootMarkers() []string {
	if c.setMarkers {
		return c.markers
	}
	return []string{".git"}
}

func (c *codexCase) count(f string, args ...any) {
	c.feat[fmt.Sprintf(f, args...)]++
}

func (c *codexCase) next() int {
	c.seq++
	return c.seq
}

func codexDepth(d string) int {
	if d == "" {
		return 0
	}
	return strings.Count(d, "/") + 1
}

// codexGenerate builds the case of seed: everything follows from it.
func codexGenerate(seed uint64) *codexCase {
	r := rand.New(rand.NewPCG(seed, 0xc0de))
	c := &codexCase{seed: seed, tree: map[string]cxEntry{}, realDirs: map[string]bool{"": true}, feat: map[string]int{}}
	c.genConfig(r)
	chain := c.genDirs(r)
	c.genCandidates(r)
	c.genMarkers(r)
	if b := c.budget(); b > 0 && b <= 1<<20 && r.IntN(10) < 7 {
		c.genCut(r, chain)
	}
	c.genLinks(r)
	c.genUser(r)
	c.genGit(r)
	c.pickDirs(r, chain)
	c.countContent()
	return c
}

func (c *codexCase) genConfig(r *rand.Rand) {
	c.setMax = true
	switch x := r.IntN(20); {
	case x < 2:
		c.maxBytes = 0
	case x < 3:
		c.maxBytes = 1
	case x < 4:
		c.maxBytes = 2
	case x < 5:
		c.maxBytes = 3
	case x < 6:
		c.maxBytes = 7
	case x < 10:
		c.maxBytes = 4 + r.IntN(300)
	case x < 12:
		c.maxBytes = 300 + r.IntN(4000)
	case x < 17:
		c.maxBytes, c.setMax = 32768, r.IntN(2) == 0
	default:
		c.maxBytes = []int{40000, 65536, 1 << 20}[r.IntN(3)]
	}
	switch {
	case !c.setMax:
		c.count("budget: default (unset)")
	case slices.Contains([]int{0, 1, 2, 3, 7}, c.maxBytes):
		c.count("budget: %d", c.maxBytes)
	case c.maxBytes == 32768:
		c.count("budget: 32768 set")
	case c.maxBytes > 32768:
		c.count("budget: large")
	default:
		c.count("budget: small random")
	}
	c.setFallbacks = true
	switch r.IntN(10) {
	case 0, 1:
		c.setFallbacks = false
	case 2:
		c.fallbacks = []string{}
	case 3, 4:
		c.fallbacks = []string{"CLAUDE.md"}
	case 5:
		c.fallbacks = []string{"CLAUDE.md", "GEMINI.md"}
	case 6:
		c.fallbacks = []string{"GEMINI.md", "CLAUDE.md"}
	case 7:
		c.fallbacks = []string{"AGENTS.md", "CLAUDE.md"} // a built-in name again
	case 8:
		c.fallbacks = []string{"RIVUMI.md"} // rivumi-lint's own candidate
	case 9:
		c.fallbacks = []string{"README.md", "CLAUDE.md"}
	}
	if c.setFallbacks {
		c.count("fallbacks: %q", c.fallbacks)
	} else {
		c.count("fallbacks: unset")
	}
	c.setMarkers = true
	switch r.IntN(10) {
	case 0, 1, 2, 3, 4:
		c.setMarkers = false
	case 5:
		c.markers = []string{".git"}
	case 6:
		c.markers = []string{}
	case 7, 8:
		c.markers = []string{".codexroot"}
	case 9:
		c.markers = []string{".codexroot", ".git"}
	}
	if c.setMarkers {
		c.count("markers: %q", c.markers)
	} else {
		c.count("markers: unset")
	}
}

// genDirs makes the directories: one chain from the root down to eight
// deep, which the budget cut is laid along, and a few branches.
func (c *codexCase) genDirs(r *rand.Rand) []string {
	name := func() string {
		if r.IntN(40) == 0 {
			c.count("directory: name not UTF-8")
			return "\xffb"
		}
		return codexDirNames[r.IntN(len(codexDirNames))]
	}
	chain := []string{""}
	cur := ""
	for k := r.IntN(9); k > 0; k-- {
		cur = pathJoin(cur, name())
		chain = append(chain, cur)
		c.realDirs[cur] = true
	}
	c.count("chain depth %d", len(chain)-1)
	for n := r.IntN(6); n > 0; n-- {
		var parents []string
		for _, d := range c.sortedDirs() {
			if codexDepth(d) < 8 {
				parents = append(parents, d)
			}
		}
		c.realDirs[pathJoin(parents[r.IntN(len(parents))], name())] = true
	}
	return chain
}

func (c *codexCase) sortedDirs() []string {
	out := make([]string, 0, len(c.realDirs))
	for d := range c.realDirs {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// free tells whether the repository path p can take a new entry.
func (c *codexCase) free(p string) bool {
	_, taken := c.tree["repo/"+p]
	return !taken && !c.realDirs[p]
}

func (c *codexCase) genCandidates(r *rand.Rand) {
	odds := map[string]int{"AGENTS.override.md": 20, "AGENTS.md": 45, "CLAUDE.md": 30, "GEMINI.md": 15,
		"RIVUMI.md": 10, "README.md": 10, "agents.md": 4, "AGENTS.MD": 4}
	for _, d := range c.sortedDirs() {
		for _, name := range codexNames {
			p := pathJoin(d, name)
			if c.realDirs[p] {
				c.count("candidate: a directory of that name")
				continue
			}
			if r.IntN(100) >= odds[name] {
				continue
			}
			c.genCandidate(r, p)
		}
	}
	for n := 1 + r.IntN(4); n > 0; n-- { // link targets that are no candidate
		dirs := c.sortedDirs()
		p := pathJoin(dirs[r.IntN(len(dirs))], fmt.Sprintf("notes-%d.md", c.next()))
		c.tree["repo/"+p] = cxEntry{kind: cxFile, data: c.content(r)}
	}
}

// genCandidate puts one entry of a candidate's name at p.
func (c *codexCase) genCandidate(r *rand.Rand, p string) {
	x := r.IntN(1000)
	intents := []struct {
		upTo   int
		intent string
	}{
		{80, "link to a file"}, {110, "link to a directory"}, {150, "dangling link"},
		{210, "link out to a file"}, {230, "link out to a directory"}, {250, "link out, dangling"},
		{260, "link out and back in"}, {300, "link chain"}, {330, "link through a linked directory"},
		{335, "link loop"}, {345, "link through a file (ENOTDIR)"}, {350, "link to a FIFO"},
		{360, "link with . and .. in its target"}, {366, "link with a trailing slash"},
		{372, "link through a linked directory and .."},
	}
	for _, in := range intents {
		if x < in.upTo {
			c.pending = append(c.pending, cxPending{p, in.intent})
			c.tree["repo/"+p] = cxEntry{kind: cxLink} // reserved; the target comes later
			return
		}
	}
	switch {
	case x < 400:
		c.tree["repo/"+p] = cxEntry{kind: cxDir}
		c.count("candidate: a directory of that name")
	case x < 410:
		c.tree["repo/"+p] = cxEntry{kind: cxFifo}
		c.count("candidate: a FIFO")
	default:
		c.tree["repo/"+p] = cxEntry{kind: cxFile, data: c.content(r)}
	}
}

// genMarkers places the custom marker in a directory or two, as a file, a
// directory or a link (Codex takes one that stat follows to anything).
func (c *codexCase) genMarkers(r *rand.Rand) {
	if !slices.Contains(c.markers, ".codexroot") {
		return
	}
	dirs := c.sortedDirs()
	for n := 1 + r.IntN(2); n > 0; n-- {
		d := dirs[r.IntN(len(dirs))]
		p := pathJoin(d, ".codexroot")
		if !c.free(p) {
			continue
		}
		c.markerDirs = append(c.markerDirs, d)
		at := "repo/" + p
		switch x := r.IntN(26); {
		case x < 10:
			c.tree[at] = cxEntry{kind: cxFile}
			c.count("marker: a file")
		case x < 15:
			c.tree[at] = cxEntry{kind: cxDir}
			c.count("marker: a directory")
		case x < 17:
			c.tree[at] = cxEntry{kind: cxLink, target: "."}
			c.count("marker: a link to a directory")
		case x < 19:
			c.tree[at] = cxEntry{kind: cxLink, target: "no-such-marker"}
			c.count("marker: a dangling link")
		case x < 21:
			c.tree[at] = cxEntry{kind: cxLink, target: ".codexroot"}
			c.count("marker: a link loop")
		case x < 23:
			c.tree[at] = cxEntry{kind: cxLink, target: linkText(r, at, c.outsideFile(r))}
			c.count("marker: a link out to a file")
		case x < 25:
			c.tree[at] = cxEntry{kind: cxLink, target: linkText(r, at, fmt.Sprintf("outside/none-%d", c.next()))}
			c.count("marker: a link out, dangling")
		default:
			// Through a file: stat fails with ENOTDIR, not "not found".
			c.tree[at] = cxEntry{kind: cxLink, target: ".git/HEAD/x"}
			if d != "" {
				c.tree[at] = cxEntry{kind: cxLink, target: strings.Repeat("../", codexDepth(d)) + ".git/HEAD/x"}
			}
			c.count("marker: a link through a file (ENOTDIR)")
		}
	}
}

// genCut lays out the chain so that the budget runs out at a chosen
// position j: the files above it use up all but rem bytes (or are
// whitespace-only, which costs nothing), and the one at j is cut o bytes
// into a character of w bytes, fits exactly, fits with one byte to spare
// (the next one is cut to a byte), or is cut to a whitespace-only prefix
// (which costs nothing: the next one is cut instead).
func (c *codexCase) genCut(r *rand.Rand, chain []string) {
	b := c.budget()
	j := r.IntN(len(chain))
	w := 1 + r.IntN(4)
	o := 0
	if w > 1 {
		o = r.IntN(w)
	}
	lo := max(1, o)
	rem := b
	if j > 0 && b > lo {
		rem = lo + r.IntN(b-lo+1)
	}
	if rem < o {
		o = 0
	}
	c.count("designed cut: chain position %d", j)
	spent := b - rem
	var paid []int
	for i := 0; i < j; i++ {
		paid = append(paid, i)
	}
	r.Shuffle(len(paid), func(a, b int) { paid[a], paid[b] = paid[b], paid[a] })
	paid = paid[:min(len(paid), spent)] // j > 0 whenever spent > 0
	sizes := make(map[int]int, len(paid))
	for k, i := range paid {
		if k == len(paid)-1 {
			sizes[i] = spent
			break
		}
		n := 1 + r.IntN(spent-(len(paid)-1-k)) // the others get a byte each
		sizes[i] = n
		spent -= n
	}
	for i := 0; i < j; i++ {
		switch n, ok := sizes[i]; {
		case ok:
			c.place(r, chain[i], c.sized(r, n))
		case r.IntN(2) == 0:
			c.place(r, chain[i], c.space(r, 1+r.IntN(8)))
		default:
			c.clear(chain[i])
		}
	}
	var data []byte
	switch v := r.IntN(20); {
	case v < 3:
		data = c.sized(r, rem)
		c.count("designed cut: exactly the remaining budget")
	case v < 6 && rem > 1:
		data = c.sized(r, rem-1)
		c.count("designed cut: one byte under the remaining budget")
	case v < 8:
		for range rem {
			data = append(data, " \t\n\r\v\f"[r.IntN(6)])
		}
		data = append(data, c.sized(r, 1+r.IntN(30))...)
		c.count("designed cut: a whitespace-only prefix")
	default:
		ch := codexCutChars[w][r.IntN(len(codexCutChars[w]))]
		data = append(c.sized(r, rem-o), ch...)
		data = append(data, c.sized(r, r.IntN(40))...)
		if o == 0 {
			c.count("designed cut: before a %d-byte character", w)
		} else {
			c.count("designed cut: %d bytes into a %d-byte character", o, w)
		}
	}
	c.place(r, chain[j], data)
}

// place makes data the first candidate Codex finds in dir (most times:
// a higher one is sometimes left in place).
func (c *codexCase) place(r *rand.Rand, dir string, data []byte) {
	names := c.candidates()
	var free []int
	for i, n := range names {
		if !c.realDirs[pathJoin(dir, n)] {
			free = append(free, i)
		}
	}
	if len(free) == 0 {
		return
	}
	pick := free[0]
	if x := r.IntN(10); x >= 6 && len(free) > 1 {
		pick = free[1+r.IntN(len(free)-1)]
	}
	if r.IntN(5) > 0 {
		for _, n := range names[:pick] {
			c.drop(pathJoin(dir, n))
		}
	}
	p := pathJoin(dir, names[pick])
	c.drop(p)
	c.tree["repo/"+p] = cxEntry{kind: cxFile, data: data}
}

// clear removes dir's candidates.
func (c *codexCase) clear(dir string) {
	for _, n := range c.candidates() {
		c.drop(pathJoin(dir, n))
	}
}

func (c *codexCase) drop(p string) {
	if e, ok := c.tree["repo/"+p]; ok && e.kind != cxDir {
		delete(c.tree, "repo/"+p)
		c.pending = slices.DeleteFunc(c.pending, func(pl cxPending) bool { return pl.path == p })
	}
}

// cxRel is the relative link text from the directory from to the path to,
// both slash paths under the base.
func cxRel(from, to string) string {
	f, t := strings.Split(from, "/"), strings.Split(to, "/")
	i := 0
	for i < len(f) && i < len(t) && f[i] == t[i] {
		i++
	}
	parts := slices.Repeat([]string{".."}, len(f)-i)
	parts = append(parts, t[i:]...)
	if len(parts) == 0 {
		return "."
	}
	return strings.Join(parts, "/")
}

func pathBase(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// linkText names the base path to from the link at the base path at:
// relative most times, absolute at times.
func linkText(r *rand.Rand, at, to string) string {
	if r.IntN(5) == 0 {
		return "@/" + to
	}
	return cxRel(pathParent(at), to)
}

// repoFiles are the repository's regular files, repo-relative.
func (c *codexCase) repoFiles() []string {
	var out []string
	for p, e := range c.tree {
		if e.kind == cxFile && strings.HasPrefix(p, "repo/") {
			out = append(out, strings.TrimPrefix(p, "repo/"))
		}
	}
	sort.Strings(out)
	return out
}

func (c *codexCase) outsideFile(r *rand.Rand) string {
	p := fmt.Sprintf("outside/f-%d.md", c.next())
	c.tree[p] = cxEntry{kind: cxFile, data: c.content(r)}
	return p
}

// genLinks gives each pending link its target.
func (c *codexCase) genLinks(r *rand.Rand) {
	for _, pl := range c.pending {
		at := "repo/" + pl.path
		files := c.repoFiles()
		if len(files) == 0 {
			p := fmt.Sprintf("notes-%d.md", c.next())
			c.tree["repo/"+p] = cxEntry{kind: cxFile, data: c.content(r)}
			files = []string{p}
		}
		file := "repo/" + files[r.IntN(len(files))]
		dirs := c.sortedDirs()
		hop := func() string { // a helper link in a real directory
			return "repo/" + pathJoin(dirs[r.IntN(len(dirs))], fmt.Sprintf("hop-%d", c.next()))
		}
		var target string
		switch pl.intent {
		case "link to a file":
			target = linkText(r, at, file)
		case "link to a directory":
			target = linkText(r, at, strings.TrimSuffix("repo/"+dirs[r.IntN(len(dirs))], "/"))
		case "dangling link":
			target = []string{"missing.md", "gone/x.md", "@/repo/missing.md"}[r.IntN(3)]
		case "link out to a file":
			target = linkText(r, at, c.outsideFile(r))
		case "link out to a directory":
			d := fmt.Sprintf("outside/d-%d", c.next())
			c.tree[d+"/AGENTS.md"] = cxEntry{kind: cxFile, data: c.content(r)}
			target = linkText(r, at, d)
		case "link out, dangling":
			target = linkText(r, at, fmt.Sprintf("outside/none-%d", c.next()))
		case "link out and back in":
			target = strings.Repeat("../", codexDepth(pathParent(pl.path))+1) + file
		case "link chain":
			h := hop()
			target = linkText(r, at, h)
			switch x := r.IntN(10); {
			case x < 6:
				c.tree[h] = cxEntry{kind: cxLink, target: linkText(r, h, file)}
			case x < 8:
				h2 := hop()
				c.tree[h] = cxEntry{kind: cxLink, target: linkText(r, h, h2)}
				c.tree[h2] = cxEntry{kind: cxLink, target: linkText(r, h2, file)}
			default:
				c.tree[h] = cxEntry{kind: cxLink, target: linkText(r, h, c.outsideFile(r))}
				pl.intent = "link chain out"
			}
		case "link through a linked directory":
			dl := hop()
			if r.IntN(10) < 7 {
				c.tree[dl] = cxEntry{kind: cxLink, target: linkText(r, dl, pathParent(file))}
				target = linkText(r, at, dl) + "/" + pathBase(file)
			} else {
				d := fmt.Sprintf("outside/d-%d", c.next())
				c.tree[d+"/f.md"] = cxEntry{kind: cxFile, data: c.content(r)}
				c.tree[dl] = cxEntry{kind: cxLink, target: linkText(r, dl, d)}
				target = linkText(r, at, dl) + "/f.md"
				pl.intent = "link through a linked directory out"
			}
		case "link loop":
			if r.IntN(2) == 0 {
				target = pathBase(pl.path)
			} else {
				h := hop()
				c.tree[h] = cxEntry{kind: cxLink, target: cxRel(pathParent(h), at)}
				target = cxRel(pathParent(at), h)
			}
		case "link through a file (ENOTDIR)":
			target = cxRel(pathParent(at), file) + "/x"
		case "link to a FIFO":
			f := hop()
			c.tree[f] = cxEntry{kind: cxFifo}
			target = linkText(r, at, f)
		case "link with . and .. in its target":
			// Codex's open resolves them; the text is not clean.
			rel := cxRel(pathParent(at), file)
			switch ld := pathParent(at); {
			case r.IntN(3) == 0:
				target = "@/" + pathParent(file) + "/./" + pathBase(file)
			case ld != "repo" && r.IntN(2) == 0:
				target = "../" + pathBase(ld) + "/" + rel // up and back in
			default:
				target = "./" + rel
			}
		case "link with a trailing slash":
			// To a file: ENOTDIR, which drops every project file; to a
			// directory: not a file, the next name is tried.
			if r.IntN(2) == 0 {
				target = cxRel(pathParent(at), file) + "/"
			} else {
				target = cxRel(pathParent(at), "repo/"+dirs[r.IntN(len(dirs))]) + "/"
			}
		case "link through a linked directory and ..":
			// The kernel takes ".." after a linked directory from the
			// link's target, not from the text: dl/../name is name beside
			// dl's target.
			var deep []string
			for _, d := range dirs {
				if d != "" {
					deep = append(deep, d)
				}
			}
			if len(deep) == 0 {
				target = cxRel(pathParent(at), file)
				break
			}
			d := "repo/" + deep[r.IntN(len(deep))]
			name := fmt.Sprintf("beside-%d.md", c.next())
			c.tree[pathParent(d)+"/"+name] = cxEntry{kind: cxFile, data: c.content(r)}
			dl := hop()
			c.tree[dl] = cxEntry{kind: cxLink, target: linkText(r, dl, d)}
			target = cxRel(pathParent(at), dl) + "/../" + name
			if lexical := pathParent(dl) + "/" + name; lexical != pathParent(d)+"/"+name {
				// What the text names when read lexically.
				c.tree[lexical] = cxEntry{kind: cxFile, data: []byte("the lexical reading of " + target + "\n")}
			}
		}
		c.tree[at] = cxEntry{kind: cxLink, target: target}
		c.count("candidate: %s", pl.intent)
		if strings.HasPrefix(target, "@/") {
			c.count("candidate: link with an absolute target")
		}
	}
	c.pending = nil
}

// genGit sets what rivumi-lint alone reads: its limits.max_file_bytes,
// a .gitignore or info/exclude, and a commit of everything, after which
// some files change or go (Codex reads the disk).
func (c *codexCase) genGit(r *rand.Rand) {
	if r.IntN(4) == 0 {
		c.rivumiMax = []int{40 + r.IntN(60), 1000 + r.IntN(3000), 100000}[r.IntN(3)]
		c.count("rivumi-lint limits.max_file_bytes")
	}
	if r.IntN(4) == 0 {
		c.ignore = []string{"*.md\n", "CLAUDE.md\n", "AGENTS.md\n", "docs/\n", "*\n", "deep\n!AGENTS.md\n"}[r.IntN(6)]
		where := ".gitignore"
		if r.IntN(3) == 0 {
			where = "info/exclude"
		}
		c.count("git: %s %q", where, c.ignore)
		if where == ".gitignore" {
			c.tree["repo/.gitignore"] = cxEntry{kind: cxFile, data: []byte(c.ignore)}
			c.ignore = ""
		}
	}
	if r.IntN(4) == 0 {
		c.commit = true
		c.after = map[string]*cxEntry{}
		files := c.repoFiles()
		for n := r.IntN(3); n > 0 && len(files) > 0; n-- {
			p := "repo/" + files[r.IntN(len(files))]
			if r.IntN(2) == 0 {
				c.after[p] = nil
				c.count("git: committed, then a file deleted")
			} else {
				c.after[p] = &cxEntry{kind: cxFile, data: c.content(r)}
				c.count("git: committed, then a file changed")
			}
		}
		c.count("git: committed")
	}
}

// genUser writes the user files of CODEX_HOME, sometimes.
func (c *codexCase) genUser(r *rand.Rand) {
	text := func() []byte {
		if r.IntN(10) == 0 {
			c.count("user: larger than the budget")
			return c.sized(r, c.budget()+1+r.IntN(50))
		}
		return c.content(r)
	}
	put := func(name string, e cxEntry) { c.tree["home/"+name] = e }
	file := func(b []byte) cxEntry { return cxEntry{kind: cxFile, data: b} }
	var variant string
	switch r.IntN(22) {
	case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10:
		variant = "none"
	case 11:
		variant = "override only"
		put("AGENTS.override.md", file(text()))
	case 12:
		variant = "AGENTS.md only"
		put("AGENTS.md", file(text()))
	case 13:
		variant = "override and AGENTS.md"
		put("AGENTS.override.md", file(text()))
		put("AGENTS.md", file(text()))
	case 14:
		variant = "whitespace-only override, AGENTS.md"
		put("AGENTS.override.md", file(c.space(r, 1+r.IntN(10))))
		put("AGENTS.md", file(text()))
	case 15:
		variant = "empty override, AGENTS.md"
		put("AGENTS.override.md", file(nil))
		put("AGENTS.md", file(text()))
	case 16:
		variant = "padded with whitespace"
		put("AGENTS.md", file(slices.Concat(c.space(r, 1+r.IntN(5)), c.sized(r, 1+r.IntN(40)), c.space(r, 1+r.IntN(5)))))
	case 17:
		variant = "not UTF-8"
		put("AGENTS.override.md", file([]byte("user \xff\xe2\x82 text\r\n")))
	case 18:
		variant = "override a directory, AGENTS.md"
		put("AGENTS.override.md", cxEntry{kind: cxDir})
		put("AGENTS.md", file(text()))
	case 19:
		variant = "override a link to a file"
		put("shared.md", file(text()))
		put("AGENTS.override.md", cxEntry{kind: cxLink, target: "shared.md"})
	case 20:
		variant = "dangling override link, AGENTS.md"
		put("AGENTS.override.md", cxEntry{kind: cxLink, target: "missing.md"})
		put("AGENTS.md", file(text()))
	default:
		variant = "with a byte order mark"
		put("AGENTS.md", file(append([]byte("\ufeff"), c.sized(r, 1+r.IntN(40))...)))
	}
	c.count("user: %s", variant)
}

// pickDirs chooses where to compare: the chain's leaf, often the root and
// a middle directory, another directory, and below a marker.
func (c *codexCase) pickDirs(r *rand.Rand, chain []string) {
	add := func(d string) {
		if !slices.Contains(c.dirs, d) {
			c.dirs = append(c.dirs, d)
		}
	}
	add(chain[len(chain)-1])
	if r.IntN(2) == 0 {
		add("")
	}
	if len(chain) > 2 {
		add(chain[1+r.IntN(len(chain)-2)])
	}
	dirs := c.sortedDirs()
	if r.IntN(2) == 0 {
		add(dirs[r.IntN(len(dirs))])
	}
	for _, m := range c.markerDirs {
		var below []string
		for _, d := range dirs {
			if d == m || m == "" || strings.HasPrefix(d, m+"/") {
				below = append(below, d)
			}
		}
		add(below[r.IntN(len(below))])
	}
}

// countContent counts what the files hold.
func (c *codexCase) countContent() {
	for p, e := range c.tree {
		if e.kind != cxFile || strings.HasSuffix(p, ".codexroot") {
			continue
		}
		b := e.data
		text := strings.ToValidUTF8(string(b), "\ufffd")
		switch {
		case len(b) == 0:
			c.count("content: empty")
		case strings.TrimFunc(text, unicode.IsSpace) == "":
			c.count("content: whitespace-only")
		}
		if !utf8.Valid(b) {
			c.count("content: invalid UTF-8")
		}
		if strings.HasPrefix(string(b), "\ufeff") {
			c.count("content: UTF-8 byte order mark")
		}
		if strings.HasPrefix(string(b), "\xff\xfe") || strings.HasPrefix(string(b), "\xfe\xff") {
			c.count("content: UTF-16 with a byte order mark")
		}
		if strings.Contains(string(b), "\r\n") {
			c.count("content: CRLF")
		}
		if len(b) > c.budget() {
			c.count("content: larger than the budget")
		}
	}
}

// content is a random file: mostly text, sometimes whitespace-only,
// empty, almost whitespace, or UTF-16.
func (c *codexCase) content(r *rand.Rand) []byte {
	n := c.size(r)
	switch x := r.IntN(100); {
	case x < 8:
		return c.space(r, n)
	case x < 11:
		return nil
	case x < 14:
		b := c.space(r, n)
		return slices.Insert(b, len(b)/2, []byte(codexNearSpace[r.IntN(len(codexNearSpace))])...)
	case x < 19:
		return append([]byte("\ufeff"), c.text(r, n)...)
	case x < 24:
		u := utf16.Encode([]rune(strings.ToValidUTF8(string(c.text(r, n/2)), "")))
		le := r.IntN(2) == 0
		out := []byte{0xfe, 0xff}
		if le {
			out = []byte{0xff, 0xfe}
		}
		for _, v := range u {
			if le {
				out = append(out, byte(v), byte(v>>8))
			} else {
				out = append(out, byte(v>>8), byte(v))
			}
		}
		return out
	default:
		return c.text(r, n)
	}
}

// size draws a file size: small ones, and ones near the budget, half of
// it, a third, a quarter, so that some chain straddles it.
func (c *codexCase) size(r *rand.Rand) int {
	b := c.budget()
	switch x := r.IntN(20); {
	case x < 5:
		return r.IntN(16)
	case x < 10:
		return 16 + r.IntN(200)
	case x < 15 && b > 0 && b <= 1<<17:
		return max(0, b/(1+r.IntN(4))+r.IntN(5)-2)
	case x < 18:
		return 200 + r.IntN(2000)
	default:
		return r.IntN(40)
	}
}

// text is about n bytes of text: words, multi-byte characters, CRLF and
// lone CR, and in some files invalid UTF-8 of every kind.
func (c *codexCase) text(r *rand.Rand, n int) []byte {
	invalid := r.IntN(4) == 0
	crlf := r.IntN(4) == 0
	var b []byte
	for len(b) < n {
		switch x := r.IntN(20); {
		case invalid && x == 0:
			b = append(b, codexInvalid[r.IntN(len(codexInvalid))]...)
		case crlf && x == 1:
			b = append(b, "\r\n"...)
		case x == 2 && r.IntN(10) == 0:
			b = append(b, '\r')
		default:
			b = append(b, codexWords[r.IntN(len(codexWords))]...)
		}
	}
	return b
}

// sized is exactly n bytes that are not whitespace-only (n > 0).
func (c *codexCase) sized(r *rand.Rand, n int) []byte {
	if n <= 0 {
		return nil
	}
	b := append([]byte("x"), c.text(r, n)...)
	return b[:n]
}

// space is n bytes or a little more of whitespace only.
func (c *codexCase) space(r *rand.Rand, n int) []byte {
	var b []byte
	for len(b) < n {
		b = append(b, codexSpace[r.IntN(len(codexSpace))]...)
	}
	return b
}

// configSummary names the options for a message.
func (c *codexCase) configSummary() string {
	opt := func(set bool, v string) string {
		if !set {
			return "unset"
		}
		return v
	}
	return fmt.Sprintf("project_doc_max_bytes %s, project_doc_fallback_filenames %s, project_root_markers %s",
		opt(c.setMax, strconv.Itoa(c.maxBytes)), opt(c.setFallbacks, fmt.Sprintf("%q", c.fallbacks)), opt(c.setMarkers, fmt.Sprintf("%q", c.markers)))
}

// write puts the case under base: the repository (git init, nothing
// committed), the outside directory, CODEX_HOME with config.toml, an
// empty HOME and rivumi-lint's config beside them.
func (c *codexCase) write(t *testing.T, base string) codexPaths {
	t.Helper()
	p := codexPaths{base: base, repo: filepath.Join(base, "repo"), home: filepath.Join(base, "home"),
		userHome: filepath.Join(base, "userhome"), config: filepath.Join(base, "rivumi-lint.yaml")}
	for _, d := range []string{p.repo, p.home, p.userHome, filepath.Join(base, "outside")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	git(t, p.repo, "init", "-q")
	for _, d := range c.sortedDirs() {
		if err := os.MkdirAll(filepath.Join(p.repo, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	paths := make([]string, 0, len(c.tree))
	for k := range c.tree {
		paths = append(paths, k)
	}
	sort.Strings(paths)
	for _, k := range paths {
		e := c.tree[k]
		abs := filepath.Join(base, filepath.FromSlash(k))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		switch e.kind {
		case cxFile:
			err = os.WriteFile(abs, e.data, 0o644)
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
	if c.ignore != "" {
		if err := os.WriteFile(filepath.Join(p.repo, ".git", "info", "exclude"), []byte(c.ignore), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if c.commit {
		git(t, p.repo, "add", "-A")
		git(t, p.repo, "commit", "-q", "--no-verify", "--allow-empty", "-m", "generated")
		for _, k := range slices.Sorted(maps.Keys(c.after)) {
			abs := filepath.Join(base, filepath.FromSlash(k))
			var err error
			if e := c.after[k]; e == nil {
				err = os.Remove(abs)
			} else {
				err = os.WriteFile(abs, e.data, 0o644)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
	}
	var toml, yaml strings.Builder
	yaml.WriteString("version: 1\n")
	if c.rivumiMax > 0 {
		fmt.Fprintf(&yaml, "limits:\n  max_file_bytes: %d\n", c.rivumiMax)
	}
	list := func(names []string) string {
		q := make([]string, len(names))
		for i, n := range names {
			q[i] = strconv.Quote(n)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	var keys []string
	if c.setMax {
		fmt.Fprintf(&toml, "project_doc_max_bytes = %d\n", c.maxBytes)
		keys = append(keys, fmt.Sprintf("project_doc_max_bytes: %d", c.maxBytes))
	}
	if c.setFallbacks {
		fmt.Fprintf(&toml, "project_doc_fallback_filenames = %s\n", list(c.fallbacks))
		keys = append(keys, "project_doc_fallback_filenames: "+list(c.fallbacks))
	}
	if c.setMarkers {
		fmt.Fprintf(&toml, "project_root_markers = %s\n", list(c.markers))
		keys = append(keys, "project_root_markers: "+list(c.markers))
	}
	if len(keys) > 0 {
		yaml.WriteString("codex:\n  " + strings.Join(keys, "\n  ") + "\n")
	}
	if err := os.WriteFile(filepath.Join(p.home, "config.toml"), []byte(toml.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p.config, []byte(yaml.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
