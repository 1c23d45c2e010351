package content

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// ToUTF8 decodes b, which is not valid UTF-8, into UTF-8 text: UTF-16 or
// UTF-32 when it starts with their byte-order mark (dropped), else
// Windows-1252. from names the encoding. Line ends are kept as they are:
// CR and LF decode to themselves. An error says why the bytes are not
// safely one of those encodings; nothing is guessed.
func ToUTF8(b []byte) (text []byte, from string, err error) {
	if name, n := BOM(b); n > 0 {
		body := b[n:]
		switch name {
		case "UTF-16LE", "UTF-16BE":
			text, err = fromUTF16(body, name == "UTF-16BE")
		default:
			text, err = fromUTF32(body, name == "UTF-32BE")
		}
		if err != nil {
			return nil, name, fmt.Errorf("it starts with a %s byte-order mark but %w; re-save it as UTF-8 in an editor", name, err)
		}
		return text, name, nil
	}
	text, err = fromWindows1252(b)
	return text, "Windows-1252", err
}

func fromUTF16(b []byte, big bool) ([]byte, error) {
	if len(b)%2 != 0 {
		return nil, fmt.Errorf("its length after the mark is odd (%d bytes)", len(b))
	}
	units := make([]uint16, len(b)/2)
	for i := range units {
		if big {
			units[i] = binary.BigEndian.Uint16(b[2*i:])
		} else {
			units[i] = binary.LittleEndian.Uint16(b[2*i:])
		}
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(units); i++ {
		u := units[i]
		switch {
		case utf16.IsSurrogate(rune(u)):
			if u >= 0xDC00 || i+1 == len(units) {
				return nil, fmt.Errorf("it holds an unpaired surrogate at byte %d", 2*i+2)
			}
			r := utf16.DecodeRune(rune(u), rune(units[i+1]))
			if r == utf8.RuneError {
				return nil, fmt.Errorf("it holds an unpaired surrogate at byte %d", 2*i+2)
			}
			out = utf8.AppendRune(out, r)
			i++
		default:
			out = utf8.AppendRune(out, rune(u))
		}
	}
	return out, nil
}

func fromUTF32(b []byte, big bool) ([]byte, error) {
	if len(b)%4 != 0 {
		return nil, fmt.Errorf("its length after the mark (%d bytes) is not a multiple of 4", len(b))
	}
	out := make([]byte, 0, len(b)/2)
	for i := 0; i < len(b); i += 4 {
		var v uint32
		if big {
			v = binary.BigEndian.Uint32(b[i:])
		} else {
			v = binary.LittleEndian.Uint32(b[i:])
		}
		if v > utf8.MaxRune || (v >= 0xD800 && v <= 0xDFFF) {
			return nil, fmt.Errorf("it holds %#x at byte %d, which is not a character", v, i+4)
		}
		out = utf8.AppendRune(out, rune(v))
	}
	return out, nil
}

// cp1252 maps the bytes 0x80–0x9F of Windows-1252, the superset of
// Latin-1 that editors write; 0 marks the five bytes it leaves undefined
// (0x81, 0x8D, 0x8F, 0x90, 0x9D). 0xA0–0xFF are Latin-1, the code point
// of the same number.
var cp1252 = [32]rune{
	0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
	0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
}

// fromWindows1252 decodes b as Windows-1252. A file that also holds UTF-8
// sequences is refused: it is UTF-8 with a few broken bytes (or two
// encodings mixed), and decoding it as Windows-1252 would garble every
// character the UTF-8 part holds.
func fromWindows1252(b []byte) ([]byte, error) {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if size > 1 && r != utf8.RuneError {
			return nil, fmt.Errorf("it is not Windows-1252 alone: byte %d starts a UTF-8 encoded %U, so decoding it as Windows-1252 would garble that text; fix the invalid bytes by hand (the RL004 finding gives the first)", i, r)
		}
		i += size
	}
	out := make([]byte, 0, len(b)+len(b)/2)
	for i, c := range b {
		switch {
		case c < 0x80:
			out = append(out, c)
		case c < 0xA0:
			r := cp1252[c-0x80]
			if r == 0 {
				return nil, fmt.Errorf("byte %d is %#02x, which Windows-1252 leaves undefined, so the file is in another encoding; re-save it as UTF-8 in an editor that knows its encoding", i, c)
			}
			out = utf8.AppendRune(out, r)
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return out, nil
}
