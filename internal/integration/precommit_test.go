package integration

// The pre-commit framework driving the hooks of .pre-commit-hooks.yaml
// (SPEC §7 `.pre-commit-hooks.yaml`): `try-repo` and a normal `repos:`
// entry, language golang (the client builds rivumi-lint with
// `go install ./...`) and language system. The manifest's stage names
// (pre-commit, pre-push, manual) need pre-commit 3.2.0 or later; this
// machine's pre-commit is Debian 12's 3.0.4, so the hooks run under prek
// (a drop-in client that reads the same manifest and config), and 3.0.4
// is tested for what docs/pre-commit.md tells its users (#33.12).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// preCommitEnv is the environment for pre-commit and prek: their own stores, the
// user's Go module cache (pre-commit points GOPATH at the hook's
// environment, which would otherwise download every module again), and
// PATH plus extraPath.
func preCommitEnv(t *testing.T, extraPath ...string) []string {
	t.Helper()
	path := os.Getenv("PATH")
	for _, p := range extraPath {
		path = p + string(os.PathListSeparator) + path
	}
	return append(env(t),
		"PRE_COMMIT_HOME="+filepath.Join(scratch, "pre-commit-home"),
		"PREK_HOME="+filepath.Join(scratch, "prek-home"),
		"GOMODCACHE="+goEnv(t, "GOMODCACHE"),
		"GOCACHE="+goEnv(t, "GOCACHE"),
		"PATH="+path,
	)
}

// tryRepo runs `prek try-repo` of the source copy.
func tryRepo(t *testing.T, dir, hookID string, args ...string) result {
	t.Helper()
	pc := needPrek(t)
	src, _ := sourceCopy(t)
	all := append([]string{"try-repo", "--color=never", src, hookID}, args...)
	return run(t, dir, preCommitEnv(t), nil, pc, all...)
}

