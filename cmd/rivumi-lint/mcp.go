package main

import (
	"flag"
	"io"
	"os"

	"github.com/rivumi/rivumi-lint/internal/mcp"
	"github.com/rivumi/rivumi-lint/internal/preview"
)

// mcpHelp is mcp's --help beyond the flags (M1, docs/mcp.md).
const mcpHelp = `Speaks the Model Context Protocol on standard input and output: tools a coding
agent calls to learn which instructions apply to a path, for Rivumi, Codex or
Claude Code (instructions), to check the instruction files (check), to explain
a rule (explain_rule), and to list the agent profiles (agents). It only reads.
Agents start it; see docs/mcp.md.
`

func cmdMCP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	var (
		root    = fs.String("root", "", "project root `DIR` (default: the Git worktree around the working directory)")
		cfgPath = fs.String("config", "", "config `FILE` (default: .rivumi-lint.yaml at the root)")
	)
	// Hosts that start servers generically may pass --stdio; it is the
	// only transport.
	fs.Bool("stdio", false, "talk over standard input and output (the default and only transport)")
	pos, code, done := parseFlags(fs, "mcp", args, stdout, stderr, mcpHelp)
	if done {
		return code
	}
	if len(pos) > 0 {
		return fail(stderr, &usageError{"mcp takes no arguments (the agent names the paths in its tool calls)"})
	}
	machine, err := preview.MachineFromEnv(os.Getenv)
	if err != nil {
		return fail(stderr, err)
	}
	srv, err := mcp.New(mcp.Options{Root: *root, Config: *cfgPath, Env: agentEnv(),
		Machine: machine, Version: version(), Log: stderr})
	if err != nil {
		return fail(stderr, err)
	}
	ctx, stop := signalContext()
	defer stop()
	if err := srv.Run(ctx, mcp.Stdio(stdin, stdout)); err != nil && ctx.Err() == nil {
		return fail(stderr, err)
	}
	return exitOK
}
