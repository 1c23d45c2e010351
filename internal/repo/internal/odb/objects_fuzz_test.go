package odb

// Fuzz targets for the object readers (SPEC §10: every parser): pack
// indexes (versions 1 and 2, 64-bit offsets), pack entries and delta
// chains, delta application, loose objects. Seeds are real objects,
// packs and indexes made by git, plus hand-built packs of shapes git does
// not write (long chains, cycles). Every input must give an answer or an
// error: never a panic, a hang or an allocation its bytes do not justify.

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// objectSeeds are the files of a small history as git writes them: its
// loose objects, then one pack of it with offset deltas, reference deltas
// and none, each with indexes of version 1, 2, and 2 with every offset in
// the 64-bit table.
type objectSeeds struct {
	loose [][]byte
	packs [][2][]byte // idx, pack
}

var (
	seedsOnce sync.Once
	seeds     objectSeeds
)

func gitObjectSeeds(tb testing.TB) objectSeeds {
	tb.Helper()
	gittest.Env(tb) // without git, every target fails saying so (not just the first)
	seedsOnce.Do(func() { seeds = makeObjectSeeds(tb) })
	if len(seeds.packs) == 0 {
		tb.Fatal("no seeds made")
	}
	return seeds
}

func makeObjectSeeds(tb testing.TB) objectSeeds {
	var out objectSeeds
	g := gittest.New(tb)
	var body strings.Builder
	// Small: the fuzzer minimises every input that finds new coverage,
	// and a large pack takes it all of a short run.
	fixed := strings.Repeat("a fixed line of the file, long enough that deltas pay\n", 4)
	for i := range 3 {
		fmt.Fprintf(&body, "line %d of a file that grows\n", i)
		g.Write("AGENTS.md", body.String()+fixed)
		g.Commit(fmt.Sprint(i))
	}
	g.Git("tag", "-a", "-m", "annotated", "v1")
	objects := filepath.Join(g.Dir, ".git", "objects")
	files, _ := filepath.Glob(filepath.Join(objects, "??", "*"))
	for i, f := range files {
		if i%4 == 0 || strings.Contains(f, "/info/") { // enough of them
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		out.loose = append(out.loose, b)
	}
	// Small packs of a few objects each (the blobs with deltas, offset
	// or reference; a commit, its tree and the tag), each with indexes of
	// version 1, 2, and 2 with every offset in the 64-bit table.
	var blobs, others []string
	for _, line := range gittest.Lines(g.Git("cat-file", "--batch-all-objects", "--batch-check")) {
		f := strings.Fields(line)
		if f[1] == "blob" {
			blobs = append(blobs, f[0])
		} else if len(others) < 3 {
			others = append(others, f[0])
		}
	}
	tmp := tb.TempDir()
	for i, pack := range []struct {
		ids  []string
		args []string
	}{
		{blobs, []string{"--delta-base-offset"}},
		{blobs, nil},
		{others, nil},
	} {
		data := []byte(g.Input(strings.Join(pack.ids, "\n")+"\n", append([]string{"pack-objects", "-q", "--stdout", "--window=10", "--depth=10"}, pack.args...)...))
		name := filepath.Join(tmp, fmt.Sprintf("p%d.pack", i))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			tb.Fatal(err)
		}
		for _, v := range []string{"1", "2", "2,32"} {
			idx := filepath.Join(tmp, "x.idx")
			os.Remove(idx)
			g.Git("index-pack", "--index-version="+v, "-o", idx, name)
			b, err := os.ReadFile(idx)
			if err != nil {
				tb.Fatal(err)
			}
			out.packs = append(out.packs, [2][]byte{b, data})
		}
	}
	return out
}

// handPacks are packs git does not write: a chain of reference deltas, a
// chain of offset deltas with a version 1 index, and a cycle.
func handPacks() [][2][]byte {
	var out [][2][]byte
	tp, _, _ := chainPack(20, true)
	out = append(out, [2][]byte{tp.idx(2, 100), tp.bytes()})
	tp, _, _ = chainPack(20, false)
	out = append(out, [2][]byte{tp.idx(1, 0), tp.bytes()})
	tp = newTestPack(2)
	a, b := objectID(Blob, []byte("a")), objectID(Blob, []byte("b"))
	tp.refDelta(a, b, makeDelta(1, []byte("x"), 0, 1))
	tp.refDelta(b, a, makeDelta(1, []byte("y"), 0, 1))
	out = append(out, [2][]byte{tp.idx(2, 1<<40), tp.bytes()})
	return out
}

// memObjects is an object store over one pack held in memory (nil when
// the index is rejected); it has no object directory, so every object
// outside the pack is missing.
func memObjects(idx, data []byte) *Native {
	p, err := parsePackIndex("fuzz.pack", idx, 20)
	if err != nil {
		return nil
	}
	p.dataOnce.Do(func() { p.data, p.dataErr = data, checkPackData(p.name, data, 20) })
	s := &Native{hashSize: 20, packs: []*pack{p}, rescan: true}
	s.cache.max = 32 << 20
	return s
}

