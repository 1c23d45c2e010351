package codex

import (
	"bytes"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/content"
)

// render is the instruction message Codex puts into the model input from
// the view's directory (nil when it sends none): the text inside
// `# AGENTS.md instructions for <dir>` and the INSTRUCTIONS tags.
func render(v *agent.View) []byte {
	var text []byte
	has := false
	if v.User != nil {
		text = append(text, v.User.Text...)
		has = true
	}
	first := true
	if v.Lost == "" {
		for _, c := range v.Candidates {
			if c.State != agent.Loaded && c.State != agent.Truncated {
				continue
			}
			if has {
				if first && v.User != nil {
					text = append(text, separator...)
				} else {
					text = append(text, "\n\n"...)
				}
			}
			text = append(text, c.Text...)
			has, first = true, false
		}
	}
	if !has {
		return nil
	}
	var b bytes.Buffer
	b.WriteString("# AGENTS.md instructions")
	if !first {
		// The directory is named only when a project file contributes
		// (with the user's file alone Codex names none).
		dir := v.RootAbs
		if v.Dir != "" {
			dir += "/" + v.Dir
		}
		b.WriteString(" for ")
		b.Write(content.Lossy([]byte(dir)))
	}
	b.WriteString("\n\n<INSTRUCTIONS>\n")
	b.Write(text)
	b.WriteString("\n</INSTRUCTIONS>")
	return b.Bytes()
}
