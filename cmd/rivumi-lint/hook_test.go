package main

// `rivumi-lint hook install|uninstall` (SPEC §6: honours core.hooksPath,
// never overwrites a foreign hook without --force and then keeps a backup,
// uninstall removes only its own; R10's one exception). The hook package's
// tests cover where the hook goes; these cover the command line, and one
// real commit stopped by the real binary through `check --staged`.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/hook"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

func hookGit(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gittest.Env(t)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("git %v: %v", args, err)
	}
	return string(out), err
}

func hookRepo(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"commit", "-q", "--allow-empty", "-m", "first"}} {
		if out, err := hookGit(t, dir, args...); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}

func runCLI(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, env{Stdout: &stdout, Stderr: &stderr})
	return code, stdout.String(), stderr.String()
}

func TestHookUsageErrors(t *testing.T) {
	dir := hookRepo(t)
	for _, args := range [][]string{
		{"hook"},
		{"hook", "remove"},
		{"hook", "install", "extra", "--root", dir},
		{"hook", "uninstall", "--force", "--root", dir}, // --force is install's only
		{"hook", "install", "--bogus"},
	} {
		code, _, stderr := runCLI(args...)
		if code != exitError || stderr == "" {
			t.Errorf("rivumi-lint %v: exit %d, stderr %q; want exit 2 with a message", args, code, stderr)
		}
	}
	if code, stdout, _ := runCLI("hook", "--help"); code != exitOK || !strings.Contains(stdout, "hook install") {
		t.Errorf("hook --help: exit %d, %q", code, stdout)
	}
	// Outside a Git worktree (R1): exit 2 naming the cause, nothing written.
	plain := t.TempDir()
	code, _, stderr := runCLI("hook", "install", "--root", plain)
	if code != exitError || !strings.Contains(stderr, "Git worktree") {
		t.Errorf("hook install outside Git: exit %d, %q", code, stderr)
	}
	if entries, _ := os.ReadDir(plain); len(entries) != 0 {
		t.Errorf("hook install outside Git wrote %v", entries)
	}
}

