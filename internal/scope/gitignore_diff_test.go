package scope

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/gitignore"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/wildmatch"
)

// The differential test of F4: random trees with odd names and random
// ignore files at several levels, in info/exclude and in core.excludesFile,
// against what git itself says. The walk must list exactly the directories
// that git does not ignore, each untracked path must be decided by the same
// line of the same file as `git check-ignore -v` says, and the untracked
// files that count must be those `git ls-files --others --exclude-standard`
// (what `git status --untracked-files=all` shows) lists.
//
// RIVUMI_IGNORE_SEEDS=N runs N seeds (default a few, well under 20 s);
// RIVUMI_IGNORE_SEED=S runs seed S only, to replay a failure.

var (
	diffDirNames = []string{"a", "b", "ab", "tmp1", "tmpx", "ü", "é", "[x]", "x]", "!n", "#h", "sp ace",
		"trail ", " lead", "1", "9z", "build", "a*b", "q?", `back\slash`, "dot.d", "Ab", "node_modules"}
	diffFileNames = []string{"f.txt", "AGENTS.md", "x.log", "a", "b", "1", "ü", "#h", "!n", "[x]", "sp ace",
		"tmp1", "trail ", "k.txt"}
	diffAtoms = []string{"a", "b", "ab", "Ab", "tmp1", "ü", "é", "1", "build", "x.log", "f.txt", "AGENTS.md",
		"*", "?", "??", "[!0-9]*", "tmp[!0-9]", "tmp[^0-9]", "[a-c]", "[[:digit:]]*", "[[:alpha:]]",
		"*.txt", "*.log", "a*", "*b", `\!n`, `\#h`, "[!]x]", `\[x\]`, "[[]x]", `sp\ ace`, "sp ace",
		`trail\ `, "**", "a**", "**b", "?z", "[é]", "[ü]", "\xc3?", "*.d", "node_modules", "x]",
		`back\\slash`, `q\?`, "9*", "[^a-z]*", `\a`, "A"}
)

func genPattern(r *rand.Rand) string {
	atom := func() string { return diffAtoms[r.IntN(len(diffAtoms))] }
	var p string
	switch r.IntN(12) {
	case 0, 1, 2:
		p = atom()
	case 3:
		p = atom() + "/"
	case 4:
		p = "/" + atom()
	case 5:
		p = atom() + "/" + atom()
	case 6:
		p = "**/" + atom()
	case 7:
		p = atom() + "/**"
	case 8:
		p = atom() + "/**/" + atom()
	case 9:
		p = "*/" + atom()
	case 10:
		p = "/" + atom() + "/" + atom() + "/"
	case 11:
		p = atom() + "/*"
	}
	switch r.IntN(10) {
	case 0, 1:
		p = "!" + p
	case 2:
		p = "#" + p
	case 3:
		p += "   "
	case 4:
		p = " " + p
	}
	return p
}

func genIgnoreFile(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(8) == 0 {
		b.WriteString("\xef\xbb\xbf")
	}
	eol := "\n"
	if r.IntN(5) == 0 {
		eol = "\r\n"
	}
	n := 1 + r.IntN(6)
	for i := 0; i < n; i++ {
		if r.IntN(10) == 0 {
			b.WriteString(eol) // an empty line
		}
		b.WriteString(genPattern(r))
		if i < n-1 || r.IntN(3) > 0 {
			b.WriteString(eol)
		}
	}
	return b.String()
}

type diffCase struct {
	g       *gittest.Repo
	gitDir  string
	dirs    []string        // every directory, and every link to one, below the top
	files   []string        // every non-directory, links included
	tracked map[string]bool // committed files
}

