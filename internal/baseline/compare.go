package baseline

import "github.com/rivumi/rivumi-lint/internal/lint"

// Apply compares res's findings with b (B3): each finding of an identity
// the baseline counts is marked unchanged while the count lasts, in the
// result's order, the rest new; a second finding of a kind the baseline
// holds once is new. name is the file as given, for the outputs.
func (b *Baseline) Apply(res *lint.Result, name string) {
	left := make(map[key]int, len(b.counts))
	for k, n := range b.counts {
		left[k] = n
	}
	st := &lint.BaselineStats{File: name}
	for i := range res.Findings {
		f := &res.Findings[i]
		k := keyOf(f)
		if left[k] > 0 {
			left[k]--
			f.Baseline = lint.BaselineUnchanged
			st.Known++
			continue
		}
		f.Baseline = lint.BaselineNew
		st.New++
	}
	for _, n := range left {
		st.Fixed += n
	}
	res.Baseline = st
}

// Accepting is the baseline of the findings in fs: every one, as it is.
func Accepting(fs []lint.Finding) *Baseline {
	b := &Baseline{counts: make(map[key]int, len(fs))}
	for i := range fs {
		b.counts[keyOf(&fs[i])]++
	}
	return b
}

// Known are the findings of res that Apply marked unchanged: what
// --write-baseline keeps when --baseline is given too (B4), so that the
// file only shrinks.
func Known(res *lint.Result) []lint.Finding {
	var out []lint.Finding
	for _, f := range res.Findings {
		if f.Known() {
			out = append(out, f)
		}
	}
	return out
}
