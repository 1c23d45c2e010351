// Package severity is the typed severity of a finding (§5, §8). It is a
// leaf: the config stores parsed values, the rules and the writers read
// them, and nothing parses a severity string twice.
package severity

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

// Names are the accepted spellings, lowest first.
var Names = []string{"off", "notice", "warning", "error"}

// Parse accepts off, notice, warning and error.
func Parse(s string) (Severity, error) {
	for i, n := range Names {
		if s == n {
			return Severity(i), nil
		}
	}
	return Off, fmt.Errorf("unknown severity %q (want off, notice, warning or error)", s)
}

func (s Severity) String() string {
	if s < Off || s > Error {
		return "off"
	}
	return Names[s]
}

func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

func (s *Severity) UnmarshalJSON(b []byte) error {
	var str string
	if err := json.Unmarshal(b, &str); err != nil {
		return err
	}
	v, err := Parse(str)
	*s = v
	return err
}
