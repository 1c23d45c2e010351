package render

import (
	"strings"
	"unicode/utf8"
)

// Machine holds the values of the runtime section (P5: rendered from the
// local machine). Every value is one line: a control character in a value
// (a working directory whose name holds a newline, say) is written as a Go
// escape such as \x0a, so a value can never start a new line of the section.
type Machine struct {
	OS      string // runtime.GOOS, e.g. linux
	Shell   string // $SHELL; "" is shown as unknown
	WorkDir string // the absolute working directory
	Date    string // YYYY-MM-DD
}

// Runtime renders the runtime section:
//
//	<rivumi:section name="runtime" version="1">
//	OS: linux
//	Shell: /bin/bash
//	Working directory: /src/app/docs
//	Date: 2025-01-02
//	</rivumi:section>
func Runtime(m Machine) []byte {
	var b strings.Builder
	line(&b, "OS", m.OS)
	line(&b, "Shell", m.Shell)
	line(&b, "Working directory", m.WorkDir)
	line(&b, "Date", m.Date)
	return Section("runtime", []byte(b.String()))
}

// Workspace renders the workspace section: the branch ("unknown" when Git
// cannot tell, "(detached at 0123456789ab)" on a detached HEAD) and the
// worktree state (clean, dirty or unknown):
//
//	<rivumi:section name="workspace" version="1">
//	Branch: main
//	Worktree: clean
//	</rivumi:section>
func Workspace(branch, state string) []byte {
	var b strings.Builder
	line(&b, "Branch", branch)
	line(&b, "Worktree", state)
	return Section("workspace", []byte(b.String()))
}

// SkillLine is one skill of the skills section.
type SkillLine struct {
	Name        string
	Description string // "" lists the skill without text
}

// Skills renders the skills section (P4b): one line `- NAME: DESCRIPTION`
// per skill in the given order, `- NAME` for a skill without a description.
// No skills: nil (the section is left out). Control characters in a name or
// a description are written as Go escapes, so each skill stays one line.
func Skills(skills []SkillLine) []byte {
	if len(skills) == 0 {
		return nil
	}
	var b strings.Builder
	for _, s := range skills {
		b.WriteString("- ")
		b.WriteString(oneLine(s.Name))
		if s.Description != "" {
			b.WriteString(": ")
			b.WriteString(oneLine(s.Description))
		}
		b.WriteByte('\n')
	}
	return Section("skills", []byte(b.String()))
}

// Memory wraps the text of memory.Render in the memory section (P4); an
// empty text (no selected entry) leaves the section out (nil).
func Memory(text []byte) []byte {
	if len(text) == 0 {
		return nil
	}
	return Section("memory", text)
}

func line(b *strings.Builder, key, value string) {
	if value == "" {
		value = "unknown"
	}
	b.WriteString(key)
	b.WriteString(": ")
	b.WriteString(oneLine(value))
	b.WriteByte('\n')
}

// oneLine writes C0 controls, DEL and C1 controls as \xNN and invalid UTF-8
// bytes as \xNN, so the value is one line of valid UTF-8.
func oneLine(s string) string {
	clean := true
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || isControl(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	const hex = "0123456789abcdef"
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x`)
			b.WriteByte(hex[s[i]>>4])
			b.WriteByte(hex[s[i]&15])
		case isControl(r):
			b.WriteString(`\x`)
			b.WriteByte(hex[r>>4&15])
			b.WriteByte(hex[r&15])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }
