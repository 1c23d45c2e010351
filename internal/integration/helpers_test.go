package integration

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// scratch holds what the tests of one test binary share: built binaries, the
// pre-commit store, the source repository copy.
var scratch string

// deadlineGrace is how long before the binary's -timeout TestMain ends the
// tests' processes and removes scratch: the timeout's panic runs no
// Cleanup and no deferred call, so whatever is left then outlives the
// binary (a snapshot build, a 92 MB scratch directory; #33.13).
const deadlineGrace = 15 * time.Second

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "rivumi-lint-integration-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	scratch = dir
	end := func(why string) {
		stopWine()
		if n := procs.killAll(); n > 0 || why != "" {
			fmt.Fprintf(os.Stderr, "integration: %s: ended %d process groups the tests started, removed %s\n", why, n, dir)
		}
		os.RemoveAll(dir)
	}
	if f := flag.Lookup("test.timeout"); f != nil {
		if d, err := time.ParseDuration(f.Value.String()); err == nil && d > deadlineGrace {
			time.AfterFunc(d-deadlineGrace, func() { end(fmt.Sprintf("the test binary's -timeout %s is %s away", d, deadlineGrace)) })
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		end("interrupted (" + s.String() + ")")
		os.Exit(2)
	}()
	if integrationEnabled() {
		// The real clients take most of a cold build: start them all at
		// once, beside the first tests, rather than one after another
		// when each is first needed.
		for _, b := range []*built{&rivumiLintBin, &actionlintBin, &reviewdogBin} {
			go b.build()
		}
	}
	code := m.Run()
	end("")
	os.Exit(code)
}

// groups are the process groups of the commands the tests are running
// (run, built.build), for TestMain to end at the deadline or on an
// interrupt.
type groups struct {
	mu     sync.Mutex
	pids   map[int]bool
	closed bool
}

var procs = groups{pids: map[int]bool{}}

// run starts cmd in a process group of its own and waits for it; once the
// binary is ending it starts nothing. With t, the group is ended when t ends
// too: what cmd left running in the background (a daemon, a build a script
// forked) must not outlive the test that started it (#33.13).
func (g *groups) run(t *testing.T, cmd *exec.Cmd) error {
	inOwnGroup(cmd)
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return errors.New("not started: the test binary is ending (its -timeout is near, or it was interrupted)")
	}
	err := cmd.Start()
	if err == nil {
		g.pids[cmd.Process.Pid] = true
	}
	g.mu.Unlock()
	if err != nil {
		return err
	}
	if t != nil {
		pid := cmd.Process.Pid
		t.Cleanup(func() { killGroup(pid) })
	}
	err = cmd.Wait()
	g.mu.Lock()
	delete(g.pids, cmd.Process.Pid)
	g.mu.Unlock()
	return err
}

// killAll ends every running group and refuses new ones.
func (g *groups) killAll() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	for pid := range g.pids {
		killGroup(pid)
	}
	return len(g.pids)
}

// moduleRoot is the directory holding this module's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Dir(filepath.Dir(wd)) // the tests run in internal/integration/
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found above %s: %v", wd, err)
	}
	return root
}

// integrationVar turns on the tests that drive the real clients
// (pre-commit, actionlint, reviewdog) and the long differential run. They
// need pre-commit installed and a build of two large Go tools, so the
// default `go test ./...` leaves them out; .ci/run always sets it, so CI
// never skips them.
const integrationVar = "RIVUMI_LINT_INTEGRATION"

func integrationEnabled() bool { return os.Getenv(integrationVar) == "1" }

// needIntegration skips a real-client test unless RIVUMI_LINT_INTEGRATION=1,
// with a message that names the variable.
func needIntegration(t *testing.T, what string) {
	t.Helper()
	if !integrationEnabled() {
		t.Skipf("%s runs only with %s=1 (.ci/run sets it): set it to run this test", what, integrationVar)
	}
}

type built struct {
	once sync.Once
	name string
	hint string
	// args are the go command's arguments after "go": a build of this
	// module's package, or `tool -n` of a tools module, which builds the
	// tool and prints its path.
	args []string
	// env is added to the go command's environment (GOOS and GOARCH of
	// a cross build).
	env  []string
	path string
	err  error
}

