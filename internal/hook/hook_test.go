package hook

// Tests for the native pre-commit hook (SPEC §6 `hook install|uninstall`,
// R10's one exception): where the hook goes (core.hooksPath, linked
// worktrees), that Git really runs it from there, and that a foreign hook
// is never lost.

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = gittest.Env(t)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// newRepo makes a repository with one commit.
func newRepo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the git binary is needed: apt-get install -y git")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	writeFile(t, filepath.Join(dir, "AGENTS.md"), "# rules\n", 0o644)
	git(t, dir, "add", "AGENTS.md")
	git(t, dir, "commit", "-q", "-m", "first")
	return dir
}

func writeFile(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// stubBinary is a stand-in for rivumi-lint that records its arguments in
// the file named by $STUB_LOG and exits with $STUB_EXIT.
func stubBinary(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "bin dir", "rivumi-lint")
	writeFile(t, p, "#!/bin/sh\necho \"$@\" >> \"$STUB_LOG\"\nexit \"${STUB_EXIT:-0}\"\n", 0o755)
	return p
}

// commit runs `git commit` with the stub's log and exit status; it reports
// whether the commit was made and what the stub logged.
func commit(t *testing.T, dir string, stubExit string) (bool, string) {
	t.Helper()
	log := filepath.Join(t.TempDir(), "log")
	writeFile(t, filepath.Join(dir, "sub", "AGENTS.md"), "# more\n"+stubExit+"\n", 0o644)
	git(t, dir, "add", "-A")
	cmd := exec.Command("git", "-C", dir, "commit", "-q", "-m", "change")
	cmd.Env = append(gittest.Env(t), "STUB_LOG="+log, "STUB_EXIT="+stubExit)
	out, err := cmd.CombinedOutput()
	b, _ := os.ReadFile(log)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	return err == nil, string(b)
}

func TestInstallDefaultHooksDirAndGitRunsIt(t *testing.T) {
	dir := newRepo(t)
	bin := stubBinary(t)
	out, err := Install(Options{Root: dir, Binary: bin})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, ".git", "hooks", "pre-commit")
	if out.Hook != want || out.Action != "installed" || out.Backup != "" {
		t.Fatalf("Install = %+v, want hook %s installed", out, want)
	}
	fi, err := os.Stat(want)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&0o111 == 0 {
		t.Fatalf("hook mode %v is not executable", fi.Mode())
	}
	body := readFile(t, want)
	if !strings.Contains(body, "\n"+Signature+"\n") || !strings.Contains(body, "check --staged") {
		t.Fatalf("hook lacks the signature line or check --staged:\n%s", body)
	}
	// Git runs it, with check --staged, and a failing check stops the commit.
	ok, log := commit(t, dir, "1")
	if ok || strings.TrimSpace(log) != "check --staged --quiet" {
		t.Fatalf("failing hook: commit made=%v, stub log %q", ok, log)
	}
	ok, log = commit(t, dir, "0")
	if !ok || strings.TrimSpace(log) != "check --staged --quiet" {
		t.Fatalf("passing hook: commit made=%v, stub log %q", ok, log)
	}
	// Installing again rewrites our own hook (the binary may have moved).
	out, err = Install(Options{Root: dir, Binary: bin})
	if err != nil || out.Action != "updated" {
		t.Fatalf("second Install = %+v, %v; want updated", out, err)
	}
}

func TestHookFallsBackToPath(t *testing.T) {
	dir := newRepo(t)
	bin := stubBinary(t)
	// Installed with a binary that is gone later: rivumi-lint on PATH runs.
	gone := filepath.Join(t.TempDir(), "rivumi-lint")
	if _, err := Install(Options{Root: dir, Binary: gone}); err != nil {
		t.Fatal(err)
	}
	hookFile := filepath.Join(dir, ".git", "hooks", "pre-commit")
	log := filepath.Join(t.TempDir(), "log")
	run := func(path string) (string, error) {
		cmd := exec.Command(hookFile)
		cmd.Dir = dir
		cmd.Env = append(gittest.Env(t), "STUB_LOG="+log, "PATH="+path)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if _, err := run(filepath.Dir(bin) + ":/usr/bin:/bin"); err != nil {
		t.Fatalf("hook with rivumi-lint on PATH: %v", err)
	}
	if got := strings.TrimSpace(readFile(t, log)); got != "check --staged --quiet" {
		t.Fatalf("stub on PATH got %q", got)
	}
	// Neither: exit 2 with the fix, not "command not found" exit 127.
	out, err := run("/usr/bin:/bin")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(out, "rivumi-lint hook uninstall") {
		t.Fatalf("hook without rivumi-lint: err %v, output %q; want exit 2 naming the fix", err, out)
	}
	// A bare name is never looked up relative to the worktree.
	if _, err := Install(Options{Root: dir, Binary: ""}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "rivumi-lint"), "#!/bin/sh\necho planted >> \"$STUB_LOG\"\n", 0o755)
	os.Remove(log)
	if _, err := run(filepath.Dir(bin) + ":/usr/bin:/bin"); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(readFile(t, log)); got != "check --staged --quiet" {
		t.Fatalf("hook ran %q, want the PATH binary's check --staged", got)
	}
}

