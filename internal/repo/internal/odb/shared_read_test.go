package odb

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// treePair writes a pack of a tree-typed object and a second version of
// it stored as an offset delta on the first: the two sides of one
// directory of a diff, as Git packs them.
func treePair(t *testing.T) (*Native, Hash, Hash, []byte, []byte) {
	t.Helper()
	tp := newTestPack(2)
	var body strings.Builder
	for i := range 200 {
		fmt.Fprintf(&body, "100644 file-%03d.txt\x00%020d", i, i)
	}
	base := []byte(body.String())
	head := []byte("100644 AGENTS.md\x0000000000000000000000")
	next := append(bytes.Clone(head), base...)
	id1, off := tp.full(Tree, base)
	id2 := objectID(Tree, next)
	tp.ofsDelta(id2, off, makeDelta(len(base), head, 0, len(base)))
	s := tp.install(t, tp.idx(2, 1<<40))
	return s, HashOf(id1), HashOf(id2), base, next
}

// TestSharedReadInflatesOnce: the two sides of a diff read one after the
// other, in either order, inflate the shared base once (one inflate for
// it, one for the delta), and give the right bytes. Before, the side read
// whole was inflated again as the other side's delta base.
func TestSharedReadInflatesOnce(t *testing.T) {
	for _, baseFirst := range []bool{true, false} {
		s, b, d, base, next := treePair(t)
		order := []Hash{b, d}
		want := [][]byte{base, next}
		if !baseFirst {
			order, want = []Hash{d, b}, [][]byte{next, base}
		}
		for i, h := range order {
			got, size, err := s.ReadShared(h, Tree, 1<<20)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want[i]) || size != int64(len(want[i])) {
				t.Fatalf("baseFirst=%v: read %d: got %d bytes, want %d", baseFirst, i, len(got), len(want[i]))
			}
		}
		if n := s.counts.inflates.Load(); n != 2 {
			t.Errorf("baseFirst=%v: %d inflates, want 2 (the base once, the delta once)", baseFirst, n)
		}
	}
}

// TestF1SharedReadIsNotScratch: a tree ReadShared put into the base cache
// is never handed out as scratch afterwards, and a scratch answer written
// over does not change what a shared read gives (F1).
func TestF1SharedReadIsNotScratch(t *testing.T) {
	s, b, _, base, _ := treePair(t)
	if _, _, err := s.ReadShared(b, Tree, 1<<20); err != nil {
		t.Fatal(err)
	}
	_, _, scratch, err := s.ReadInto(b, Tree, 1<<20, make([]byte, 0, 1<<16))
	if err != nil {
		t.Fatal(err)
	}
	if scratch {
		t.Fatal("cached bytes were handed out as scratch")
	}
	s2, b2, _, _, _ := treePair(t)
	data, _, scratch, err := s2.ReadInto(b2, Tree, 1<<20, nil)
	if err != nil || !scratch {
		t.Fatalf("a first ReadInto: scratch=%v err=%v, want scratch", scratch, err)
	}
	for i := range data {
		data[i] = 0xAA
	}
	got, _, err := s2.ReadShared(b2, Tree, 1<<20)
	if err != nil || !bytes.Equal(got, base) {
		t.Fatalf("shared read after a scratch read was overwritten: %d bytes, err %v", len(got), err)
	}
}
