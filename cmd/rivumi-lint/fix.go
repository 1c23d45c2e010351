package main

import (
	"flag"
	"io"

	"github.com/rivumi/rivumi-lint/internal/fix"
	"github.com/rivumi/rivumi-lint/internal/outfile"
	"github.com/rivumi/rivumi-lint/internal/project"
)

// fixHelp is fix's --help beyond the flags (X1).
const fixHelp = `Fixes what a check of the worktree finds where the fix is safe: re-encodes
UTF-16, UTF-32 and Windows-1252 files as UTF-8 (RL004), deletes hidden
characters (RL010), swaps a symbolic link with its target inside the root
(RL001), renames a near miss in another case to the exact name (RL011).
A fix that cannot be made safely is skipped with a line on standard error.
PATHs are as for check; none fixes the whole worktree.
`

// fixExitCodes are fix's (X1).
const fixExitCodes = `Exit codes:
  0  nothing to fix, or everything fixed
  1  --dry-run: something would change; or a fixable finding was skipped
  2  usage, config, Git, internal or write error (the file is left as it was)
`

// temps records the temporary files of the fixes (env.Temps; nil: none).
func cmdFix(args []string, stdout, stderr io.Writer, temps *outfile.Temps) int {
	fs := flag.NewFlagSet("fix", flag.ContinueOnError)
	var (
		dryRun  = fs.Bool("dry-run", false, "print a unified diff of the fixes and change nothing")
		cfgPath = fs.String("config", "", "config `FILE` (default: .rivumi-lint.yaml at the root)")
		root    = fs.String("root", "", "project root `DIR` (default: the Git worktree around the working directory)")
	)
	agents := agentFlag(fs)
	paths, code, done := parseFlags(fs, "fix", args, stdout, stderr, fixHelp)
	if done {
		return code
	}
	profiles, err := parseAgents(*agents)
	if err != nil {
		return fail(stderr, err)
	}
	// The repairs are of Rivumi's findings; another profile's findings
	// (RL015–RL017) carry none, so --agent changes only what fix reports.
	out, err := fix.Run(fix.Options{Project: project.Options{Root: *root, Config: *cfgPath, Targets: paths, Stay: true, Command: "fix", Agents: profiles, Env: agentEnv()}, Paths: paths, DryRun: *dryRun, Temps: temps}, stdout, stderr)
	printNotes(stderr, out.Notes)
	switch {
	case err != nil:
		return fail(stderr, err)
	case out.WriteErrors > 0:
		return exitError
	case out.Skipped > 0, *dryRun && out.Changes > 0:
		return exitFindings
	}
	return exitOK
}
