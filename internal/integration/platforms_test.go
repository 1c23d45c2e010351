package integration

// TestEmulatedPlatforms is issue #27's lane: the windows/amd64 build under
// Wine and the linux/arm64 build under qemu-user check the differential
// generator's repositories (genrepo_test.go, plus names that are hard on
// Windows: platformNames) and the demo, in every scope that needs no git
// binary (the whole worktree, --staged and --base/--head: the native
// readers read the index and the objects, docs/platforms.md), and must
// print byte for byte the JSON and the exit code of the linux/amd64 build.
// The one documented platform difference is in platformDifference.
//
//	RIVUMI_EMU_SEEDS=N   seeds 1..N (default 100)
//	RIVUMI_EMU_SEED=S    only seed S
//	RIVUMI_EMU_KEEP=DIR  keep the repositories in DIR/seed-S

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

// platformNames are names a Windows checkout cannot hold or holds
// differently: reserved device names, characters NTFS refuses, trailing
// dots and spaces (Win32 strips them), case variants of the candidates
// (NTFS matches them case-insensitively) and non-ASCII in both Unicode
// normal forms.
var platformNames = struct{ dirs, files []string }{
	dirs: []string{"CON", "aux", "nul.d", "a:b", "q?", "dot.", "space ", "Ünï", "u\u0308", "AGENTS.MD", "日本", "lpt1"},
	files: []string{"Agents.md", "AGENTS.MD", "agents.override.md", "Rivumi.md", "rivumi.OVERRIDE.md",
		"CON", "aux.md", "NUL", "com1", "con.txt", "a:b.md", "q?.md", "star*.md", "lt<gt>.md", "pipe|.md",
		"quote\".md", "back\\slash.md", "AGENTS.md.", "AGENTS.md ", "ü.md", "u\u0308.md", "日本.md"},
}

// addPlatformNames adds a directory plat/ of such names to every side of
// g: one to three directories, each with candidates and platform names,
// the base holding some of them. It draws from a stream of its own, so the
// rest of the seed's case is genrepo's.
func addPlatformNames(g *genSpec) {
	r := rand.New(rand.NewPCG(g.seed, 0x3a1e))
	for n := 1 + r.IntN(3); n > 0; n-- {
		dir := "plat"
		if r.IntN(4) > 0 {
			dir += "/" + platformNames.dirs[r.IntN(len(platformNames.dirs))]
		}
		for k := 1 + r.IntN(4); k > 0; k-- {
			name := platformNames.files[r.IntN(len(platformNames.files))]
			if r.IntN(3) == 0 {
				name = genCandidates[r.IntN(len(genCandidates))]
			}
			p := dir + "/" + name
			e := genEntry{modeFile, g.content(r)}
			if r.IntN(8) == 0 {
				e = genEntry{modeLink, []byte(g.linkTarget(r, g.head, p))}
			}
			g.head.put(p, e)
			g.staged.put(p, e)
			if r.IntN(2) == 0 {
				g.base.put(p, e)
			}
		}
	}
}

// emuScopes are the scopes compared: all need no git binary.
func emuScopes(c committed) [][]string {
	return [][]string{
		{"check", "--format", "json"},
		{"check", "--format", "json", "--staged"},
		{"check", "--format", "json", "--base", c.base, "--head", c.head},
	}
}

