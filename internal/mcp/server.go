// Package mcp is `rivumi-lint mcp`, a Model Context Protocol server
// (M1–M8, docs/mcp.md): tools an agent calls before it edits, to learn
// which instructions apply where, for itself. It is a front end like the
// language server: every tool goes through the pipeline check and preview
// run (project.Do, preview.Build) and the writers check uses (report), so
// nothing here re-derives what the engine decided. The protocol is the
// official Go SDK's (github.com/modelcontextprotocol/go-sdk).
package mcp

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime/debug"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/project"
)

// Options say where the project is and what the tools read besides it;
// the command fills them as check and preview fill theirs.
type Options struct {
	Root   string // --root; "" = the Git worktree around the working directory (R1)
	Config string // --config; "" = ROOT/.rivumi-lint.yaml when present
	// Env is where the agents find their user files, as for check and
	// preview.
	Env agent.Env
	// Home is Rivumi's home (the preview's user layer and memory); "" =
	// preview.HomeDir(os.Getenv), as preview finds it.
	Home string
	// Machine holds the runtime section's values (the preview's budget).
	Machine preview.Machine
	// Version is the server's version in initialize and check's JSON.
	Version string
	// Log receives what the server cannot tell the client: a panic's stack
	// (standard error). nil: nothing.
	Log io.Writer
}

// Server is the MCP server over one project.
type Server struct {
	o Options
	// root is the project root found at start (absolute), realRoot the
	// same with links resolved: every path argument must lie inside it.
	root, realRoot string
	// mu runs one tool call at a time: a host may send calls in parallel,
	// and each is a whole pipeline run on a machine the agent also uses.
	mu  sync.Mutex
	srv *sdk.Server
}

// instructionsText is what a host may show the model about the server.
// It names only files some profile loads (issue #33.14: it named a
// .rivumi/instructions.md nothing reads).
const instructionsText = `rivumi-lint knows which instruction files (AGENTS.md, RIVUMI.md and their .override.md forms, ` +
	`or the names .rivumi-lint.yaml sets; Claude Code's CLAUDE.md and CLAUDE.local.md) ` +
	`apply in each directory of this repository, and what each coding agent loads from them. ` +
	`Before editing files in a directory whose instructions you have not read, call instructions ` +
	`with that path (and agent: codex or claude for those agents' view); check lints the instruction ` +
	`files; explain_rule documents a finding's rule. The server only reads.`

// New finds the project root (R1) as check does from the working
// directory, or --root, and registers the tools. A directory outside Git
// without --root is an error, as for check.
func New(o Options) (*Server, error) {
	p, err := project.Open(project.Options{Root: o.Root, Config: o.Config, Command: "mcp"})
	if err != nil {
		return nil, err
	}
	root := p.Root
	p.Close()
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, fmt.Errorf("project root %s: %w", root, err)
	}
	s := &Server{o: o, root: root, realRoot: real}
	s.srv = sdk.NewServer(&sdk.Implementation{Name: "rivumi-lint", Title: "rivumi-lint", Version: o.Version},
		&sdk.ServerOptions{
			Instructions: instructionsText,
			// Tools only: no logging capability (the default), and the
			// tool list never changes.
			Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
		})
	s.addTools()
	return s, nil
}

// Root is the project root the server serves (absolute).
func (s *Server) Root() string { return s.root }

// Run serves one session over t until the client ends it or ctx is done.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.srv.Run(ctx, t)
}

// readOnly are the annotations of every tool: nothing is written (R10),
// and nothing outside the project is read but the user files the
// profiles read.
func readOnly(title string) *sdk.ToolAnnotations {
	f := false
	return &sdk.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: &f, OpenWorldHint: &f}
}

// guard runs one call at a time and turns a panic into an error result for
// that call alone: the session goes on.
func guard[In, Out any](s *Server, h sdk.ToolHandlerFor[In, Out]) sdk.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out Out, err error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		defer func() {
			if p := recover(); p != nil {
				if s.o.Log != nil {
					fmt.Fprintf(s.o.Log, "rivumi-lint mcp: panic in %s: %v\n%s", req.Params.Name, p, debug.Stack())
				}
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("internal error in %s: %v (please report it with the server's standard error)", req.Params.Name, p)
			}
		}()
		return h(ctx, req, in)
	}
}

func (s *Server) addTools() {
	sdk.AddTool(s.srv, &sdk.Tool{
		Name:  "instructions",
		Title: "Instructions for a path",
		Description: "The instruction chain that applies to a path's directory (a file means its directory; " +
			"a path that does not exist yet, its nearest existing directory), for one agent profile: " +
			"each layer with its state, reason and bytes, the exact text the agent gets, the chain's fingerprint " +
			"and the budget. The same as `rivumi-lint preview DIR [--agent NAME] --section instructions`.",
		InputSchema: instructionsSchema(),
		Annotations: readOnly("Instructions for a path"),
	}, guard(s, s.instructions))
	sdk.AddTool(s.srv, &sdk.Tool{
		Name:  "check",
		Title: "Check instruction files",
		Description: "Lint the instruction files: the findings exactly as `rivumi-lint check --format json` gives them " +
			"(structured), and check's text report. paths are files or directories inside the project " +
			"(a file is checked from its directory); none checks the whole worktree; staged: true checks " +
			"the index against HEAD, as `check --staged`.",
		OutputSchema: checkOutputSchema(),
		Annotations:  readOnly("Check instruction files"),
	}, guard(s, s.check))
	sdk.AddTool(s.srv, &sdk.Tool{
		Name:        "explain_rule",
		Title:       "Explain a rule",
		Description: "A rule's documentation, as `rivumi-lint rules ID` prints it: its id (RL004) or name (invalid-utf8), in any case.",
		Annotations: readOnly("Explain a rule"),
	}, guard(s, s.explainRule))
	sdk.AddTool(s.srv, &sdk.Tool{
		Name:        "agents",
		Title:       "Agent profiles",
		Description: "The agent profiles instructions takes (agent:), as `rivumi-lint agents` lists them.",
		Annotations: readOnly("Agent profiles"),
	}, guard(s, s.agents))
}
