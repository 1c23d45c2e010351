package lint

import (
	"encoding/json"
	"fmt"
)

// Severity orders findings. The zero value is Off: a rule set to off emits nothing.
type Severity int

const (
	Off Severity = iota
	Notice
	Warning
	Error
)

// ParseSeverity accepts off, notice, warning and error.
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "off":
		return Off, nil
	case "notice":
		return Notice, nil
	case "warning":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return Off, fmt.Errorf("unknown severity %q (want off, notice, warning or error)", s)
}

func (s Severity) String() string {
	switch s {
	case Notice:
		return "notice"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "off"
}

func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

func (s *Severity) UnmarshalJSON(b []byte) error {
	var str string
	if err := json.Unmarshal(b, &str); err != nil {
		return err
	}
	v, err := ParseSeverity(str)
	*s = v
	return err
}
