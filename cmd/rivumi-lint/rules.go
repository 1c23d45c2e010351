package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

func cmdRules(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && isHelp(args[0]) {
		commandHelp(stdout, "rules", nil, "ID is a rule id such as RL004, or its name (invalid-utf8), in any case.\n")
		return exitOK
	}
	if len(args) > 1 {
		return fail(stderr, &usageError{"rules takes at most one ID: usage: rivumi-lint rules [ID]"})
	}
	if len(args) == 1 {
		r, ok := lint.Find(args[0])
		if !ok {
			var ids []string
			for _, r := range lint.Rules() {
				ids = append(ids, r.ID, r.Name)
			}
			if s := suggest(args[0], ids); s != "" {
				return fail(stderr, &usageError{fmt.Sprintf("unknown rule %q: did you mean %s? (run \"rivumi-lint rules\" for the list)", args[0], s)})
			}
			return fail(stderr, &usageError{fmt.Sprintf("unknown rule %q (run \"rivumi-lint rules\" for the list)", args[0])})
		}
		fmt.Fprint(stdout, r.Explain())
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
