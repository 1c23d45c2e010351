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
		{"empty", "", 0, Pos{1, 1, 0}},
		{"start", "abc", 0, Pos{1, 1, 0}},
		{"end of single line", "abc", 3, Pos{1, 4, 3}},
		{"the LF itself", "ab\ncd", 2, Pos{1, 3, 2}},
		{"after LF", "ab\ncd", 3, Pos{2, 1, 3}},
		{"end after final LF", "ab\n", 3, Pos{2, 1, 3}},
		{"CR of CRLF", "ab\r\ncd", 2, Pos{1, 3, 2}},
		{"LF of CRLF", "ab\r\ncd", 3, Pos{1, 4, 3}},
		{"after CRLF", "ab\r\ncd", 4, Pos{2, 1, 4}},
		{"third CRLF line", "a\r\nb\r\ncd", 7, Pos{3, 2, 7}},
		{"lone CR is not a break", "ab\rcd", 3, Pos{1, 4, 3}},
		{"empty lines", "\n\n\n", 2, Pos{3, 1, 2}},
		{"multi-byte columns count bytes", "é€😀x", 9, Pos{1, 10, 9}},
		{"clamped below", "abc", -5, Pos{1, 1, 0}},
		{"clamped above", "a\nbc", 99, Pos{2, 3, 4}},
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
