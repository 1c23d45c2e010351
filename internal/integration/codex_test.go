package integration

// TestCodexDifferential proves the codex agent profile against the real
// OpenAI Codex CLI, through the harness every profile shares
// (agentdiff_test.go): seeded random repositories (codexgen_test.go), each
// compared from several directories, where `codex debug prompt-input`
// prints the model input Codex would send and `rivumi-lint preview --agent
// codex --section instructions` must print its AGENTS.md message byte for
// byte. Where the product says it cannot be exact (a link that leads out
// of the repository, which it never reads), the generated chain must hold
// such a link; those cases are counted as explained.
//
//	RIVUMI_CODEX=PATH        the codex binary (default: codex on PATH); its
//	                         --version must be codex-cli 0.171.0
//	RIVUMI_CODEX_REPOS=N     repositories (default codexDefaultRepos)
//	RIVUMI_CODEX_FIRST=S     the first seed (default 1): seeds S..S+N-1
//	RIVUMI_CODEX_SEED=S      only seed S, to reproduce a mismatch
//	RIVUMI_CODEX_KEEP=DIR    keep each mismatching seed's files in DIR/seed-S
//	                         (DIR absolute and outside any repository)
//
// It needs RIVUMI_LINT_INTEGRATION=1 (.ci/run sets it and installs codex);
// scripts/codex-differential runs it over fresh seeds.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	codexVersion = "codex-cli 0.171.0"
	codexHint    = "install it with `npm install --prefix DIR @openai/codex@0.171.0`, then set RIVUMI_CODEX=DIR/node_modules/.bin/codex (.ci/run does both)"
	// codexTimeout bounds one run of codex: a run takes about 0.25 s, the
	// first in a fresh CODEX_HOME a little more.
	codexTimeout = 60 * time.Second
	// codexDefaultRepos keeps the default run within a minute on CI's two
	// cores (about 40 s of CPU, the build included; measured 30 s of wall
	// time at a load of 6, 56 s at 12); scripts/codex-differential runs more.
	codexDefaultRepos = 60
)

// codexBinary is the pinned Codex CLI: a skip without integration, a
// failure with the install hint when it is missing or another version.
func codexBinary(t *testing.T) string {
	t.Helper()
	return agentBinary(t, agentBin{what: "the Codex CLI", envVar: "RIVUMI_CODEX", command: "codex", hint: codexHint,
		check: func(bin string) error {
			ctx, cancel := context.WithTimeout(context.Background(), codexTimeout)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, "--version")
			cmd.Env = env(t, "CODEX_HOME="+t.TempDir()) // it writes there, not in ~/.codex
			codexProcessGroup(cmd)
			return checkVersion(cmd, codexVersion)
		}})
}

func TestCodexDifferential(t *testing.T) { agentDiff(t, codexDiff{}) }

// codexDiff is the codex profile's side of the differential test
// (agentdiff_test.go).
type codexDiff struct{}

func (codexDiff) info() diffInfo {
	return diffInfo{agent: "codex", product: "Codex", prefix: "RIVUMI_CODEX", repos: codexDefaultRepos}
}

func (codexDiff) binary(t *testing.T) string { return codexBinary(t) }

func (codexDiff) generate(seed uint64) diffCase { return &codexDiffCase{c: codexGenerate(seed)} }

// cleanAbove: Codex's root search goes past the repository: nothing above
// it may hold a marker, or the chains would start there.
func (codexDiff) cleanAbove(t *testing.T, base string) {
	t.Helper()
	for d := filepath.Dir(base); ; d = filepath.Dir(d) {
		for _, m := range []string{".git", ".codexroot"} {
			if _, err := os.Stat(filepath.Join(d, m)); err == nil {
				t.Fatalf("%s holds %s: Codex would take it as the project root; keep the cases outside any repository (TMPDIR, RIVUMI_CODEX_KEEP)", d, m)
			}
		}
		if d == filepath.Dir(d) {
			break
		}
	}
}

// codexDiffCase is one generated case and, once written, where it is.
type codexDiffCase struct {
	c *codexCase
	p codexPaths
}

