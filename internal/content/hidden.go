package content

import "unicode/utf8"

// Hidden is one character a reviewer cannot see (RL010). Pos is the position
// of its first byte; Name is "U+XXXX NAME", e.g.
// "U+202E RIGHT-TO-LEFT OVERRIDE" (see HiddenChars for the names used).
type Hidden struct {
	Pos
	Rune rune
	Name string
}

// HiddenChars scans b and returns the first max characters of the RL010 set
// it contains (max <= 0: no cap), in file order, plus the total number of
// them. The RL010 set is exactly:
//
//   - bidi controls: U+202A–U+202E and U+2066–U+2069;
//   - zero-width characters: U+200B–U+200D, U+2060, and U+FEFF everywhere
//     except as the very first character of the file (offset 0, where it is
//     the UTF-8 byte-order mark that rendering drops, P2); a second BOM right
//     after the first is reported;
//   - tag characters: U+E0000–U+E007F;
//   - C0 controls U+0000–U+001F other than tab (U+0009), LF (U+000A) and CR
//     (U+000D); NUL is included.
//
// DEL (U+007F) and the C1 controls (U+0080–U+009F) are deliberately NOT in the
// set: §5 of the spec does not list them, and the rule set is the spec's.
//
// Names: the bidi and zero-width characters carry their Unicode character
// names; C0 controls have no Unicode name ("<control>"), so they carry their
// formal Unicode name aliases (NameAliases.txt, type "control"): "U+0000
// NULL", "U+0007 ALERT" (the old ISO 6429 name was BELL), "U+001B ESCAPE".
// Tag characters carry their Unicode names ("U+E0001 LANGUAGE TAG",
// "U+E0041 TAG LATIN CAPITAL LETTER A", "U+E007F CANCEL TAG"); the
// unassigned ones (U+E0000, U+E0002–U+E001F) are "U+E0000 TAG CHARACTER
// (unassigned)".
//
// b is expected to be valid UTF-8 (check with CheckUTF8 first; RL004 and
// RL010 are separate findings). On invalid input HiddenChars still
// terminates in one pass: each invalid byte is skipped as one byte and is
// never reported as hidden. It allocates only for the findings it returns.
func HiddenChars(b []byte, max int) (first []Hidden, total int) {
	// extra is how many more bytes than UTF-16 units the line holds before
	// i, so the UTF-16 column is the byte column minus extra.
	line, lineStart, extra := 1, 0, 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			if c < 0x20 {
				switch c {
				case '\n':
					line++
					lineStart = i + 1
					extra = 0
				case '\t', '\r':
				default:
					total++
					if max <= 0 || len(first) < max {
						col := i - lineStart + 1
						first = append(first, Hidden{
							Pos:  Pos{Line: line, Column: col, Offset: i, UTF16Column: col - extra},
							Rune: rune(c),
							Name: runeName(rune(c)),
						})
					}
				}
			}
			i++
			continue
		}
		// Every non-ASCII member of the set starts with E2 (U+2xxx),
		// EF (U+FEFF) or F3 (U+E00xx). Other runes only need their length.
		if c != 0xE2 && c != 0xEF && c != 0xF3 {
			_, size := utf8.DecodeRune(b[i:])
			extra += size - utf16Units(size)
			i += size
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if isHidden(r) && !(r == 0xFEFF && i == 0) {
			total++
			if max <= 0 || len(first) < max {
				col := i - lineStart + 1
				first = append(first, Hidden{
					Pos:  Pos{Line: line, Column: col, Offset: i, UTF16Column: col - extra},
					Rune: r,
					Name: runeName(r),
				})
			}
		}
		extra += size - utf16Units(size)
		i += size
	}
	return first, total
}