// reposConfig writes, outside any test repository, a .pre-commit-config.yaml
// with a normal `repos:` entry (repo + rev, as docs/pre-commit.md shows)
// for the source copy and all three hooks. Runs with it share one
// pre-commit store, so the golang environment is built once.
func reposConfig(t *testing.T) string {
	t.Helper()
	src, rev := sourceCopy(t)
	p := filepath.Join(t.TempDir(), "pre-commit-config.yaml")
	config := "repos:\n" +
		"  - repo: " + src + "\n" +
		"    rev: " + rev + "\n" +
		"    hooks:\n" +
		"      - id: rivumi-lint\n" +
		"      - id: rivumi-lint-staged\n" +
		"      - id: rivumi-lint-system\n"
	if err := os.WriteFile(p, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// preCommitRun runs `prek run -c CONFIG ARGS...` in dir.
func preCommitRun(t *testing.T, dir, config string, environ []string, args ...string) result {
	t.Helper()
	pc := needPrek(t)
	return run(t, dir, environ, nil, pc, append([]string{"run", "--color=never", "-c", config}, args...)...)
}

// badUTF8 is an instruction file with an invalid byte on line 2, column 3.
const badUTF8 = "# rules\nab\xffc\n"

func TestPreCommitManifest(t *testing.T) {
	// §7: three hooks with the languages, entries and filename passing the
	// spec names, and the minimum pre-commit version that knows the stage
	// names (3.2.0; it also builds Go with `go install`, as 2.17.0 first did).
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID             string   `yaml:"id"`
		Language       string   `yaml:"language"`
		Entry          string   `yaml:"entry"`
		PassFilenames  *bool    `yaml:"pass_filenames"`
		AlwaysRun      bool     `yaml:"always_run"`
		Files          string   `yaml:"files"`
		MinimumVersion string   `yaml:"minimum_pre_commit_version"`
		Stages         []string `yaml:"stages"`
	}
	if err := yaml.Unmarshal(b, &hooks); err != nil {
		t.Fatal(err)
	}
	want := map[string]struct {
		lang, entry string
		pass        bool
	}{
		"rivumi-lint":        {"golang", "rivumi-lint check", true},
		"rivumi-lint-staged": {"golang", "rivumi-lint hook staged", false},
		"rivumi-lint-system": {"system", "rivumi-lint check", true},
	}
	if len(hooks) != len(want) {
		t.Fatalf("%d hooks, want %d", len(hooks), len(want))
	}
	for _, h := range hooks {
		w, ok := want[h.ID]
		if !ok {
			t.Errorf("unexpected hook %q", h.ID)
			continue
		}
		if h.Language != w.lang || h.Entry != w.entry || h.PassFilenames == nil || *h.PassFilenames != w.pass {
			t.Errorf("hook %s: language %q entry %q pass_filenames %v; want %q %q %v", h.ID, h.Language, h.Entry, h.PassFilenames, w.lang, w.entry, w.pass)
		}
		if h.Files != "" {
			t.Errorf("hook %s filters files (%q): R7 needs every changed file's directory", h.ID, h.Files)
		}
		if h.MinimumVersion != "3.2.0" {
			t.Errorf("hook %s: minimum_pre_commit_version %q", h.ID, h.MinimumVersion)
		}
		// §11's pre-commit rows: the stage names current clients want
		// (pre-commit 4 warns on commit/push "will be removed in a future
		// version"; #33.12).
		if strings.Join(h.Stages, ",") != "pre-commit,pre-push,manual" {
			t.Errorf("hook %s: stages %q, want [pre-commit, pre-push, manual]", h.ID, h.Stages)
		}
	}
	// prek's manifest validator accepts it, without a warning.
	prek := needPrek(t)
	r := run(t, moduleRoot(t), env(t), nil, prek, "validate-manifest", ".pre-commit-hooks.yaml")
	if r.code != 0 || strings.Contains(r.stdout+r.stderr, "deprecated") {
		t.Fatalf("prek validate-manifest: %s", r)
	}
}

// TestPreCommitOldClient is docs/pre-commit.md's "Older pre-commit" with
// the real pre-commit 3.0.4 (Debian 12): it rejects the manifest's stage
// names with the error the doc quotes, and the `repo: local` entry the doc
// gives instead runs the installed binary (#33.12).
func TestPreCommitOldClient(t *testing.T) {
	pc := needPreCommit(t)
	if r := run(t, "", env(t), nil, pc, "--version"); !strings.Contains(r.stdout, "pre-commit 3.0.4") {
		t.Fatalf("want Debian 12's pre-commit 3.0.4 (`apt-get install -y pre-commit`): %s", r)
	}
	r := run(t, moduleRoot(t), env(t), nil, pc, "validate-manifest", ".pre-commit-hooks.yaml")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "At key: stages") || !strings.Contains(r.stdout+r.stderr, "but got: 'pre-commit'") {
		t.Fatalf("pre-commit 3.0.4 validate-manifest: want the stages error docs/pre-commit.md quotes\n%s", r)
	}
	doc, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "pre-commit.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "but got: 'pre-commit'") {
		t.Errorf("docs/pre-commit.md does not quote pre-commit 3.0.4's error (`... but got: 'pre-commit'`)")
	}
	var local string
	for _, s := range yamlSnippets(t, "pre-commit.md") {
		if strings.Contains(s.text, "repo: local") {
			local = s.text
		}
	}
	if local == "" {
		t.Fatal("docs/pre-commit.md has no `repo: local` snippet for clients older than 3.2.0")
	}
	bin := rivumiLint(t)
	cfg := filepath.Join(t.TempDir(), "pre-commit-config.yaml")
	if err := os.WriteFile(cfg, []byte(local), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := newRepo(t, map[string]string{"AGENTS.md": "# root rules\n", "bad/AGENTS.md": badUTF8})
	environ := preCommitEnv(t, filepath.Dir(bin))
	r = run(t, dir, environ, nil, pc, "run", "--color=never", "-c", cfg, "--files", "bad/AGENTS.md")
	if r.code != 1 || !strings.Contains(r.stdout, "bad/AGENTS.md:2:3: error RL004") {
		t.Fatalf("pre-commit 3.0.4 with the doc's local hook on a bad file: want exit 1 with RL004\n%s", r)
	}
	r = run(t, dir, environ, nil, pc, "run", "--color=never", "-c", cfg, "--files", "AGENTS.md", "--hook-stage", "push")
	if r.code != 1 || !strings.Contains(r.stdout, "RL004") {
		t.Fatalf("pre-commit 3.0.4 with the doc's local hook in the push stage: want it to run (exit 1, RL004)\n%s", r)
	}
}

