package odb

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// chainPack writes a pack of one blob and n versions of it, each a delta
// on the one before (offset deltas, or reference deltas with ref): a
// chain of n deltas. Git writes at most 4095 (pack-objects) or 8191
// (fast-import), but reads any length, and so must this package.
func chainPack(n int, ref bool) (*testPack, [][]byte, []string) {
	tp := newTestPack(n + 1)
	body := strings.Repeat("a body every version shares. ", 3)
	version := func(i int) []byte { return []byte(fmt.Sprintf("version %06d\n%s", i, body)) }
	head := len(version(0)) - len(body)
	prev := version(0)
	id, off := tp.full(Blob, prev)
	ids, contents := [][]byte{id}, []string{string(prev)}
	for i := 1; i <= n; i++ {
		cur := version(i)
		d := makeDelta(len(prev), cur[:head], head, len(body))
		cid := objectID(Blob, cur)
		if ref {
			tp.refDelta(cid, id, d)
		} else {
			off = tp.ofsDelta(cid, off, d)
		}
		id, prev = cid, cur
		ids, contents = append(ids, cid), append(contents, string(cur))
	}
	return tp, ids, contents
}

// TestLongDeltaChain is issue #11 item 11a: a chain of 10,050 deltas is
// read (it was "delta chain too long", a corrupt pack), without
// recursion, and gives what git gives. git index-pack makes the index,
// so Git itself accepts the pack.
func TestLongDeltaChain(t *testing.T) {
	const n = 10050
	for _, ref := range []bool{false, true} {
		tp, ids, contents := chainPack(n, ref)
		g := gittest.New(t)
		name := filepath.Join(g.Dir, ".git", "objects", "pack", "pack-chain.pack")
		if err := os.WriteFile(name, tp.bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		g.Git("index-pack", name)
		last := fmt.Sprintf("%x", ids[n])
		if got := g.Git("cat-file", "blob", last); got != contents[n] {
			t.Fatalf("git cat-file of the chain's end = %q, want %q", got, contents[n])
		}
		r := openStore(t, g)
		for _, i := range []int{n, n - 1, 5000, 0} {
			h := HashOf(ids[i])
			size, err := r.Size(h)
			if err != nil || size != int64(len(contents[i])) {
				t.Fatalf("ref %v: size of version %d = %d, %v; want %d", ref, i, size, err, len(contents[i]))
			}
			data, _, err := r.Read(h, Blob, 1<<20)
			if err != nil || string(data) != contents[i] {
				t.Fatalf("ref %v: version %d = %q, %v; want %q", ref, i, data, err, contents[i])
			}
		}
	}
}

// TestDeltaCycle: a corrupt pack whose reference deltas form a cycle (no
// git writes one) is an error naming the pack, never a hang or a stack
// overflow: two objects based on each other, and one based on itself.
func TestDeltaCycle(t *testing.T) {
	tp := newTestPack(3)
	a, b, self := objectID(Blob, []byte("a")), objectID(Blob, []byte("b")), objectID(Blob, []byte("self"))
	d := makeDelta(1, []byte("x"), 0, 1)
	tp.refDelta(a, b, d)
	tp.refDelta(b, a, d)
	tp.refDelta(self, self, d)
	for _, version := range []int{1, 2} {
		s := tp.install(t, tp.idx(version, 1<<40))
		for _, id := range [][]byte{a, b, self} {
			h := HashOf(id)
			_, _, err := s.Read(h, Blob, 100)
			if err == nil || !strings.Contains(err.Error(), "cycle") || !strings.Contains(err.Error(), "pack-test.pack") {
				t.Errorf("idx v%d: read of %x: %v; want a cycle error naming the pack", version, id[:4], err)
			}
			if _, err := s.Size(h); err == nil || !strings.Contains(err.Error(), "cycle") {
				t.Errorf("idx v%d: size of %x: %v; want a cycle error", version, id[:4], err)
			}
			var me *MissingObjectError
			if errors.As(err, &me) {
				t.Errorf("a cycle is corruption, not a missing object: %v", err)
			}
		}
	}
}

// TestHostileSizes is §10 (never an unbounded allocation): sizes in a
// pack entry's header, a delta's header and a loose object's header are
// claims; a read allocates what the data really holds, and a claim the
// data does not meet is an error.
func TestHostileSizes(t *testing.T) {
	tp := newTestPack(3)
	huge := objectID(Blob, []byte("huge"))
	tp.entrySized(huge, packBlob, 1<<40, nil, []byte("four"))
	_, off := tp.full(Blob, []byte("base"))
	bomb := objectID(Blob, []byte("bomb"))
	tp.ofsDelta(bomb, off, append(deltaVarintBytes(4), append(deltaVarintBytes(1<<40), 0x90, 0, 0)...))
	s := tp.install(t, tp.idx(2, 1<<40))

	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, id := range [][]byte{huge, bomb} {
		if _, _, err := s.Read(HashOf(id), Blob, -1); err == nil {
			t.Errorf("read of %x: no error", id[:4])
		}
		if _, _, err := s.Read(HashOf(id), Blob, 1<<40); err == nil {
			t.Errorf("read of %x with a large limit: no error", id[:4])
		}
	}
	var loose bytes.Buffer
	zw := zlib.NewWriter(&loose)
	zw.Write([]byte("blob 1099511627776\x00four"))
	zw.Close()
	if _, _, _, err := parseLoose(&loose, -1); err == nil {
		t.Error("loose object shorter than its header: no error")
	}
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("reading 1 TiB claims allocated %d MiB", grew>>20)
	}
}
