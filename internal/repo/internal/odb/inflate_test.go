package odb

import (
	"bytes"
	"compress/flate"
	"errors"
	"io"
	"math/rand/v2"
	"testing"
)

// flateRef is what readUpTo over compress/flate gives for the raw deflate
// stream src: the bytes, whether the stream ended cleanly (its final
// block, or n bytes), and flate's error for a corrupt stream.
func flateRef(src []byte, n int) (out []byte, clean bool, err error) {
	zr := flate.NewReader(bytes.NewReader(src))
	buf := make([]byte, 0, n)
	for len(buf) < n {
		m, err := zr.Read(buf[len(buf):n])
		buf = buf[:len(buf)+m]
		if err == io.EOF {
			return buf, true, nil
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return buf, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
	return buf, true, nil
}

// checkInflate compares inflateRaw with compress/flate on src, up to n
// bytes: the same bytes for a stream flate reads cleanly; for a truncated
// stream a longer answer (flate drops a truncated block's bytes), never a
// different one, or an error; an error for a corrupt one, unless n bytes
// come before the corruption (flate decodes a whole block before it
// returns anything).
func checkInflate(t *testing.T, src []byte, n int) {
	t.Helper()
	want, clean, werr := flateRef(src, n)
	got, gerr := inflateRaw(nil, src, n)
	switch {
	case werr != nil:
		if gerr == nil && len(got) < n {
			t.Fatalf("n=%d: flate: %v; inflateRaw gave %d bytes and no error", n, werr, len(got))
		}
	case gerr != nil && !clean:
		// Truncated: flate stops when fewer bits are left than its
		// end-of-block code has, inflateRaw decodes what they hold and
		// may meet the corruption first. Both fail the read.
	case gerr != nil:
		t.Fatalf("n=%d: inflateRaw: %v; flate read %d bytes cleanly", n, gerr, len(want))
	case clean && !bytes.Equal(got, want):
		t.Fatalf("n=%d: inflateRaw gave %d bytes, flate %d, differing", n, len(got), len(want))
	case !clean && !bytes.HasPrefix(got, want):
		t.Fatalf("n=%d: truncated stream: inflateRaw's %d bytes do not start with flate's %d", n, len(got), len(want))
	}
}

func deflate(t testing.TB, data []byte, level int) []byte {
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write(data)
	w.Close()
	return b.Bytes()
}

// TestInflateLikeFlate: streams of every block type (stored, fixed and
// dynamic codes, Huffman only) and content (text, runs that copy
// themselves, random bytes, empty), whole, limited, truncated and with a
// flipped bit, decode as compress/flate decodes them.
func TestInflateLikeFlate(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 70000)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	text := bytes.Repeat([]byte("100644 AGENTS.md\x00the quick brown fox "), 3000)
	runs := append(bytes.Repeat([]byte{'a'}, 1000), bytes.Repeat([]byte("ab"), 40000)...)
	for _, data := range [][]byte{nil, []byte("x"), text, runs, random, random[:100]} {
		for _, level := range []int{flate.NoCompression, flate.HuffmanOnly, flate.BestSpeed, flate.DefaultCompression, flate.BestCompression} {
			src := deflate(t, data, level)
			for _, n := range []int{0, 1, 32, 1000, len(data), len(data) + 1} {
				checkInflate(t, src, n)
			}
			if got, err := inflateRaw(nil, src, len(data)+1); err != nil || !bytes.Equal(got, data) {
				t.Fatalf("level %d: %d bytes (%v), want the %d written", level, len(got), err, len(data))
			}
			for _, cut := range []int{0, 1, 2, len(src) / 2, len(src) - 1} {
				if cut >= 0 && cut <= len(src) {
					checkInflate(t, src[:cut], len(data)+1)
				}
			}
			for k := 0; k < 40 && len(src) > 0; k++ {
				bad := bytes.Clone(src)
				bad[rng.IntN(len(bad))] ^= 1 << rng.IntN(8)
				checkInflate(t, bad, len(data)+1)
				checkInflate(t, bad, 64)
			}
		}
	}
}

// FuzzInflate: for any stream, and for the deflate of any data at any
// level, inflateRaw answers as compress/flate does (checkInflate).
func FuzzInflate(f *testing.F) {
	f.Add([]byte("100644 AGENTS.md\x00 hello hello hello"), int8(6), false, uint16(1000))
	f.Add([]byte{0x01, 0x00, 0x00, 0xff, 0xff}, int8(0), true, uint16(10))
	f.Add([]byte{0x03, 0x00}, int8(0), true, uint16(10))
	f.Add([]byte{0x63, 0x60, 0x00, 0x00}, int8(0), true, uint16(100))
	f.Add([]byte{0xed, 0xc0, 0x01, 0x01, 0x00, 0x00, 0x00, 0x80, 0x90, 0xfe, 0xaf, 0xee}, int8(0), true, uint16(500))
	f.Fuzz(func(t *testing.T, data []byte, level int8, raw bool, n uint16) {
		src := data
		if !raw {
			src = deflate(t, data, (int(level)%12+12)%12-2) // -2 (Huffman only) to 9
		}
		checkInflate(t, src, int(n))
		checkInflate(t, src, 1<<20)
	})
}
