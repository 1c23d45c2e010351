package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/report"
)

// CheckInput is the check tool's arguments: check's PATHs or --staged.
type CheckInput struct {
	Paths  []string `json:"paths,omitempty" jsonschema:"files or directories inside the project (a file is checked from its directory); none: the whole worktree"`
	Staged bool     `json:"staged,omitempty" jsonschema:"check the index against HEAD (check --staged); excludes paths"`
}

// maxPaths bounds the paths of one call: more than pre-commit passes for
// a large change, far fewer than would make one message a denial of
// service.
const maxPaths = 10000

// checkOutputSchema is the shape of check's JSON document (docs/json.md):
// the writer's own bytes are the structured result, so the schema says
// only what every version-1 document holds.
func checkOutputSchema() *jsonschema.Schema {
	arr := func() *jsonschema.Schema {
		return &jsonschema.Schema{Type: "array", Items: &jsonschema.Schema{Type: "object"}}
	}
	return &jsonschema.Schema{
		Type:     "object",
		Required: []string{"version", "findings", "directories", "drift", "summary"},
		Properties: map[string]*jsonschema.Schema{
			"version":     {Type: "integer"},
			"findings":    arr(),
			"directories": arr(),
			"drift":       arr(),
			"summary":     {Type: "object"},
		},
	}
}

func (s *Server) check(_ context.Context, _ *sdk.CallToolRequest, in CheckInput) (*sdk.CallToolResult, any, error) {
	if in.Staged && len(in.Paths) > 0 {
		return nil, nil, errors.New("paths cannot be combined with staged: the change decides which directories are checked")
	}
	if len(in.Paths) > maxPaths {
		return nil, nil, fmt.Errorf("%d paths, over %d: check their directories, or the whole worktree with no paths", len(in.Paths), maxPaths)
	}
	var abs []string
	for _, p := range in.Paths {
		a, err := s.target(p)
		if err != nil {
			return nil, nil, err
		}
		abs = append(abs, a)
	}
	var diff repo.Range
	if in.Staged {
		diff = repo.Range{Kind: repo.RangeStaged}
	}
	res, notes, err := project.Check(project.Options{Root: s.o.Root, Config: s.o.Config, Targets: abs, Command: "check",
		Env: s.o.Env},
		project.Scope{Diff: diff, Paths: abs, Typed: true})
	if err != nil {
		return nil, nil, withNotes(err, notes)
	}
	wo := report.Options{ToolVersion: s.o.Version}
	var doc, text bytes.Buffer
	if err := report.JSON(&doc, res, wo); err != nil {
		return nil, nil, fmt.Errorf("write the json report: %w", err)
	}
	textWriter, _ := report.Lookup("text")
	if err := textWriter(&text, res, wo); err != nil {
		return nil, nil, fmt.Errorf("write the text report: %w", err)
	}
	for _, n := range notes {
		fmt.Fprintf(&text, "note: %s\n", n.Text)
	}
	return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text.String()}}}, json.RawMessage(doc.Bytes()), nil
}

// withNotes adds the notes gathered before a failure to its message: they
// often say why (a fall-back to the git binary).
func withNotes(err error, notes []project.Note) error {
	if len(notes) == 0 {
		return err
	}
	var b strings.Builder
	for _, n := range notes {
		b.WriteString("; note: " + n.Text)
	}
	return fmt.Errorf("%w%s", err, b.String())
}
