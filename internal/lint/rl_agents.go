package lint

import (
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/codex"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// The rules of the other agent profiles (A4). They read each checked
// directory's view of the agent (Inputs.Codex) and run only when the
// profile is enabled; RL017 compares the profiles and runs when two are.

func init() {
	codexCLI := "Codex CLI " + codex.Version
	register(Rule{ID: "RL015", Name: "codex-cut", Default: Error, Agent: codex.Name,
		Category: "budget", Precision: "very-high",
		Summary: codexCLI + " cuts or drops instruction text: the chain is over its project_doc_max_bytes budget.",
		Doc: codexCLI + " (codex-rs/core/src/agents_md.rs) gives the whole chain of project files, from the directory of its root marker (.git) down to the working directory, one budget: project_doc_max_bytes, 32768 bytes by default. The file that crosses it is cut at that byte, possibly mid-sentence or mid-character, with no marker, and every later file is dropped; Codex only logs it. " +
			"The finding is on the file cut (with the line the cut falls in) or on each file dropped, and lists the directories it happens from. Fix: shorten the files of the chain or move detail into deeper directories' files; raise project_doc_max_bytes in Codex's config.toml (and codex.project_doc_max_bytes here) only if every user of the repository does.",
		Input: InAgents, run: checkCodexCut})
	register(Rule{ID: "RL016", Name: "codex-empty-override", Default: Warning, Agent: codex.Name,
		Category: "precedence", Precision: "very-high",
		Summary: "A whitespace-only AGENTS.override.md takes its directory's slot for " + codexCLI + ", hiding the file beside it.",
		Doc:     "In each directory " + codexCLI + " takes the first of AGENTS.override.md, AGENTS.md and the fallback names that is a file, then adds nothing for it when its text is whitespace only: an empty or blank override (left behind after a local experiment, or created by a tool) makes Codex never load the AGENTS.md beside it. Rivumi reads such an override as an empty layer that suppresses the layers above it (RL005 reports that). Fix: delete the empty override, or put the rules it should hold in it.",
		Input:   InAgents, run: checkCodexEmptyOverride})
	register(Rule{ID: "RL017", Name: "agents-differ", Default: Notice, Agent: AnyAgents,
		Category: "loading", Precision: "very-high",
		Summary: "The enabled agents load different files, or different bytes, in one directory.",
		Doc:     "The agents each read the same files by their own rules (docs/agent-profiles.md): Rivumi skips a link, Codex follows it; Rivumi reads RIVUMI.md, Codex never does; Rivumi rejects a file with invalid UTF-8, Codex replaces the bytes; Rivumi's override suppresses the layers above it, Codex's only takes its directory's slot. The finding lists who sees what in the directory, every enabled agent's side in one finding per file; it is left out where another finding on the file already says what differs (a rejection names what every agent does; RL018 says Claude Code does not load an AGENTS.md). It is a notice: a difference may be intended. Fix: make the files mean the same to every agent the repository is used with (one regular UTF-8 AGENTS.md per directory is read alike), or turn the rule off.",
		Input:   InAgents, run: checkAgentsDiffer})
}

// AnyAgents is the Agent of a rule that compares the enabled profiles: it
// runs when two or more are.
const AnyAgents = "*"

func codexLabel() string { return "Codex CLI " + codex.Version }

func checkCodexCut(p *pass) {
	for _, c := range p.view.Candidates {
		switch c.State {
		case agent.Truncated:
			p.emit(Finding{Path: c.Path, Line: c.Line, Column: c.Column, Agent: codex.Name,
				Message: fmt.Sprintf("%s cuts this file after %d of its %d bytes, in line %d: the chain of project files reaches project_doc_max_bytes (%d) here, and Codex drops the rest, and any file after it, without a word. Fix: shorten the files of the chain or move detail into deeper directories' files, or raise project_doc_max_bytes in Codex's config.toml (codex.project_doc_max_bytes here)",
					codexLabel(), c.Kept, c.Size, c.Line, c.Budget)})
		case agent.Dropped:
			p.emit(Finding{Path: c.Path, Agent: codex.Name,
				Message: fmt.Sprintf("%s never loads this file: the files above it in the chain use up project_doc_max_bytes (%d) first. Fix: shorten the files above it, or raise project_doc_max_bytes in Codex's config.toml (codex.project_doc_max_bytes here)",
					codexLabel(), c.Budget)})
		}
	}
}

func checkCodexEmptyOverride(p *pass) {
	var prev *agent.Candidate
	for i := range p.view.Candidates {
		c := &p.view.Candidates[i]
		if c.State == agent.Shadowed && prev != nil && prev.State == agent.Empty &&
			resolve.ParentDir(prev.Path) == resolve.ParentDir(c.Path) && strings.HasSuffix(prev.Path, ".override.md") {
			p.emit(Finding{Path: prev.Path, Agent: codex.Name,
				Message: fmt.Sprintf("%s takes this override for its directory and adds nothing for it (its text is whitespace only), so it never loads %s beside it. Fix: delete the override, or put the rules it should hold in it",
					codexLabel(), c.Path)})
		}
		if c.State != agent.Shadowed {
			prev = c
		}
	}
}

// checkAgentsDiffer compares, for each directory of the chain, the file
// Rivumi takes with the one Codex takes, and what each gets of it.
func checkAgentsDiffer(p *pass) {
	// directory → the file the agent takes there: a chain has a few
	// directories, looked through faster than hashed (a map per view
	// showed in a whole worktree's profile), none allocated for most.
	var buf [16]dirTake
	takes := dirTakes(buf[:0])
	label := p.label
	if label == "" {
		label = p.agent.Profile().Label()
	}
	for i := range p.view.Candidates {
		c := &p.view.Candidates[i]
		switch c.State {
		case agent.Shadowed, agent.NotAFile:
			continue
		case agent.Imported:
			// Text only this agent adds: an @import Rivumi reads as a line.
			if by := c.ImportedBy; by != "" && !strings.HasPrefix(by, "/") && !strings.HasPrefix(by, "~") {
				part := differPart{lead: "Rivumi loads the import line as text", side: fmt.Sprintf("%s adds %s, which this file imports, to its instructions", label, c.Path), sideFirst: true, atLine: true}
				p.emit(Finding{Path: by, Line: c.Line, Column: c.Column, Agent: pairOf(p.agent), Message: part.message(), differ: []differPart{part}})
			}
			continue
		}
		if c.ImportedBy != "" {
			continue // an import the agent does not load is no directory's file
		}
		dir := resolve.ParentDir(c.Path)
		i := takes.index(dir)
		switch {
		case i < 0:
			takes = append(takes, dirTake{dir, c})
		case !p.agent.Profile().OneSlot:
			// the directory's first file is the one compared with Rivumi's layer
		default:
			takes[i].c = c
		}
	}
	suppressed := map[string][]string{} // override → the layers it suppresses that Codex loads
	var order []string
	start, inChain := p.view.Start, false
	for _, d := range p.res.Dirs {
		if d.Path == start {
			inChain = true
		}
		if !inChain {
			continue
		}
		var riv *resolve.Layer
		for i := range p.res.Layers {
			l := &p.res.Layers[i]
			if l.Scope == resolve.ScopeProject && l.Dir == d.Path && l.State != resolve.Shadowed {
				riv = l
				break
			}
		}
		var c *agent.Candidate
		if i := takes.index(d.Path); i >= 0 {
			c = takes[i].c
		}
		if riv != nil && riv.State == resolve.Suppressed && c != nil && riv.Path == c.Path &&
			(c.State == agent.Loaded || c.State == agent.Truncated) {
			// The difference is the override's: reported there, once,
			// with every layer it suppresses that Codex still loads.
			if _, ok := suppressed[riv.By]; !ok {
				order = append(order, riv.By)
			}
			suppressed[riv.By] = append(suppressed[riv.By], rootRelative(riv.Path))
			continue
		}
		if part, ok := differ(riv, c, p.agent.Profile(), label); ok {
			at := ""
			switch {
			case riv != nil:
				at = riv.Path
			case c != nil:
				at = c.Path
			}
			p.emit(Finding{Path: at, Agent: pairOf(p.agent), Message: part.message(), differ: []differPart{part}})
		}
	}
	for _, by := range order {
		side := label + " still loads them"
		if n := p.agent.Profile().OverrideNote; n != "" {
			side += ", since " + n
		}
		part := differPart{lead: fmt.Sprintf("Rivumi's override %s suppresses %s for the directories below it", by, strings.Join(suppressed[by], ", ")), side: side}
		p.emit(Finding{Path: by, Agent: pairOf(p.agent), Message: part.message(), differ: []differPart{part}})
	}
}

// dirTake is the file an agent takes in a directory.
type dirTake struct {
	dir string
	c   *agent.Candidate
}

type dirTakes []dirTake

// index is the position of dir's entry, -1 for none.
func (t dirTakes) index(dir string) int {
	for i := range t {
		if t[i].dir == dir {
			return i
		}
	}
	return -1
}

// differPart is one agent's side of what RL017 says about a file: the
// sentence's Rivumi part (lead) and the agent's (side), side first when
// sideFirst. rejected says the lead is Rivumi skipping a file it rejects,
// which the rejection's own finding already says, for every agent.
type differPart struct {
	lead, side string
	sideFirst  bool
	rejected   bool
	// about is the file the agent's side is about, when it is the
	// finding's own: a finding of the agent's own rules on it (RL018)
	// already says what the agent does there.
	about string
	// atLine says the side is about the finding's line (an import): a
	// finding of the agent's own rules at that line and column (RL022)
	// already says what the agent does with it.
	atLine bool
}

// message is the finding's message for one agent's part.
func (d differPart) message() string { return d.sentence([]string{d.side}) + ". " + differFix }

// sentence is the lead with the sides of every agent that has it.
func (d differPart) sentence(sides []string) string {
	if d.sideFirst {
		return strings.Join(sides, "; ") + "; " + d.lead
	}
	return d.lead + "; " + strings.Join(sides, "; ")
}

const differFix = "Fix: make the files mean the same to every agent used with the repository (one regular UTF-8 AGENTS.md per directory is read alike), or turn RL017 off if the difference is intended"

// differ says in parts how Rivumi's layer and the agent's file of one
// directory differ; false when both agents get the same bytes (or
// neither gets any). A file the agent loads through a link to Rivumi's
// layer in the same directory (CLAUDE.md -> AGENTS.md) is the same file.
// who is prof's label, made once per pass (a string built per candidate
// showed in a whole worktree's profile).
func differ(riv *resolve.Layer, c *agent.Candidate, prof *agent.Profile, who string) (differPart, bool) {
	codexGets := c != nil && (c.State == agent.Loaded || c.State == agent.Truncated)
	rivGets := riv != nil && riv.State == resolve.Active
	same := riv != nil && c != nil && (riv.Path == c.Path || c.Link == riv.Path && resolve.ParentDir(c.Path) == riv.Dir)
	switch {
	case riv == nil && c == nil:
		return differPart{}, false
	case riv == nil:
		if !codexGets {
			return differPart{}, false
		}
		return differPart{lead: "Rivumi reads no file in this directory (not one of its names)", side: fmt.Sprintf("%s loads %s", who, c.Path), sideFirst: true, about: c.Path}, true
	case c == nil:
		if !rivGets {
			return differPart{}, false
		}
		return differPart{lead: "Rivumi loads " + riv.Path, side: who + " reads no file in this directory (not one of its names)"}, true
	case !same:
		if !rivGets && !codexGets {
			return differPart{}, false
		}
		return differPart{lead: rivSees(riv), side: fmt.Sprintf("%s %s %s", who, codexVerb(c), c.Path), rejected: riv.State == resolve.Rejected, about: riv.Path}, true
	case c.State == agent.Empty:
		return differPart{}, false // the same whitespace: neither gets text from it
	}
	// The same file: the same bytes when both load it (an accepted file
	// is valid UTF-8; a cut is RL015's), unless the agent takes text out.
	switch {
	case rivGets && codexGets && (c.CommentsRemoved || c.FrontMatterRemoved):
		what := "its HTML comments"
		switch {
		case !c.CommentsRemoved:
			what = "its front matter"
		case c.FrontMatterRemoved:
			what = "its front matter and HTML comments"
		}
		return differPart{lead: "Rivumi loads " + riv.Path + " whole", side: who + " removes " + what, about: riv.Path}, true
	case !rivGets && codexGets:
		how := "loads it"
		switch {
		case c.Link != "" && c.Link != riv.Path:
			how = "follows the link and loads " + c.Link
		case riv.State == resolve.Rejected && riv.Rej.Cause == resolve.CauseNotUTF8:
			how = "loads it with its invalid bytes replaced by U+FFFD"
		case riv.State == resolve.Rejected && riv.Rej.Cause == resolve.CauseOversized && prof.SizeNote != "":
			how = "loads it (" + prof.SizeNote + ")"
		}
		return differPart{lead: rivSees(riv), side: who + " " + how, rejected: riv.State == resolve.Rejected, about: riv.Path}, true
	case rivGets && !codexGets && c.State != agent.Dropped && c.State != agent.Failed:
		return differPart{lead: "Rivumi loads " + riv.Path, side: who + " " + codexVerb(c), about: riv.Path}, true
	}
	return differPart{}, false
}

// rivSees says what Rivumi does with its layer of a directory.
func rivSees(l *resolve.Layer) string {
	switch l.State {
	case resolve.Active:
		return "Rivumi loads " + l.Path
	case resolve.Suppressed:
		return "Rivumi drops " + l.Path + " (the override " + l.By + " below suppresses it)"
	}
	return "Rivumi skips " + l.Path + " (" + l.Rej.Reason + ")"
}

func codexVerb(c *agent.Candidate) string {
	switch c.State {
	case agent.Loaded, agent.Truncated:
		if c.Link != "" {
			return "follows the link to " + c.Link + " and loads"
		}
		return "loads"
	case agent.Empty:
		return "adds nothing for the whitespace-only"
	}
	return "skips (" + c.Reason + ")"
}

// pairOf is the Agent of a comparison's finding: Rivumi and the profile.
func pairOf(a agent.Resolver) string { return agent.Rivumi + "," + a.Profile().Name }

// agentNote is what profile a's agent does with the file at p that Rivumi
// rejects, for the rejection findings' messages while the profile is on.
func agentNote(a agent.Resolver, p string) string {
	label := a.Profile().Label()
	c, ok := a.FileState(p)
	if !ok {
		return " " + label + " never reads it (not one of its names)."
	}
	switch c.State {
	case agent.Loaded:
		switch {
		case c.Link != "":
			return " " + label + " follows the link and loads " + c.Link + "."
		case !utf8OK(c):
			return " " + label + " loads it with its invalid bytes replaced by U+FFFD."
		}
		if n := a.Profile().SizeNote; n != "" {
			return " " + label + " loads it (" + n + ")."
		}
		return " " + label + " loads it."
	case "":
		return ""
	}
	return " " + label + ": " + c.Reason + "."
}

func utf8OK(c agent.Candidate) bool { return !c.Replaced }
