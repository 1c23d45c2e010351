package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/rivumi/rivumi-lint/lint"
)

func cmdRules(args []string, stdout, stderr io.Writer) int {
	if len(args) > 1 {
		return fail(stderr, &usageError{"usage: rivumi-lint rules [ID]"})
	}
	if len(args) == 1 {
		r, ok := lint.Lookup(args[0])
		if !ok {
			return fail(stderr, &usageError{fmt.Sprintf("unknown rule %q (run rivumi-lint rules for the list)", args[0])})
		}
		fmt.Fprintf(stdout, "%s %s (default severity: %s)\n\n%s\n\n%s\n\n%s\n", r.ID, r.Name, r.Default, r.Summary, r.Doc, r.URL())
		return exitOK
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tDEFAULT\tFINDS")
	for _, r := range lint.Rules() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Default, r.Summary)
	}
	tw.Flush()
	return exitOK
}