func TestPreCommitTryRepoFailsOnBadFileAndPassesOnGood(t *testing.T) {
	// §7 hook rivumi-lint through `pre-commit try-repo`, filenames passed.
	dir := newRepo(t, map[string]string{
		"AGENTS.md":      "# root rules\n",
		"bad/AGENTS.md":  badUTF8,
		"good/main.go":   "package good\n",
		"good/AGENTS.md": "# good rules\n",
	})

	r := tryRepo(t, dir, "rivumi-lint", "--files", "bad/AGENTS.md")
	out := r.stdout + r.stderr
	if r.code != 1 || !strings.Contains(out, "RL004") || !strings.Contains(out, "bad/AGENTS.md:2:3") || !strings.Contains(out, "Failed") {
		t.Fatalf("try-repo on an invalid UTF-8 AGENTS.md: want exit 1 naming RL004 at bad/AGENTS.md:2:3\n%s", r)
	}

	// A changed root AGENTS.md reaches bad/ (R7): it fails too.
	r = tryRepo(t, dir, "rivumi-lint", "--files", "AGENTS.md")
	if r.code != 1 || !strings.Contains(r.stdout, "RL004") {
		t.Fatalf("try-repo on the root AGENTS.md: want exit 1 from bad/ (R7)\n%s", r)
	}

	// A file whose chain is clean passes.
	r = tryRepo(t, dir, "rivumi-lint", "--files", "good/main.go", "good/AGENTS.md")
	if r.code != 0 || !strings.Contains(r.stdout, "Passed") {
		t.Fatalf("try-repo on good/: want exit 0, Passed\n%s", r)
	}
}

// budgetRepo has a deep chain that fits the budget only while an override
// in between suppresses the root layer (R4, P3 with a small budget).
func budgetRepo(t *testing.T) string {
	t.Helper()
	filler := func(title string) string {
		return "# " + title + "\n" + strings.Repeat("Keep the build green and the diff small.\n", 40)
	}
	return newRepo(t, map[string]string{
		".rivumi-lint.yaml":      "version: 1\nlimits:\n  max_dynamic_bytes: 3000\n  reserved_bytes: 0\n",
		"AGENTS.md":              filler("root"),
		"app/AGENTS.override.md": "# app overrides the root rules\n",
		"app/deep/AGENTS.md":     filler("deep"),
		"app/deep/main.go":       "package deep\n",
	})
}

func TestPreCommitStagedHookCatchesDeletedOverride(t *testing.T) {
	// §7 hook rivumi-lint-staged: `check --staged`, exact commit semantics,
	// deletions included. Deleting app/AGENTS.override.md un-suppresses the
	// root layer, and app/deep's chain then exceeds the budget (RL006).
	dir := budgetRepo(t)
	cfg := reposConfig(t)
	environ := preCommitEnv(t)
	// The committed state passes.
	if r := preCommitRun(t, dir, cfg, environ, "rivumi-lint-staged"); r.code != 0 {
		t.Fatalf("staged hook with nothing staged: want exit 0\n%s", r)
	}
	// Stage the deletion but keep the file on disk: only the index says
	// it is gone, so only a check of the index can see it.
	git(t, dir, "rm", "-q", "--cached", "app/AGENTS.override.md")

	// pre-commit passes no deleted file names, so the filename hook has
	// nothing to check: that is what the staged hook is for.
	r := preCommitRun(t, dir, cfg, environ, "rivumi-lint")
	if r.code != 0 || !strings.Contains(r.stdout, "(no files to check)") {
		t.Fatalf("filename hook with only a staged deletion: want skipped\n%s", r)
	}

	r = preCommitRun(t, dir, cfg, environ, "rivumi-lint-staged")
	if r.code != 1 || !strings.Contains(r.stdout, "RL006") || !strings.Contains(r.stdout, "app/deep") {
		t.Fatalf("staged hook after deleting the override: want exit 1 with RL006 for app/deep\n%s", r)
	}
	// try-repo, as a user would try it first, agrees.
	r = tryRepo(t, dir, "rivumi-lint-staged")
	if r.code != 1 || !strings.Contains(r.stdout, "RL006") {
		t.Fatalf("try-repo rivumi-lint-staged after deleting the override: want exit 1 with RL006\n%s", r)
	}
	// Nothing was written to the repository (R10).
	if st := git(t, dir, "status", "--porcelain"); st != "D  app/AGENTS.override.md\n?? app/AGENTS.override.md\n" {
		t.Fatalf("git status changed: %q", st)
	}
}

