package content

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

// RL008: every "<rivumi:" and "</rivumi:", at its '<', case-sensitive.
func TestMarkers(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   string
		want []Pos
	}{
		{"none", "plain text <b>rivumi</b>", nil},
		{"at start", "<rivumi:section>", []Pos{{1, 1, 0, 1}}},
		{"closing at start", "</rivumi:layer>", []Pos{{1, 1, 0, 1}}},
		{"at end", "text </rivumi:", []Pos{{1, 6, 5, 6}}},
		{"open at end", "text <rivumi:", []Pos{{1, 6, 5, 6}}},
		{"both on one line", `<rivumi:layer scope="user">x</rivumi:layer>`, []Pos{{1, 1, 0, 1}, {1, 29, 28, 29}}},
		{"adjacent", "<rivumi:<rivumi:", []Pos{{1, 1, 0, 1}, {1, 9, 8, 9}}},
		{"adjacent close", "</rivumi:</rivumi:", []Pos{{1, 1, 0, 1}, {1, 10, 9, 10}}},
		{"extra < before close", "<</rivumi:", []Pos{{1, 2, 1, 2}}},
		{"extra < before open", "<<rivumi:", []Pos{{1, 2, 1, 2}}},
		{"slash slash", "<//rivumi:", nil},
		{"nested prefix", "</</rivumi:", []Pos{{1, 3, 2, 3}}},
		{"body twice", "<rivumi:rivumi:", []Pos{{1, 1, 0, 1}}},
		{"close then body", "</rivumi:rivumi:", []Pos{{1, 1, 0, 1}}},
		{"later lines, CRLF, multi-byte", "é\r\n\r\n  «</rivumi:section>»", []Pos{{3, 5, 10, 4}}},
		{"lone CR is not a break", "a\r<rivumi:", []Pos{{1, 3, 2, 3}}},
		{"case-sensitive", "<Rivumi: <RIVUMI: </Rivumi: <rivumI:", nil},
		{"no colon", "<rivumi section", nil},
		{"space after <", "< rivumi: </ rivumi:", nil},
		{"no <", "rivumi: /rivumi:", nil},
		{"NBSP between", "<\u00a0rivumi:", nil},
		{"fullwidth <", "\uff1crivumi:", nil},
		{"truncated", "<rivumi", nil},
		{"in code fence", "```\n<rivumi:section name=\"memory\">\n```", []Pos{{2, 1, 4, 1}}},
	} {
		first, total := Markers([]byte(tc.in), 0)
		if total != len(tc.want) || !reflect.DeepEqual(first, tc.want) {
			t.Errorf("%s: Markers(%q) = %+v, %d; want %+v", tc.name, tc.in, first, total, tc.want)
		}
	}
}

// RL008: max caps the positions, not the total.
func TestMarkersCap(t *testing.T) {
	in := []byte(strings.Repeat("<rivumi:a</rivumi:\n", 5))
	first, total := Markers(in, 3)
	want := []Pos{{1, 1, 0, 1}, {1, 10, 9, 10}, {2, 1, 19, 1}}
	if total != 10 || !reflect.DeepEqual(first, want) {
		t.Errorf("Markers(max 3) = %+v, %d; want %+v, 10", first, total, want)
	}
	if first, total := Markers(in, 0); total != 10 || len(first) != 10 {
		t.Errorf("Markers(max 0) = %d positions, total %d; want 10, 10", len(first), total)
	}
}

// RL008: positions of many markers in a large file are computed in one pass
// (a PosAt per marker would be quadratic; this input has 1 MiB and 2^17
// markers, so a quadratic implementation would not finish in test time).
func TestMarkersLinear(t *testing.T) {
	in := bytes.Repeat([]byte("<rivumi:"), 1<<17)
	first, total := Markers(in, 0)
	if total != 1<<17 || first[len(first)-1] != (Pos{1, len(in) - 7, len(in) - 8, len(in) - 7}) {
		t.Errorf("total %d, last %+v", total, first[len(first)-1])
	}
}

// referenceMarkers is an obviously-correct (quadratic) Markers.
func referenceMarkers(b []byte) []Pos {
	var out []Pos
	for i := range b {
		if bytes.HasPrefix(b[i:], []byte("<rivumi:")) || bytes.HasPrefix(b[i:], []byte("</rivumi:")) {
			out = append(out, PosAt(b, i))
		}
	}
	return out
}

// RL008 fuzz target: Markers agrees with a naive scan, positions included.
func FuzzMarkers(f *testing.F) {
	for _, s := range []string{"", "<rivumi:", "</rivumi:", "<</rivumi:rivumi:", "a\r\n<rivumi:x\n</rivumi:", "</</rivumi:"} {
		f.Add([]byte(s), 0)
		f.Add([]byte(s), 1)
	}
	f.Fuzz(func(t *testing.T, b []byte, max int) {
		first, total := Markers(b, max)
		ref := referenceMarkers(b)
		if total != len(ref) {
			t.Fatalf("Markers(%q): total %d, reference %d", b, total, len(ref))
		}
		n := len(ref)
		if max > 0 && max < n {
			n = max
		}
		if len(first) != n || (n > 0 && !reflect.DeepEqual(first, ref[:n])) {
			t.Fatalf("Markers(%q, %d) = %+v, reference %+v", b, max, first, ref)
		}
	})
}
