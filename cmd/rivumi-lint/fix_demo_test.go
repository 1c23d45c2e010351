package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestFixThenCheckDemo (X1): on a copy of testdata/demo made a Git
// repository, fix repairs what it can (a transcoding, hidden characters, a
// rename through git mv, a link's copy), skips the rest with a line each (exit 1), and a
// check afterwards reports none of the fixed findings.
func TestFixThenCheckDemo(t *testing.T) {
	gittest.SetEnv(t)
	dir := filepath.Join(t.TempDir(), "demo")
	copyDir(t, filepath.FromSlash("../../testdata/demo"), dir)
	r := gittest.At(t, dir)
	r.Git("init", "-q")
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "demo")

	var stdout, stderr bytes.Buffer
	if code := run([]string{"fix", "--root", dir}, env{Stdout: &stdout, Stderr: &stderr}); code != exitFindings {
		t.Fatalf("fix: exit %d, want 1 (some fixes are refused); stdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	fixed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^fixed (\S+): .* \[(RL\d+)\]$`).FindAllStringSubmatch(stdout.String(), -1) {
		fixed[m[2]+" "+m[1]] = true
	}
	// The link to ../AGENTS.md, an instruction file that cannot become
	// the link, is replaced with a copy of it and staged (#33.7).
	for _, want := range []string{"RL004 latin1/AGENTS.md", "RL004 utf16/AGENTS.md", "RL010 hidden/AGENTS.md", "RL011 near-miss/agents.md", "RL001 symlink/AGENTS.md"} {
		if !fixed[want] {
			t.Errorf("fix did not fix %s; stdout:\n%s\nstderr:\n%s", want, stdout.String(), stderr.String())
		}
	}

	stdout.Reset()
	stderr.Reset()
	run([]string{"check", "--root", dir, "--format", "json"}, env{Stdout: &stdout, Stderr: &stderr})
	var doc struct {
		Findings []struct{ Rule, Path string } `json:"findings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatalf("check json: %v\n%s\n%s", err, stdout.String(), stderr.String())
	}
	for _, f := range doc.Findings {
		if fixed[f.Rule+" "+f.Path] {
			t.Errorf("check still reports the fixed %s on %s", f.Rule, f.Path)
		}
	}
	if len(doc.Findings) == 0 {
		t.Error("check reports nothing: the demo's unfixable findings (RL002, RL003, ...) must remain")
	}
	if st := r.Git("status", "--porcelain", "near-miss"); st != "R  near-miss/agents.md -> near-miss/AGENTS.md\n" {
		t.Errorf("git status of near-miss: %q, want the staged rename of git mv", st)
	}
	if st := r.Git("status", "--porcelain", "symlink"); st != "T  symlink/AGENTS.md\n" {
		t.Errorf("git status of symlink: %q, want the staged copy (a type change)", st)
	}
}

// copyDir copies a tree; links stay links.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(l, to)
		case fi.IsDir():
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, fi.Mode().Perm())
	})
	if err != nil {
		t.Fatal(err)
	}
}
