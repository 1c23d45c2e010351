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

// X1: a file that changes between the fix's read and its write is left
// as the other writer made it: the fix is skipped with a line saying so,
// the skip counts, and no temporary file stays behind. Hooks.BeforeCommit is
// the window another program could write in.
func TestChangedMeanwhileSkipped(t *testing.T) {
	gittest.SetEnv(t)
	r := gittest.New(t)
	r.Write("AGENTS.md", "a\u200bb\n", "u/AGENTS.md", "\xff\xfeh\x00i\x00")
	meanwhile := []byte("someone else's text\n")
	beforeCommit := func(d *os.Root, name string) {
		if err := d.WriteFile(name, meanwhile, 0o644); err != nil {
			t.Error(err)
		}
	}
	var stdout, stderr bytes.Buffer
	out, err := Run(Options{Project: project.Options{Root: r.Dir}, Hooks: Hooks{BeforeCommit: beforeCommit}}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if out.Changes != 0 || out.Skipped != 2 || out.WriteErrors != 0 {
		t.Errorf("outcome %+v, want 0 changes, 2 skipped", out)
	}
	for _, p := range []string{"AGENTS.md", "u/AGENTS.md"} {
		got, err := os.ReadFile(filepath.Join(r.Dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, meanwhile) {
			t.Errorf("%s = %q, want the other writer's text", p, got)
		}
		if !strings.Contains(stderr.String(), "skipped "+p+" [") {
			t.Errorf("no skip line for %s:\n%s", p, stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), "changed since the fix read it") {
		t.Errorf("skip line does not say why:\n%s", stderr.String())
	}
	left, _ := filepath.Glob(filepath.Join(r.Dir, "*", ".*rivumi-fix*"))
	top, _ := filepath.Glob(filepath.Join(r.Dir, ".*rivumi-fix*"))
	if len(left)+len(top) > 0 {
		t.Errorf("temporary files left: %v %v", left, top)
	}
}
