package main

import (
	"flag"
	"io"

	"github.com/rivumi/rivumi-lint/internal/lsp"
)

// lspHelp is lsp's --help beyond the flags (X4, docs/lsp.md).
const lspHelp = `Speaks the Language Server Protocol on standard input and output: diagnostics
for instruction files as you type (the findings of check), a hover with the
chain of the file's directory, quick fixes. Editors start it; see docs/lsp.md.
`

// lspExitCodes are the protocol's, not check's.
const lspExitCodes = `Exit codes:
  0  exit after shutdown
  1  exit without shutdown, or the input ended
  2  usage error
`

func cmdLsp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("lsp", flag.ContinueOnError)
	// Clients that start servers generically pass --stdio; it is the only
	// transport, so the flag changes nothing.
	fs.Bool("stdio", false, "talk over standard input and output (the default and only transport)")
	pos, code, done := parseFlags(fs, "lsp", args, stdout, stderr, lspHelp)
	if done {
		return code
	}
	if len(pos) > 0 {
		return fail(stderr, &usageError{"lsp takes no arguments (the editor names the files over the protocol)"})
	}
	srv := lsp.New(stdin, stdout, stderr)
	srv.Env = agentEnv()
	return srv.Serve()
}
