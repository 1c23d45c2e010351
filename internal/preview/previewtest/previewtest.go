// Package previewtest builds the fixtures of the preview tests: a Git
// repository and a home directory from a txtar archive, and the fixed
// machine values that make a preview byte-deterministic.
//
// It imports neither testing nor go-git's root package (D4: `go install
// ./...`, which pre-commit runs, compiles every package of the module, and
// go-git's root package alone brings many modules): repositories are made
// with the git binary (repo/gittest), and the helpers take a gittest.TB,
// which *testing.T and *testing.B satisfy.
package previewtest

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
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
func Load(t gittest.TB, path string) Fixture {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Extract(t, data)
}

// Extract is Load for an archive in memory.
func Extract(t gittest.TB, archive []byte) Fixture {
	t.Helper()
	a := parseTxtar(archive)
	base := t.TempDir()
	f := Fixture{Root: filepath.Join(base, "repo"), Home: filepath.Join(base, "home")}
	for _, d := range []string{f.Root, filepath.Join(f.Home, ".rivumi")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range a {
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
func WriteFile(t gittest.TB, name, data string) {
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
func Commit(t gittest.TB, root string, init bool) {
	t.Helper()
	r := gittest.At(t, root)
	if init {
		r.Git("init", "-q", "--initial-branch=main")
	}
	when := Now.Format(time.RFC3339)
	r.Env = append(r.Env, "GIT_AUTHOR_NAME=Rivumi Test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=Rivumi Test", "GIT_COMMITTER_EMAIL=test@example.com",
		"GIT_AUTHOR_DATE="+when, "GIT_COMMITTER_DATE="+when)
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "--no-verify", "-m", "fixture")
}

type txtarFile struct {
	Name string
	Data []byte
}

// parseTxtar reads the txtar format (golang.org/x/tools/txtar: a comment,
// then files each introduced by a "-- NAME --" line; a file's data ends
// in a newline). Written out here so that this package does not link
// golang.org/x/tools (D4).
func parseTxtar(data []byte) []txtarFile {
	var files []txtarFile
	for len(data) > 0 {
		line := data
		if i := strings.IndexByte(string(data), '\n'); i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		text := strings.TrimSuffix(string(line), "\n")
		if strings.HasPrefix(text, "-- ") && strings.HasSuffix(text, " --") && len(text) >= 6 {
			if name := strings.TrimSpace(text[3 : len(text)-3]); name != "" {
				files = append(files, txtarFile{Name: name})
				continue
			}
		}
		if n := len(files); n > 0 { // lines before the first file are the comment
			files[n-1].Data = append(files[n-1].Data, line...)
		}
	}
	for i := range files {
		if d := files[i].Data; len(d) > 0 && d[len(d)-1] != '\n' {
			files[i].Data = append(d, '\n')
		}
	}
	return files
}