var (
	rivumiLintBin = built{name: "rivumi-lint", args: []string{"build", "./cmd/rivumi-lint"}}
	// actionlint is the pinned tool of the tools module (tools/go.mod), run
	// as everywhere else in the project: `go tool -modfile=tools/go.mod actionlint`.
	actionlintBin = built{name: "actionlint",
		hint: "actionlint is a pinned tool of tools/go.mod: `cd tools && go get -tool github.com/rhysd/actionlint/cmd/actionlint@v1.7.12`",
		args: []string{"tool", "-modfile=tools/go.mod", "-n", "actionlint"}}
	// reviewdog is the pinned reviewdog v0.21.0 of its own tools module
	// (tools/reviewdog/go.mod: its GitLab client conflicts with
	// goreleaser's), run as `go tool -modfile=tools/reviewdog/go.mod reviewdog`.
	reviewdogBin = built{name: "reviewdog",
		hint: "reviewdog is a pinned tool of tools/reviewdog/go.mod: `cd tools/reviewdog && go get -tool github.com/reviewdog/reviewdog/cmd/reviewdog@v0.21.0`",
		args: []string{"tool", "-modfile=tools/reviewdog/go.mod", "-n", "reviewdog"}}
)

// build builds the binary once per test binary, whoever asks first:
// TestMain or a test.
func (b *built) build() {
	b.once.Do(func() {
		wd, err := os.Getwd()
		if err != nil {
			b.err = err
			return
		}
		root := filepath.Dir(filepath.Dir(wd)) // the module root: the tests run in internal/integration/
		args := b.args
		if args[0] == "tool" {
			cmd := exec.Command("go", args...)
			cmd.Dir = root
			var msg, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &msg, &stderr
			if err := procs.run(nil, cmd); err != nil {
				b.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
				return
			}
			b.path = strings.TrimSpace(msg.String())
			return
		}
		out := filepath.Join(scratch, "bin", b.name)
		cmd := exec.Command("go", append([]string{args[0], "-o", out}, args[1:]...)...)
		cmd.Dir = root
		if b.env != nil {
			cmd.Env = append(os.Environ(), b.env...)
		}
		var msg bytes.Buffer
		cmd.Stdout, cmd.Stderr = &msg, &msg
		if err := procs.run(nil, cmd); err != nil {
			b.err = fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, msg.Bytes())
			return
		}
		b.path = out
	})
}

func (b *built) get(t *testing.T) string {
	t.Helper()
	moduleRoot(t) // a clear failure when run from elsewhere
	b.build()
	if b.err != nil {
		t.Fatalf("%v\n%s", b.err, b.hint)
	}
	return b.path
}

// rivumiLint is the CLI built from this checkout.
func rivumiLint(t *testing.T) string { return rivumiLintBin.get(t) }

// actionlint is the pinned actionlint (actionlintBin).
func actionlint(t *testing.T) string {
	needIntegration(t, "actionlint")
	return actionlintBin.get(t)
}

// reviewdog is the pinned reviewdog (reviewdogBin).
func reviewdog(t *testing.T) string {
	needIntegration(t, "reviewdog")
	return reviewdogBin.get(t)
}

// needPreCommit skips the test unless RIVUMI_LINT_INTEGRATION=1, and fails
// it when the pre-commit client is missing.
func needPreCommit(t *testing.T) string {
	t.Helper()
	needIntegration(t, "the pre-commit client")
	p, err := exec.LookPath("pre-commit")
	if err != nil {
		t.Fatal("the pre-commit client is not installed: `apt-get install -y pre-commit` " +
			"(Debian's package; .ci/run installs it) or `pip install pre-commit`")
	}
	return p
}

// prekVersion is the prek release the manifest is tested with: the npm
// package .ci/run installs.
const prekVersion = "0.5.3"

// needPrek skips the test unless RIVUMI_LINT_INTEGRATION=1, and fails it
// when prek (the Rust drop-in for pre-commit) is missing. RIVUMI_PREK names
// the binary; else it is looked up on PATH.
func needPrek(t *testing.T) string {
	t.Helper()
	needIntegration(t, "the prek client")
	if p := os.Getenv("RIVUMI_PREK"); p != "" {
		return p
	}
	p, err := exec.LookPath("prek")
	if err != nil {
		t.Fatal("prek is not installed: `npm install --prefix ~/.cache/rivumi-lint/prek-" + prekVersion + " @j178/prek@" + prekVersion +
			"` and set RIVUMI_PREK to its node_modules/.bin/prek (.ci/run does both)")
	}
	return p
}

// needNeovim is the real LSP client's path; its absence fails the test,
// saying how to install it.
func needNeovim(t *testing.T) string {
	t.Helper()
	needIntegration(t, "the Neovim client")
	p, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatal("Neovim is not installed: install neovim: apt-get install -y neovim (.ci/run installs it)")
	}
	return p
}