func TestScriptQuotesBinaryPath(t *testing.T) {
	dir := t.TempDir()
	// A path with a quote, a space, $ and a newline is one word to the shell.
	p := filepath.Join(dir, "it's $HOME\nx", "rivumi-lint")
	if err := os.Mkdir(filepath.Dir(p), 0o755); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("no name with a newline on Windows (%v): the case is a Unix one", err)
		}
		t.Fatal(err)
	}
	writeFile(t, p, "#!/bin/sh\nprintf '%s|' \"$@\"\n", 0o755)
	script := filepath.Join(dir, "hook")
	writeFile(t, script, string(Script(p)), 0o755)
	out, err := exec.Command("/bin/sh", script).CombinedOutput()
	if err != nil || string(out) != "check|--staged|--quiet|" {
		t.Fatalf("hook ran: %q, %v", out, err)
	}
}

func TestForeignHookRefusedThenForcedWithBackup(t *testing.T) {
	dir := newRepo(t)
	hooks := filepath.Join(dir, ".git", "hooks")
	hookFile := filepath.Join(hooks, "pre-commit")
	foreign := "#!/bin/sh\necho someone else's hook\n"
	writeFile(t, hookFile, foreign, 0o755)

	_, err := Install(Options{Root: dir, Binary: "/x/rivumi-lint"})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("Install over a foreign hook: %v; want a refusal naming --force", err)
	}
	if readFile(t, hookFile) != foreign {
		t.Fatal("refused Install changed the foreign hook")
	}

	out, err := Install(Options{Root: dir, Binary: "/x/rivumi-lint", Force: true})
	if err != nil {
		t.Fatal(err)
	}
	backup := hookFile + BackupSuffix
	if out.Action != "replaced" || out.Backup != backup {
		t.Fatalf("Install --force = %+v", out)
	}
	if readFile(t, backup) != foreign {
		t.Fatal("backup does not hold the foreign hook")
	}
	if !strings.Contains(readFile(t, hookFile), Signature) {
		t.Fatal("forced Install did not write our hook")
	}

	// Uninstall removes ours and puts the foreign hook back.
	out, err = Uninstall(Options{Root: dir})
	if err != nil || out.Action != "restored" {
		t.Fatalf("Uninstall = %+v, %v; want restored", out, err)
	}
	if readFile(t, hookFile) != foreign {
		t.Fatal("Uninstall did not restore the foreign hook")
	}
	if _, err := os.Lstat(backup); !os.IsNotExist(err) {
		t.Fatalf("backup still there after restore: %v", err)
	}

	// A foreign hook is never removed.
	_, err = Uninstall(Options{Root: dir})
	if !errors.Is(err, ErrRefused) || readFile(t, hookFile) != foreign {
		t.Fatalf("Uninstall of a foreign hook: %v", err)
	}
}

func TestForceRefusedWhenBackupExists(t *testing.T) {
	dir := newRepo(t)
	hookFile := filepath.Join(dir, ".git", "hooks", "pre-commit")
	writeFile(t, hookFile, "#!/bin/sh\nexit 0\n", 0o755)
	writeFile(t, hookFile+BackupSuffix, "older\n", 0o644)
	_, err := Install(Options{Root: dir, Binary: "/x/rivumi-lint", Force: true})
	if !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "backup") {
		t.Fatalf("Install --force with a backup in the way: %v", err)
	}
	if readFile(t, hookFile) != "#!/bin/sh\nexit 0\n" || readFile(t, hookFile+BackupSuffix) != "older\n" {
		t.Fatal("refused Install changed a file")
	}
}

