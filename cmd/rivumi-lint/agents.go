package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/profiles"
)

// agentFlag is --agent, shared by check, preview and fix (A1).
func agentFlag(fs *flag.FlagSet) *string {
	return fs.String("agent", "", "agent profiles to resolve and check: `NAME[,NAME…]` or all (default: the config's agents, else rivumi; rivumi-lint agents lists them)")
}

// parseAgents reads --agent; nil when it is not given (the config decides).
func parseAgents(s string) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	names, err := profiles.ParseList(s)
	if err != nil {
		return nil, &usageError{err.Error()}
	}
	return names, nil
}

// agentEnv is where the agents find their user files, from this
// process's environment: one value for every command (check, preview, fix,
// the hooks, lsp, mcp), so each reads the same views.
func agentEnv() agent.Env { return profiles.Env(os.Getenv, os.UserHomeDir) }

// checkAgentSection refuses a --section an agent profile has no text for:
// another agent's preview has only its instruction message.
func checkAgentSection(section string, profiles []string) error {
	others := 0
	for _, p := range profiles {
		if p != agent.Rivumi {
			others++
		}
	}
	switch {
	case others == 0:
		return nil
	case len(profiles) > 1:
		return &usageError{"--section prints one agent's text: name one profile with --agent (--agent codex)"}
	case section != preview.Instructions:
		return &usageError{fmt.Sprintf("--section %s: the %s profile has only the instructions section", section, profiles[0])}
	}
	return nil
}

// agentSection is the one other agent's view --section prints, when
// --agent names one.
func agentSection(pv *preview.Preview, profiles []string) (view struct{ Text string }, ok bool) {
	if len(profiles) != 1 || profiles[0] == agent.Rivumi {
		return view, false
	}
	a, ok := pv.Agent(profiles[0])
	view.Text = a.Text
	return view, ok
}

func cmdAgents(args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && isHelp(args[0]) {
		commandHelp(stdout, "agents", nil, "Enable profiles with --agent NAME[,NAME…] (or all) on check, preview and fix,\nor with agents: [rivumi, codex] in .rivumi-lint.yaml; docs/agent-profiles.md has their rules.\n")
		return exitOK
	}
	if len(args) > 0 {
		return fail(stderr, &usageError{"agents takes no arguments"})
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tAGENT\tVERSION\tLOADS")
	for _, row := range profiles.All() {
		p := row.Profile
		v := p.Version
		if v == "" {
			v = "(docs/spec.md)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Name, p.Product, v, p.Summary)
	}
	tw.Flush()
	fmt.Fprintln(stdout, "\nOptions (.rivumi-lint.yaml):")
	tw = tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, row := range profiles.All() {
		for _, o := range row.Options() {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", o.Key, o.Default, o.Doc)
		}
	}
	tw.Flush()
	return exitOK
}
