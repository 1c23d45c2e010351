package report

import (
	"encoding/json"
	"io"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// RDJSON writes r as one reviewdog DiagnosticResult object (§7 rdjson), for
// `reviewdog -f=rdjson`:
//
//	{"source":{"name":"rivumi-lint","url":…},"severity":…,"diagnostics":[…]}
//
// The top-level severity is that of the most severe finding (INFO when there
// are none); every diagnostic carries its own. See rdjsonDiagnostic for one
// diagnostic.
func RDJSON(w io.Writer, r *lint.Result, o Options) error {
	out := rdjsonResult{
		Source:      rdjsonToolSource,
		Severity:    "INFO",
		Diagnostics: []rdjsonDiagnostic{},
	}
	findings := orderFindings(r)
	if len(findings) > 0 {
		out.Severity = rdjsonSeverity(findings[0].Severity) // most severe first
	}
	for _, f := range findings {
		out.Diagnostics = append(out.Diagnostics, newRDJSONDiagnostic(f))
	}
	enc := json.NewEncoder(runnerSafeJSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// RDJSONL writes r as reviewdog diagnostics, one JSON object per line
// (§7 rdjsonl), for `reviewdog -f=rdjsonl`. No findings: no output.
func RDJSONL(w io.Writer, r *lint.Result, o Options) error {
	enc := json.NewEncoder(runnerSafeJSON(w))
	enc.SetEscapeHTML(false)
	for _, f := range orderFindings(r) {
		if err := enc.Encode(newRDJSONDiagnostic(f)); err != nil {
			return err
		}
	}
	return nil
}

var rdjsonToolSource = rdjsonSource{Name: driverName, URL: driverURI}

// newRDJSONDiagnostic is one reviewdog Diagnostic: message, location,
// severity ERROR/WARNING/INFO, source and code {value: rule id, url: rule
// docs}.
//
// The location is the path and range.start with line and column, both
// 1-based. Columns count bytes, as reviewdog does (proto/rdf/reviewdog.proto,
// message Position: "Column number, starting at 1 (byte count in UTF-8)"),
// so lint.Finding.Column and the fix edits' byte columns go in as they are.
// A finding about a whole file is placed on line 1 without a column, as in
// SARIF, so that reviewdog's -filter-mode=added keeps it when the change
// adds the file.
//
// The message is for a reader (reviewdog posts it as a comment): it goes
// through messageText; the path stays exact, for reviewdog to match.
// A user-level file (~/…) is not in the repository, so reviewdog could not
// place it: it has no location and the path starts the message.
func newRDJSONDiagnostic(f lint.Finding) rdjsonDiagnostic {
	d := rdjsonDiagnostic{
		Message:  messageText(f.Message),
		Severity: rdjsonSeverity(f.Severity),
		Source:   rdjsonToolSource,
		Code:     rdjsonCode{Value: f.Rule, URL: ruleDocURL(f.Rule)},
	}
	if f.User {
		d.Message = messageText(withPath(f.Path, f.Message))
		return d
	}
	d.Location = &rdjsonLocation{Path: f.Path}
	d.Location.Range = &rdjsonRange{Start: rdjsonPosition{Line: max(f.Line, 1), Column: f.Column}}
	d.Suggestions = rdjsonSuggestions(f)
	return d
}

// rdjsonSuggestions are a finding's Fix (X1) as reviewdog suggestions: one
// per edit of the finding's own file, the range from start to end (end
// exclusive; lines and byte columns 1-based, as reviewdog counts them) and
// the replacement text, so that github-pr-review offers "apply
// suggestion". reviewdog applies suggestions to the diagnostic's file only.
func rdjsonSuggestions(f lint.Finding) []rdjsonSuggestion {
	if f.Fix == nil {
		return nil
	}
	var out []rdjsonSuggestion
	for _, e := range f.Fix.Edits {
		if e.Path != f.Path {
			continue
		}
		out = append(out, rdjsonSuggestion{
			Range: rdjsonRange{Start: rdjsonPosition{Line: e.Start.Line, Column: e.Start.Column},
				End: &rdjsonPosition{Line: e.End.Line, Column: e.End.Column}},
			Text: e.Text,
		})
	}
	return out
}

func rdjsonSeverity(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "ERROR"
	case lint.Warning:
		return "WARNING"
	case lint.Notice:
		return "INFO"
	}
	return "UNKNOWN_SEVERITY"
}

type rdjsonResult struct {
	Source      rdjsonSource       `json:"source"`
	Severity    string             `json:"severity"`
	Diagnostics []rdjsonDiagnostic `json:"diagnostics"`
}

type rdjsonDiagnostic struct {
	Message  string          `json:"message"`
	Location *rdjsonLocation `json:"location,omitempty"`
	Severity string          `json:"severity"`
	Source   rdjsonSource    `json:"source"`
	Code     rdjsonCode      `json:"code"`
	// Suggestions carry a Fix (X1); text "" deletes the range.
	Suggestions []rdjsonSuggestion `json:"suggestions,omitempty"`
}

type rdjsonSuggestion struct {
	Range rdjsonRange `json:"range"`
	Text  string      `json:"text"`
}

type rdjsonSource struct {
	Name string `json:"name"`
	URL  string `json:"url,omitempty"`
}

type rdjsonCode struct {
	Value string `json:"value"`
	URL   string `json:"url,omitempty"`
}

type rdjsonLocation struct {
	Path  string       `json:"path"`
	Range *rdjsonRange `json:"range,omitempty"`
}

type rdjsonRange struct {
	Start rdjsonPosition  `json:"start"`
	End   *rdjsonPosition `json:"end,omitempty"`
}

type rdjsonPosition struct {
	Line   int `json:"line"`
	Column int `json:"column,omitempty"`
}