// idxEntries lists, plainly, the ids and offsets an index holds, in
// table order (at most max of them).
func idxEntries(p *pack, max int) (ids []Hash, offs []int64) {
	fan := 0
	if p.version == 2 {
		fan = 8
	}
	table := fan + 1024
	for i := 0; i < p.n && i < max; i++ {
		if p.version == 1 {
			e := table + i*(4+p.hs)
			ids = append(ids, HashOf(p.idx[e+4:e+4+p.hs]))
			offs = append(offs, int64(binary.BigEndian.Uint32(p.idx[e:])))
			continue
		}
		ids = append(ids, HashOf(p.idx[table+i*p.hs:table+(i+1)*p.hs]))
		o := binary.BigEndian.Uint32(p.idx[table+p.n*(p.hs+4)+4*i:])
		off := int64(o)
		if o&0x80000000 != 0 {
			large := table + p.n*(p.hs+8) + 8*int(o&0x7fffffff)
			off = -1
			if large+8 <= len(p.idx) {
				off = int64(binary.BigEndian.Uint64(p.idx[large:]))
			}
		}
		offs = append(offs, off)
	}
	return ids, offs
}

// wellFormed reports an index as git writes it: the fanout counts the
// ids by first byte and the ids are sorted and distinct.
func wellFormed(p *pack) bool {
	ids, _ := idxEntries(p, p.n)
	fan := 0
	if p.version == 2 {
		fan = 8
	}
	for b := range 256 {
		n := 0
		for _, h := range ids {
			if int(h.b[0]) <= b {
				n++
			}
		}
		if int(binary.BigEndian.Uint32(p.idx[fan+4*b:])) != n {
			return false
		}
	}
	for i := 1; i < len(ids); i++ {
		if bytes.Compare(ids[i-1].Bytes(), ids[i].Bytes()) >= 0 {
			return false
		}
	}
	return true
}

// idxParts splits an index into the fuzz input of FuzzPackIndex: the
// bytes before the fanout (the version 2 header, or none), the fanout run
// length encoded, the rest. The fanout is a kilobyte even for one object;
// the fuzzer minimises each new input in time quadratic in its length,
// which a raw index would spend a short run on.
func idxParts(idx []byte) (head, fan, rest []byte) {
	if len(idx) >= 8 && string(idx[:4]) == "\xfftOc" {
		head, idx = idx[:8], idx[8:]
	}
	for i := 0; i < 256; {
		v := binary.BigEndian.Uint32(idx[4*i:])
		n := 1
		for i+n < 256 && n < 255 && binary.BigEndian.Uint32(idx[4*(i+n):]) == v {
			n++
		}
		fan = binary.BigEndian.AppendUint32(append(fan, byte(n)), v)
		i += n
	}
	return head, fan, idx[1024:]
}

// idxJoin is idxParts undone: groups of a count and a 32-bit value make
// the fanout, whose last value fills what the groups leave out.
func idxJoin(head, fan, rest []byte) []byte {
	out := bytes.Clone(head)
	n, last := 0, uint32(0)
	for ; len(fan) >= 5 && n < 256; fan = fan[5:] {
		last = binary.BigEndian.Uint32(fan[1:])
		for k := 0; k < int(fan[0]) && n < 256; k++ {
			out = binary.BigEndian.AppendUint32(out, last)
			n++
		}
	}
	for ; n < 256; n++ {
		out = binary.BigEndian.AppendUint32(out, last)
	}
	return append(out, rest...)
}

// FuzzPackIndex: parsing any index and looking any id up stays inside
// it; an offset is only ever found for an id the index lists; and in an
// index as git writes it (versions 1 and 2, 64-bit offsets) every listed
// id is found at its offset.
func FuzzPackIndex(f *testing.F) {
	for _, s := range gitObjectSeeds(f).packs {
		head, fan, rest := idxParts(s[0])
		f.Add(head, fan, rest, bytes.Repeat([]byte{0x5a}, 20))
	}
	for _, s := range handPacks() {
		head, fan, rest := idxParts(s[0])
		f.Add(head, fan, rest, s[0][len(s[0])-20:])
	}
	f.Fuzz(func(t *testing.T, head, fan, rest, id []byte) {
		p, err := parsePackIndex("fuzz.pack", idxJoin(head, fan, rest), 20)
		if err != nil {
			return
		}
		ids, offs := idxEntries(p, 4096)
		probe := HashOf(append(bytes.Clone(id), make([]byte, 20)...)[:20])
		listed := func(h Hash) bool {
			all, _ := idxEntries(p, p.n)
			for _, x := range all {
				if x == h {
					return true
				}
			}
			return false
		}
		if off := p.find(probe.Bytes()); off >= 0 && !listed(probe) {
			t.Fatalf("find(%x) = %d for an id the index does not list", probe.Bytes(), off)
		}
		ok := p.n <= 4096 && wellFormed(p)
		for i, h := range ids {
			off := p.find(h.Bytes())
			if ok && off != offs[i] {
				t.Fatalf("index v%d: find(%x) = %d, the table says %d", p.version, h.Bytes(), off, offs[i])
			}
		}
	})
}