func TestSymlinkedHookIsForeignAndNotFollowed(t *testing.T) {
	dir := newRepo(t)
	target := filepath.Join(t.TempDir(), "shared-hook")
	// Even a target holding our signature does not make the link ours.
	writeFile(t, target, "#!/bin/sh\n"+Signature+"\n", 0o755)
	hooks := filepath.Join(dir, ".git", "hooks")
	os.MkdirAll(hooks, 0o755)
	if err := os.Symlink(target, filepath.Join(hooks, "pre-commit")); err != nil {
		t.Fatal(err)
	}
	if _, err := Uninstall(Options{Root: dir}); !errors.Is(err, ErrRefused) {
		t.Fatalf("Uninstall of a symlinked hook: %v; want refused", err)
	}
	if _, err := Install(Options{Root: dir, Binary: "/x/rivumi-lint"}); !errors.Is(err, ErrRefused) {
		t.Fatalf("Install over a symlinked hook: %v; want refused", err)
	}
	if _, err := Install(Options{Root: dir, Binary: "/x/rivumi-lint", Force: true}); err != nil {
		t.Fatal(err)
	}
	if l, err := os.Readlink(filepath.Join(hooks, "pre-commit"+BackupSuffix)); err != nil || l != target {
		t.Fatalf("backup is not the link itself: %q, %v", l, err)
	}
	if readFile(t, target) != "#!/bin/sh\n"+Signature+"\n" {
		t.Fatal("the link target was written through")
	}
}

func TestUninstallWithoutHook(t *testing.T) {
	dir := newRepo(t)
	out, err := Uninstall(Options{Root: dir})
	if err != nil || out.Action != "absent" {
		t.Fatalf("Uninstall with no hook = %+v, %v", out, err)
	}
}

func TestHooksPathRelativeToWorktreeRoot(t *testing.T) {
	dir := newRepo(t)
	git(t, dir, "config", "core.hooksPath", ".githooks")
	bin := stubBinary(t)
	out, err := Install(Options{Root: dir, Binary: bin})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, ".githooks", "pre-commit"); out.Hook != want {
		t.Fatalf("hook at %s, want %s", out.Hook, want)
	}
	if _, err := os.Lstat(filepath.Join(dir, ".git", "hooks", "pre-commit")); !os.IsNotExist(err) {
		t.Fatal("a hook was written to .git/hooks despite core.hooksPath")
	}
	// Git agrees: it runs the hook from there.
	if ok, log := commit(t, dir, "1"); ok || !strings.Contains(log, "check --staged") {
		t.Fatalf("git did not run the hook in core.hooksPath: made=%v log=%q", ok, log)
	}
}

func TestHooksPathAbsoluteAndHome(t *testing.T) {
	dir := newRepo(t)
	abs := filepath.Join(t.TempDir(), "hooks")
	git(t, dir, "config", "core.hooksPath", abs)
	out, err := Install(Options{Root: dir, Binary: "/x/rivumi-lint"})
	if err != nil || out.Hook != filepath.Join(abs, "pre-commit") {
		t.Fatalf("Install = %+v, %v; want hook in %s", out, err, abs)
	}

	home := t.TempDir()
	t.Setenv("HOME", home)
	git(t, dir, "config", "core.hooksPath", "~/githooks")
	out, err = Install(Options{Root: dir, Binary: "/x/rivumi-lint"})
	if err != nil || out.Hook != filepath.Join(home, "githooks", "pre-commit") {
		t.Fatalf("Install = %+v, %v; want hook in ~/githooks", out, err)
	}
}

func TestLinkedWorktreeSharesHooks(t *testing.T) {
	// §10: linked worktrees (a .git file) work; their hooks are the
	// common directory's, as Git runs them.
	dir := newRepo(t)
	wt := filepath.Join(t.TempDir(), "linked")
	git(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	bin := stubBinary(t)
	out, err := Install(Options{Root: wt, Binary: bin})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, ".git", "hooks", "pre-commit"); out.Hook != want {
		t.Fatalf("hook for a linked worktree at %s, want the common %s", out.Hook, want)
	}
	// Git runs it for commits in the linked worktree and in the main one.
	if ok, log := commit(t, wt, "1"); ok || !strings.Contains(log, "check --staged") {
		t.Fatalf("linked worktree commit: made=%v log=%q", ok, log)
	}
	if ok, log := commit(t, dir, "1"); ok || !strings.Contains(log, "check --staged") {
		t.Fatalf("main worktree commit: made=%v log=%q", ok, log)
	}
	// Uninstall from the main worktree removes the same file.
	if out, err := Uninstall(Options{Root: dir}); err != nil || out.Action != "removed" {
		t.Fatalf("Uninstall = %+v, %v", out, err)
	}
}

