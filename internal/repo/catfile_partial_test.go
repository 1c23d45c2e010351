package repo_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// TestSHA256PartialCloneMissingBlob is F2 and §10 on the git fall-back: in
// a SHA-256 partial clone (read with git cat-file, which may not fetch:
// GIT_NO_LAZY_FETCH=1) a missing blob is a *MissingObjectError naming the
// promisor remote, as the native reader gives for SHA-1, never a complaint
// about the Git version; later reads still work.
func TestSHA256PartialCloneMissingBlob(t *testing.T) {
	gittest.SetEnv(t)
	src := gittest.New(t, "--object-format=sha256")
	src.Git("config", "uploadpack.allowFilter", "true")
	src.Write("AGENTS.md", "one\n")
	src.Commit("one")
	src.Write("AGENTS.md", "two\n")
	src.Commit("two")
	dst := gittest.At(t, t.TempDir())
	dst.Git("clone", "-q", "--no-local", "--filter=blob:none", "file://"+src.Dir, ".")
	r, err := repo.Open(dst.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if r.Backend != "git" || r.Promisor() != "origin" {
		t.Fatalf("backend %s, promisor %q: want the git fall-back of a partial clone", r.Backend, r.Promisor())
	}
	tree := func(rev string) *repo.Tree {
		c, err := r.ResolveCommit(rev, "test")
		if err != nil {
			t.Fatal(err)
		}
		th, err := r.CommitTree(c)
		if err != nil {
			t.Fatal(err)
		}
		return r.Tree(th, rev)
	}
	_, _, _, err = tree("HEAD~1").Read("AGENTS.md", 100)
	var me *repo.MissingObjectError
	if !errors.As(err, &me) || me.Promisor != "origin" {
		t.Fatalf("Read of the missing blob = %v; want a MissingObjectError naming the promisor", err)
	}
	if msg := err.Error(); !strings.Contains(msg, `partial clone (promisor remote "origin")`) || strings.Contains(msg, "2.36") {
		t.Errorf("message %q", msg)
	}
	data, _, _, err := tree("HEAD").Read("AGENTS.md", 100)
	if err != nil || string(data) != "two\n" {
		t.Errorf("Read after the missing blob = %q, %v; want the checked-out blob", data, err)
	}
	// Nothing was fetched.
	chk := gittest.At(t, dst.Dir)
	chk.Env = append(chk.Env, "GIT_NO_LAZY_FETCH=1")
	if _, err := chk.Try("cat-file", "-e", "HEAD~1:AGENTS.md"); err == nil {
		t.Error("the missing blob was fetched")
	}
}