func TestPreCommitReposEntryAllFilesAndSystemHook(t *testing.T) {
	// A normal `repos:` entry, `pre-commit run --all-files` (§7: filenames
	// passed, so --all-files works), and the language: system hook with a
	// rivumi-lint already on PATH.
	needIntegration(t, "the pre-commit client")
	bin := rivumiLint(t)
	cfg := reposConfig(t)
	dir := newRepo(t, map[string]string{
		"AGENTS.md":       "# root rules\n",
		"docs/readme.txt": "hello\n",
	})
	environ := preCommitEnv(t, filepath.Dir(bin))
	r := preCommitRun(t, dir, cfg, environ, "--all-files")
	if r.code != 0 || strings.Count(r.stdout, "Passed") != 3 {
		t.Fatalf("run --all-files on a clean repository: want three hooks Passed\n%s", r)
	}

	writeFiles(t, dir, map[string]string{"docs/AGENTS.md": badUTF8})
	git(t, dir, "add", "docs/AGENTS.md")
	r = preCommitRun(t, dir, cfg, environ, "--all-files")
	if r.code != 1 || strings.Count(r.stdout, "Failed") != 3 || strings.Count(r.stdout, "RL004") < 3 {
		t.Fatalf("run --all-files with a bad docs/AGENTS.md staged: want three hooks Failed with RL004\n%s", r)
	}
	// The system hook needs rivumi-lint on PATH; without it pre-commit says so.
	noBin := append(preCommitEnv(t), "PATH="+pathWithout(t, "rivumi-lint"))
	r = preCommitRun(t, dir, cfg, noBin, "rivumi-lint-system", "--all-files")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "rivumi-lint") {
		t.Fatalf("system hook without rivumi-lint on PATH: want a failure naming it\n%s", r)
	}
}

// pathWithout is $PATH less every directory holding an executable name.
func pathWithout(t *testing.T, name string) string {
	t.Helper()
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && fi.Mode()&0o111 != 0 {
			continue
		}
		keep = append(keep, d)
	}
	return strings.Join(keep, string(os.PathListSeparator))
}

