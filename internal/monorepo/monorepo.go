// Package monorepo generates the benchmark monorepo of SPEC §9: a
// deterministic, seeded tree of files and directories with instruction
// files (AGENTS.md, RIVUMI.md and their .override.md forms), a base commit
// A, a commit B that touches a given number of files in a given number of
// directories (some of them instruction files), and a commit C where only
// the root AGENTS.md changes. It is written as one `git fast-import`
// stream, so a 100,000-file repository takes seconds to create.
//
// The same seed and size always give the same paths, contents and commit
// ids (the random source is a fixed splitmix64, not math/rand, whose
// sequences may change between Go releases; commit dates are fixed).
package monorepo

import (
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Version changes whenever the generator makes other repositories from the
// same size and seed (scripts/bench --dir reuses a repository only of the
// same version).
const Version = 4

// Size is the shape of a generated repository.
type Size struct {
	Files        int // files in commit A, instruction files included
	Dirs         int // directories in commit A, the root included
	MaxDepth     int // deepest directory level (the root is 0)
	Instructions int // instruction files in commit A, the root AGENTS.md included

	// Commit B touches ChangedFiles paths (modified, added, deleted) in
	// exactly ChangedDirs directories; ChangedInstructions of those paths
	// are instruction files.
	ChangedFiles, ChangedDirs, ChangedInstructions int
}

// Full is the repository of SPEC §9.
var Full = Size{Files: 100_000, Dirs: 10_000, MaxDepth: 8, Instructions: 1_000,
	ChangedFiles: 5_000, ChangedDirs: 1_000, ChangedInstructions: 50}

// Small is the CI smoke size: the same shape, generated and checked in
// well under a second.
var Small = Size{Files: 2_000, Dirs: 200, MaxDepth: 8, Instructions: 40,
	ChangedFiles: 200, ChangedDirs: 40, ChangedInstructions: 10}

// Scale returns s with k times the files, directories and instruction
// files, and the same change: the repository grows, commit B does not.
func (s Size) Scale(k int) Size {
	s.Files *= k
	s.Dirs *= k
	s.Instructions *= k
	return s
}

func (s Size) String() string {
	return fmt.Sprintf("%d files in %d directories (depth <= %d), %d instruction files; B touches %d files in %d directories, %d of them instruction files",
		s.Files, s.Dirs, s.MaxDepth, s.Instructions, s.ChangedFiles, s.ChangedDirs, s.ChangedInstructions)
}

// Candidate names, as the engine's defaults (R2).
const (
	Agents         = "AGENTS.md"
	Rivumi         = "RIVUMI.md"
	AgentsOverride = "AGENTS.override.md"
	RivumiOverride = "RIVUMI.override.md"
)

// IsInstruction reports whether the base name of p is a candidate.
func IsInstruction(p string) bool {
	switch path.Base(p) {
	case Agents, Rivumi, AgentsOverride, RivumiOverride:
		return true
	}
	return false
}

// ChangeKind says what commit B does to a path.
type ChangeKind uint8

const (
	Modify ChangeKind = iota + 1
	Add
	Delete
)

// Change is one path commit B touches.
type Change struct {
	Path    string
	Kind    ChangeKind
	Content []byte // the new content (nil for Delete)
}

// Repo is a generated repository, in memory.
type Repo struct {
	Size Size
	Seed uint64

	dirs  []string          // every directory of A, "" first, then in creation order
	depth map[string]int    // directory -> depth
	files map[string][]byte // path -> content at A
	order []string          // the paths of A, sorted

	// B is what commit B does, sorted by path.
	B []Change
	// RootC is the root AGENTS.md at commit C.
	RootC []byte
	// Renamed is the referenced file commit B renames: an AGENTS.md that
	// B leaves alone names From in a code span, and B moves From to To
	// with the same content, breaking the reference (RL021). Zero when
	// no directory could hold it.
	Renamed Rename
}

// Rename is a file of commit A that commit B renames, and the instruction
// files that name it: By in its own directory, by its path from the root,
// and Far in another directory outside its chain, by a relative path
// ("../x/setup_guide.md"; #33.2: read only because B renames something).
type Rename struct{ From, To, By, Far string }

// rng is splitmix64: fixed, fast, good enough for shapes.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

var words = []string{
	"api", "app", "auth", "billing", "build", "cache", "cli", "client", "cmd", "common",
	"config", "core", "data", "db", "deploy", "docs", "events", "feed", "gateway", "graph",
	"handlers", "infra", "ingest", "internal", "jobs", "kit", "lib", "logs", "mail", "media",
	"metrics", "models", "net", "notify", "ops", "orders", "payments", "pkg", "platform", "proto",
	"queue", "render", "reports", "rpc", "search", "server", "services", "shared", "store", "stream",
	"sync", "tasks", "tests", "tools", "ui", "users", "util", "vendor2", "web", "worker",
}

var exts = []string{".go", ".go", ".go", ".ts", ".ts", ".py", ".json", ".yaml", ".txt", ".sql", "_test.go", ".proto"}

// Generate builds the repository for size s and seed in memory.
func Generate(s Size, seed uint64) *Repo {
	if s.Dirs < 1 || s.Files < s.Dirs || s.Instructions < 1 || s.Instructions > s.Files {
		panic(fmt.Sprintf("monorepo: impossible size %+v", s))
	}
	r := &rng{s: seed}
	g := &Repo{Size: s, Seed: seed, depth: map[string]int{"": 0}, files: map[string][]byte{}}
	g.dirs = append(g.dirs, "")
	children := map[string]map[string]bool{"": {}}
	// Directories: each new one is given a depth drawn from depthWeights
	// (few top-level directories, most of them four to eight levels down,
	// as in real monorepos) and hangs below a random directory one level up.
	byDepth := make([][]string, s.MaxDepth+1)
	byDepth[0] = []string{""}
	total := 0
	weights := depthWeights(s.MaxDepth)
	for _, w := range weights {
		total += w
	}
	for len(g.dirs) < s.Dirs {
		x := r.intn(total)
		depth := 1
		for ; depth < s.MaxDepth && x >= weights[depth]; depth++ {
			x -= weights[depth]
		}
		for len(byDepth[depth-1]) == 0 {
			depth--
		}
		parents := byDepth[depth-1]
		parent := parents[r.intn(len(parents))]
		name := words[r.intn(len(words))]
		for n := 2; children[parent][name]; n++ {
			name = fmt.Sprintf("%s%d", words[r.intn(len(words))], n)
		}
		children[parent][name] = true
		d := join(parent, name)
		g.dirs = append(g.dirs, d)
		g.depth[d] = g.depth[parent] + 1
		children[d] = map[string]bool{}
		byDepth[g.depth[d]] = append(byDepth[g.depth[d]], d)
	}
	// Instruction files: the root AGENTS.md, then the others in random
	// directories; a few directories hold two candidates (one shadows the
	// other, RL007), a few hold overrides (RL005).
	taken := map[string]bool{"": true}
	add := func(p string) {
		g.files[p] = instructionContent(r, p, 0)
	}
	add(Agents)
	n := 1
	for i := 1; n < s.Instructions; i++ {
		d := g.dirs[1+r.intn(len(g.dirs)-1)]
		if taken[d] {
			continue
		}
		taken[d] = true
		switch k := i % 100; {
		case k < 4:
			add(join(d, AgentsOverride))
		case k == 4:
			add(join(d, RivumiOverride))
		case k < 13:
			add(join(d, Rivumi))
		case k < 15 && n+2 <= s.Instructions:
			add(join(d, Agents))
			add(join(d, Rivumi))
			n++
		default:
			add(join(d, Agents))
		}
		n++
	}
	g.referenced(r)
	// Plain files: one per directory first (Git keeps no empty directory),
	// the rest anywhere.
	seq := 0
	newFile := func(d string) {
		for {
			seq++
			name := fmt.Sprintf("%s_%d%s", words[r.intn(len(words))], seq, exts[r.intn(len(exts))])
			p := join(d, name)
			if _, ok := g.files[p]; !ok {
				g.files[p] = plainContent(r, p, 0)
				return
			}
		}
	}
	for _, d := range g.dirs {
		if !hasFileIn(g.files, d) {
			newFile(d)
		}
	}
	for len(g.files) < s.Files {
		newFile(g.dirs[r.intn(len(g.dirs))])
	}
	g.order = make([]string, 0, len(g.files))
	for p := range g.files {
		g.order = append(g.order, p)
	}
	sort.Strings(g.order)
	g.planB(r)
	root := g.files[Agents]
	g.RootC = append(append([]byte{}, root...), []byte("\n- Commit C: run the full test suite before every push.\n")...)
	return g
}

// referenced picks the AGENTS.md of Renamed: the first directory (in
// creation order) whose only candidate is an AGENTS.md and that no
// override above suppresses; it gains a file the AGENTS.md names in a
// code span, by its path from the root.
func (g *Repo) referenced(r *rng) {
	for _, d := range g.dirs[1:] {
		by := join(d, Agents)
		if _, ok := g.files[by]; !ok || hasOther(g.files, d) || g.overrideAbove(d) {
			continue
		}
		from := join(d, "setup_guide.md")
		g.files[from] = plainContent(r, from, 0)
		g.files[by] = append(g.files[by], fmt.Sprintf("\nThe local setup is in `%s`.\n", from)...)
		g.Renamed = Rename{From: from, To: join(d, "setup.md"), By: by}
		g.farReference(d)
		return
	}
}

// belowFar reports whether directory d is Renamed.Far's or below it: B
// changes nothing there, so that no changed directory's chain holds Far.
func (g *Repo) belowFar(d string) bool {
	if g.Renamed.Far == "" {
		return false
	}
	e := resolve.ParentDir(g.Renamed.Far)
	return d == e || strings.HasPrefix(d+"/", e+"/")
}

// farReference gives Renamed a second instruction file that names it: the
// AGENTS.md of the first directory after d (in creation order) that is
// neither on d's chain nor below d, holds only an AGENTS.md and sits
// under no override, by the relative path from there.
func (g *Repo) farReference(d string) {
	for _, e := range g.dirs[1:] {
		far := join(e, Agents)
		if e == d || strings.HasPrefix(d+"/", e+"/") || strings.HasPrefix(e+"/", d+"/") {
			continue
		}
		if _, ok := g.files[far]; !ok || hasOther(g.files, e) || g.overrideAbove(e) {
			continue
		}
		rel := strings.Repeat("../", strings.Count(e, "/")+1) + g.Renamed.From
		g.files[far] = append(g.files[far], fmt.Sprintf("\nThe shared setup is in `%s`.\n", rel)...)
		g.Renamed.Far = far
		return
	}
}

// hasOther reports whether d holds a candidate other than AGENTS.md.
func hasOther(files map[string][]byte, d string) bool {
	for _, name := range []string{Rivumi, AgentsOverride, RivumiOverride} {
		if _, ok := files[join(d, name)]; ok {
			return true
		}
	}
	return false
}

// overrideAbove reports whether a directory above d holds an override.
func (g *Repo) overrideAbove(d string) bool {
	for p := resolve.ParentDir(d); ; p = resolve.ParentDir(p) {
		for _, name := range []string{AgentsOverride, RivumiOverride} {
			if _, ok := g.files[join(p, name)]; ok {
				return true
			}
		}
		if p == "" {
			return false
		}
	}
}

// depthWeights are the relative odds of a new directory's depth, index 1
// to maxDepth (index 0 unused).
func depthWeights(maxDepth int) []int {
	base := []int{0, 2, 15, 50, 110, 180, 230, 220, 193}
	w := make([]int, maxDepth+1)
	for d := 1; d <= maxDepth; d++ {
		if d < len(base) {
			w[d] = base[d]
		} else {
			w[d] = base[len(base)-1]
		}
	}
	return w
}

func hasFileIn(files map[string][]byte, d string) bool {
	// Only called while each directory has at most its instruction files.
	for _, name := range []string{Agents, Rivumi, AgentsOverride, RivumiOverride} {
		if _, ok := files[join(d, name)]; ok {
			return true
		}
	}
	return false
}

// planB chooses commit B: ChangedInstructions instruction paths (mostly
// modified, some deleted, some added in directories that had none) and
// plain files so that exactly ChangedFiles paths in ChangedDirs
// directories change.
func (g *Repo) planB(r *rng) {
	s := g.Size
	byDir := map[string][]string{}
	var instr []string
	for _, p := range g.order {
		d := resolve.ParentDir(p)
		byDir[d] = append(byDir[d], p)
		if IsInstruction(p) && p != Agents && p != g.Renamed.By && !g.belowFar(d) {
			instr = append(instr, p)
		}
	}
	var changes []Change
	dirs := map[string]bool{}
	used := map[string]bool{}
	if rn := g.Renamed; rn.From != "" {
		// The rename: the same content under a new name, in B's count.
		changes = append(changes, Change{Path: rn.From, Kind: Delete}, Change{Path: rn.To, Kind: Add, Content: g.files[rn.From]})
		used[rn.From], used[rn.By], used[rn.Far] = true, true, true
		dirs[resolve.ParentDir(rn.From)] = true
	}
	// Instruction changes: a tenth added, a tenth deleted, the rest modified.
	nAdd := s.ChangedInstructions / 10
	nDel := s.ChangedInstructions / 10
	nMod := s.ChangedInstructions - nAdd - nDel
	for k, i := range permute(r, len(instr))[:nMod+nDel] {
		p := instr[i]
		used[p] = true
		dirs[resolve.ParentDir(p)] = true
		if k < nDel {
			changes = append(changes, Change{Path: p, Kind: Delete})
		} else {
			changes = append(changes, Change{Path: p, Kind: Modify, Content: instructionContent(r, p, 1)})
		}
	}
	for nAdd > 0 {
		d := g.dirs[1+r.intn(len(g.dirs)-1)]
		if dirs[d] || hasFileIn(onlyInstr(byDir[d]), d) || g.belowFar(d) {
			continue
		}
		p := join(d, Agents)
		changes = append(changes, Change{Path: p, Kind: Add, Content: instructionContent(r, p, 1)})
		used[p] = true
		dirs[d] = true
		nAdd--
	}
	// Other directories up to ChangedDirs.
	for len(dirs) < s.ChangedDirs {
		if d := g.dirs[r.intn(len(g.dirs))]; !g.belowFar(d) {
			dirs[d] = true
		}
	}
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		list = append(list, d)
	}
	sort.Strings(list)
	// Plain-file changes: every changed directory gets at least one, the
	// rest spread evenly.
	remaining := s.ChangedFiles - len(changes)
	per := make(map[string]int, len(list))
	for _, d := range list {
		per[d] = 1
	}
	for i := len(list); i < remaining; i++ {
		per[list[r.intn(len(list))]]++
	}
	seq := 0
	for _, d := range list {
		var plain []string
		for _, p := range byDir[d] {
			if !IsInstruction(p) && !used[p] {
				plain = append(plain, p)
			}
		}
		k := per[d]
		for _, i := range permute(r, len(plain)) {
			if k == 0 {
				break
			}
			p := plain[i]
			// Delete one file in 25, never a directory's last plain file.
			if r.intn(25) == 0 && len(plain) > per[d]+1 {
				changes = append(changes, Change{Path: p, Kind: Delete})
			} else {
				changes = append(changes, Change{Path: p, Kind: Modify, Content: plainContent(r, p, 1)})
			}
			k--
		}
		for ; k > 0; k-- {
			seq++
			p := join(d, fmt.Sprintf("new_%s_%d%s", words[r.intn(len(words))], seq, exts[r.intn(len(exts))]))
			changes = append(changes, Change{Path: p, Kind: Add, Content: plainContent(r, p, 1)})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].Path < changes[j].Path })
	g.B = changes
}

