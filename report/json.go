package report

import (
	"encoding/json"
	"io"

	"github.com/rivumi/rivumi-lint/lint"
)

// JSONVersion is the version of the JSON output (docs/json.md).
const JSONVersion = 1

type jsonDoc struct {
	Version     int              `json:"version"`
	Findings    []lint.Finding   `json:"findings"`
	Directories []lint.Directory `json:"directories"`
	Drift       []lint.Drift     `json:"drift"`
	Summary     lint.Summary     `json:"summary"`
}

// JSON writes the result as one JSON document (docs/json.md).
func JSON(w io.Writer, r *lint.Result, o Options) error {
	doc := jsonDoc{Version: JSONVersion, Findings: r.Findings, Directories: r.Directories, Drift: r.Drift, Summary: r.Summary()}
	if doc.Findings == nil {
		doc.Findings = []lint.Finding{}
	}
	if doc.Directories == nil {
		doc.Directories = []lint.Directory{}
	}
	if doc.Drift == nil {
		doc.Drift = []lint.Drift{}
	}
	// Cap the directory lists on copies: the result is shared by writers.
	if !o.AllDirectories {
		doc.Findings = append([]lint.Finding{}, doc.Findings...)
		for i := range doc.Findings {
			f := &doc.Findings[i]
			f.Directories, f.DirectoriesTotal = capDirs(f.Directories, false)
		}
		doc.Drift = append([]lint.Drift{}, doc.Drift...)
		for i := range doc.Drift {
			d := &doc.Drift[i]
			d.Directories, d.DirectoriesTotal = capDirs(d.Directories, false)
		}
	}
	enc := json.NewEncoder(runnerSafeJSON(w))
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
