package resolve

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestWindowsJunctionIsLink checks D1/C1 on a real NTFS worktree: a
// junction (which mklink /J makes without privileges) is listed as a
// symbolic link, a read below it is refused as one, and the file behind it
// is never read; a directory named AGENTS.md and the NUL device are not
// regular files (C2); a plain file reads with its bytes as on disk (CRLF
// kept).
func TestWindowsJunctionIsLink(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(outside, "AGENTS.md"), []byte("secret\r\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("root\r\n"), 0o644))
	must(os.MkdirAll(filepath.Join(root, "sub", "AGENTS.md"), 0o755))
	if out, err := exec.Command("cmd", "/c", "mklink", "/J", filepath.Join(root, "linked"), outside).CombinedOutput(); err != nil {
		t.Fatalf("mklink /J: %v\n%s", err, out)
	}
	w, err := OpenWorktree(root, nil)
	must(err)
	defer w.Close()

	ents, err := w.List("")
	must(err)
	kinds := map[string]Kind{}
	for _, e := range ents {
		kinds[e.Name] = e.Kind
	}
	if kinds["linked"] != Symlink || kinds["AGENTS.md"] != Regular || kinds["sub"] != Dir {
		t.Errorf("listing kinds = %v, want linked symbolic link, AGENTS.md regular, sub directory", kinds)
	}
	var le *LinkedDirError
	if _, err := w.List("linked"); !errors.As(err, &le) || le.Dir != "linked" {
		t.Errorf("List(linked) = %v, want *LinkedDirError for linked", err)
	}
	if data, kind, _, err := w.Read("linked/AGENTS.md", 1000); kind != Symlink || data != nil || err != nil {
		t.Errorf("Read(linked/AGENTS.md) = %q %v %v, want a symbolic link, nothing read", data, kind, err)
	}
	if e, err := w.Lstat("linked"); err != nil || e.Kind != Symlink {
		t.Errorf("Lstat(linked) = %+v %v, want a symbolic link", e, err)
	}
	if data, kind, _, err := w.Read("AGENTS.md", 1000); string(data) != "root\r\n" || kind != Regular || err != nil {
		t.Errorf("Read(AGENTS.md) = %q %v %v, want the bytes on disk", data, kind, err)
	}
	if _, kind, _, err := w.Read("sub/AGENTS.md", 1000); kind != Dir || err != nil {
		t.Errorf("Read(sub/AGENTS.md) = %v %v, want a directory", kind, err)
	}
	if _, kind, _, err := ReadFile("NUL", 1000); kind != Special || err != nil {
		t.Errorf("ReadFile(NUL) = %v %v, want a special file (a device)", kind, err)
	}
}

// TestWindowsJunctionReadFile: ReadFile (the user layer's read, outside
// any source) opens a junction given by its path as the link itself and
// reads nothing behind it (C1). Under Wine 8 the open fails (the Windows
// lane lists this test as a Wine gap, integration/winunit_test.go).
func TestWindowsJunctionReadFile(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "AGENTS.md"), []byte("secret\r\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cmd", "/c", "mklink", "/J", filepath.Join(root, "linked"), outside).CombinedOutput(); err != nil {
		t.Fatalf("mklink /J: %v\n%s", err, out)
	}
	if data, kind, _, err := ReadFile(filepath.Join(root, "linked"), 1000); kind != Symlink || data != nil || err != nil {
		t.Errorf("ReadFile(junction) = %q %v %v, want a symbolic link, nothing read", data, kind, err)
	}
}
