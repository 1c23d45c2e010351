package lsp

import (
	"encoding/json"
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/project"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// hover shows, for an open instruction file, the chain of its directory:
// each layer with its state as the engine decided it (R5), the budget in
// RL006's words (P3) and the fingerprint, the values check's JSON output
// shows for that directory.
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
	name := path.Base(d.rel)
	if len(run.Resolutions) == 0 || !run.Engine.IsCandidate(name) && !agentName(run, name) && !agentsFile(run, d.rel) {
		return nil, nil // not an instruction file of an enabled agent: nothing to show
	}
	var ld *lint.Directory
	for i := range res.Directories {
		if res.Directories[i].Path == resolve.DisplayDir(dir) {
			ld = &res.Directories[i]
		}
	}
	text := chainMarkdown(run.Resolutions[0], ld)
	if len(run.Agents) > 0 {
		text += agentsMarkdown(run, d.rel)
	}
	return hover{Contents: markupContent{Kind: "markdown", Value: text}}, nil
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
		// check's own budget line (lint.Limits.BudgetLine): the share is
		// of rendered + reserved, so printing it beside rendered of
		// max - reserved gave arithmetic that did not add up (#33.14).
		if ld.Budget != "" {
			fmt.Fprintf(&b, "\nBudget (limits.max_dynamic_bytes): %s.\n", ld.Budget)
		}
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

// agentName reports whether name is one an enabled profile tries in a
// directory: a fallback name such as CLAUDE.md is an instruction file to
// that agent alone.
func agentName(run *project.Run, name string) bool {
	for _, a := range run.Agents {
		for _, n := range a.Resolver.Names() {
			if path.Base(n) == name {
				return true
			}
		}
	}
	return false
}

// agentsMarkdown is the hover's part for the other enabled profiles (A3):
// what each agent does with the hovered file rel, beside Rivumi's state
// of it, since the profiles may load the same file differently.
func agentsMarkdown(run *project.Run, rel string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n**The enabled agents on %s**\n\n", code(rel))
	fmt.Fprintf(&b, "- Rivumi: %s\n", rivumiFileState(run, rel))
	for _, a := range run.Agents {
		fmt.Fprintf(&b, "- %s: %s\n", a.Resolver.Profile().Label(), agentFileState(a, rel))
	}
	return b.String()
}

// agentsFile reports whether rel is a file one of the other enabled
// profiles reads (Claude Code's CLAUDE.md).
func agentsFile(run *project.Run, rel string) bool {
	for _, a := range run.Agents {
		if _, ok := a.Resolver.FileState(rel); ok {
			return true
		}
	}
	return false
}

// rivumiFileState is the state of the file rel in Rivumi's chain of its
// directory.
func rivumiFileState(run *project.Run, rel string) string {
	for _, l := range run.Resolutions[0].Layers {
		if l.Scope == resolve.ScopeProject && l.Path == rel {
			return layerState(l)
		}
	}
	if !run.Engine.IsCandidate(path.Base(rel)) {
		return "ignored: not one of Rivumi's names (filenames.override, filenames.normal)"
	}
	return "not in the chain"
}

// agentFileState is what a profile's agent does with the file rel when it
// starts in rel's directory: its state in the view of that directory's
// chain (a budget from the chain's start down to it), else as a
// candidate of its directory alone (a view lists no file it cannot know,
// nor a non-file once project files are off).
func agentFileState(a project.AgentRun, rel string) string {
	v, res := a.Views[0], a.Resolver
	for i, c := range v.Candidates {
		if c.Path == rel {
			return agentState(res.Profile(), c, v.Lost, shadowing(v.Candidates[:i], rel)) + inexact(v)
		}
	}
	names := res.Names()
	if !slices.ContainsFunc(names, func(n string) bool { return path.Base(n) == path.Base(rel) }) {
		return agentState(res.Profile(), agent.Candidate{State: agent.Ignored}, "", "")
	}
	if c, ok := res.FileState(rel); ok {
		var before []agent.Candidate
		for _, n := range names {
			p := path.Join(resolve.ParentDir(rel), n)
			if p == rel {
				break
			}
			if o, ok := res.FileState(p); ok {
				before = append(before, o)
			}
		}
		return agentState(res.Profile(), c, "", shadowing(before, rel)) + inexact(v)
	}
	switch {
	case v.Lost != "":
		// The agent stopped at an error before it reached the file's name.
		return agentState(res.Profile(), agent.Candidate{State: agent.Failed}, v.Lost, "")
	case v.Inexact != "":
		return "not known: " + escapeMarkdown(v.Inexact)
	}
	return "not in its chain"
}

// shadowing is the file that takes rel's directory's slot among before,
// the candidates tried before rel: the last of its directory that is
// neither shadowed nor not a file.
func shadowing(before []agent.Candidate, rel string) string {
	by := ""
	for _, c := range before {
		if resolve.ParentDir(c.Path) == resolve.ParentDir(rel) && c.State != agent.Shadowed && c.State != agent.NotAFile {
			by = c.Path
		}
	}
	return by
}

// agentState says in a few words what an agent does with one candidate;
// lost is the view's error, by the file that takes the slot of a shadowed
// one.
func agentState(prof *agent.Profile, c agent.Candidate, lost, by string) string {
	var s string
	switch c.State {
	case agent.Loaded:
		s = "loaded"
		var how []string
		if c.FrontMatterRemoved {
			how = append(how, "front matter removed")
		}
		if c.CommentsRemoved {
			how = append(how, "HTML comments removed")
		}
		if c.Replaced {
			how = append(how, "invalid UTF-8 replaced with U+FFFD")
		}
		if len(how) > 0 {
			s += " (" + strings.Join(how, ", ") + ")"
		}
	case agent.Truncated:
		s = fmt.Sprintf("cut at byte %d of %d (line %d)", c.Kept, c.Size, c.Line)
	case agent.Dropped:
		s = "dropped (the budget is used up)"
	case agent.Empty:
		s = "empty: adds nothing"
	case agent.Shadowed:
		s = "shadowed"
		if by != "" {
			s += " by " + code(by)
		}
	case agent.NotAFile:
		s = "not a file"
	case agent.Outside:
		s = "follows a link out of the repository: what it loads is not known here"
	case agent.Failed:
		if lost == "" {
			lost = c.Reason
		}
		s = "error: " + escapeMarkdown(prof.Product) + " loads no project file (" + escapeMarkdown(lost) + ")"
	case agent.Disabled:
		s = "off: " + escapeMarkdown(c.Reason)
	case agent.Ignored:
		if c.Reason == "" {
			s = "ignored: not one of " + escapeMarkdown(prof.Product) + "'s names"
		} else {
			s = "ignored: " + escapeMarkdown(c.Reason)
		}
	default:
		s = escapeMarkdown(string(c.State))
		if c.Reason != "" {
			s += ": " + escapeMarkdown(c.Reason)
		}
	}
	if c.Link != "" {
		s = "follows the link to " + code(c.Link) + ": " + s
	}
	return s
}

// inexact is the note on a view whose text cannot be known here.
func inexact(v *agent.View) string {
	if v.Exact() {
		return ""
	}
	return " (not exact: " + escapeMarkdown(v.Inexact) + ")"
}
