package fix

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/rivumi/rivumi-lint/project"
	"github.com/rivumi/rivumi-lint/repo/gittest"
)

// X1, C1: a directory on the path swapped for a symbolic link after fix
// checked the path and before it writes is not written through. The link
// points at a copy of the directory with the same file (same bytes, mode
// and modification time), so re-reading the file cannot tell the two
// apart; only working through the directory fix checked can.
func TestDirSwappedForLinkNotFollowed(t *testing.T) {
	gittest.SetEnv(t)
	r := gittest.New(t)
	orig := "a\u200bb\n"
	r.Write("sub/AGENTS.md", orig)
	sub := filepath.Join(r.Dir, "sub")
	decoy := filepath.Join(r.Dir, "decoy")
	beforeWrite = func(abs string) {
		fi, err := os.Stat(filepath.Join(sub, "AGENTS.md"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(decoy, 0o755); err != nil {
			t.Fatal(err)
		}
		d := filepath.Join(decoy, "AGENTS.md")
		if err := os.WriteFile(d, []byte(orig), fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(d, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(sub, sub+".moved"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("decoy", sub); err != nil {
			t.Fatal(err)
		}
	}
	defer func() { beforeWrite = nil }()
	var stdout, stderr bytes.Buffer
	out, err := Run(Options{Project: project.Options{Root: r.Dir}}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(decoy, "AGENTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != orig {
		t.Errorf("fix wrote through the link sub -> decoy: decoy/AGENTS.md = %q (outcome %+v)", got, out)
	}
	if left, _ := filepath.Glob(filepath.Join(r.Dir, "*", ".*rivumi-fix*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
	if out.Changes+out.Skipped+out.WriteErrors != 1 {
		t.Errorf("outcome %+v, want the one finding fixed, skipped or failed\nstderr: %s", out, stderr.String())
	}
}