func TestEmulatedPlatforms(t *testing.T) {
	needIntegration(t, "the emulated platform lanes")
	t.Parallel() // beside TestWindowsUnitTests: both wait on emulators more than on CPUs
	native := nativeTarget(t)
	targets := []emuTarget{windowsTarget(t), arm64Target(t)}
	t.Logf("Wine prefix ready (shim built, wineboot) in %v", winePrefix.took.Round(100_000_000))
	first, count := uint64(1), 100
	if s := os.Getenv("RIVUMI_EMU_SEEDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("RIVUMI_EMU_SEEDS=%q: want a positive integer", s)
		}
		count = n
	}
	if s := os.Getenv("RIVUMI_EMU_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil {
			t.Fatalf("RIVUMI_EMU_SEED=%q: want a seed", s)
		}
		first, count = n, 1
	}
	home := t.TempDir() // no user files: the same empty home for every build
	environ := env(t, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "CODEX_HOME="+filepath.Join(home, ".codex"))
	lane := &emuLane{native: native, targets: targets, environ: environ}
	t.Run("demo", func(t *testing.T) {
		c := demoRepo(t)
		plain := c.dir + "-plain-links"
		linksAsFiles(t, c.dir, plain)
		for _, args := range append(emuScopes(c), []string{"check", "--format", "json", "--agent", "all"}) {
			lane.compare(t, "the demo", c.dir, plain, args, len(args) == 3)
		}
	})
	t.Run("seeds", func(t *testing.T) {
		for seed := first; seed < first+uint64(count); seed++ {
			t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
				t.Parallel()
				g := generate(seed)
				addPlatformNames(g)
				parent := t.TempDir()
				if keep := os.Getenv("RIVUMI_EMU_KEEP"); keep != "" {
					parent = filepath.Join(keep, fmt.Sprintf("seed-%d", seed))
					if err := os.RemoveAll(parent); err != nil {
						t.Fatal(err)
					}
				}
				c := buildCommitted(t, g, parent)
				stage(t, g, c.dir, false)
				addUntracked(t, g, c.dir)
				plain := filepath.Join(parent, "plain-links")
				linksAsFiles(t, c.dir, plain)
				for _, args := range emuScopes(c) {
					lane.compare(t, fmt.Sprintf("seed %d (RIVUMI_EMU_SEED=%d)", seed, seed), c.dir, plain, args, len(args) == 3)
				}
			})
		}
	})
	t.Logf("emulated platforms: the demo × 4 scopes and %d repositories (seeds %d..%d) × 3 scopes, × %d targets: %d runs compared, "+
		"%d byte-identical, %d the documented difference (names Windows cannot hold), %d differ; %d runs Wine failed to start were run again",
		count, first, first+uint64(count)-1, len(targets), lane.compared.Load(),
		lane.compared.Load()-lane.documented.Load()-lane.differences.Load(), lane.documented.Load(), lane.differences.Load(), lane.wineRestarts.Load())
}

// emuLane compares the targets' runs with linux/amd64's and counts them.
type emuLane struct {
	native                            emuTarget
	targets                           []emuTarget
	environ                           []string
	compared, differences, documented atomic.Int64
	wineRestarts                      atomic.Int64 // runs Wine failed to start, run again
}

// compare runs args in the repository dir on every target and on
// linux/amd64, which must agree (emuDiff; winWorktreeView in the worktree
// scope). Windows gets plain, the checkout Git for Windows makes without
// the symlink privilege (links as files, core.symlinks=false): Wine shows
// a Unix link as what it points to, which no Windows disk does.
func (l *emuLane) compare(t *testing.T, what, dir, plain string, args []string, worktree bool) {
	t.Helper()
	for _, tg := range l.targets {
		at := dir
		if tg.name == "windows/amd64" {
			at = plain
		}
		want := l.native.run(t, at, l.environ, nil, args...)
		if want.code != 0 && want.code != 1 {
			t.Fatalf("%s: linux/amd64 %s in %s: exit %d: %s", what, strings.Join(args, " "), at, want.code, want.stderr)
		}
		got := tg.run(t, at, l.environ, nil, args...)
		if tg.name == "windows/amd64" && got.code != 0 && got.stdout == "" && got.stderr == "" && want.stdout != "" {
			// The program printed nothing, not even an error: Wine failed
			// to start it (seen once on a loaded CI machine, exit 1 and no
			// word). Once more; if that is silent too, a third run shows
			// Wine's own errors, and the second is reported as a
			// difference below.
			again := tg.run(t, at, l.environ, nil, args...)
			said := ""
			if again.stdout == "" && again.stderr == "" {
				loud := tg
				loud.env = append(append([]string{}, tg.env...), "WINEDEBUG=err+all")
				said = "; with WINEDEBUG=err+all Wine said " + strconv.Quote(loud.run(t, at, l.environ, nil, args...).stderr)
			}
			t.Logf("%s: %s %s: exit %d and no output at all (a failed Wine start); run again: exit %d%s",
				what, tg.name, strings.Join(args[1:], " "), got.code, again.code, said)
			l.wineRestarts.Add(1)
			got = again
		}
		l.compared.Add(1)
		d := emuDiff(tg.name, at, want, got)
		if d != "" && worktree && tg.name == "windows/amd64" && got.code == want.code && winSpecial([]byte(want.stdout)) {
			// Names Windows cannot hold: the documented difference.
			w, g, err := winWorktreeView([]byte(want.stdout), []byte(got.stdout))
			switch {
			case err != nil:
				d = err.Error()
			case !bytes.Equal(w, g):
				d = "JSON differs from linux/amd64's beyond the names Windows cannot hold (winWorktreeView): " + firstDiff(w, g)
			default:
				d = ""
				l.documented.Add(1)
			}
		}
		if d != "" {
			l.differences.Add(1)
			t.Errorf("%s: %s %s: %s", what, tg.name, strings.Join(args[1:], " "), d)
		}
	}
}