func TestWorktreeConfigHooksPath(t *testing.T) {
	// extensions.worktreeConfig (set by git sparse-checkout, §10): a
	// per-worktree core.hooksPath counts for that worktree only.
	dir := newRepo(t)
	wt := filepath.Join(t.TempDir(), "linked")
	git(t, dir, "worktree", "add", "-q", "-b", "side", wt)
	git(t, dir, "config", "extensions.worktreeConfig", "true")
	git(t, wt, "config", "--worktree", "core.hooksPath", "wt-hooks")
	out, err := Install(Options{Root: wt, Binary: "/x/rivumi-lint"})
	if err != nil || out.Hook != filepath.Join(wt, "wt-hooks", "pre-commit") {
		t.Fatalf("Install in the linked worktree = %+v, %v", out, err)
	}
	out, err = Install(Options{Root: dir, Binary: "/x/rivumi-lint"})
	if err != nil || out.Hook != filepath.Join(dir, ".git", "hooks", "pre-commit") {
		t.Fatalf("Install in the main worktree = %+v, %v", out, err)
	}
}

func TestNotARepository(t *testing.T) {
	dir := t.TempDir()
	_, err := Install(Options{Root: dir, Binary: "/x/rivumi-lint"})
	if err == nil || errors.Is(err, ErrRefused) {
		t.Fatalf("Install outside a repository: %v; want a Git error", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Fatalf("Install outside a repository wrote %v", entries)
	}
}

func TestSignatureNotJustAnywhere(t *testing.T) {
	// The signature must be a whole line: a hook that mentions it inside
	// another line (say, a comment quoting it) is still foreign.
	dir := newRepo(t)
	hookFile := filepath.Join(dir, ".git", "hooks", "pre-commit")
	writeFile(t, hookFile, "#!/bin/sh\necho '"+Signature+"'\n", 0o755)
	if _, err := Uninstall(Options{Root: dir}); !errors.Is(err, ErrRefused) {
		t.Fatalf("Uninstall = %v; want refused", err)
	}
	if !bytes.HasPrefix(Script("/x"), []byte("#!/bin/sh\n"+Signature+"\n")) {
		t.Fatal("Script does not start with the shebang and the signature")
	}
}

// TestInstallFromInsideAnotherRepositorysHook (F2; issue 12: hook starts git
// through repo's one helper, keeping its behaviour): run where a hook of
// another repository exported GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE,
// Install still asks Git about Root's repository: its core.hooksPath, its
// hooks directory, never the other one's.
func TestInstallFromInsideAnotherRepositorysHook(t *testing.T) {
	dir := newRepo(t)
	other := newRepo(t)
	git(t, other, "config", "core.hooksPath", "other-hooks")
	t.Setenv("GIT_DIR", filepath.Join(other, ".git"))
	t.Setenv("GIT_WORK_TREE", other)
	t.Setenv("GIT_INDEX_FILE", ".git/index")

	out, err := Install(Options{Root: dir, Binary: "/x/rivumi-lint"})
	if want := filepath.Join(dir, ".git", "hooks", "pre-commit"); err != nil || out.Hook != want {
		t.Fatalf("Install = %+v, %v; want the hook at %s", out, err, want)
	}
	if _, err := os.Stat(filepath.Join(other, "other-hooks")); !os.IsNotExist(err) {
		t.Errorf("the other repository's hooks path was touched: %v", err)
	}

	git(t, dir, "config", "core.hooksPath", "mine")
	out, err = Install(Options{Root: dir, Binary: "/x/rivumi-lint"})
	if want := filepath.Join(dir, "mine", "pre-commit"); err != nil || out.Hook != want {
		t.Fatalf("Install = %+v, %v; want the hook at %s (Root's core.hooksPath)", out, err, want)
	}
}
