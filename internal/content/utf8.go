package content

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// Invalid describes the first invalid UTF-8 byte of a file (C4, RL004).
//
// BOM names the byte-order mark the file starts with when it is a UTF-16 or
// UTF-32 one: "UTF-16LE", "UTF-16BE", "UTF-32LE" or "UTF-32BE"; otherwise it
// is "". A named BOM means the whole file is in that encoding and the fix is
// to re-save it as UTF-8; the position then still points at the first byte
// that is not UTF-8 (offset 0 for UTF-16 and UTF-32LE, offset 2 for
// UTF-32BE, whose BOM 00 00 FE FF starts with two valid NUL bytes).
type Invalid struct {
	Pos
	BOM string
}

// Byte-order marks, longest first where one is a prefix of another: the
// UTF-32LE mark FF FE 00 00 begins with the UTF-16LE mark FF FE.
var boms = [...]struct {
	mark []byte
	name string
}{
	{[]byte{0xFF, 0xFE, 0x00, 0x00}, "UTF-32LE"},
	{[]byte{0x00, 0x00, 0xFE, 0xFF}, "UTF-32BE"},
	{[]byte{0xFF, 0xFE}, "UTF-16LE"},
	{[]byte{0xFE, 0xFF}, "UTF-16BE"},
}

// CheckUTF8 returns nil when b is valid UTF-8, and otherwise the position of
// the first invalid byte and the name of a UTF-16/UTF-32 byte-order mark the
// file starts with. A leading UTF-8 BOM (EF BB BF) is valid UTF-8 and so is
// accepted.
//
// "Valid" is Go's definition (utf8.Valid), which is the Unicode one:
// overlong encodings, UTF-16 surrogates (U+D800–U+DFFF, e.g. ED A0 80) and
// code points above U+10FFFF are invalid. The first invalid byte is the
// first byte at which decoding fails: for a truncated or broken multi-byte
// sequence that is the sequence's lead byte, so b[:Offset] is always valid.
//
// Cost: one fast utf8.Valid pass for a valid file; an invalid file is then
// scanned once more up to the bad byte.
func CheckUTF8(b []byte) *Invalid {
	if utf8.Valid(b) {
		return nil
	}
	off := firstInvalid(b)
	inv := &Invalid{Pos: PosAt(b, off)}
	inv.BOM, _ = BOM(b)
	return inv
}

// BOM returns the name of the UTF-16 or UTF-32 byte-order mark b starts
// with ("UTF-32LE", "UTF-32BE", "UTF-16LE", "UTF-16BE") and the mark's
// length, or "" and 0. RL004 names it and `fix` decodes by it (X1).
func BOM(b []byte) (name string, n int) {
	for _, m := range boms {
		if bytes.HasPrefix(b, m.mark) {
			return m.name, len(m.mark)
		}
	}
	return "", 0
}

// firstInvalid returns the offset of the first byte at which UTF-8 decoding
// fails, or len(b) when b is valid.
func firstInvalid(b []byte) int {
	i := 0
	for i < len(b) {
		// Skip ASCII eight bytes at a time.
		for i+8 <= len(b) {
			if binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 != 0 {
				break
			}
			i += 8
		}
		if i >= len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}