// TestPreCommitStagedHookFromRefToRef is §11's events table, the pre-commit
// row with PRE_COMMIT_FROM_REF/PRE_COMMIT_TO_REF: a committed deletion of
// an override that breaks a deeper budget fails under
// `pre-commit run --from-ref A --to-ref B` and in the pre-push stage of a
// real `git push` (failed before: the staged hook compared the index with
// HEAD, which holds no change once the deletion is committed, and passed).
func TestPreCommitStagedHookFromRefToRef(t *testing.T) {
	dir := budgetRepo(t)
	cfg := reposConfig(t)
	environ := preCommitEnv(t)
	from := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))
	git(t, dir, "rm", "-q", "app/AGENTS.override.md")
	git(t, dir, "commit", "-q", "-m", "drop the override")
	to := strings.TrimSpace(git(t, dir, "rev-parse", "HEAD"))

	// The index equals HEAD: a plain run of the staged hook sees nothing.
	if r := preCommitRun(t, dir, cfg, environ, "rivumi-lint-staged"); r.code != 0 {
		t.Fatalf("staged hook with a clean index: want exit 0\n%s", r)
	}
	r := preCommitRun(t, dir, cfg, environ, "rivumi-lint-staged", "--from-ref", from, "--to-ref", to)
	if r.code != 1 || !strings.Contains(r.stdout, "RL006") || !strings.Contains(r.stdout, "app/deep") {
		t.Fatalf("staged hook --from-ref --to-ref over the deletion: want exit 1 with RL006 for app/deep\n%s", r)
	}

	// The pre-push stage: pre-commit's own pre-push hook, a real push to a
	// bare repository that holds the commit before the deletion.
	bare := filepath.Join(t.TempDir(), "origin.git")
	git(t, "", "init", "-q", "--bare", bare)
	git(t, dir, "remote", "add", "origin", bare)
	git(t, dir, "push", "-q", "origin", from+":refs/heads/main")
	pc := needPrek(t)
	if r := run(t, dir, environ, nil, pc, "install", "-c", cfg, "--hook-type", "pre-push"); r.code != 0 {
		t.Fatalf("prek install --hook-type pre-push: %s", r)
	}
	r = run(t, dir, environ, nil, "git", "push", "origin", "main")
	if r.code == 0 || !strings.Contains(r.stdout+r.stderr, "RL006") {
		t.Fatalf("git push with pre-commit's pre-push hook over the deletion: want the push stopped with RL006\n%s", r)
	}
	if got := strings.TrimSpace(git(t, bare, "rev-parse", "main")); got != from {
		t.Fatalf("the push went through: origin main is %s", got)
	}
}

// TestPreCommitFilesInSubmodule is R1 through the real client: a file
// inside a submodule passed to the hooks from the superproject is checked
// in the submodule, where its directory's chain lives. Failed before: the
// hooks passed with "0 directories".
func TestPreCommitFilesInSubmodule(t *testing.T) {
	needIntegration(t, "the pre-commit client")
	bin := rivumiLint(t)
	cfg := reposConfig(t)
	src := newRepo(t, map[string]string{"docs/AGENTS.md": badUTF8})
	sup := newRepo(t, map[string]string{"AGENTS.md": "# root rules\n"})
	git(t, sup, "-c", "protocol.file.allow=always", "submodule", "add", "-q", src, "sub")
	git(t, sup, "commit", "-q", "-m", "add sub")
	environ := preCommitEnv(t, filepath.Dir(bin))
	for _, hook := range []string{"rivumi-lint", "rivumi-lint-system"} {
		r := preCommitRun(t, sup, cfg, environ, hook, "--files", "sub/docs/AGENTS.md")
		if r.code != 1 || !strings.Contains(r.stdout, "Failed") || !strings.Contains(r.stdout, "docs/AGENTS.md:2:3: error RL004 invalid-utf8: ") ||
			!strings.Contains(r.stdout, "lies in the submodule sub") {
			t.Errorf("%s --files sub/docs/AGENTS.md: want Failed with RL004 from the submodule's chain\n%s", hook, r)
		}
	}
	// A file of the superproject beside it: exit 2 naming both commands.
	r := preCommitRun(t, sup, cfg, environ, "rivumi-lint-system", "--files", "AGENTS.md", "sub/docs/AGENTS.md")
	if r.code != 1 || !strings.Contains(r.stdout, "cd sub && rivumi-lint check docs/AGENTS.md") {
		t.Errorf("--files across two repositories: want the hook to fail naming the command for the submodule\n%s", r)
	}
}

