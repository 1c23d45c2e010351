package baseline

import "github.com/rivumi/rivumi-lint/internal/lint"

// Apply compares res's findings with b (B3): each finding of an identity
// the baseline counts is marked unchanged while the count lasts, in the
// result's order, the rest new; a second finding of a kind the baseline
// holds once is new. name is the file as given, for the outputs.
func (b *Baseline) Apply(res *lint.Result, name string) {
	st := &lint.BaselineStats{File: name}
	st.Fixed = b.match(res.Findings, func(f *lint.Finding, known bool) {
		if known {
			f.Baseline = lint.BaselineUnchanged
			st.Known++
			return
		}
		f.Baseline = lint.BaselineNew
		st.New++
	})
	res.Baseline = st
}

// MarkBase marks each finding of res against the findings of a change's
// base, b being Accepting(them) (B6): Finding.Base is unchanged (old: the
// base has it) or new, compared as Apply compares with a baseline file
// (B2's identity, counted, in the result's order). label names the base.
func (b *Baseline) MarkBase(res *lint.Result, label string) {
	b.match(res.Findings, func(f *lint.Finding, old bool) {
		f.Base = lint.BaselineNew
		if old {
			f.Base = lint.BaselineUnchanged
		}
	})
	res.BaseLabel = label
}

// match calls mark for each finding of fs, in order, with whether b
// counts its identity, while the count lasts; it returns how many of b's
// entries no finding matched.
func (b *Baseline) match(fs []lint.Finding, mark func(f *lint.Finding, known bool)) int {
	left := make(map[key]int, len(b.counts))
	for k, n := range b.counts {
		left[k] = n
	}
	for i := range fs {
		f := &fs[i]
		k := keyOf(f)
		known := left[k] > 0
		if known {
			left[k]--
		}
		mark(f, known)
	}
	unmatched := 0
	for _, n := range left {
		unmatched += n
	}
	return unmatched
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
