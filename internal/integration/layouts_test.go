package integration

// Storage and index layouts of the differential test (SPEC §10, F1, F3):
// the same generated repository, stored every way Git 2.39 stores one in
// normal use. The answer must not depend on any of them.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// layout turns a copy of a committed repository into one storage layout.
// pre runs before the staged state is written (index formats must hold
// the staged entries themselves), post after it (object storage).
type layout struct {
	name  string
	pre   func(t *testing.T, dir string, g *genSpec)
	post  func(t *testing.T, dir, scratch string)
	noITA bool // Git 2.39 corrupts a sparse index that holds intent-to-add entries
}

var layouts = []layout{
	{name: "loose"},
	{name: "pack", post: func(t *testing.T, dir, _ string) { gitCmd(t, dir, nil, nil, "repack", "-adq") }},
	{name: "gc-aggressive", post: func(t *testing.T, dir, _ string) {
		gitCmd(t, dir, nil, nil, "gc", "-q", "--aggressive", "--prune=now")
	}},
	{name: "depth-4095", post: func(t *testing.T, dir, _ string) {
		gitCmd(t, dir, nil, nil, "repack", "-adfq", "--depth=4095", "--window=250")
	}},
	{name: "ref-delta", post: func(t *testing.T, dir, _ string) {
		// Without delta-base-offset, pack-objects writes REF_DELTA entries.
		gitCmd(t, dir, nil, nil, "-c", "repack.useDeltaBaseOffset=false", "repack", "-adfq")
	}},
	{name: "idx-v1", post: func(t *testing.T, dir, _ string) {
		gitCmd(t, dir, nil, nil, "-c", "pack.indexVersion=1", "repack", "-adfq")
	}},
	{name: "idx-64bit", post: func(t *testing.T, dir, _ string) {
		gitCmd(t, dir, nil, nil, "repack", "-adfq")
		// An offset limit of 12 puts every object but the first (at offset
		// 12) in the 64-bit offset table; Git refuses an idx where all are.
		for _, pack := range packs(t, dir) {
			idx := strings.TrimSuffix(pack, ".pack") + ".idx"
			if err := os.Remove(idx); err != nil {
				t.Fatal(err)
			}
			gitCmd(t, dir, nil, nil, "index-pack", "--index-version=2,12", pack)
		}
	}},
	{name: "multi-pack-index", post: func(t *testing.T, dir, _ string) {
		// One pack per commit, one for the staged blobs, and an index over them.
		packOf(t, dir, "rev-list", "--objects", "main~1")
		packOf(t, dir, "rev-list", "--objects", "main", "--not", "main~1")
		gitCmd(t, dir, nil, nil, "repack", "-dq")
		gitCmd(t, dir, nil, nil, "prune-packed")
		gitCmd(t, dir, nil, nil, "multi-pack-index", "write")
		if n := len(packs(t, dir)); n < 2 {
			t.Fatalf("multi-pack-index layout: %d packs, want several", n)
		}
	}},
	{name: "alternates", post: func(t *testing.T, dir, scratch string) {
		// Every object lives in a second repository's object directory.
		gitCmd(t, dir, nil, nil, "repack", "-adq")
		alt := filepath.Join(scratch, "alt.git", "objects")
		if err := os.MkdirAll(alt, 0o755); err != nil {
			t.Fatal(err)
		}
		objs := filepath.Join(dir, ".git", "objects")
		if err := os.Rename(filepath.Join(objs, "pack"), filepath.Join(alt, "pack")); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(objs, "pack"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(objs, "info", "alternates"), []byte(alt+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}},
	{name: "split-index", pre: func(t *testing.T, dir string, _ *genSpec) {
		gitCmd(t, dir, nil, nil, "update-index", "--split-index")
	}},
	{name: "sparse-index", noITA: true, pre: func(t *testing.T, dir string, g *genSpec) {
		args := []string{"sparse-checkout", "set", "--cone", "--sparse-index"}
		if g.subdir != "" {
			args = append(args, g.subdir)
		}
		gitCmd(t, dir, nil, nil, args...)
	}},
	{name: "index-v4", pre: func(t *testing.T, dir string, _ *genSpec) {
		gitCmd(t, dir, nil, nil, "update-index", "--index-version", "4")
	}},
}

// packs lists the pack files of dir.
func packs(t *testing.T, dir string) []string {
	t.Helper()
	ps, err := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// packOf packs the objects `git LIST...` names into a new pack.
func packOf(t *testing.T, dir string, list ...string) {
	t.Helper()
	objs := gitCmd(t, dir, nil, nil, list...)
	if strings.TrimSpace(objs) == "" {
		return
	}
	gitCmd(t, dir, []byte(objs), nil, "pack-objects", "-q", filepath.Join(dir, ".git", "objects", "pack", "pack"))
}

// copyTree copies a directory with cp -a (links stay links).
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd := exec.Command("cp", "-a", src, dst)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("cp -a %s %s: %v\n%s", src, dst, err, stderr.String())
	}
}