// isHidden reports whether r is in the RL010 set, ignoring the rule that a
// U+FEFF at offset 0 is allowed (the caller knows the offset).
func isHidden(r rune) bool {
	switch {
	case r < 0x20:
		return r != '\t' && r != '\n' && r != '\r'
	case r >= 0x200B && r <= 0x200D, r >= 0x202A && r <= 0x202E,
		r == 0x2060, r >= 0x2066 && r <= 0x2069, r == 0xFEFF:
		return true
	case r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}

// c0Names are the formal Unicode name aliases of the C0 controls.
var c0Names = [0x20]string{
	"NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT",
	"END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE", "ALERT",
	"BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION",
	"FORM FEED", "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN",
	"DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
	"DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK",
	"CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE",
	"INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE", "INFORMATION SEPARATOR TWO", "INFORMATION SEPARATOR ONE",
}

// formatNames are the Unicode names of the BMP members of the RL010 set.
var formatNames = map[rune]string{
	0x200B: "ZERO WIDTH SPACE",
	0x200C: "ZERO WIDTH NON-JOINER",
	0x200D: "ZERO WIDTH JOINER",
	0x202A: "LEFT-TO-RIGHT EMBEDDING",
	0x202B: "RIGHT-TO-LEFT EMBEDDING",
	0x202C: "POP DIRECTIONAL FORMATTING",
	0x202D: "LEFT-TO-RIGHT OVERRIDE",
	0x202E: "RIGHT-TO-LEFT OVERRIDE",
	0x2060: "WORD JOINER",
	0x2066: "LEFT-TO-RIGHT ISOLATE",
	0x2067: "RIGHT-TO-LEFT ISOLATE",
	0x2068: "FIRST STRONG ISOLATE",
	0x2069: "POP DIRECTIONAL ISOLATE",
	0xFEFF: "ZERO WIDTH NO-BREAK SPACE",
}

// asciiPunctNames are the Unicode names of the printable ASCII characters
// that are neither letters nor digits; a tag character U+E00xx is named
// "TAG " + the name of U+00xx.
var asciiPunctNames = map[byte]string{
	'!': "EXCLAMATION MARK", '"': "QUOTATION MARK", '#': "NUMBER SIGN",
	'$': "DOLLAR SIGN", '%': "PERCENT SIGN", '&': "AMPERSAND",
	'\'': "APOSTROPHE", '(': "LEFT PARENTHESIS", ')': "RIGHT PARENTHESIS",
	'*': "ASTERISK", '+': "PLUS SIGN", ',': "COMMA", '-': "HYPHEN-MINUS",
	'.': "FULL STOP", '/': "SOLIDUS", ':': "COLON", ';': "SEMICOLON",
	'<': "LESS-THAN SIGN", '=': "EQUALS SIGN", '>': "GREATER-THAN SIGN",
	'?': "QUESTION MARK", '@': "COMMERCIAL AT", '[': "LEFT SQUARE BRACKET",
	'\\': "REVERSE SOLIDUS", ']': "RIGHT SQUARE BRACKET",
	'^': "CIRCUMFLEX ACCENT", '_': "LOW LINE", '`': "GRAVE ACCENT",
	'{': "LEFT CURLY BRACKET", '|': "VERTICAL LINE",
	'}': "RIGHT CURLY BRACKET", '~': "TILDE",
}

var digitNames = [10]string{"ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"}

// runeName returns "U+XXXX NAME" for a member of the RL010 set.
func runeName(r rune) string {
	h := hexName(r)
	switch {
	case r >= 0 && r < 0x20:
		return h + " " + c0Names[r]
	case r >= 0xE0000 && r <= 0xE007F:
		return h + " " + tagName(byte(r-0xE0000))
	}
	if n, ok := formatNames[r]; ok {
		return h + " " + n
	}
	return h
}

// tagName names the tag character U+E0000+a.
func tagName(a byte) string {
	switch {
	case a == 0x01:
		return "LANGUAGE TAG"
	case a == 0x7F:
		return "CANCEL TAG"
	case a == ' ':
		return "TAG SPACE"
	case a >= 'A' && a <= 'Z':
		return "TAG LATIN CAPITAL LETTER " + string(rune(a))
	case a >= 'a' && a <= 'z':
		return "TAG LATIN SMALL LETTER " + string(rune(a-'a'+'A'))
	case a >= '0' && a <= '9':
		return "TAG DIGIT " + digitNames[a-'0']
	}
	if n, ok := asciiPunctNames[a]; ok {
		return "TAG " + n
	}
	return "TAG CHARACTER (unassigned)"
}

// hexName formats r as "U+XXXX" (at least four upper-case hex digits).
func hexName(r rune) string {
	const hexDigits = "0123456789ABCDEF"
	var buf [10]byte
	i := len(buf)
	for n := 0; n < 4 || r > 0; n++ {
		i--
		buf[i] = hexDigits[r&0xF]
		r >>= 4
	}
	i -= 2
	buf[i], buf[i+1] = 'U', '+'
	return string(buf[i:])
}
