// Package previewtest builds the fixtures of the preview tests: a Git
// repository and a home directory from a txtar archive, and the fixed
// machine values that make a preview byte-deterministic.
package previewtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/rivumi/rivumi-lint/preview"
)

// Now is the fixed clock of the goldens.
var Now = time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)

// Machine is the fixed runtime values of the goldens.
var Machine = preview.Machine{Now: Now, OS: "linux", Shell: "/bin/sh", WorkDir: "/src/app/docs/api"}

// Env is Machine as the environment variables the command reads.
var Env = map[string]string{
	preview.EnvNow:     Now.Format(time.RFC3339),
	preview.EnvOS:      "linux",
	"SHELL":            "/bin/sh",
	preview.EnvWorkDir: "/src/app/docs/api",
}

// Fixture is an extracted fixture.
type Fixture struct {
	Root string // the repository (files under repo/)
	Home string // $HOME (files under home/); Rivumi's home is Home/.rivumi
}

// Load extracts the txtar archive at path into temporary directories: the
// files under repo/ into a new Git repository on branch main with one
// commit of every file, the files under home/ into a home directory. It
// sets $HOME to the home directory and unsets $RIVUMI_HOME.
func Load(t testing.TB, path string) Fixture {
	t.Helper()
	a, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Extract(t, a)
}

// Extract is Load for an archive in memory.
func Extract(t testing.TB, a *txtar.Archive) Fixture {
	t.Helper()
	base := t.TempDir()
	f := Fixture{Root: filepath.Join(base, "repo"), Home: filepath.Join(base, "home")}
	for _, d := range []string{f.Root, filepath.Join(f.Home, ".rivumi")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range a.Files {
		var dst string
		switch {
		case strings.HasPrefix(file.Name, "repo/"):
			dst = filepath.Join(f.Root, filepath.FromSlash(strings.TrimPrefix(file.Name, "repo/")))
		case strings.HasPrefix(file.Name, "home/"):
			dst = filepath.Join(f.Home, filepath.FromSlash(strings.TrimPrefix(file.Name, "home/")))
		default:
			t.Fatalf("fixture file %s: not under repo/ or home/", file.Name)
		}
		WriteFile(t, dst, string(file.Data))
	}
	Commit(t, f.Root, true)
	t.Setenv("HOME", f.Home)
	t.Setenv(preview.EnvHome, "") // "" is unset for HomeDir
	return f
}

// WriteFile writes a file, making its directories.
func WriteFile(t testing.TB, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Commit makes root a Git repository on branch main (when init) and
// commits every file in it with a fixed author and time.
func Commit(t testing.TB, root string, init bool) {
	t.Helper()
	var r *git.Repository
	var err error
	if init {
		r, err = git.PlainInitWithOptions(root, &git.PlainInitOptions{
			InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
		})
	} else {
		r, err = git.PlainOpen(root)
	}
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "Rivumi Test", Email: "test@example.com", When: Now}
	if _, err := wt.Commit("fixture", &git.CommitOptions{Author: sig, Committer: sig, AllowEmptyCommits: true}); err != nil {
		t.Fatal(err)
	}
}
