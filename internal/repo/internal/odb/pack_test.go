package odb

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// packRepo makes a history whose objects delta against each other once
// packed: a growing file, a tree that changes, an annotated tag.
func packRepo(t *testing.T) *gittest.Repo {
	g := gittest.New(t)
	var body strings.Builder
	for i := range 12 {
		fmt.Fprintf(&body, "line %d: the same text again and again so that a delta pays\n", i)
		fmt.Fprintf(&body, "and more of it, line %d, to make the file long\n", i)
		g.Write("AGENTS.md", body.String(), fmt.Sprintf("dir/f%d.txt", i%5), body.String()+strconv.Itoa(i),
			"big.txt", strings.Repeat(body.String(), 20))
		g.Commit(fmt.Sprintf("commit %d", i))
	}
	g.Git("tag", "-a", "-m", "annotated", "v1")
	return g
}

type catObject struct {
	id, typ string
	size    int64
	content string
}

// allObjects is every object with its content, from one git cat-file.
func allObjects(t *testing.T, g *gittest.Repo) []catObject {
	t.Helper()
	rest := g.Git("cat-file", "--batch-all-objects", "--batch")
	var out []catObject
	for rest != "" {
		line, after, ok := strings.Cut(rest, "\n")
		f := strings.Fields(line)
		if !ok || len(f) != 3 {
			t.Fatalf("cat-file --batch: %q", line)
		}
		n, _ := strconv.ParseInt(f[2], 10, 64)
		out = append(out, catObject{f[0], f[1], n, after[:n]})
		rest = after[n+1:]
	}
	return out
}

func objTypeNamed(s string) Type {
	for _, t := range []Type{Commit, Tree, Blob, Tag} {
		if t.String() == s {
			return t
		}
	}
	return 0
}

// openStore opens the object database of g's repository, closed when the
// test ends.
func openStore(t *testing.T, g *gittest.Repo) *Native {
	t.Helper()
	s, err := Open([]string{filepath.Join(g.Dir, ".git", "objects")}, 20)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// checkAllObjects reads every object with the native store and compares
// type, size and content with git cat-file; a limited read returns
// limit+1 bytes at most.
func checkAllObjects(t *testing.T, g *gittest.Repo, layout string) {
	t.Helper()
	r := openStore(t, g)
	objs := allObjects(t, g)
	if len(objs) < 40 {
		t.Fatalf("%s: only %d objects", layout, len(objs))
	}
	for _, o := range objs {
		h, _ := ParseHash(o.id)
		n, err := r.Size(h)
		if err != nil || n != o.size {
			t.Fatalf("%s: size(%s %s) = %d, %v; want %d", layout, o.typ, o.id, n, err, o.size)
		}
		want := o.content
		data, n, err := r.Read(h, objTypeNamed(o.typ), 1<<30)
		if err != nil || n != o.size || !bytes.Equal(data, []byte(want)) {
			t.Fatalf("%s: read(%s %s) = %d bytes, size %d, %v; want %d bytes", layout, o.typ, o.id, len(data), n, err, len(want))
		}
		if o.size > 20 {
			data, n, err = r.Read(h, objTypeNamed(o.typ), 10)
			if err != nil || n != o.size || !bytes.Equal(data, []byte(want[:11])) {
				t.Fatalf("%s: read(%s, limit 10) = %q, %d, %v", layout, o.id, data, n, err)
			}
		}
		other := Blob
		if o.typ == "blob" {
			other = Tree
		}
		var wt *WrongTypeError
		if _, _, err := r.Read(h, other, 100); !errors.As(err, &wt) {
			t.Fatalf("%s: read(%s %s as %s) = %v, want a wrong-type error", layout, o.typ, o.id, other, err)
		}
	}
	missing, _ := ParseHash(strings.Repeat("ab", 20))
	var me *MissingObjectError
	if _, err := r.Size(missing); !errors.As(err, &me) {
		t.Errorf("%s: size(missing) = %v", layout, err)
	}
	if _, _, err := r.Read(missing, Blob, 10); !errors.As(err, &me) {
		t.Errorf("%s: read(missing) = %v", layout, err)
	}
}

// TestNativeObjects reads every object of one history in every layout Git
// writes: loose, packed with offset deltas, with reference deltas, with a
// version 1 index, and with a version 2 index whose offsets all sit in the
// 64-bit table.
func TestNativeObjects(t *testing.T) {
	g := packRepo(t)
	checkAllObjects(t, g, "loose")

	g.Git("repack", "-a", "-d", "-f", "-q", "--depth=20", "--window=50")
	g.Git("prune-packed")
	if !strings.Contains(g.Git("verify-pack", "-v", g.Pack()), "chain length") {
		t.Fatal("the pack has no deltas")
	}
	checkAllObjects(t, g, "ofs-delta")

	g.Git("-c", "repack.useDeltaBaseOffset=false", "repack", "-a", "-d", "-f", "-q", "--depth=20", "--window=50")
	checkAllObjects(t, g, "ref-delta")

	for _, v := range []string{"1", "2,32"} {
		pack := g.Pack()
		idx := strings.TrimSuffix(pack, ".pack") + ".idx"
		tmp := filepath.Join(t.TempDir(), "new.idx")
		g.Git("index-pack", "--index-version="+v, "-o", tmp, pack)
		data, err := os.ReadFile(tmp)
		if err != nil {
			t.Fatal(err)
		}
		os.Chmod(idx, 0o644)
		if err := os.WriteFile(idx, data, 0o644); err != nil {
			t.Fatal(err)
		}
		checkAllObjects(t, g, "index version "+v)
	}
}

// TestApplyDeltaRejects corrupt deltas instead of reading out of range.
func TestApplyDeltaRejects(t *testing.T) {
	base := []byte("0123456789")
	for name, d := range map[string][]byte{
		"wrong base size": {5, 3, 0x91, 0, 3},
		"copy past base":  {10, 3, 0x91, 9, 3},
		"opcode 0":        {10, 3, 0},
		"insert too long": {10, 3, 5, 'a'},
		"short result":    {10, 5, 0x91, 0, 3},
		"long result":     {10, 2, 0x91, 0, 3},
	} {
		if _, err := applyDelta(base, d); err == nil {
			t.Errorf("%s: applied", name)
		}
	}
	out, err := applyDelta(base, []byte{10, 6, 0x91, 2, 3, 3, 'a', 'b', 'c'})
	if err != nil || string(out) != "234abc" {
		t.Errorf("applyDelta = %q, %v", out, err)
	}
}