// gitConfig is the global Git config every command of these tests sees, so
// the user's own config never changes a result.
func gitConfig(t *testing.T) string {
	t.Helper()
	p := filepath.Join(scratch, "gitconfig")
	if _, err := os.Stat(p); err != nil {
		cfg := "[user]\n\tname = rivumi-lint tests\n\temail = tests@example.com\n" +
			"[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
		if err := os.WriteFile(p, []byte(cfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// env is the environment for a client: the test's, less what would point
// Git elsewhere or colour the output, plus extra.
func env(t *testing.T, extra ...string) []string {
	t.Helper()
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GITHUB_") || strings.HasPrefix(k, "RUNNER_") || strings.HasPrefix(k, "PRE_COMMIT") || strings.HasPrefix(k, "PREK_") {
			continue
		}
		switch k {
		case "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_PREFIX",
			"GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "CI":
			continue
		}
		out = append(out, kv)
	}
	out = append(out, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+gitConfig(t), "NO_COLOR=1", "TERM=dumb")
	return append(out, extra...)
}

type result struct {
	stdout, stderr string
	code           int
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\n--- stdout\n%s--- stderr\n%s", r.code, r.stdout, r.stderr)
}

// run runs a command in dir, in a process group of its own (procs), and
// returns its output and exit status; only a failure to start it fails the
// test.
func run(t *testing.T, dir string, environ []string, stdin io.Reader, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = environ
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := procs.run(t, cmd)
	r := result{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
	default:
		t.Fatalf("%s %s: %v", name, strings.Join(args, " "), err)
	}
	return r
}

// git runs git in dir and fails the test on a non-zero exit.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	r := run(t, dir, env(t), nil, "git", args...)
	if r.code != 0 {
		t.Fatalf("git %s in %s: %s", strings.Join(args, " "), dir, r)
	}
	return r.stdout
}

// writeFiles writes name → content under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newRepo makes a Git repository with files committed.
func newRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "init", "-q")
	writeFiles(t, dir, files)
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "--allow-empty", "-m", "first")
	return dir
}

var sourceRepo struct {
	once sync.Once
	dir  string
	rev  string
	err  error
}

// sourceCopy is a Git repository holding this checkout's current source,
// committed: what a user's `repos:` entry or `pre-commit try-repo` sees,
// including changes not yet committed here. Built binaries lying in the
// checkout (untracked, not ignored) are left out.
func sourceCopy(t *testing.T) (dir, rev string) {
	t.Helper()
	root := moduleRoot(t)
	sourceRepo.once.Do(func() {
		sourceRepo.dir, sourceRepo.rev, sourceRepo.err = copySource(t, root, filepath.Join(scratch, "source"))
	})
	if sourceRepo.err != nil {
		t.Fatal(sourceRepo.err)
	}
	return sourceRepo.dir, sourceRepo.rev
}

func copySource(t *testing.T, root, dst string) (string, string, error) {
	r := run(t, root, env(t), nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if r.code != 0 {
		return "", "", fmt.Errorf("git ls-files in %s: %s", root, r)
	}
	seen := map[string]bool{}
	for _, name := range strings.Split(r.stdout, "\x00") {
		if name == "" || seen[name] {
			continue
		}
		seen[name] = true
		src := filepath.Join(root, filepath.FromSlash(name))
		fi, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the checkout
		}
		if err != nil {
			return "", "", err
		}
		to := filepath.Join(dst, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return "", "", err
		}
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			l, err := os.Readlink(src)
			if err != nil {
				return "", "", err
			}
			if err := os.Symlink(l, to); err != nil {
				return "", "", err
			}
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(src)
			if err != nil {
				return "", "", err
			}
			if bytes.HasPrefix(b, []byte("\x7fELF")) {
				continue // a binary someone built in the checkout
			}
			if err := os.WriteFile(to, b, fi.Mode().Perm()); err != nil {
				return "", "", err
			}
		}
	}
	git(t, dst, "init", "-q")
	git(t, dst, "add", "-A")
	git(t, dst, "commit", "-q", "-m", "rivumi-lint source under test")
	rev := strings.TrimSpace(git(t, dst, "rev-parse", "HEAD"))
	return dst, rev, nil
}

// goEnv returns `go env NAME`.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	r := run(t, "", os.Environ(), nil, "go", "env", name)
	if r.code != 0 {
		t.Fatalf("go env %s: %s", name, r)
	}
	return strings.TrimSpace(r.stdout)
}
