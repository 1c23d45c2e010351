package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/preview/view"
	"github.com/rivumi/rivumi-lint/internal/profiles"
)

// InstructionsInput is the instructions tool's arguments.
type InstructionsInput struct {
	Path  string `json:"path" jsonschema:"a file or directory, relative to the project root or absolute inside it; a file means its directory"`
	Agent string `json:"agent,omitempty" jsonschema:"the agent profile whose view to give (rivumi-lint agents lists them); default rivumi"`
}

// Instructions is the instructions tool's result (M2): what one agent
// profile loads from a directory, from the same preview `preview DIR
// --section instructions` prints. Fields are added, never renamed.
type Instructions struct {
	// Directory is the directory whose chain this is, relative to Root,
	// "." for the root.
	Directory string `json:"directory"`
	// Root is the project root the chain was resolved in: the server's,
	// or a repository inside it (a submodule) holding the path (R1).
	Root    string `json:"root"`
	Agent   string `json:"agent"`   // the profile: rivumi, codex, claude
	Product string `json:"product"` // the agent, as its makers name it
	Version string `json:"version,omitempty"`
	// Fingerprint is Rivumi's chain's (R8), whatever the agent: it
	// changes when any layer of the directory's chain does.
	Fingerprint string `json:"fingerprint"`
	// Layers are Rivumi's chain, every considered layer in order with
	// its state (active, suppressed, shadowed, rejected), reason and
	// bytes, as check's JSON reports them (R5); for the rivumi profile.
	Layers []lint.Layer `json:"layers,omitempty"`
	// Files are another profile's candidates in its chain order, with
	// its states (loaded, truncated, …) (A3).
	Files []view.AgentFile `json:"files,omitempty"`
	// Exact says Text is byte for byte what the agent gets; Inexact why
	// not. Lost is why the agent loads no project file at all.
	Exact   bool   `json:"exact"`
	Inexact string `json:"inexact,omitempty"`
	Lost    string `json:"lost,omitempty"`
	// Text is the instructions the agent gets from the directory, byte
	// for byte; Bytes its length.
	Text  string `json:"text"`
	Bytes int    `json:"bytes"`
	// Budget is what Rivumi's dynamic sections take of
	// limits.max_dynamic_bytes (P3), for the rivumi profile.
	Budget *view.Budget `json:"budget,omitempty"`
	Notes  []string     `json:"notes,omitempty"`
}

// instructionsSchema is InstructionsInput's inferred schema with the
// profiles as agent's enum, so a host shows the model the choices.
func instructionsSchema() *jsonschema.Schema {
	sc, err := jsonschema.For[InstructionsInput](nil)
	if err != nil {
		panic(fmt.Sprintf("instructions schema: %v", err)) // a static type: a programming error
	}
	for _, n := range profiles.Names() {
		sc.Properties["agent"].Enum = append(sc.Properties["agent"].Enum, n)
	}
	return sc
}

func (s *Server) instructions(_ context.Context, _ *sdk.CallToolRequest, in InstructionsInput) (*sdk.CallToolResult, *Instructions, error) {
	name := in.Agent
	if name == "" {
		name = agent.Rivumi
	}
	row := profiles.Lookup(name)
	if row == nil {
		return nil, nil, fmt.Errorf("unknown agent profile %q: the profiles are %s", in.Agent, strings.Join(profiles.Names(), ", "))
	}
	abs, err := s.target(in.Path)
	if err != nil {
		return nil, nil, err
	}
	dir, note := s.previewDir(abs)
	pv, err := preview.Build(preview.Options{Root: s.o.Root, Config: s.o.Config, Dir: dir, Home: s.o.Home,
		Machine: s.o.Machine, Agents: []string{name}, Env: s.o.Env})
	if err != nil {
		return nil, nil, err
	}
	out := &Instructions{Directory: pv.Directory, Root: pv.Root, Agent: name, Product: row.Profile.Product, Version: row.Profile.Version,
		Fingerprint: pv.Fingerprint}
	if note != "" {
		out.Notes = append(out.Notes, note)
	}
	if name == agent.Rivumi {
		// The preview's notes are about Rivumi's prompt (its user layer,
		// memory, skills); another profile's view says its own in Files.
		out.Notes = append(out.Notes, pv.Notes...)
		sec, _ := pv.Section(preview.Instructions)
		out.Layers, out.Exact, out.Text, out.Bytes = pv.Layers, true, sec.Text, len(sec.Text)
		b := pv.Budget
		out.Budget = &b
	} else {
		a, ok := pv.Agent(name)
		if !ok {
			return nil, nil, fmt.Errorf("the preview of %s has no %s view", pv.Directory, name)
		}
		out.Files, out.Exact, out.Inexact, out.Lost, out.Text, out.Bytes = a.Files, a.Exact, a.Inexact, a.Lost, a.Text, a.Bytes
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: instructionsReport(out)}}}, out, nil
}

// instructionsReport is the result as text, for hosts that show the model
// only a tool's text: the chain in brief, then the text itself.
func instructionsReport(r *Instructions) string {
	var b strings.Builder
	label := r.Product
	if r.Version != "" {
		label += " " + r.Version
	}
	fmt.Fprintf(&b, "Instructions %s gets in %s (fingerprint %s):\n", label, r.Directory, r.Fingerprint)
	for _, l := range r.Layers {
		fmt.Fprintf(&b, "  %-10s %s (%d bytes)%s\n", l.State, l.Path, l.Bytes, reason(l.Reason))
	}
	for _, f := range r.Files {
		// A candidate the agent never reads (ignored, not a file) has no
		// size (-1): say none rather than "-1 bytes" (issue #33.14).
		size := ""
		if f.Bytes >= 0 {
			size = fmt.Sprintf(" (%d bytes)", f.Bytes)
		}
		fmt.Fprintf(&b, "  %-10s %s%s%s\n", f.State, f.Path, size, reason(f.Reason))
	}
	if len(r.Layers) == 0 && len(r.Files) == 0 {
		b.WriteString("  no instruction file\n")
	}
	if r.Budget != nil {
		fmt.Fprintf(&b, "Budget: the dynamic sections take %d of %d bytes (%s).\n", r.Budget.Total, r.Budget.Limit, r.Budget.Status)
	}
	if r.Lost != "" {
		fmt.Fprintf(&b, "The agent loads no project file: %s\n", r.Lost)
	}
	if !r.Exact && r.Inexact != "" {
		fmt.Fprintf(&b, "Not exact: %s\n", r.Inexact)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "Note: %s\n", n)
	}
	if r.Text == "" {
		b.WriteString("The agent gets no instructions here.\n")
		return b.String()
	}
	fmt.Fprintf(&b, "The text (%d bytes) follows.\n\n%s", r.Bytes, r.Text)
	return b.String()
}

func reason(r string) string {
	if r == "" {
		return ""
	}
	return ": " + r
}
