package lint

// Result is everything one run decided: the findings, every resolved
// directory and, in diff mode, the drift between base and head. Every output
// format reads this value and nothing else.
type Result struct {
	Findings    []Finding   `json:"findings"`
	Directories []Directory `json:"directories"`
	Drift       []Drift     `json:"drift"`
	// Baseline, when check compared the findings with a baseline file
	// (--baseline, --write-baseline: B3), says what it found; nil
	// otherwise.
	Baseline *BaselineStats `json:"-"`
	// BaseLabel names the base the findings were compared with in the
	// diff and staged scopes (B6), as the text output says "already in
	// HEAD": "HEAD", "main (1a2b3c4)"; "" when there was none.
	BaseLabel string `json:"-"`
}

// BaselineStats is a comparison with a baseline file (B3, B4).
type BaselineStats struct {
	// File is the baseline's name as given on the command line.
	File string `json:"file"`
	// Known are the findings the baseline holds: marked unchanged, not
	// counted in the summary. New are the others.
	Known int `json:"known"`
	New   int `json:"new"`
	// Fixed are the baseline's entries no finding of this run matched:
	// fixed, or their file checked no more; --write-baseline drops them.
	Fixed int `json:"fixed"`
}

// Directory is one resolved directory as the engine decided it.
type Directory struct {
	Path        string  `json:"path"` // "." for the root
	Fingerprint string  `json:"fingerprint"`
	Layers      []Layer `json:"layers"`
	// RenderedBytes is what the dynamic sections knowable in check take (P3).
	RenderedBytes int `json:"rendered_bytes"`
	// BudgetBytes is max_dynamic_bytes - reserved_bytes: what RenderedBytes may use.
	BudgetBytes int `json:"budget_bytes"`
	// Used is Limits.UsedShare of RenderedBytes + reserved_bytes ("90.6%"),
	// the number RL006 prints; writers print it rather than divide again.
	// Not in the JSON: its consumers have the bytes.
	Used string `json:"-"`
	// Budget is Limits.BudgetLine of RenderedBytes ("603 + 8192 reserved
	// = 8795 of 65536 bytes (13.4%)"): the one way every writer states it.
	Budget string `json:"-"`
}

// Layer is one considered layer of a directory's chain (R5).
type Layer struct {
	Path  string `json:"path"`
	Scope string `json:"scope"` // user or project
	State string `json:"state"` // active, suppressed, shadowed or rejected
	// Reason is the rule id of a rejection, or the path of the overriding or
	// shadowing file; empty for an active layer.
	Reason string `json:"reason"`
	Bytes  int64  `json:"bytes"` // size of the file; 0 when it was never read
}

// Drift is one group of directories whose resolution changed identically
// between base and head (R9). Base and Head are the fingerprints when every
// directory of the group has the same chain on that side, else "".
type Drift struct {
	Directories []string `json:"directories"`
	// DirectoriesTotal is as Finding's: the full count; zero means
	// len(Directories).
	DirectoriesTotal int           `json:"directories_total"`
	Base             string        `json:"base_fingerprint"`
	Head             string        `json:"head_fingerprint"`
	Changes          []LayerChange `json:"changes"`
}

// LayerChange is one change of one layer between base and head.
type LayerChange struct {
	Path string `json:"path"`
	// Change is added, removed, modified, suppressed, unsuppressed, shadowed,
	// unshadowed or rejected.
	Change string `json:"change"`
	Detail string `json:"detail,omitempty"`
}

// Summary counts a result.
type Summary struct {
	Errors      int `json:"errors"`
	Warnings    int `json:"warnings"`
	Notices     int `json:"notices"`
	Directories int `json:"directories"`
}

// Summary counts the findings by severity and the resolved directories;
// a finding the baseline holds is not counted (B3).
func (r *Result) Summary() Summary {
	s := Summary{Directories: len(r.Directories)}
	for _, f := range r.Findings {
		if f.Known() {
			continue
		}
		switch f.Severity {
		case Error:
			s.Errors++
		case Warning:
			s.Warnings++
		case Notice:
			s.Notices++
		}
	}
	return s
}