// packTable is an index's content in the fuzz input of FuzzPack: 24-byte
// records of an id and a 32-bit offset. The index itself (fanout, sorted
// ids, 64-bit offsets) is built from it: FuzzPackIndex fuzzes that
// format, and its kilobyte of fanout would only slow the minimiser here.
func packTable(p *pack) []byte {
	ids, offs := idxEntries(p, p.n)
	var b []byte
	for i := range ids {
		b = append(b, ids[i].Bytes()...)
		b = binary.BigEndian.AppendUint32(b, uint32(offs[i]))
	}
	return b
}

// FuzzPack reads every object of a pack from any pack bytes and any
// table of ids and offsets: size and read agree, a read returns no more
// than limit+1 bytes, and corruption (a cycle, a short stream, a delta
// out of range, a chain longer than the pack has objects) is an error.
func FuzzPack(f *testing.F) {
	add := func(idx, data []byte) {
		p, err := parsePackIndex("seed.pack", idx, 20)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(packTable(p), data, p.version == 2)
	}
	for _, s := range gitObjectSeeds(f).packs {
		add(s[0], s[1])
	}
	for _, s := range handPacks() {
		add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, table, data []byte, v2 bool) {
		var objs []testPackObj
		for len(table) >= 24 && len(objs) < 64 {
			objs = append(objs, testPackObj{table[:20], int64(binary.BigEndian.Uint32(table[20:24]))})
			table = table[24:]
		}
		version := 1
		if v2 {
			version = 2
		}
		s := memObjects(buildIdx(objs, version, 64, make([]byte, 20)), data)
		if s == nil {
			t.Fatal("buildIdx made an index parsePackIndex refuses")
		}
		for _, o := range objs {
			h := HashOf(o.id)
			size, serr := s.Size(h)
			for _, typ := range []Type{Commit, Tree, Blob, Tag} {
				for _, limit := range []int64{3, 1 << 16} {
					got, n, err := s.Read(h, typ, limit)
					if err != nil {
						continue // corrupt, or another type: an answer
					}
					if int64(len(got)) > limit+1 {
						t.Fatalf("read(%x, limit %d) returned %d bytes", h.Bytes()[:4], limit, len(got))
					}
					if int64(len(got)) != min(n, limit+1) {
						t.Fatalf("read(%x, limit %d) returned %d bytes of a %d-byte object", h.Bytes()[:4], limit, len(got), n)
					}
					if serr == nil && n != size {
						t.Fatalf("read(%x) says %d bytes, size says %d", h.Bytes()[:4], n, size)
					}
					if typ == Tree {
						// A shared read (cached from now on) and a read
						// after it give the same bytes as before (F1).
						sh, sn, err := s.ReadShared(h, typ, limit)
						again, an, err2 := s.Read(h, typ, limit)
						if err != nil || err2 != nil || sn != n || an != n || !bytes.Equal(sh, got) || !bytes.Equal(again, got) {
							t.Fatalf("read(%x, limit %d): shared read %d bytes (%v), then %d bytes (%v), unlike the first %d", h.Bytes()[:4], limit, len(sh), err, len(again), err2, len(got))
						}
					}
				}
			}
		}
	})
}

// refApplyDelta is applyDelta written plainly (the reference).
func refApplyDelta(base, delta []byte) ([]byte, bool) {
	varint := func() (uint64, bool) {
		var v uint64
		for shift := uint(0); len(delta) > 0 && shift < 64; shift += 7 {
			c := delta[0]
			delta = delta[1:]
			v |= uint64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, true
			}
		}
		return 0, false
	}
	src, ok := varint()
	if !ok || src != uint64(len(base)) {
		return nil, false
	}
	dst, ok := varint()
	if !ok || dst > maxDeltaResult {
		return nil, false
	}
	var out []byte
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		if op == 0 {
			return nil, false
		}
		if op&0x80 == 0 {
			if int(op) > len(delta) {
				return nil, false
			}
			out = append(out, delta[:op]...)
			delta = delta[op:]
		} else {
			var off, size uint64
			for i, bit := range []byte{1, 2, 4, 8, 0x10, 0x20, 0x40} {
				if op&bit == 0 {
					continue
				}
				if len(delta) == 0 {
					return nil, false
				}
				if i < 4 {
					off |= uint64(delta[0]) << (8 * i)
				} else {
					size |= uint64(delta[0]) << (8 * (i - 4))
				}
				delta = delta[1:]
			}
			if size == 0 {
				size = 0x10000
			}
			if off+size > uint64(len(base)) {
				return nil, false
			}
			out = append(out, base[off:off+size]...)
		}
		if uint64(len(out)) > dst {
			return nil, false
		}
	}
	if uint64(len(out)) != dst {
		return nil, false
	}
	return out, true
}

