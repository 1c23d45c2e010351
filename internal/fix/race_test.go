package fix

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
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
	beforeWrite := func(abs string) {
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
	var stdout, stderr bytes.Buffer
	out, err := Run(Options{Project: project.Options{Root: r.Dir}, Hooks: Hooks{BeforeWrite: beforeWrite}}, &stdout, &stderr)
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

// X1: the temporary file is created exclusively (an entry of the user's
// with its name is left alone and another name taken), carries the
// original's mode before the rename (0600 stays 0600, whatever the
// umask), and is gone afterwards. A file with a second hard link gets a
// new inode: the other name keeps the old text, as docs/fix.md says.
func TestReplaceFileTemp(t *testing.T) {
	gittest.SetEnv(t)
	r := gittest.New(t)
	r.Write("AGENTS.md", "a\u200bb\n")
	abs := filepath.Join(r.Dir, "AGENTS.md")
	if err := os.Chmod(abs, 0o600); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other-name.md")
	if err := os.Link(abs, other); err != nil {
		t.Fatal(err)
	}
	squat := filepath.Join(r.Dir, tempName("AGENTS.md", "", 0))
	if err := os.WriteFile(squat, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var tmpMode []os.FileMode
	beforeCommit := func(d *os.Root, name string) {
		f, err := d.Open(".")
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		names, _ := f.Readdirnames(-1)
		for _, n := range names {
			if n != filepath.Base(squat) && strings.Contains(n, ".rivumi-fix") {
				fi, err := d.Lstat(n)
				if err != nil {
					t.Fatal(err)
				}
				tmpMode = append(tmpMode, fi.Mode())
			}
		}
	}
	var stdout, stderr bytes.Buffer
	out, err := Run(Options{Project: project.Options{Root: r.Dir}, Hooks: Hooks{BeforeCommit: beforeCommit}}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if out.Changes != 1 {
		t.Fatalf("outcome %+v, want 1 change\n%s", out, stderr.String())
	}
	if len(tmpMode) != 1 || tmpMode[0] != 0o600 {
		t.Errorf("temporary files before the rename: modes %v, want one of mode 0600", tmpMode)
	}
	if got, _ := os.ReadFile(squat); string(got) != "mine\n" {
		t.Errorf("the entry with the first temporary name was changed: %q", got)
	}
	if got, _ := os.ReadFile(abs); string(got) != "ab\n" {
		t.Errorf("AGENTS.md = %q, want the fixed text", got)
	}
	if fi, err := os.Stat(abs); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("AGENTS.md mode %v (%v), want 0600", fi.Mode(), err)
	}
	if got, _ := os.ReadFile(other); string(got) != "a\u200bb\n" {
		t.Errorf("the other hard link = %q, want the old text (a new inode replaced AGENTS.md)", got)
	}
	left, _ := filepath.Glob(filepath.Join(r.Dir, ".*rivumi-fix*"))
	if len(left) != 1 {
		t.Errorf("entries with temporary names: %v, want only the user's", left)
	}
}

// X1, C1 (#33.7): the target of a copy swapped for a link after fix read
// it, and before it writes, is not followed: fix reads the target again
// through the directory it checked, without following a link, so the
// bytes behind the new link (a file outside the root) never reach the
// copy, and the link is left as it was.
func TestCopyTargetSwappedForLink(t *testing.T) {
	gittest.SetEnv(t)
	r := gittest.New(t)
	r.Write("lf/.agents/AGENTS.md", "Agents.\n")
	link := filepath.Join(r.Dir, "lf", "AGENTS.md")
	if err := os.Symlink(".agents/AGENTS.md", link); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "secret.md")
	if err := os.WriteFile(secret, []byte("Secret.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(r.Dir, "lf", ".agents", "AGENTS.md")
	beforeWrite := func(abs string) {
		if abs != link {
			return
		}
		if err := os.Remove(target); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(secret, target); err != nil {
			t.Fatal(err)
		}
	}
	var stdout, stderr bytes.Buffer
	out, err := Run(Options{Project: project.Options{Root: r.Dir}, Hooks: Hooks{BeforeWrite: beforeWrite}}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if out.Changes != 0 || out.Skipped != 1 {
		t.Errorf("outcome %+v, want the copy skipped\nstdout: %s\nstderr: %s", out, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "its target lf/.agents/AGENTS.md changed since the fix read it") {
		t.Errorf("stderr %q lacks the reason", stderr.String())
	}
	if got, err := os.Readlink(link); err != nil || got != ".agents/AGENTS.md" {
		t.Errorf("lf/AGENTS.md: readlink %q, %v; want the link as it was", got, err)
	}
	if left, _ := filepath.Glob(filepath.Join(r.Dir, "lf", ".*rivumi-fix*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