func genTree(t *testing.T, seed uint64) *diffCase {
	r := rand.New(rand.NewPCG(seed, 0x1f4))
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	excl := filepath.Join(home, "excludes")
	cfg := "[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n[core]\n\tautocrlf = false\n"
	switch r.IntN(3) {
	case 0:
		cfg += "\texcludesFile = " + excl + "\n"
	case 1:
		cfg += "\texcludesFile = ~/excludes\n"
	case 2:
		// Unset: Git's default, $XDG_CONFIG_HOME/git/ignore.
		excl = filepath.Join(home, "xdg", "git", "ignore")
	}
	if err := os.MkdirAll(filepath.Dir(excl), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(excl, []byte(genIgnoreFile(r)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(global, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "xdg"))
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	g := gittest.New(t)
	g.Env = append(os.Environ(), "GIT_LITERAL_PATHSPECS=1")
	c := &diffCase{g: g, gitDir: filepath.Join(g.Dir, ".git"), tracked: map[string]bool{}}
	if r.IntN(4) == 0 {
		g.Git("config", "core.ignoreCase", "true")
	}
	write := func(rel, text string) {
		p := filepath.Join(g.Dir, filepath.FromSlash(rel))
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(c.gitDir, "info", "exclude"), []byte(genIgnoreFile(r)), 0o644); err != nil {
		t.Fatal(err)
	}
	var gen func(dir string, depth int)
	gen = func(dir string, depth int) {
		if r.IntN(2) == 0 || dir == "" {
			write(join(dir, ".gitignore"), genIgnoreFile(r))
		}
		for _, i := range r.Perm(len(diffFileNames))[:r.IntN(4)] {
			rel := join(dir, diffFileNames[i])
			write(rel, "x\n")
			c.files = append(c.files, rel)
		}
		if depth >= 3 {
			return
		}
		for _, i := range r.Perm(len(diffDirNames))[:r.IntN(4)] {
			rel := join(dir, diffDirNames[i])
			if _, err := os.Lstat(filepath.Join(g.Dir, filepath.FromSlash(rel))); err == nil {
				continue // a file of that name
			}
			if r.IntN(12) == 0 {
				// A link to a directory (its own parent), or to nothing.
				target := "."
				if r.IntN(2) == 0 {
					target = "missing"
				}
				if err := os.Symlink(target, filepath.Join(g.Dir, filepath.FromSlash(rel))); err != nil {
					t.Fatal(err)
				}
				if target == "." {
					c.dirs = append(c.dirs, rel)
				} else {
					c.files = append(c.files, rel)
				}
				continue
			}
			if err := os.Mkdir(filepath.Join(g.Dir, filepath.FromSlash(rel)), 0o755); err != nil {
				t.Fatal(err)
			}
			c.dirs = append(c.dirs, rel)
			gen(rel, depth+1)
		}
	}
	gen("", 0)
	// Commit some regular files whatever the patterns say (git add -f):
	// their directories are walked even where a pattern matches them.
	var add []string
	for _, f := range c.files {
		if fi, err := os.Lstat(filepath.Join(g.Dir, filepath.FromSlash(f))); err == nil && fi.Mode().IsRegular() && r.IntN(5) == 0 {
			add = append(add, f)
			c.tracked[f] = true
		}
	}
	if len(add) > 0 {
		g.Git(append([]string{"add", "-f", "--"}, add...)...)
		g.Git("commit", "-q", "--no-verify", "-m", "c")
	}
	return c
}

// checkIgnoreV runs `git check-ignore --stdin -z -v -n` over paths and
// returns, per path, "source:line" of the deciding pattern with a "!"
// prefix for a negation ("" for none, and for tracked paths).
func checkIgnoreV(t *testing.T, c *diffCase, paths []string) map[string]string {
	t.Helper()
	if len(paths) == 0 {
		return nil
	}
	cmd := exec.Command("git", "check-ignore", "--stdin", "-z", "-v", "-n")
	// check-ignore refuses GIT_LITERAL_PATHSPECS.
	cmd.Dir, cmd.Env = c.g.Dir, os.Environ()
	cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	b, err := cmd.Output()
	// Exit status 1 only says that no path matched.
	if ee := (*exec.ExitError)(nil); err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1 && stderr.Len() == 0) {
		t.Fatalf("git check-ignore: %v: %s", err, stderr.String())
	}
	out := string(b)
	f := strings.Split(out, "\x00")
	res := map[string]string{}
	for i := 0; i+3 < len(f); i += 4 {
		src, line, pat, path := f[i], f[i+1], f[i+2], f[i+3]
		if pat == "" {
			res[path] = ""
			continue
		}
		if !filepath.IsAbs(src) {
			src = filepath.Join(c.g.Dir, src)
		}
		v := src + ":" + line
		if strings.HasPrefix(pat, "!") {
			v = "!" + v
		}
		res[path] = v
	}
	if len(res) != len(paths) {
		t.Fatalf("git check-ignore answered %d of %d paths", len(res), len(paths))
	}
	return res
}

// decide is what the gitignore package says about an untracked path, in
// the form of checkIgnoreV: Git's last_matching_pattern, where an excluded
// parent directory decides for everything below it.
func decide(t *testing.T, top, gitDir, path string, isDir bool) string {
	rules, err := gitignore.Standard(top, gitDir)
	if err != nil {
		t.Fatal(err)
	}
	comps := strings.Split(path, "/")
	cur := ""
	for i, comp := range comps {
		l, err := gitignore.ReadDirFile(top, cur)
		if err != nil {
			t.Fatal(err)
		}
		rules = rules.With(l)
		cur = join(cur, comp)
		dir := i < len(comps)-1 || isDir
		p, l2 := rules.Match(cur, dir)
		if p == nil {
			continue
		}
		v := l2.Source + ":" + strconv.Itoa(p.Line)
		if i < len(comps)-1 {
			if p.Negative {
				continue
			}
			return v
		}
		if p.Negative {
			v = "!" + v
		}
		return v
	}
	return ""
}

func TestF4IgnoreDifferential(t *testing.T) {
	seeds := 25
	if s := os.Getenv("RIVUMI_IGNORE_SEEDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatalf("RIVUMI_IGNORE_SEEDS=%q: %v", s, err)
		}
		seeds = n
	}
	first := uint64(1)
	if s := os.Getenv("RIVUMI_IGNORE_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("RIVUMI_IGNORE_SEED=%q: %v", s, err)
		}
		first, seeds = n, 1
	}
	for seed := first; seed < first+uint64(seeds); seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			c := genTree(t, seed)
			diffSeed(t, c)
			if t.Failed() {
				t.Logf("replay with RIVUMI_IGNORE_SEED=%d; tracked %v", seed, c.tracked)
			}
		})
	}
}

