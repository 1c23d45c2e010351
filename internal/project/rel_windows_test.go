package project

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRelRootedWithoutDrive (§10): on Windows a PATH that starts with \ or
// / names a path from the working directory's drive root, not one below
// the working directory: `\` is refused as outside the root (it was taken
// for the root itself), and the root's own path without its drive is
// inside it.
func TestRelRootedWithoutDrive(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "a"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	p := &Project{Root: root}
	for _, arg := range []string{`\`, "/"} {
		if rel, err := p.Rel(arg); err == nil {
			t.Errorf("Rel(%q) = %q, want an error (the drive's root is outside %s)", arg, rel, root)
		}
	}
	noDrive := root[len(filepath.VolumeName(root)):]
	for _, arg := range []string{noDrive + `\a`, filepath.ToSlash(noDrive) + "/a"} {
		if rel, err := p.Rel(arg); err != nil || rel != "a" {
			t.Errorf("Rel(%q) = %q, %v; want a", arg, rel, err)
		}
	}
}
