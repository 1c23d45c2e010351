package copilot

import (
	"bytes"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
)

// tablePreamble is the fixed paragraph and header before the rows of the
// conditional folder files (rule 5).
const tablePreamble = "Here is a list of instruction files that contain rules for modifying or creating new code.\n" +
	"These files are important for ensuring that the code is modified or created correctly.\n" +
	"Please make sure to follow the rules specified in these files when working with the codebase.\n" +
	"If you have not already read the file, use the `view` tool to acquire it.\n" +
	"Make sure to acquire the instructions before making any changes to the code.\n" +
	"| Pattern | File Path | Description |\n" +
	"| ------- | --------- | ----------- |\n"

// render makes the span as the binary renders it (rule 5): the blocks
// joined by blank lines; the inlined folder files and the table joined by
// blank lines; both, a blank line between and a newline after.
func render(blocks, folder [][]byte, rows []string) func(*agent.View) []byte {
	return func(*agent.View) []byte {
		var b bytes.Buffer
		for i, t := range blocks {
			if i > 0 {
				b.WriteString("\n\n")
			}
			b.WriteString("<custom_instruction>\n")
			b.Write(t)
			b.WriteString("\n</custom_instruction>")
		}
		var f bytes.Buffer
		for i, t := range folder {
			if i > 0 {
				f.WriteString("\n\n")
			}
			f.Write(t)
		}
		if len(rows) > 0 {
			if len(folder) > 0 {
				f.WriteString("\n\n")
			}
			f.WriteString(tablePreamble)
			f.WriteString(strings.Join(rows, "\n"))
		}
		switch {
		case b.Len() == 0 && f.Len() == 0:
			return nil
		case f.Len() == 0:
			return b.Bytes()
		case b.Len() == 0:
			return f.Bytes()
		}
		b.WriteString("\n\n")
		b.Write(f.Bytes())
		b.WriteString("\n")
		return b.Bytes()
	}
}