func diffSeed(t *testing.T, c *diffCase) {
	top := c.g.Dir
	all := append(append([]string{}, c.dirs...), c.files...)
	git := checkIgnoreV(t, c, all)

	// 1. Every untracked path is decided by the same line of the same file.
	trackedDir := map[string]bool{}
	for f := range c.tracked {
		for d := resolve.ParentDir(f); d != ""; d = resolve.ParentDir(d) {
			trackedDir[d] = true
		}
	}
	isDir := map[string]bool{}
	for _, d := range c.dirs {
		fi, err := os.Lstat(filepath.Join(top, filepath.FromSlash(d)))
		isDir[d] = err == nil && fi.IsDir()
	}
	// check-ignore reads its arguments as glob pathspecs: "a*b/k.txt" also
	// names a tracked "a*b/x/k.txt", and a path that names a tracked one is
	// never reported. Such paths are not compared with check-ignore.
	globsTracked := func(p string) bool {
		if !strings.ContainsAny(p, "*?[\\") {
			return false
		}
		for f := range c.tracked {
			for x := f; x != ""; x = resolve.ParentDir(x) {
				if wildmatch.Match(p, x, 0) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range all {
		if globsTracked(p) {
			git[p] = decide(t, top, c.gitDir, p, isDir[p])
			continue
		}
	}
	for _, p := range all {
		if c.tracked[p] || trackedDir[p] {
			continue // git check-ignore never reports tracked paths
		}
		if got := decide(t, top, c.gitDir, p, isDir[p]); got != git[p] {
			t.Errorf("%q: gitignore decides %q, git check-ignore -v %q", p, got, git[p])
		}
	}

	// 2. The walk lists exactly the directories (and links to them) that
	// are not ignored, nor below an ignored one, unless tracked paths hold
	// them there.
	ignored := func(p string) bool {
		return !c.tracked[p] && !trackedDir[p] && git[p] != "" && !strings.HasPrefix(git[p], "!")
	}
	want := []string{""}
	for _, d := range c.dirs {
		ok := true
		for a := d; a != ""; a = resolve.ParentDir(a) {
			if ignored(a) {
				ok = false
			}
		}
		if ok {
			want = append(want, d)
		}
	}
	sort.Strings(want)
	scan, err := repo.ScanIndexOf(top, true)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := resolve.OpenWorktree(top, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	for _, n := range []int{1, 3} {
		w := &Walker{Top: top, GitDir: c.gitDir, Tracked: scan.Tracked.Has, List: wt.ListKeep, Workers: n}
		got, err := w.WorktreeDirs()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Errorf("WorktreeDirs, %d workers:\n got %q\nwant %q", n, got, want)
		}
		// DirsBelow, the PATH expansion, agrees below every directory.
		for _, d := range c.dirs {
			below, err := w.DirsBelow(d)
			if err != nil {
				t.Fatal(err)
			}
			var sub []string
			for _, x := range want {
				if x == d || strings.HasPrefix(x, d+"/") {
					sub = append(sub, x)
				}
			}
			if !isDir[d] {
				sub = nil // a link is listed from its parent, never walked from
			}
			if strings.Join(below, "\x00") != strings.Join(sub, "\x00") {
				t.Errorf("DirsBelow(%q):\n got %q\nwant %q", d, below, sub)
			}
		}
	}

	// 3. The untracked files that count: those in a listed directory that
	// are not ignored, nor below an ignored directory.
	listedDir := map[string]bool{}
	for _, d := range want {
		listedDir[d] = true
	}
	var wantFiles []string
	for _, p := range all {
		if c.tracked[p] || trackedDir[p] || isDir[p] {
			continue
		}
		if d := decide(t, top, c.gitDir, p, false); d == "" || strings.HasPrefix(d, "!") {
			wantFiles = append(wantFiles, p)
		}
	}
	sort.Strings(wantFiles)
	out := c.g.Git("ls-files", "-z", "--others", "--exclude-standard")
	var gitFiles []string
	for _, f := range gittest.Nul(out) {
		if f != ".gitignore" && !strings.HasSuffix(f, "/.gitignore") {
			gitFiles = append(gitFiles, f)
		}
	}
	sort.Strings(gitFiles)
	if strings.Join(wantFiles, "\x00") != strings.Join(gitFiles, "\x00") {
		t.Errorf("untracked files that count:\n gitignore %q\n git       %q", wantFiles, gitFiles)
	}
}
