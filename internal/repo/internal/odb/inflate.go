package odb

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"sync"
)

// inflateRaw decodes the raw deflate stream at the start of src (RFC
// 1951), appending to buf, and stops once buf holds n bytes or the final
// block ends. It is compress/flate's answer, faster: every object of a
// diff passes through it, and flate reads its input a byte at a time
// through an interface. The whole output stays in buf, so a back
// reference reads it there (no window). Like readUpTo over flate, input
// that ends early gives fewer bytes and no error (the callers compare the
// length with the size they expect); a corrupt stream is an error, and a
// stream flate rejects is rejected here too (FuzzInflate compares them).
func inflateRaw(buf []byte, src []byte, n int) ([]byte, error) {
	d := deflateReader{src: src}
	out := buf[:0]
	for len(out) < n {
		if !d.need(3) {
			return out, nil
		}
		final := d.bits&1 == 1
		typ := d.bits >> 1 & 3
		d.drop(3)
		var err error
		var done bool
		switch typ {
		case 0:
			out, done, err = d.stored(out, n)
		case 1:
			out, done, err = d.block(out, n, fixedLit(), fixedDist())
		case 2:
			var lit, dist huffman
			if done, err = d.header(&lit, &dist); err == nil && !done {
				out, done, err = d.block(out, n, &lit, &dist)
			}
		default:
			err = errCorrupt
		}
		if err != nil {
			return nil, err
		}
		if done || final {
			return out, nil
		}
	}
	return out, nil
}

var errCorrupt = errors.New("corrupt deflate stream")

// deflateReader reads bits least significant first through a 64-bit buffer.
type deflateReader struct {
	src   []byte
	pos   int
	bits  uint64
	nbits uint
}

// need makes at least k (at most 56) bits available; false when the input
// ends first.
func (d *deflateReader) need(k uint) bool {
	if d.nbits >= k {
		return true
	}
	if d.pos+8 <= len(d.src) {
		d.bits |= binary.LittleEndian.Uint64(d.src[d.pos:]) << d.nbits
		d.pos += int(63-d.nbits) >> 3
		d.nbits |= 56
		return true
	}
	for d.nbits < k {
		if d.pos >= len(d.src) {
			return false
		}
		d.bits |= uint64(d.src[d.pos]) << d.nbits
		d.pos++
		d.nbits += 8
	}
	return true
}

func (d *deflateReader) drop(k uint) {
	d.bits >>= k
	d.nbits -= k
}

// take returns the next k bits; ok is false when the input ends first.
func (d *deflateReader) take(k uint) (uint32, bool) {
	if !d.need(k) {
		return 0, false
	}
	v := uint32(d.bits & (1<<k - 1))
	d.drop(k)
	return v, true
}

// stored copies a stored block; done when the input ends.
func (d *deflateReader) stored(out []byte, n int) ([]byte, bool, error) {
	// The block starts at the next byte: give back the whole bytes the
	// bit buffer holds.
	d.drop(d.nbits & 7)
	d.pos -= int(d.nbits >> 3)
	d.bits, d.nbits = 0, 0
	if d.pos+4 > len(d.src) {
		return out, true, nil
	}
	size := int(d.src[d.pos]) | int(d.src[d.pos+1])<<8
	nsize := int(d.src[d.pos+2]) | int(d.src[d.pos+3])<<8
	d.pos += 4
	if uint16(nsize) != uint16(^size) {
		return nil, true, errCorrupt
	}
	k := min(size, len(d.src)-d.pos, n-len(out))
	out = append(out, d.src[d.pos:d.pos+k]...)
	d.pos += k
	return out, k < size && len(out) < n, nil
}

// huffman is a canonical Huffman code: fast maps the next fastBits bits of
// the stream to symbol<<4 | length for codes of up to fastBits bits (0:
// longer, or no code); count and symbols decode the rest a bit at a time.
type huffman struct {
	fast    [1 << fastBits]uint16
	count   [16]uint16
	symbols [288]uint16
	empty   bool
	single  bool // the one code "0": a stream bit 1 is no code
}