// B3, docs/pre-commit.md: the hooks take a baseline through args:. With
// the repository's findings recorded, pre-commit passes; a new bad file
// fails both hooks, which name it and not the known one.
func TestPreCommitBaselineArgs(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"AGENTS.md":     "# root rules\n",
		"bad/AGENTS.md": badUTF8,
	})
	if w := run(t, dir, env(t), nil, rivumiLint(t), "check", "--write-baseline", ".rivumi-baseline.json"); w.code != 0 {
		t.Fatalf("check --write-baseline: %s", w)
	}
	src, rev := sourceCopy(t)
	cfg := filepath.Join(t.TempDir(), "pre-commit-config.yaml")
	config := "repos:\n" +
		"  - repo: " + src + "\n" +
		"    rev: " + rev + "\n" +
		"    hooks:\n" +
		"      - id: rivumi-lint\n" +
		"        args: [--baseline, .rivumi-baseline.json]\n" +
		"      - id: rivumi-lint-staged\n" +
		"        args: [--baseline, .rivumi-baseline.json]\n"
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	environ := preCommitEnv(t)
	if r := preCommitRun(t, dir, cfg, environ, "--all-files"); r.code != 0 || strings.Count(r.stdout, "Passed") != 2 {
		t.Fatalf("pre-commit with the findings in the baseline: want both hooks Passed\n%s", r)
	}
	writeFiles(t, dir, map[string]string{"new/AGENTS.md": badUTF8})
	git(t, dir, "add", "new/AGENTS.md")
	r := preCommitRun(t, dir, cfg, environ, "--files", "new/AGENTS.md")
	if r.code != 1 || strings.Count(r.stdout, "Failed") != 2 || !strings.Contains(r.stdout, "new/AGENTS.md:2:3") || strings.Contains(r.stdout, "bad/AGENTS.md:2:3") {
		t.Fatalf("pre-commit with a new bad file: want both hooks Failed on new/AGENTS.md only\n%s", r)
	}
}

// distroGo is Debian 12's Go 1.19 (`apt-get install -y golang-1.19-go`),
// the Go of a distribution that predates toolchain downloads (Go 1.21).
const distroGo = "/usr/lib/go-1.19/bin"

// TestPreCommitDistributionGo is docs/pre-commit.md's "A distribution's Go
// older than 1.21" (#33.11): with only Go 1.19 on PATH, the doc's error is
// what that Go says of go.mod, and prek does not build with it but asks for
// a Go of at least go.mod's version (downloaded where go.dev is reachable;
// offline, as on CI here, it fails saying which version it looked for).
func TestPreCommitDistributionGo(t *testing.T) {
	needIntegration(t, "the distribution's Go")
	if _, err := os.Stat(filepath.Join(distroGo, "go")); err != nil {
		t.Fatalf("Debian 12's Go 1.19 is not installed: `apt-get install -y golang-1.19-go` (.ci/run installs it): %v", err)
	}
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "go")); err == nil {
			continue
		}
		keep = append(keep, d)
	}
	oldPath := distroGo + string(os.PathListSeparator) + strings.Join(keep, string(os.PathListSeparator))
	src, _ := sourceCopy(t)
	environ := append(env(t), "PATH="+oldPath, "GOTOOLCHAIN=", "GOFLAGS=")
	r := run(t, src, environ, nil, filepath.Join(distroGo, "go"), "install", "./...")
	doc, err := os.ReadFile(filepath.Join(moduleRoot(t), "docs", "pre-commit.md"))
	if err != nil {
		t.Fatal(err)
	}
	const quoted = "invalid go version '1.26.0': must match format 1.23"
	if r.code == 0 || !strings.Contains(r.stderr, quoted) || !strings.Contains(string(doc), quoted) {
		t.Fatalf("Go 1.19's `go install ./...`: want the error docs/pre-commit.md quotes (%q)\n%s", quoted, r)
	}

	prek := needPrek(t)
	dir := newRepo(t, map[string]string{"AGENTS.md": "# root rules\n"})
	pe := append(preCommitEnv(t), "PATH="+oldPath, "PREK_HOME="+filepath.Join(t.TempDir(), "prek-home"))
	r = run(t, dir, pe, nil, prek, "try-repo", "--color=never", src, "rivumi-lint", "--files", "AGENTS.md")
	out := r.stdout + r.stderr
	if strings.Contains(out, "invalid go version") {
		t.Fatalf("prek built with Go 1.19\n%s", r)
	}
	if !(r.code == 0 && strings.Contains(out, "Passed")) && !strings.Contains(out, "go version `>= 1.26.0`") {
		t.Fatalf("prek with Go 1.19 on PATH: want it to fetch a Go >= 1.26.0 (and pass), or say it looked for one\n%s", r)
	}
}
