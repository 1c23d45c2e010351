package lsp

import (
	"encoding/json"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// hover shows, for an open instruction file, the chain of its directory:
// each layer with its state as the engine decided it (R5) and the bytes
// the rendered sections take of the budget (P3), the values check's JSON
// output shows for that directory.
func (s *Server) hover(params json.RawMessage) (any, error) {
	var p textDocumentPositionParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	d, err := s.document(p.TextDocument.URI)
	if err != nil {
		return nil, nil // not a file (untitled:): nothing to show
	}
	if d == nil || d.root == "" {
		return nil, nil
	}
	ov, _ := overlay(d.root, s.openIn(d.root))
	dir := dirOf(d.rel)
	res, run, err := s.runScope(d.root, ov, project.Scope{Dirs: []string{dir}})
	if err != nil {
		return nil, err // the pipeline names the directory (resolve DIR: ...)
	}
	if !run.Engine.IsCandidate(path.Base(d.rel)) || len(run.Resolutions) == 0 {
		return nil, nil // not an instruction file: nothing to show
	}
	var ld *lint.Directory
	for i := range res.Directories {
		if res.Directories[i].Path == resolve.DisplayDir(dir) {
			ld = &res.Directories[i]
		}
	}
	return hover{Contents: markupContent{Kind: "markdown", Value: chainMarkdown(run.Resolutions[0], ld)}}, nil
}

// chainMarkdown is the hover text of one directory's chain.
func chainMarkdown(r *resolve.Resolution, ld *lint.Directory) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**rivumi-lint: the chain of %s**\n\n", code(resolve.DisplayDir(r.Dir)))
	if len(r.Layers) == 0 {
		b.WriteString("No instruction file applies here.\n")
	}
	for i, l := range r.Layers {
		fmt.Fprintf(&b, "%d. %s (%s): %s\n", i+1, code(l.Path), l.Scope, layerState(l))
	}
	if ld != nil {
		fmt.Fprintf(&b, "\nRendered: %d of %d bytes of the budget", ld.RenderedBytes, ld.BudgetBytes)
		if ld.Used != "" {
			fmt.Fprintf(&b, " (%s of limits.max_dynamic_bytes used)", ld.Used)
		}
		b.WriteString(".\n")
		if ld.Fingerprint != "" {
			fmt.Fprintf(&b, "\nFingerprint: %s\n", code(ld.Fingerprint))
		}
	}
	return b.String()
}

// layerState says where a layer ended, and why when it is not active.
func layerState(l resolve.Layer) string {
	switch l.State {
	case resolve.Suppressed:
		return "suppressed by " + code(l.By)
	case resolve.Shadowed:
		return "shadowed by " + code(l.By)
	case resolve.Rejected:
		return "rejected: " + lint.RejectionRule(l.Rej.Cause) + ", " + escapeMarkdown(l.Rej.Reason)
	}
	return string(l.State)
}

// code is s as a Markdown code span; a name holding a backtick or a
// control character is shown quoted instead, so it cannot break the text.
func code(s string) string {
	if strings.ContainsAny(s, "`\r\n") || strconv.Quote(s) != `"`+s+`"` {
		return escapeMarkdown(strconv.Quote(s))
	}
	return "`" + s + "`"
}

var markdownEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "#", `\#`, "|", `\|`)

func escapeMarkdown(s string) string { return markdownEscaper.Replace(s) }