const fastBits = 9

// init builds the code of the given code lengths. Like flate it refuses
// an over-subscribed or incomplete code, except the single code of one
// bit zlib writes; no code at all is accepted (a distance code of a block
// of literals) and fails when used.
func (h *huffman) init(lengths []uint8) bool {
	*h = huffman{}
	var max uint8
	for _, l := range lengths {
		h.count[l]++
		max = maxU8(max, l)
	}
	h.count[0] = 0
	if max == 0 {
		h.empty = true
		return true
	}
	left := 1
	for l := 1; l <= 15; l++ {
		left = left<<1 - int(h.count[l])
		if left < 0 {
			return false
		}
	}
	if left > 0 {
		if max != 1 || h.count[1] != 1 {
			return false
		}
		h.single = true
	}
	var offs [16]uint16
	for l := 1; l < 15; l++ {
		offs[l+1] = offs[l] + h.count[l]
	}
	for s, l := range lengths {
		if l != 0 {
			h.symbols[offs[l]] = uint16(s)
			offs[l]++
		}
	}
	// Fill the fast table, codes in canonical order.
	code, k := 0, 0
	for l := 1; l <= fastBits; l++ {
		for range h.count[l] {
			rev := int(bits.Reverse16(uint16(code)) >> (16 - l))
			v := h.symbols[k]<<4 | uint16(l)
			for j := rev; j < len(h.fast); j += 1 << l {
				h.fast[j] = v
			}
			code++
			k++
		}
		code <<= 1
	}
	return true
}

func maxU8(a, b uint8) uint8 {
	if a > b {
		return a
	}
	return b
}

// sym decodes one symbol; ok is false when the input ends first, err set
// for a bit sequence that is no code.
func (d *deflateReader) sym(h *huffman) (s int, ok bool, err error) {
	if h.empty {
		return 0, true, errCorrupt
	}
	d.need(15) // as many as there are, up to 15
	if v := h.fast[d.bits&(1<<fastBits-1)]; v != 0 {
		l := uint(v & 15)
		if l > d.nbits {
			return 0, false, nil
		}
		d.drop(l)
		return int(v >> 4), true, nil
	}
	if h.single && d.nbits > 0 {
		return 0, true, errCorrupt // flate knows it from the first bit
	}
	// A longer code (or none): canonical decoding, one bit at a time.
	code, first, index := 0, 0, 0
	for l := 1; l <= 15; l++ {
		if d.nbits == 0 {
			return 0, false, nil
		}
		code |= int(d.bits & 1)
		d.drop(1)
		c := int(h.count[l])
		if code-first < c {
			return int(h.symbols[index+code-first]), true, nil
		}
		index += c
		first = (first + c) << 1
		code <<= 1
	}
	return 0, true, errCorrupt
}

var codeOrder = [19]int{16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15}

// header reads a dynamic block's codes; done when the input ends.
func (d *deflateReader) header(lit, dist *huffman) (done bool, err error) {
	if !d.need(14) {
		return true, nil
	}
	nlit := int(d.bits&0x1f) + 257
	ndist := int(d.bits>>5&0x1f) + 1
	nclen := int(d.bits>>10&0xf) + 4
	d.drop(14)
	if nlit > 286 || ndist > 30 {
		return false, errCorrupt
	}
	var lens [19]uint8
	for i := range nclen {
		v, ok := d.take(3)
		if !ok {
			return true, nil
		}
		lens[codeOrder[i]] = uint8(v)
	}
	var clen huffman
	if !clen.init(lens[:]) {
		return false, errCorrupt
	}
	var all [286 + 30]uint8
	for i := 0; i < nlit+ndist; {
		x, ok, err := d.sym(&clen)
		if err != nil || !ok {
			return !ok, err
		}
		if x < 16 {
			all[i] = uint8(x)
			i++
			continue
		}
		var rep int
		var nb uint
		var b uint8
		switch x {
		case 16:
			if i == 0 {
				return false, errCorrupt
			}
			rep, nb, b = 3, 2, all[i-1]
		case 17:
			rep, nb = 3, 3
		default:
			rep, nb = 11, 7
		}
		v, ok := d.take(nb)
		if !ok {
			return true, nil
		}
		rep += int(v)
		if i+rep > nlit+ndist {
			return false, errCorrupt
		}
		for range rep {
			all[i] = b
			i++
		}
	}
	if !lit.init(all[:nlit]) || !dist.init(all[nlit:nlit+ndist]) {
		return false, errCorrupt
	}
	return false, nil
}

