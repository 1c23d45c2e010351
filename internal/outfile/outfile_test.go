package outfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// F8: a report is written whole or not at all.
func TestAbortLeavesTargetAlone(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.json")
	if err := os.WriteFile(target, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Create(target)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("half a rep")
	f.Abort()
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Fatalf("target = %q after Abort, want the old content", b)
	}
	assertNoTemp(t, dir)

	f, err = Create(target)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("new")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort() // after Commit: no effect
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Fatalf("target = %q after Commit, want new", b)
	}
	// Windows files have no Unix mode: only a read-only bit, which 0600
	// leaves clear.
	if fi, _ := os.Stat(target); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", fi.Mode().Perm())
	}
	assertNoTemp(t, dir)
}

// F8: never inside a Git directory, whatever its name: a bare repository
// (a pre-receive hook's working directory) or a separate Git directory.
func TestRefusesBareGitDir(t *testing.T) {
	dir := t.TempDir()
	bare := filepath.Join(dir, "srv.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", bare).CombinedOutput(); err != nil {
		t.Fatalf("git init --bare: %v: %s (install git: apt-get install -y git)", err, out)
	}
	for _, name := range []string{filepath.Join(bare, "report.txt"), filepath.Join(bare, "hooks", "pre-receive")} {
		_, err := Create(name)
		if err == nil || !strings.Contains(err.Error(), "inside the Git directory") {
			t.Errorf("Create(%s) = %v, want a refusal naming the Git directory", name, err)
		}
	}
	assertNoTemp(t, bare)
	f, err := Create(filepath.Join(dir, "report.txt"))
	if err != nil {
		t.Fatalf("beside the bare repository: %v", err)
	}
	f.Abort()
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}
