// Package report writes a lint.Result in one of the output formats. Every
// format reads the same value; none re-derives what the engine decided.
package report

// Options are what a writer may need beyond the result.
type Options struct {
	// ToolVersion is the linter's version, for formats that name the tool.
	ToolVersion string
	// Color turns on ANSI colour in the text format.
	Color bool
}
