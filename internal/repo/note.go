package repo

import "fmt"

// Note is something a run tells the user: how it read the repository (a
// fall-back to the git binary, §10) or which change it checks. A warning
// says the run checks more, or other, than was asked (no merge base: every
// directory); front ends show it as one.
type Note struct {
	Text    string
	Warning bool
}

// Info is a note that is not a warning.
func Info(format string, args ...any) Note { return Note{Text: fmt.Sprintf(format, args...)} }

// Warn is a note that is a warning.
func Warn(format string, args ...any) Note {
	return Note{Text: fmt.Sprintf(format, args...), Warning: true}
}

// String is the note as one line: a warning starts with "warning: ".
func (n Note) String() string {
	if n.Warning {
		return "warning: " + n.Text
	}
	return n.Text
}