// demoRepo is testdata/demo as a repository: the base commit holds the
// root's files, the head all of the demo, and a change to the root
// AGENTS.md is staged.
func demoRepo(t *testing.T) committed {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	copyTree(t, filepath.Join(moduleRoot(t), "testdata", "demo"), dir)
	gitCmd(t, dir, nil, nil, "init", "-q")
	gitCmd(t, dir, nil, nil, "config", "core.autocrlf", "false")
	gitCmd(t, dir, nil, nil, "add", "--", "AGENTS.md", ".rivumi-lint.yaml", "README.md")
	gitCmd(t, dir, nil, nil, "commit", "-q", "-m", "base")
	base := strings.TrimSpace(gitCmd(t, dir, nil, nil, "rev-parse", "HEAD"))
	gitCmd(t, dir, nil, nil, "add", "-A")
	gitCmd(t, dir, nil, nil, "commit", "-q", "-m", "head")
	head := strings.TrimSpace(gitCmd(t, dir, nil, nil, "rev-parse", "HEAD"))
	f, err := os.OpenFile(filepath.Join(dir, "AGENTS.md"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString("\nA staged line.\n")
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	gitCmd(t, dir, nil, nil, "add", "AGENTS.md")
	return committed{dir: dir, base: base, head: head}
}

// emuDiff says how got (a target's run in the repository dir) differs
// from want (linux/amd64's), or "". The JSON and the exit code must be the
// same bytes; the messages on stderr too, but for the root's path, which
// Wine shows as Z:\….
func emuDiff(target, dir string, want, got result) string {
	switch {
	case got.code != want.code:
		return fmt.Sprintf("exit %d, linux/amd64 %d: %s", got.code, want.code, strings.TrimSpace(got.stderr))
	case got.stdout != want.stdout:
		return "JSON differs from linux/amd64's: " + firstDiff([]byte(want.stdout), []byte(got.stdout))
	}
	stderr := got.stderr
	if strings.HasPrefix(target, "windows/") {
		stderr = strings.ReplaceAll(stderr, windowsPath(dir), dir)
	}
	if stderr != want.stderr {
		return "stderr differs from linux/amd64's: " + firstDiff([]byte(want.stderr), []byte(stderr))
	}
	return ""
}

// winName is the name a Windows program sees for the Unix name c under
// Wine, and whether it sees one: a name with a character NTFS refuses
// (`\:*?"<>|`, a control character) is not there (resolve's
// winComponentOK: no Windows disk holds it), and each byte that is not
// UTF-8 reads as U+FFFD (a Windows name is UTF-16).
func winName(c string) (string, bool) {
	if strings.ContainsAny(c, `\:*?"<>|`) {
		return "", false
	}
	var b strings.Builder
	for i := 0; i < len(c); {
		r, n := utf8.DecodeRuneInString(c[i:])
		if r < 0x20 {
			return "", false
		}
		b.WriteRune(r) // utf8.RuneError for an invalid byte, n == 1
		i += n
	}
	return b.String(), true
}

// winPathOK reports whether every component of the JSON path p (U+FFFD
// shown for invalid bytes) is one Windows holds.
func winPathOK(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if _, ok := winName(c); !ok {
			return false
		}
	}
	return true
}

// winWorktreeView is the documented platform difference of the worktree
// scope (docs/platforms.md, "Names Windows cannot hold"). A name with a
// character NTFS refuses is not there on Windows (winName), and a name
// that is not UTF-8 cannot be a Windows name: Wine shows each invalid byte
// as U+FFFD, so Git's records of the paths below it (a link, a
// submodule, whether Git tracks it and so whether an ignore rule applies),
// which hold the bytes, no longer match the disk. The view leaves out, on
// both sides, every directory, layer and finding below such a name, and
// its entries in a finding's directory list (the summary counted again);
// everything else must be the same bytes. It returns both outputs in that
// form.
func winWorktreeView(linux, windows []byte) (want, got []byte, err error) {
	norm := func(data []byte) ([]byte, error) {
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			return nil, err
		}
		shown := func(p string) bool { return winPathOK(p) && !strings.ContainsRune(p, utf8.RuneError) }
		var dirs []any
		for _, d := range asList(doc["directories"]) {
			if p, _ := d.(map[string]any)["path"].(string); shown(p) {
				dirs = append(dirs, d)
			}
		}
		doc["directories"] = dirs
		counts := map[string]float64{}
		var finds []any
		for _, f := range asList(doc["findings"]) {
			m := f.(map[string]any)
			if p, _ := m["path"].(string); !shown(p) {
				continue
			}
			var in []any
			for _, d := range asList(m["directories"]) {
				if s, _ := d.(string); shown(s) {
					in = append(in, d)
				}
			}
			if n, ok := m["directories_total"].(float64); ok {
				m["directories_total"] = n - float64(len(asList(m["directories"]))-len(in))
			}
			if m["directories"] != nil {
				m["directories"] = in
			}
			sev, _ := m["severity"].(string)
			counts[sev]++
			finds = append(finds, f)
		}
		doc["findings"] = finds
		if s, ok := doc["summary"].(map[string]any); ok {
			s["errors"], s["warnings"], s["notices"] = counts["error"], counts["warning"], counts["notice"]
			s["directories"] = float64(len(dirs))
		}
		return json.MarshalIndent(doc, "", "  ")
	}
	if want, err = norm(linux); err != nil {
		return nil, nil, fmt.Errorf("linux/amd64's JSON: %w", err)
	}
	if got, err = norm(windows); err != nil {
		return nil, nil, fmt.Errorf("windows/amd64's JSON: %w", err)
	}
	return want, got, nil
}