func (dc *codexDiffCase) write(t *testing.T, base string) diffPlace {
	dc.p = dc.c.write(t, base)
	return diffPlace{repo: dc.p.repo, config: dc.p.config}
}

func (dc *codexDiffCase) dirs() []string { return dc.c.dirs }

func (dc *codexDiffCase) real(t *testing.T, bin, d string) (string, bool, []string) {
	text, sent := codexPrompt(t, bin, filepath.Join(dc.p.repo, filepath.FromSlash(d)), dc.p)
	return text, sent, []string{"CODEX_HOME=" + dc.p.home, "HOME=" + dc.p.userHome, "RIVUMI_HOME=" + dc.p.userHome}
}

// compare: nothing but preview answers for the codex profile.
func (dc *codexDiffCase) compare(*testing.T, string, diffAnswer) (string, error) { return "", nil }

// explains: the product cannot be exact only past a link out of the
// repository, which it never reads.
func (dc *codexDiffCase) explains(d, _ string) (string, bool) {
	out := codexLeadsOut(dc.p.repo, filepath.Join(dc.p.repo, filepath.FromSlash(d)), dc.c)
	return "a link out of the repository", len(out) > 0
}

func (dc *codexDiffCase) describe(d string) string { return dc.c.describe(dc.p, d) }

func (dc *codexDiffCase) features() map[string]int { return dc.c.feat }

// codexPaths are where one case lives on disk.
type codexPaths struct {
	base, repo, home, userHome, config string
}

// codexPrompt runs `codex debug prompt-input` in dir and returns the
// AGENTS.md message's text, or sent=false when Codex sends none.
func codexPrompt(t *testing.T, codex, dir string, p codexPaths) (text string, sent bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), codexTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, codex, "debug", "prompt-input", "hi")
	cmd.Dir = dir
	// PWD too: exec leaves the test's own in Env.
	cmd.Env = env(t, "CODEX_HOME="+p.home, "HOME="+p.userHome, "PWD="+dir)
	codexProcessGroup(cmd)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("codex debug prompt-input in %s: %v (context: %v)\n%s", dir, err, ctx.Err(), stderr.Bytes())
	}
	text, sent, err := codexInstructions(stdout.Bytes())
	if err != nil {
		t.Fatalf("codex debug prompt-input in %s: %v", dir, err)
	}
	return text, sent
}

// codexAgentsPrefix starts the one user message that carries the
// instruction files (agents_md.rs); without a project entry it lacks the
// " for <cwd>".
const codexAgentsPrefix = "# AGENTS.md instructions"

// codexInstructions reads the output of `codex debug prompt-input`, a JSON
// array of input items, and returns the text of the first user message
// content starting with codexAgentsPrefix; ok is false when there is none.
func codexInstructions(out []byte) (text string, ok bool, err error) {
	var items []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(out, &items); err != nil {
		return "", false, fmt.Errorf("read the prompt input as a JSON array of items: %w", err)
	}
	for i, it := range items {
		if it.Role != "user" || len(it.Content) == 0 {
			continue
		}
		var content []struct {
			Type string  `json:"type"`
			Text *string `json:"text"`
		}
		if err := json.Unmarshal(it.Content, &content); err != nil {
			return "", false, fmt.Errorf("item %d: a user message's content is not an array of parts: %w", i, err)
		}
		for _, c := range content {
			if c.Text != nil && strings.HasPrefix(*c.Text, codexAgentsPrefix) {
				return *c.Text, true, nil
			}
		}
	}
	return "", false, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = strconv.Quote(a)
	}
	return out
}

// codexBytesDiffer shows where two texts part: the first differing byte
// and 40 bytes either side of it in each.
func codexBytesDiffer(aName, a, bName, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	cut := func(s string) string { return s[max(0, i-40):min(len(s), i+40)] }
	w := max(len(aName), len(bName)) + 1
	return fmt.Sprintf("first differing byte %d (%s %d bytes, %s %d)\n    %-*s %q\n    %-*s %q",
		i, aName, len(a), bName, len(b), w, aName+":", cut(a), w, bName+":", cut(b))
}

