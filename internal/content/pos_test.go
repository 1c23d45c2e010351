package content

import "testing"

// C4: lines and columns 1-based, columns counted in bytes; LF is the only
// line break, the CR of a CRLF belongs to the line it ends, a lone CR is not
// a break.
func TestPosAt(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		off  int
		want Pos
	}{
		{"empty", "", 0, Pos{1, 1, 0, 1}},
		{"start", "abc", 0, Pos{1, 1, 0, 1}},
		{"end of single line", "abc", 3, Pos{1, 4, 3, 4}},
		{"the LF itself", "ab\ncd", 2, Pos{1, 3, 2, 3}},
		{"after LF", "ab\ncd", 3, Pos{2, 1, 3, 1}},
		{"end after final LF", "ab\n", 3, Pos{2, 1, 3, 1}},
		{"CR of CRLF", "ab\r\ncd", 2, Pos{1, 3, 2, 3}},
		{"LF of CRLF", "ab\r\ncd", 3, Pos{1, 4, 3, 4}},
		{"after CRLF", "ab\r\ncd", 4, Pos{2, 1, 4, 1}},
		{"third CRLF line", "a\r\nb\r\ncd", 7, Pos{3, 2, 7, 2}},
		{"lone CR is not a break", "ab\rcd", 3, Pos{1, 4, 3, 4}},
		{"empty lines", "\n\n\n", 2, Pos{3, 1, 2, 1}},
		{"multi-byte columns count bytes", "é€😀x", 9, Pos{1, 10, 9, 5}},
		{"clamped below", "abc", -5, Pos{1, 1, 0, 1}},
		{"clamped above", "a\nbc", 99, Pos{2, 3, 4, 3}},
	} {
		if got := PosAt([]byte(tc.in), tc.off); got != tc.want {
			t.Errorf("%s: PosAt(%q, %d) = %+v, want %+v", tc.name, tc.in, tc.off, got, tc.want)
		}
	}
}

// C4: the incremental tracker used by Markers agrees with PosAt at every
// offset, in order.
func TestTrackerAgreesWithPosAt(t *testing.T) {
	b := []byte("a\r\nbé\n\n\rc\nd€\r\n")
	tr := newTracker(b)
	for off := 0; off <= len(b); off++ {
		if got, want := tr.at(off), PosAt(b, off); got != want {
			t.Fatalf("tracker.at(%d) = %+v, PosAt = %+v", off, got, want)
		}
	}
	// Repeated and skipping offsets.
	tr = newTracker(b)
	for _, off := range []int{0, 0, 4, 4, 9, len(b)} {
		if got, want := tr.at(off), PosAt(b, off); got != want {
			t.Fatalf("tracker.at(%d) = %+v, PosAt = %+v", off, got, want)
		}
	}
}

// UTF16Column counts UTF-16 code units where Column counts bytes: 2- and
// 3-byte characters (é, CJK) are one unit, a 4-byte one (emoji) two, and
// every function that makes positions agrees (PosAt, the tracker behind
// Markers, HiddenChars, CheckUTF8). SARIF (code scanning) reads columns
// in this unit.
func TestUTF16Column(t *testing.T) {
	for _, tc := range []struct {
		name, prefix     string
		column, utf16Col int
	}{
		{"ASCII", "ab ", 4, 4},
		{"é (2 bytes, 1 unit)", "é ", 4, 3},
		{"CJK (3 bytes, 1 unit)", "日本 ", 8, 4},
		{"emoji (4 bytes, 2 units)", "😀 ", 6, 4},
		{"all three", "é日😀", 10, 5},
	} {
		// The same prefix on line 2 before a hidden character, a marker
		// and an invalid byte.
		for _, tail := range []string{"\u200b", "<rivumi:", "\xff"} {
			b := []byte("first line é😀\n" + tc.prefix + tail + "x")
			off := len("first line é😀\n" + tc.prefix)
			want := Pos{Line: 2, Column: tc.column, Offset: off, UTF16Column: tc.utf16Col}
			if got := PosAt(b, off); got != want {
				t.Errorf("%s: PosAt = %+v, want %+v", tc.name, got, want)
			}
			var got Pos
			switch tail {
			case "\u200b":
				h, _ := HiddenChars(b, 1)
				got = h[0].Pos
			case "<rivumi:":
				m, _ := Markers(b, 1)
				got = m[0]
			default:
				got = CheckUTF8(b).Pos
			}
			if got != want {
				t.Errorf("%s before %q: %+v, want %+v", tc.name, tail, got, want)
			}
		}
	}
}
