package mcp

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/profiles"
)

// RuleInput is explain_rule's argument.
type RuleInput struct {
	Rule string `json:"rule" jsonschema:"a rule id (RL004) or name (invalid-utf8), in any case"`
}

// RuleDoc is explain_rule's result: the rule's row of the table
// `rivumi-lint rules` prints and its documentation.
type RuleDoc struct {
	ID              string `json:"id"`
	Name            string `json:"name"`
	DefaultSeverity string `json:"default_severity"`
	Summary         string `json:"summary"`
	Doc             string `json:"doc"`
	Category        string `json:"category"`
	// Agent is the profile whose loading the rule checks, "" for
	// Rivumi's rules (A4).
	Agent string `json:"agent,omitempty"`
	URL   string `json:"url"`
}

func (s *Server) explainRule(_ context.Context, _ *sdk.CallToolRequest, in RuleInput) (*sdk.CallToolResult, *RuleDoc, error) {
	r, ok := lint.Find(strings.TrimSpace(in.Rule))
	if !ok {
		var ids []string
		for _, r := range lint.Rules() {
			ids = append(ids, r.ID)
		}
		return nil, nil, fmt.Errorf("unknown rule %q: give an id (%s) or a rule's name", in.Rule, strings.Join(ids, ", "))
	}
	doc := &RuleDoc{ID: r.ID, Name: r.Name, DefaultSeverity: r.Default.String(), Summary: r.Summary, Doc: r.Doc,
		Category: r.Category, Agent: r.Agent, URL: r.URL()}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: r.Explain()}}}, doc, nil
}

// NoInput is the arguments of a tool that takes none.
type NoInput struct{}

// Profiles is the agents tool's result.
type Profiles struct {
	Profiles []Profile `json:"profiles"`
}

// Profile is one agent profile as `rivumi-lint agents` lists it.
type Profile struct {
	Name    string `json:"name"`
	Product string `json:"product"`
	Version string `json:"version,omitempty"` // "" for Rivumi: the spec is the version
	Loads   string `json:"loads"`
}

func (s *Server) agents(_ context.Context, _ *sdk.CallToolRequest, _ NoInput) (*sdk.CallToolResult, *Profiles, error) {
	out := &Profiles{Profiles: []Profile{}}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tAGENT\tVERSION\tLOADS")
	for _, row := range profiles.All() {
		p := row.Profile
		out.Profiles = append(out.Profiles, Profile{Name: p.Name, Product: p.Product, Version: p.Version, Loads: p.Summary})
		v := p.Version
		if v == "" {
			v = "(docs/spec.md)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Name, p.Product, v, p.Summary)
	}
	tw.Flush()
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: b.String()}}}, out, nil
}