// codexLeadsOut lists the candidates and root markers of the directories
// from the root to dir (a superset of any chain Codex takes) that are
// links leading out of the repository at some hop: what the product may
// not reproduce (whether a marker's target exists decides where the chain
// starts).
func codexLeadsOut(repo, dir string, c *codexCase) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		for _, name := range append(c.candidates(), c.rootMarkers()...) {
			if codexLinkLeavesRoot(repo, filepath.Join(d, name)) {
				out = append(out, filepath.Join(d, name))
			}
		}
		if d == repo || d == filepath.Dir(d) {
			return out
		}
	}
}

// codexLinkLeavesRoot follows the link at p hop by hop and reports whether
// a hop names a path outside root: by its text (../ past the root, an
// absolute path elsewhere, even one coming back in) or through a link to a
// directory outside.
func codexLinkLeavesRoot(root, p string) bool {
	for hops := 0; hops < 40; hops++ {
		fi, err := os.Lstat(p)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return false
		}
		target, err := os.Readlink(p)
		if err != nil {
			return false
		}
		// Once inside the root, the walk of the text must stay there.
		cur, inside := filepath.Dir(p), true
		if filepath.IsAbs(target) {
			cur, inside = string(filepath.Separator), false
		}
		for _, part := range strings.Split(target, string(filepath.Separator)) {
			cur = filepath.Join(cur, part)
			switch in := codexWithin(root, cur); {
			case in:
				inside = true
			case inside:
				return true
			}
		}
		if !codexWithin(root, cur) {
			return true
		}
		p = cur
		// A directory on the way may itself be a link out.
		if rd, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
			if !codexWithin(root, rd) {
				return true
			}
			p = filepath.Join(rd, filepath.Base(p))
		}
	}
	return false
}

func codexWithin(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}

