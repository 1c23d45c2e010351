package content

import "bytes"

var markerBody = []byte("rivumi:")

// Markers returns the positions of every "<rivumi:" and "</rivumi:" in b
// (RL008: such text could forge or close a section of the rendered prompt,
// P2), at most max of them (max <= 0: no cap), plus the total number found.
// Each position is that of the marker's '<'. The match is exact and
// case-sensitive, as the runtime's own markers are: "<Rivumi:" or
// "< rivumi:" is not reported. The two markers can never overlap each other
// or themselves, so every occurrence is counted exactly once; results are in
// increasing offset order.
//
// Markers searches the raw bytes and works on any input, valid UTF-8 or
// not. It is one pass over b; it allocates only the returned slice.
func Markers(b []byte, max int) (first []Pos, total int) {
	t := newTracker(b)
	from := 0
	for {
		j := bytes.Index(b[from:], markerBody)
		if j < 0 {
			return first, total
		}
		i := from + j // offset of "rivumi:"
		from = i + len(markerBody)
		var start int
		switch {
		case i >= 1 && b[i-1] == '<':
			start = i - 1
		case i >= 2 && b[i-1] == '/' && b[i-2] == '<':
			start = i - 2
		default:
			continue
		}
		total++
		if max <= 0 || len(first) < max {
			first = append(first, t.at(start))
		}
	}
}
