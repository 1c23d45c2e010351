package report

import (
	"fmt"
	"io"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// newOnly is writer w over the findings a baseline does not hold (B3):
// the formats a person or a review reads (text, github, rdjson,
// markdown) list only what fails the run; json and sarif list every
// finding, marked. Without a baseline it is w.
func newOnly(w Writer) Writer {
	return func(out io.Writer, r *lint.Result, o Options) error {
		if r.Baseline == nil || r.Baseline.Known == 0 {
			return w(out, r, o)
		}
		c := *r // a copy: the result is shared by the writers
		c.Findings = make([]lint.Finding, 0, len(r.Findings)-r.Baseline.Known)
		for _, f := range r.Findings {
			if !f.Known() {
				c.Findings = append(c.Findings, f)
			}
		}
		return w(out, &c, o)
	}
}

// withBaselineLine is text writer w (text, line) over the new findings,
// then the baseline's line (B3).
func withBaselineLine(w Writer) Writer {
	return func(out io.Writer, r *lint.Result, o Options) error {
		if err := newOnly(w)(out, r, o); err != nil {
			return err
		}
		if r.Baseline == nil {
			return nil
		}
		_, err := io.WriteString(out, BaselineLine(r.Baseline)+"\n")
		return err
	}
}

// BaselineLine says what the baseline hid and what of it is fixed: "3
// known findings in FILE not reported", for the text output and the
// command's note beside the other formats.
func BaselineLine(st *lint.BaselineStats) string {
	s := fmt.Sprintf("%s in %s not reported", plural(st.Known, "known finding", "known findings"), safe(st.File))
	if st.Fixed > 0 {
		s += fmt.Sprintf("; %d of its entries no longer found (check --write-baseline %s drops them)", st.Fixed, safe(st.File))
	}
	return s
}