// describe lists what Codex reads for dir: the config, the user files and
// every candidate from the root down, for a mismatch's message.
func (c *codexCase) describe(p codexPaths, d string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "    config: %s\n", c.configSummary())
	for _, name := range []string{"AGENTS.override.md", "AGENTS.md"} {
		if s := codexEntryText(p.base, filepath.Join(p.home, name)); s != "" {
			fmt.Fprintf(&b, "    CODEX_HOME/%s: %s\n", name, s)
		}
	}
	parts := []string{""}
	if d != "" {
		parts = append(parts, strings.Split(d, "/")...)
	}
	rel := ""
	for i, part := range parts {
		if i > 0 {
			rel = pathJoin(rel, part)
		}
		dir := filepath.Join(p.repo, filepath.FromSlash(rel))
		for _, m := range c.rootMarkers() {
			if s := codexEntryText(p.base, filepath.Join(dir, m)); s != "" {
				fmt.Fprintf(&b, "    %s: marker %s\n", pathJoin(rel, m), s)
			}
		}
		for _, name := range c.candidates() {
			if s := codexEntryText(p.base, filepath.Join(dir, name)); s != "" {
				fmt.Fprintf(&b, "    %s: %s\n", pathJoin(rel, name), s)
			}
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

// codexEntryText says what is at p: nothing (""), a file and its size, a
// directory, or a link, its target and what it leads to.
func codexEntryText(base, p string) string {
	fi, err := os.Lstat(p)
	if err != nil {
		return ""
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		target, _ := os.Readlink(p)
		target = strings.ReplaceAll(target, base, "$BASE")
		st, err := os.Stat(p)
		switch {
		case err != nil && errors.Is(err, fs.ErrNotExist):
			return fmt.Sprintf("link -> %q, dangling", target)
		case err != nil:
			return fmt.Sprintf("link -> %q: %v", target, errors.Unwrap(err))
		case st.IsDir():
			return fmt.Sprintf("link -> %q, a directory", target)
		case st.Mode().IsRegular():
			return fmt.Sprintf("link -> %q, a file of %d bytes", target, st.Size())
		default:
			return fmt.Sprintf("link -> %q, %s", target, st.Mode().Type())
		}
	case fi.IsDir():
		return "a directory"
	case fi.Mode().IsRegular():
		b, _ := os.ReadFile(p)
		if len(b) > 48 {
			return fmt.Sprintf("file of %d bytes, %q…", len(b), b[:48])
		}
		return fmt.Sprintf("file of %d bytes, %q", len(b), b)
	case fi.Mode()&fs.ModeNamedPipe != 0:
		return "a FIFO"
	default:
		return "mode " + fi.Mode().Type().String()
	}
}

// TestCodexPromptInstructions reads the AGENTS.md message out of captured
// `codex debug prompt-input` outputs of codex-cli 0.171.0 (long tool
// descriptions cut): with project files and a user file, with the user
// file alone (no " for <cwd>"), and with none at all.
func TestCodexPromptInstructions(t *testing.T) {
	for _, tc := range []struct {
		file string
		want string
		ok   bool
	}{
		{"codex-prompt-input-project.json",
			"# AGENTS.md instructions for /tmp/cx/repo/a/b\n\n<INSTRUCTIONS>\nuser text\n\n--- project-doc ---\n\nroot \u00e9\n\n\n\ufffdsub\r\n\n</INSTRUCTIONS>", true},
		{"codex-prompt-input-user.json", "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nuser text\n</INSTRUCTIONS>", true},
		{"codex-prompt-input-none.json", "", false},
	} {
		out, err := os.ReadFile(filepath.Join("testdata", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		got, ok, err := codexInstructions(out)
		if err != nil || ok != tc.ok || got != tc.want {
			t.Errorf("%s: got %q, %v, %v; want %q, %v", tc.file, got, ok, err, tc.want, tc.ok)
		}
	}
	for _, bad := range []string{``, `{}`, `[{"role":"user","content":"text"}]`} {
		if _, _, err := codexInstructions([]byte(bad)); err == nil {
			t.Errorf("codexInstructions(%q): no error", bad)
		}
	}
}

// TestCodexLinkLeavesRoot: the verdict that explains an inexact answer
// (codexLeadsOut) follows links as the kernel does and counts a text that
// steps out of the root, even to come back.
func TestCodexLinkLeavesRoot(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "repo")
	writeFiles(t, base, map[string]string{"repo/a/f.md": "in\n", "outside/g.md": "out\n"})
	links := map[string]string{
		"repo/in":        "a/f.md",
		"repo/a/up":      "../a/f.md",
		"repo/abs-in":    filepath.Join(root, "a", "f.md"),
		"repo/out":       "../outside/g.md",
		"repo/abs-out":   filepath.Join(base, "outside", "g.md"),
		"repo/back-in":   "../repo/a/f.md",
		"repo/dl":        "../outside",
		"repo/via-dl":    "dl/g.md",
		"repo/loop":      "loop",
		"repo/gone":      "missing.md",
		"repo/gone-out":  "../outside/missing.md",
		"repo/hop":       "out",
		"repo/a/abs-dot": filepath.Join(root, "a") + "/./f.md",
	}
	for p, target := range links {
		if err := os.Symlink(target, filepath.Join(base, filepath.FromSlash(p))); err != nil {
			t.Fatal(err)
		}
	}
	for p, want := range map[string]bool{
		"in": false, "a/up": false, "abs-in": false, "loop": false, "gone": false, "a/abs-dot": false, "a/f.md": false,
		"out": true, "abs-out": true, "back-in": true, "via-dl": true, "gone-out": true, "hop": true,
	} {
		if got := codexLinkLeavesRoot(root, filepath.Join(root, filepath.FromSlash(p))); got != want {
			t.Errorf("codexLinkLeavesRoot(%s -> %q) = %v, want %v", p, links["repo/"+p], got, want)
		}
	}
}

// TestCodexGenerateIsDeterministic: a seed alone reproduces its case.
func TestCodexGenerateIsDeterministic(t *testing.T) {
	for seed := uint64(1); seed <= 50; seed++ {
		a, b := codexGenerate(seed), codexGenerate(seed)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("seed %d: two cases differ", seed)
		}
	}
}