// FuzzApplyDelta: applyDelta gives exactly what the plain reference
// gives, or an error where it fails.
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("0123456789"), []byte{10, 6, 0x91, 2, 3, 3, 'a', 'b', 'c'})
	f.Add([]byte("0123456789"), []byte{10, 3, 0x91, 9, 3})
	f.Add([]byte("base"), makeDelta(4, []byte("head "), 0, 4))
	// Real deltas written by git: the delta entries of the seed packs.
	for _, s := range gitObjectSeeds(f).packs[:1] {
		st := memObjects(s[0], s[1])
		ids, offs := idxEntries(st.packs[0], 64)
		for i := range ids {
			e, err := st.packs[0].entryAt(offs[i])
			if err != nil || e.typ != packOfsDelta {
				continue
			}
			delta, err1 := st.inflate(st.packs[0], e.data, e.size)
			_, base, _, err2 := st.unpack(st.packs[0], e.baseOff)
			if err1 == nil && err2 == nil {
				f.Add(base, delta)
			}
		}
	}
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		got, err := applyDelta(base, delta)
		want, ok := refApplyDelta(base, delta)
		if (err == nil) != ok {
			t.Fatalf("applyDelta: %v; the reference ok=%v", err, ok)
		}
		if ok && !bytes.Equal(got, want) {
			t.Fatalf("applyDelta = %q, the reference %q", got, want)
		}
	})
}

// FuzzLooseObject: a loose object file of any bytes is an object (type,
// size, at most limit+1 bytes of content that the stream really holds
// after the header) or an error.
func FuzzLooseObject(f *testing.F) {
	for _, b := range gitObjectSeeds(f).loose {
		for _, limit := range []int64{-1, 0, 10, 1 << 16} {
			f.Add(b, limit)
		}
	}
	var bomb bytes.Buffer
	zw := zlib.NewWriter(&bomb)
	fmt.Fprintf(zw, "blob 999999999999\x00")
	zw.Write(make([]byte, 1<<16))
	zw.Close()
	f.Add(bomb.Bytes(), int64(-1))
	f.Fuzz(func(t *testing.T, data []byte, limit int64) {
		limit = max(-1, min(limit, 1<<20))
		typ, content, size, err := parseLoose(bytes.NewReader(data), limit)
		if err != nil {
			return
		}
		if typ < Commit || typ > Tag || size < 0 {
			t.Fatalf("type %d, size %d", typ, size)
		}
		want := size
		switch {
		case limit == 0:
			want = 0
		case limit > 0:
			want = min(size, limit+1)
		}
		if int64(len(content)) != want {
			t.Fatalf("limit %d: %d bytes of a %d-byte object", limit, len(content), size)
		}
		// The content is what the stream holds after the header.
		zr, zerr := zlib.NewReader(bytes.NewReader(data))
		if zerr != nil {
			t.Fatalf("parsed, but zlib refuses the stream: %v", zerr)
		}
		all, _ := io.ReadAll(io.LimitReader(zr, 64+want))
		hdr := fmt.Sprintf("%s %d\x00", typ, size)
		if !bytes.HasPrefix(all, []byte(hdr)) || !bytes.Equal(all[len(hdr):min(len(all), len(hdr)+int(want))], content) {
			t.Fatalf("content %q is not the stream's %q after %q", content, all, hdr)
		}
	})
}

// TestObjectSeedsHaveDeltas: the git-made seeds hold offset and
// reference deltas, or the fuzz targets start far from them; and the
// split of an index for FuzzPackIndex loses nothing.
func TestObjectSeedsHaveDeltas(t *testing.T) {
	kinds := map[int]bool{}
	for _, s := range gitObjectSeeds(t).packs {
		if !bytes.Equal(idxJoin(idxParts(s[0])), s[0]) {
			t.Fatal("idxJoin does not undo idxParts")
		}
		st := memObjects(s[0], s[1])
		_, offs := idxEntries(st.packs[0], 64)
		for _, off := range offs {
			if e, err := st.packs[0].entryAt(off); err == nil {
				kinds[e.typ] = true
			}
		}
	}
	if !kinds[packOfsDelta] || !kinds[packRefDelta] {
		t.Errorf("entry types in the seed packs: %v; want offset and reference deltas", kinds)
	}
}