func onlyInstr(ps []string) map[string][]byte {
	m := map[string][]byte{}
	for _, p := range ps {
		if IsInstruction(p) {
			m[p] = nil
		}
	}
	return m
}

func permute(r *rng, n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	for i := n - 1; i > 0; i-- {
		j := r.intn(i + 1)
		p[i], p[j] = p[j], p[i]
	}
	return p
}

var rules = []string{
	"Run `make test` before you open a pull request.",
	"Keep functions short; prefer table-driven tests.",
	"Never log secrets, tokens or personal data.",
	"Public APIs need a doc comment and a changelog entry.",
	"Use the shared HTTP client; it sets timeouts and retries.",
	"Database migrations are append-only; never edit an applied one.",
	"Feature flags live in config/flags.yaml, not in code.",
	"Errors are wrapped with context: what failed and with which input.",
	"Generated files are rebuilt with `make generate`; do not edit them by hand.",
	"Ask before adding a new third-party dependency.",
	"Benchmarks go next to the code they measure.",
	"Protobuf changes must stay wire-compatible.",
}

// instructionContent is a small Markdown file, 300 to 1,500 bytes, valid
// UTF-8 with nothing a rule objects to.
func instructionContent(r *rng, p string, version int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# Instructions for %s\n\n", displayDir(resolve.ParentDir(p)))
	if strings.Contains(p, "override") {
		b.WriteString("These instructions replace every instruction file above this directory.\n\n")
	}
	n := 3 + r.intn(12)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "- %s\n", rules[r.intn(len(rules))])
	}
	if version > 0 {
		fmt.Fprintf(&b, "\n## Changed in revision %d\n\n- Re-run the integration suite for %s.\n", version, displayDir(resolve.ParentDir(p)))
	}
	return []byte(b.String())
}

// plainContent is a source-like file of 100 to 900 bytes, unique per path
// and version (so no two blobs are the same object).
func plainContent(r *rng, p string, version int) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "// %s (revision %d)\n", p, version)
	n := 2 + r.intn(20)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "line %d: value_%x = %d\n", i, r.next()&0xffff, r.intn(100000))
	}
	return []byte(b.String())
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

func displayDir(d string) string {
	if d == "" {
		return "the repository root"
	}
	return d
}

// Paths returns the paths of commit A, sorted.
func (g *Repo) Paths() []string { return g.order }

// Dirs returns the directories of commit A, sorted ("" is the root).
func (g *Repo) Dirs() []string {
	out := append([]string{}, g.dirs...)
	sort.Strings(out)
	return out
}

// Content returns a path's content at commit A.
func (g *Repo) Content(p string) ([]byte, bool) {
	b, ok := g.files[p]
	return b, ok
}

// DepthHistogram counts the directories of A by depth.
func (g *Repo) DepthHistogram() []int {
	h := make([]int, g.Size.MaxDepth+1)
	for _, d := range g.dirs {
		h[g.depth[d]]++
	}
	return h
}