func TestHookInstallRefusesForeignHook(t *testing.T) {
	dir := hookRepo(t)
	hookFile := filepath.Join(dir, ".git", "hooks", "pre-commit")
	foreign := "#!/bin/sh\nexec make lint\n"
	if err := os.MkdirAll(filepath.Dir(hookFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(hookFile, []byte(foreign), 0o755); err != nil {
		t.Fatal(err)
	}

	code, _, stderr := runCLI("hook", "install", "--root", dir)
	if code != exitError || !strings.Contains(stderr, "--force") || !strings.Contains(stderr, hookFile) {
		t.Fatalf("install over a foreign hook: exit %d, %q; want exit 2 naming the file and --force", code, stderr)
	}
	code, stdout, stderr := runCLI("hook", "install", "--force", "--root", dir)
	if code != exitOK || !strings.Contains(stdout, "pre-commit"+hook.BackupSuffix) {
		t.Fatalf("install --force: exit %d, %q %q", code, stdout, stderr)
	}
	b, _ := os.ReadFile(hookFile)
	if !strings.Contains(string(b), hook.Signature) {
		t.Fatalf("install --force did not write our hook:\n%s", b)
	}
	// This test binary lives in a temporary go-build directory, so the hook
	// uses rivumi-lint on PATH rather than a path that will vanish.
	if !strings.Contains(string(b), "rivumi_lint=''\n") {
		t.Errorf("a go test / go run binary was recorded in the hook:\n%s", b)
	}
	// A second foreign hook cannot be forced while the backup exists.
	if err := os.WriteFile(hookFile, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("hook", "install", "--force", "--root", dir); code != exitError || !strings.Contains(stderr, "backup") {
		t.Fatalf("install --force with a backup in the way: exit %d, %q", code, stderr)
	}
	if code, _, stderr := runCLI("hook", "uninstall", "--root", dir); code != exitError || !strings.Contains(stderr, "not installed by rivumi-lint") {
		t.Fatalf("uninstall of a foreign hook: exit %d, %q", code, stderr)
	}
	if b, _ := os.ReadFile(hookFile); string(b) != "#!/bin/sh\n" {
		t.Fatal("a refused command changed the foreign hook")
	}
}

func TestHookInstallUninstallRestores(t *testing.T) {
	dir := hookRepo(t)
	hookFile := filepath.Join(dir, ".git", "hooks", "pre-commit")
	os.MkdirAll(filepath.Dir(hookFile), 0o755)
	os.WriteFile(hookFile, []byte("#!/bin/sh\nexit 0\n"), 0o755)
	if code, _, stderr := runCLI("hook", "install", "--force", "--root", dir); code != exitOK {
		t.Fatalf("install --force: %d %s", code, stderr)
	}
	code, stdout, _ := runCLI("hook", "uninstall", "--root", dir)
	if code != exitOK || !strings.Contains(stdout, "restored") {
		t.Fatalf("uninstall: exit %d, %q", code, stdout)
	}
	if b, _ := os.ReadFile(hookFile); string(b) != "#!/bin/sh\nexit 0\n" {
		t.Fatalf("uninstall did not restore the previous hook: %q", b)
	}
	// The restored hook is foreign again: refused.
	if code, _, _ = runCLI("hook", "uninstall", "--root", dir); code != exitError {
		t.Fatalf("uninstall of the restored (foreign) hook: exit %d; want 2", code)
	}
	os.Remove(hookFile)
	if code, stdout, _ := runCLI("hook", "uninstall", "--root", dir); code != exitOK || !strings.Contains(stdout, "nothing to remove") {
		t.Fatalf("uninstall with no hook: exit %d, %q", code, stdout)
	}
}

func TestHookStopsABadCommit(t *testing.T) {
	// The real binary, installed by itself, stops a commit whose staged
	// AGENTS.md is not UTF-8 (C4, RL004) and lets the fixed one through.
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the git binary is needed: apt-get install -y git")
	}
	bin := filepath.Join(t.TempDir(), "bin", "rivumi-lint")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := hookRepo(t)
	cmd := exec.Command(bin, "hook", "install")
	cmd.Dir = dir // no --root: the worktree around the working directory
	cmd.Env = gittest.Env(t)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hook install: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, ".git", "hooks", "pre-commit"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "rivumi_lint="+shell.Quote(bin)+"\n") {
		t.Fatalf("the hook does not run the installing binary %s:\n%s", bin, b)
	}

	agents := filepath.Join(dir, "AGENTS.md")
	os.WriteFile(agents, []byte("# rules\nab\xffc\n"), 0o644)
	hookGit(t, dir, "add", "AGENTS.md")
	// The worktree copy is fixed but the staged one is not: the hook checks
	// what is committed.
	os.WriteFile(agents, []byte("# rules\nabc\n"), 0o644)
	out, err := hookGit(t, dir, "commit", "-q", "-m", "bad")
	if err == nil || !strings.Contains(out, "RL004") {
		t.Fatalf("commit of an invalid UTF-8 AGENTS.md: err %v; want it stopped with RL004\n%s", err, out)
	}
	hookGit(t, dir, "add", "AGENTS.md")
	if out, err := hookGit(t, dir, "commit", "-q", "-m", "good"); err != nil {
		t.Fatalf("commit of a good AGENTS.md: %v\n%s", err, out)
	}
	cmd = exec.Command(bin, "hook", "uninstall", "--root", dir)
	cmd.Env = gittest.Env(t)
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "removed") {
		t.Fatalf("hook uninstall: %v\n%s", err, out)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".git", "hooks", "pre-commit")); !os.IsNotExist(err) {
		t.Fatalf("hook still there after uninstall: %v", err)
	}
}
