package odb

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// testPack writes a pack file by hand, for shapes git does not write (a
// delta chain over 10,000, a cycle) and for the fuzz targets' seeds.
type testPack struct {
	buf  bytes.Buffer
	objs []testPackObj
	zw   *zlib.Writer // reused: a new one per entry costs ~1 ms
}

type testPackObj struct {
	id  []byte
	off int64
}

func newTestPack(count int) *testPack {
	tp := &testPack{}
	tp.buf.WriteString("PACK")
	binary.Write(&tp.buf, binary.BigEndian, uint32(2))
	binary.Write(&tp.buf, binary.BigEndian, uint32(count))
	return tp
}

// entry appends one entry: its type and size header, extra (an offset
// delta's distance or a ref-delta's base id) and payload, compressed.
func (tp *testPack) entry(id []byte, typ int, extra, payload []byte) int64 {
	return tp.entrySized(id, typ, int64(len(payload)), extra, payload)
}

// entrySized is entry with a size header of size, true or not.
func (tp *testPack) entrySized(id []byte, typ int, size int64, extra, payload []byte) int64 {
	off := int64(tp.buf.Len())
	c := byte(typ<<4) | byte(size&15)
	size >>= 4
	for size > 0 {
		tp.buf.WriteByte(c | 0x80)
		c = byte(size & 0x7f)
		size >>= 7
	}
	tp.buf.WriteByte(c)
	tp.buf.Write(extra)
	if tp.zw == nil {
		tp.zw = zlib.NewWriter(&tp.buf)
	} else {
		tp.zw.Reset(&tp.buf)
	}
	tp.zw.Write(payload)
	tp.zw.Close()
	tp.objs = append(tp.objs, testPackObj{id, off})
	return off
}

func (tp *testPack) full(typ Type, content []byte) ([]byte, int64) {
	id := objectID(typ, content)
	return id, tp.entry(id, packTypeOf(typ), nil, content)
}

// ofsDelta appends a delta against the entry at base; id is the result's.
func (tp *testPack) ofsDelta(id []byte, base int64, delta []byte) int64 {
	rel := int64(tp.buf.Len()) - base
	// Git's encoding: big-endian 7-bit groups, each but the last minus one.
	var enc [10]byte
	i := len(enc) - 1
	enc[i] = byte(rel & 0x7f)
	for rel >>= 7; rel > 0; rel >>= 7 {
		rel--
		i--
		enc[i] = 0x80 | byte(rel&0x7f)
	}
	return tp.entry(id, packOfsDelta, enc[i:], delta)
}

func (tp *testPack) refDelta(id, baseID, delta []byte) int64 {
	return tp.entry(id, packRefDelta, baseID, delta)
}

// bytes returns the pack with its trailing checksum.
func (tp *testPack) bytes() []byte {
	sum := sha1.Sum(tp.buf.Bytes())
	return append(bytes.Clone(tp.buf.Bytes()), sum[:]...)
}

// idx returns an index of the objects written: version 1, or version 2
// with every offset at or over large in the 64-bit table.
func (tp *testPack) idx(version int, large int64) []byte {
	pack := tp.bytes()
	return buildIdx(tp.objs, version, large, pack[len(pack)-20:])
}

// buildIdx writes an index of objs: version 1, or version 2 with every
// offset at or over large in the 64-bit table. packSum is the pack's
// checksum, which the index repeats.
func buildIdx(objs []testPackObj, version int, large int64, packSum []byte) []byte {
	objs = append([]testPackObj(nil), objs...)
	sort.Slice(objs, func(i, j int) bool { return bytes.Compare(objs[i].id, objs[j].id) < 0 })
	var b bytes.Buffer
	if version == 2 {
		b.WriteString("\xfftOc")
		binary.Write(&b, binary.BigEndian, uint32(2))
	}
	var fan [256]uint32
	for _, o := range objs {
		for k := int(o.id[0]); k < 256; k++ {
			fan[k]++
		}
	}
	binary.Write(&b, binary.BigEndian, fan)
	if version == 1 {
		for _, o := range objs {
			binary.Write(&b, binary.BigEndian, uint32(o.off))
			b.Write(o.id)
		}
	} else {
		for _, o := range objs {
			b.Write(o.id)
		}
		b.Write(make([]byte, 4*len(objs))) // CRC-32s, not read
		var big []uint64
		for _, o := range objs {
			if o.off >= large {
				binary.Write(&b, binary.BigEndian, uint32(0x80000000|len(big)))
				big = append(big, uint64(o.off))
			} else {
				binary.Write(&b, binary.BigEndian, uint32(o.off))
			}
		}
		binary.Write(&b, binary.BigEndian, big)
	}
	b.Write(packSum)
	sum := sha1.Sum(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
}

// install writes the pack and index into a new objects directory and
// opens it.
func (tp *testPack) install(t *testing.T, idx []byte) *Native {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "pack"), 0o755); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "pack", "pack-test")
	if err := os.WriteFile(name+".pack", tp.bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name+".idx", idx, 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Open([]string{dir}, 20)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// objectID is the SHA-1 id of an object.
func objectID(typ Type, content []byte) []byte {
	h := sha1.New()
	fmt.Fprintf(h, "%s %d\x00", typ, len(content))
	h.Write(content)
	return h.Sum(nil)
}

// deltaVarintBytes encodes a delta header size.
func deltaVarintBytes(v int) []byte {
	var out []byte
	for v >= 0x80 {
		out = append(out, byte(v&0x7f)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}

// makeDelta is a delta from base to a result made of an insert of head
// and a copy of base[from:from+n].
func makeDelta(baseLen int, head []byte, from, n int) []byte {
	d := append(deltaVarintBytes(baseLen), deltaVarintBytes(len(head)+n)...)
	d = append(d, byte(len(head)))
	d = append(d, head...)
	return append(d, 0x80|0x01|0x02|0x10|0x20, byte(from), byte(from>>8), byte(n), byte(n>>8))
}
