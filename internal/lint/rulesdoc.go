package lint

import (
	"fmt"
	"io"
	"strings"
)

// WriteRulesDoc writes docs/rules.md from the rule table; a test keeps the
// committed file equal to this output.
func WriteRulesDoc(w io.Writer) error {
	var b strings.Builder
	b.WriteString("# Rules\n\n")
	b.WriteString("<!-- Generated from the rule files in internal/lint/ (rl*.go) by `go test ./internal/lint -run TestRulesDoc -update`. Do not edit. -->\n\n")
	b.WriteString("Every rule can be set to `off`, `notice`, `warning` or `error` in `.rivumi-lint.yaml` (`rules: {RL007: off}`).\n")
	b.WriteString("`rivumi-lint rules ID` prints the same text.\n\n")
	b.WriteString("| id | name | default | finds |\n|---|---|---|---|\n")
	for _, r := range table {
		fmt.Fprintf(&b, "| [%s](#%s) | %s | %s | %s |\n", r.ID, strings.ToLower(r.ID), r.Name, r.Default, r.Summary)
	}
	for _, r := range table {
		fmt.Fprintf(&b, "\n## %s\n\n**%s** — default severity **%s**.\n\n%s\n\n%s\n\n%s\n", r.ID, r.Name, r.Default, r.Summary, r.Doc, codeScanning(r))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// codeScanning is the line that says what SARIF tells GitHub code scanning
// about the rule (tags, precision, security severity).
func codeScanning(r Rule) string {
	s := fmt.Sprintf("Code scanning: tags %s; precision %s", "`"+strings.Join(r.Tags(), "`, `")+"`", r.Precision)
	if r.SecuritySeverity != "" {
		s += "; security severity " + r.SecuritySeverity
	}
	return s + "."
}