// block decodes a compressed block into out, up to n bytes; done when
// n is reached or the input ends.
func (d *deflateReader) block(out []byte, n int, lit, dist *huffman) ([]byte, bool, error) {
	for len(out) < n {
		// The fast path of sym, inline: most symbols are a table look-up.
		if d.nbits < 15 {
			d.need(15)
		}
		var v int
		if e := lit.fast[d.bits&(1<<fastBits-1)]; e != 0 && uint(e&15) <= d.nbits {
			d.drop(uint(e & 15))
			v = int(e >> 4)
		} else {
			var ok bool
			var err error
			if v, ok, err = d.sym(lit); err != nil {
				return nil, true, err
			} else if !ok {
				return out, true, nil
			}
		}
		switch {
		case v < 256:
			out = append(out, byte(v))
			continue
		case v == 256:
			return out, false, nil
		case v > 285:
			return nil, true, errCorrupt
		}
		length := int(lengthBase[v-257])
		if x := uint(lengthExtra[v-257]); x > 0 {
			e, ok := d.take(x)
			if !ok {
				return out, true, nil
			}
			length += int(e)
		}
		if d.nbits < 15 {
			d.need(15)
		}
		var ds int
		if e := dist.fast[d.bits&(1<<fastBits-1)]; e != 0 && uint(e&15) <= d.nbits && !dist.empty {
			d.drop(uint(e & 15))
			ds = int(e >> 4)
		} else {
			var ok bool
			var err error
			if ds, ok, err = d.sym(dist); err != nil {
				return nil, true, err
			} else if !ok {
				return out, true, nil
			}
		}
		if ds >= 30 {
			return nil, true, errCorrupt
		}
		distance := int(distBase[ds])
		if x := uint(distExtra[ds]); x > 0 {
			e, ok := d.take(x)
			if !ok {
				return out, true, nil
			}
			distance += int(e)
		}
		if distance > len(out) {
			return nil, true, errCorrupt
		}
		length = min(length, n-len(out))
		// An overlapping copy repeats the last distance bytes: copy what
		// exists, which doubles with each step.
		for from := len(out) - distance; length > 0; {
			k := min(length, len(out)-from)
			out = append(out, out[from:from+k]...)
			length -= k
		}
	}
	return out, true, nil
}

var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// The fixed codes (RFC 1951 3.2.6), made once. Like flate, the fixed
// distance code has 32 symbols, and 30 and 31 are an error when used.
var (
	fixedOnce      sync.Once
	fixedL, fixedD huffman
)

func fixedLit() *huffman  { fixedOnce.Do(makeFixed); return &fixedL }
func fixedDist() *huffman { fixedOnce.Do(makeFixed); return &fixedD }

func makeFixed() {
	var l [288]uint8
	for i := range l {
		switch {
		case i < 144:
			l[i] = 8
		case i < 256:
			l[i] = 9
		case i < 280:
			l[i] = 7
		default:
			l[i] = 8
		}
	}
	fixedL.init(l[:])
	var d [32]uint8
	for i := range d {
		d[i] = 5
	}
	fixedD.init(d[:])
}
