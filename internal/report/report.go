// Package report writes a lint.Result in one of the output formats. Every
// format reads the same value; none re-derives what the engine decided.
package report

// Options are what a writer may need beyond the result.
type Options struct {
	// ToolVersion is the linter's version, for formats that name the tool.
	ToolVersion string
	// Color turns on ANSI colour in the text format.
	Color bool
	// Width is the terminal's width in columns, for the text format's
	// wrapping between words; 0 writes each line whole.
	Width int
	// AllDirectories keeps every entry of the findings' and drift groups'
	// directory lists in the JSON and SARIF outputs (--all-directories);
	// otherwise they keep MaxListedDirectories and directories_total
	// gives the full count.
	AllDirectories bool
	// SARIFCategory is SARIF's run.automationDetails category
	// (--sarif-category): code scanning keeps one analysis per category.
	SARIFCategory string
	// SARIFResultLimit caps a SARIF run's results below MaxSARIFResults,
	// GitHub's limit; 0 (and anything above it): MaxSARIFResults. Tests
	// lower it; the command never sets it.
	SARIFResultLimit int
}

// MaxListedDirectories caps the directory lists of the JSON and SARIF
// outputs: a finding on the root AGENTS.md of a 100,000-directory monorepo
// would otherwise list every directory, tens of MB for two findings.
const MaxListedDirectories = 100

// capDirs returns at most MaxListedDirectories of dirs (all with all) and
// the full count.
func capDirs(dirs []string, all bool) ([]string, int) {
	if all || len(dirs) <= MaxListedDirectories {
		return dirs, len(dirs)
	}
	return dirs[:MaxListedDirectories], len(dirs)
}