// winSpecial reports whether linux/amd64's JSON has a directory whose
// path Windows shows differently or not at all.
func winSpecial(linux []byte) bool {
	var doc jsonOut
	if json.Unmarshal(linux, &doc) != nil {
		return false
	}
	for _, d := range doc.Directories {
		if d.PathBytes != nil || !winPathOK(d.Path) {
			return true
		}
	}
	return false
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// linksAsFiles copies the repository src to dst as Git checks it out with
// core.symlinks=false (Git for Windows' default without the symlink
// privilege): each symbolic link outside the Git directories becomes a
// plain file holding the link's text, and the config says so.
func linksAsFiles(t *testing.T, src, dst string) {
	t.Helper()
	copyTree(t, src, dst)
	err := filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		target, err := os.Readlink(p)
		if err != nil {
			return err
		}
		if err := os.Remove(p); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(target), 0o644)
	})
	if err != nil {
		t.Fatalf("links as files in %s: %v", dst, err)
	}
	gitCmd(t, dst, nil, nil, "config", "core.symlinks", "false")
}

// TestPlatformsScriptHelp: `scripts/platforms/run --help` prints its
// comment block, which names both tests it runs, and no code.
func TestPlatformsScriptHelp(t *testing.T) {
	r := run(t, moduleRoot(t), env(t), nil, "bash", "scripts/platforms/run", "--help")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "The emulated platform lane") {
		t.Fatalf("scripts/platforms/run --help: %s", r)
	}
	for _, want := range []string{"TestEmulatedPlatforms", "TestWindowsUnitTests", "-seeds N"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("scripts/platforms/run --help does not name %s:\n%s", want, r.stdout)
		}
	}
	for _, line := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(line, "set ") || strings.HasPrefix(line, "#") {
			t.Errorf("scripts/platforms/run --help prints code or comment marks: %q", line)
		}
	}
}
