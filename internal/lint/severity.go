package lint

import "github.com/rivumi/rivumi-lint/internal/lint/severity"

// Severity is a finding's severity (package severity, a leaf the config
// shares).
type Severity = severity.Severity

const (
	Off     = severity.Off
	Notice  = severity.Notice
	Warning = severity.Warning
	Error   = severity.Error
)

// ParseSeverity accepts off, notice, warning and error.
func ParseSeverity(s string) (Severity, error) { return severity.Parse(s) }
