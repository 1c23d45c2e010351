// Package gittest builds real Git repositories with the git binary for
// tests: every command runs with a private global config (user.name and
// user.email set, no system config), so results do not depend on the
// machine.
//
// It does not import testing (D4: `go install ./...`, which pre-commit
// runs, builds every package of the module; only _test.go files may link
// the testing package): its functions take a TB, which *testing.T,
// *testing.B and *testing.F satisfy.
package gittest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
)

// TB is the part of testing.TB these helpers use.
type TB interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	TempDir() string
	Setenv(key, value string)
}

var (
	cfgOnce sync.Once
	cfgFile string
	cfgErr  error
)

// Env returns the environment git commands of tests run with: the process
// environment without any GIT_* variable, plus GIT_CONFIG_GLOBAL naming a
// config file with an identity and GIT_CONFIG_NOSYSTEM=1.
func Env(tb TB) []string {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Fatal("the git binary is needed by this test and is not on PATH: install git (2.36 or later)")
	}
	cfgOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gittest-config")
		if err != nil {
			cfgErr = err
			return
		}
		cfgFile = filepath.Join(dir, "gitconfig")
		cfgErr = os.WriteFile(cfgFile, []byte("[user]\n\tname = Rivumi Test\n\temail = test@example.com\n"+
			"[init]\n\tdefaultBranch = main\n[commit]\n\tgpgsign = false\n[tag]\n\tgpgsign = false\n"+
			"[advice]\n\tdetachedHead = false\n[core]\n\tautocrlf = false\n[protocol \"file\"]\n\tallow = always\n"+
			"[gc]\n\tauto = 0\n[maintenance]\n\tauto = false\n"), 0o644)
	})
	if cfgErr != nil {
		tb.Fatal(cfgErr)
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_GLOBAL="+cfgFile, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_DATE=2024-01-01T00:00:00Z", "GIT_COMMITTER_DATE=2024-01-01T00:00:00Z")
}

// SetEnv makes the test process itself use Env's global config, so that
// git commands run by the code under test see the same settings.
func SetEnv(tb TB) {
	tb.Helper()
	Env(tb)
	tb.Setenv("GIT_CONFIG_GLOBAL", cfgFile)
	tb.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY"} {
		if _, ok := os.LookupEnv(k); ok {
			tb.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
}

// Repo is a repository under construction.
type Repo struct {
	TB  TB
	Dir string
	Env []string
}

// New runs `git init ARGS` in a new temporary directory.
func New(tb TB, args ...string) *Repo {
	tb.Helper()
	r := &Repo{TB: tb, Dir: tb.TempDir(), Env: Env(tb)}
	r.Git(append([]string{"init", "-q"}, args...)...)
	return r
}

// At returns a Repo for an existing directory (a clone, a worktree).
func At(tb TB, dir string) *Repo {
	return &Repo{TB: tb, Dir: dir, Env: Env(tb)}
}

// Git runs git ARGS in the repository and returns its standard output; a
// failure fails the test.
func (r *Repo) Git(args ...string) string {
	r.TB.Helper()
	out, err := r.Try(args...)
	if err != nil {
		r.TB.Fatalf("git %s: %v", strings.Join(args, " "), err)
	}
	return out
}

// Try runs git ARGS and returns its output and error (with stderr).
func (r *Repo) Try(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = r.Env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), &cmdError{err: err, stderr: stderr.String()}
	}
	return stdout.String(), nil
}

// Input runs git ARGS with stdin and returns its output.
func (r *Repo) Input(stdin string, args ...string) string {
	r.TB.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	cmd.Env = r.Env
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		r.TB.Fatalf("git %s: %v: %s", strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String()
}

type cmdError struct {
	err    error
	stderr string
}

func (e *cmdError) Error() string { return e.err.Error() + ": " + strings.TrimSpace(e.stderr) }

// Write writes files: pairs of slash path and content.
func (r *Repo) Write(pathContent ...string) {
	r.TB.Helper()
	for i := 0; i+1 < len(pathContent); i += 2 {
		p := filepath.Join(r.Dir, filepath.FromSlash(pathContent[i]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			r.TB.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(pathContent[i+1]), 0o644); err != nil {
			r.TB.Fatal(err)
		}
	}
}

// Remove deletes files or directories (slash paths).
func (r *Repo) Remove(paths ...string) {
	r.TB.Helper()
	for _, p := range paths {
		if err := os.RemoveAll(filepath.Join(r.Dir, filepath.FromSlash(p))); err != nil {
			r.TB.Fatal(err)
		}
	}
}

// Symlink makes a symbolic link at slash path p pointing to target.
func (r *Repo) Symlink(target, p string) {
	r.TB.Helper()
	abs := filepath.Join(r.Dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		r.TB.Fatal(err)
	}
	if err := os.Symlink(target, abs); err != nil {
		r.TB.Fatal(err)
	}
}

// Commit stages everything and commits; it returns the new commit id.
func (r *Repo) Commit(msg string) string {
	r.TB.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "--no-verify", "-m", msg)
	return r.Rev("HEAD")
}

// Rev returns the commit id of a revision.
func (r *Repo) Rev(rev string) string {
	r.TB.Helper()
	return strings.TrimSpace(r.Git("rev-parse", "--verify", rev+"^{commit}"))
}

// Lines splits output into non-empty lines.
func Lines(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Nul splits -z output.
func Nul(s string) []string {
	var out []string
	for _, l := range strings.Split(s, "\x00") {
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

// Pack returns the path of the repository's one pack file (after a
// `git repack -a -d`); any other number of packs fails the test.
func (r *Repo) Pack() string {
	r.TB.Helper()
	m, err := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "pack", "*.pack"))
	if err != nil || len(m) != 1 {
		r.TB.Fatalf("want one pack in %s: %v %v", r.Dir, m, err)
	}
	return m[0]
}
