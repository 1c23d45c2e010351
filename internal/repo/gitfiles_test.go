package repo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestF4ConfigNativeMatchesGit: the config files are read natively (the
// git binary only for what that reader cannot apply); they must say what
// `git config` says.
func TestF4ConfigNativeMatchesGit(t *testing.T) {
	gittest.SetEnv(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	global := filepath.Join(home, "g.gitconfig")
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	g := gittest.New(t)
	g.Env = os.Environ()
	gd := filepath.Join(g.Dir, ".git")
	for _, c := range []struct{ global, local string }{
		{"", ""},
		{"[core]\n\texcludesFile = ~/ex\n", ""},
		{"[core]\n\texcludesFile = ~/ex\n", "[core]\n\texcludesfile = rel/ex\n\tignoreCase = yes\n"},
		{"[core]\n\tignorecase = true\n", "[core]\n\tignorecase = false\n"},
		{"[core]\n\texcludesFile = /abs/ex\n", ""},
	} {
		if err := os.WriteFile(global, []byte(c.global), 0o644); err != nil {
			t.Fatal(err)
		}
		g.Try("config", "--unset-all", "core.excludesFile")
		g.Try("config", "--unset-all", "core.ignoreCase")
		if c.local != "" {
			f, err := os.OpenFile(filepath.Join(gd, "config"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString(c.local)
			f.Close()
		}
		viaGit, err := readIgnoreConfigGit(g.Dir, gd)
		if err != nil {
			t.Fatal(err)
		}
		native, err := ReadIgnoreConfig(g.Dir, gd)
		if err != nil {
			t.Fatal(err)
		}
		if viaGit != native {
			t.Errorf("global %q local %q: git %+v, native %+v", c.global, c.local, viaGit, native)
		}
	}
	// An include, and a bare ignoreCase key, are left to git: the answer
	// is git's.
	other := filepath.Join(home, "other")
	if err := os.WriteFile(other, []byte("[core]\n\texcludesFile = /from/include\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, global := range []string{"[include]\n\tpath = other\n", "[core]\n\tignoreCase\n"} {
		if err := os.WriteFile(filepath.Join(home, "g.gitconfig"), []byte(global), 0o644); err != nil {
			t.Fatal(err)
		}
		var ng *needGitError
		if _, err := readIgnoreConfigNative(g.Dir, gd); !errors.As(err, &ng) {
			t.Errorf("%q: native reader: %v, want a hand-over to git", global, err)
		}
		viaGit, err := readIgnoreConfigGit(g.Dir, gd)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadIgnoreConfig(g.Dir, gd)
		if err != nil || got != viaGit {
			t.Errorf("%q: ReadIgnoreConfig = %+v, %v; git says %+v", global, got, err, viaGit)
		}
	}
	if got, _ := ReadIgnoreConfig(g.Dir, gd); !got.IgnoreCase {
		t.Errorf("a bare ignoreCase key is true to git: %+v", got)
	}
}

// C1 (#33.8): SymlinksOff reads core.symlinks as `git config --bool` does
// wherever the native reader answers, and hands the rest (an include) to
// git: unset is true (links on), the repository's value wins over the
// global one.
func TestSymlinksOffC1(t *testing.T) {
	gittest.SetEnv(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	global := filepath.Join(home, "g.gitconfig")
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	g := gittest.New(t)
	g.Env = os.Environ()
	gd := filepath.Join(g.Dir, ".git")
	other := filepath.Join(home, "other")
	if err := os.WriteFile(other, []byte("[core]\n\tsymlinks = false\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		global, local string
		off           bool
	}{
		{"", "", false},
		{"", "false", true},
		{"", "off", true},
		{"", "true", false},
		{"[core]\n\tsymlinks = false\n", "", true},
		{"[core]\n\tsymlinks = false\n", "yes", false},
		{"[include]\n\tpath = other\n", "", true},
	} {
		if err := os.WriteFile(global, []byte(c.global), 0o644); err != nil {
			t.Fatal(err)
		}
		g.Try("config", "--unset-all", "core.symlinks")
		if c.local != "" {
			g.Git("config", "core.symlinks", c.local)
		}
		got, err := SymlinksOff(g.Dir, gd)
		if err != nil || got != c.off {
			t.Errorf("global %q local %q: SymlinksOff = %v, %v; want %v", c.global, c.local, got, err, c.off)
		}
	}
}
