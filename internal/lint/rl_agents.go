package lint

import (
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// The rules of the other agent profiles (A4). They read each checked
// directory's view of the agent (Inputs.Codex) and run only when the
// profile is enabled; RL017 compares the profiles and runs when two are.

func init() {
	codex := "Codex CLI " + agent.CodexVersion
	register(Rule{ID: "RL015", Name: "codex-cut", Default: Error, Agent: agent.Codex,
		Category: "budget", Precision: "very-high",
		Summary: codex + " cuts or drops instruction text: the chain is over its project_doc_max_bytes budget.",
		Doc: codex + " (codex-rs/core/src/agents_md.rs) gives the whole chain of project files, from the directory of its root marker (.git) down to the working directory, one budget: project_doc_max_bytes, 32768 bytes by default. The file that crosses it is cut at that byte, possibly mid-sentence or mid-character, with no marker, and every later file is dropped; Codex only logs it. " +
			"The finding is on the file cut (with the line the cut falls in) or on each file dropped, and lists the directories it happens from. Fix: shorten the files of the chain or move detail into deeper directories' files; raise project_doc_max_bytes in Codex's config.toml (and codex.project_doc_max_bytes here) only if every user of the repository does.",
		Input: InAgents, run: checkCodexCut})
	register(Rule{ID: "RL016", Name: "codex-empty-override", Default: Warning, Agent: agent.Codex,
		Category: "precedence", Precision: "very-high",
		Summary: "A whitespace-only AGENTS.override.md takes its directory's slot for " + codex + ", hiding the file beside it.",
		Doc:     "In each directory " + codex + " takes the first of AGENTS.override.md, AGENTS.md and the fallback names that is a file, then adds nothing for it when its text is whitespace only: an empty or blank override (left behind after a local experiment, or created by a tool) makes Codex never load the AGENTS.md beside it. Rivumi reads such an override as an empty layer that suppresses the layers above it (RL005 reports that). Fix: delete the empty override, or put the rules it should hold in it.",
		Input:   InAgents, run: checkCodexEmptyOverride})
	register(Rule{ID: "RL017", Name: "agents-differ", Default: Notice, Agent: AnyAgents,
		Category: "loading", Precision: "very-high",
		Summary: "The enabled agents load different files, or different bytes, in one directory.",
		Doc:     "The agents each read the same files by their own rules (docs/agent-profiles.md): Rivumi skips a link, Codex follows it; Rivumi reads RIVUMI.md, Codex never does; Rivumi rejects a file with invalid UTF-8, Codex replaces the bytes; Rivumi's override suppresses the layers above it, Codex's only takes its directory's slot. The finding lists who sees what in the directory. It is a notice: a difference may be intended. Fix: make the files mean the same to every agent the repository is used with (one regular UTF-8 AGENTS.md per directory is read alike), or turn the rule off.",
		Input:   InAgents, run: checkAgentsDiffer})
}

// AnyAgents is the Agent of a rule that compares the enabled profiles: it
// runs when two or more are.
const AnyAgents = "*"

func codexLabel() string { return "Codex CLI " + agent.CodexVersion }

func checkCodexCut(p *pass) {
	for _, c := range p.view.Candidates {
		switch c.State {
		case agent.Truncated:
			p.emit(Finding{Path: c.Path, Line: c.Line, Column: c.Column, Agent: agent.Codex,
				Message: fmt.Sprintf("%s cuts this file after %d of its %d bytes, in line %d: the chain of project files reaches project_doc_max_bytes (%d) here, and Codex drops the rest, and any file after it, without a word. Fix: shorten the files of the chain or move detail into deeper directories' files, or raise project_doc_max_bytes in Codex's config.toml (codex.project_doc_max_bytes here)",
					codexLabel(), c.Kept, c.Size, c.Line, c.Budget)})
		case agent.Dropped:
			p.emit(Finding{Path: c.Path, Agent: agent.Codex,
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
			p.emit(Finding{Path: prev.Path, Agent: agent.Codex,
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
	codex := map[string]*agent.Candidate{} // directory → the file the agent takes there
	label := p.agent.Profile().Label()
	for i := range p.view.Candidates {
		c := &p.view.Candidates[i]
		switch c.State {
		case agent.Shadowed, agent.NotAFile:
			continue
		case agent.Imported:
			// Text only this agent adds: an @import Rivumi reads as a line.
			if by := c.ImportedBy; by != "" && !strings.HasPrefix(by, "/") && !strings.HasPrefix(by, "~") {
				p.emit(Finding{Path: by, Line: c.Line, Column: c.Column, Agent: pairOf(p.agent), Message: fmt.Sprintf(
					"%s adds %s, which this file imports, to its instructions; Rivumi loads the import line as text. %s", label, c.Path, differFix)})
			}
			continue
		}
		if _, taken := codex[resolve.ParentDir(c.Path)]; taken && p.agent.Profile().Name != agent.Codex {
			continue // the directory's first file is the one compared with Rivumi's layer
		}
		codex[resolve.ParentDir(c.Path)] = c
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
		c := codex[d.Path]
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
		if msg := differ(riv, c, p.agent.Profile().Label()); msg != "" {
			at := ""
			switch {
			case riv != nil:
				at = riv.Path
			case c != nil:
				at = c.Path
			}
			p.emit(Finding{Path: at, Agent: pairOf(p.agent), Message: msg + ". " + differFix})
		}
	}
	for _, by := range order {
		p.emit(Finding{Path: by, Agent: pairOf(p.agent), Message: fmt.Sprintf("Rivumi's override %s suppresses %s for the directories below it; %s still loads them, since its overrides take only their own directory's slot. %s",
			by, strings.Join(suppressed[by], ", "), p.agent.Profile().Label(), differFix)})
	}
}

const differFix = "Fix: make the files mean the same to every agent used with the repository (one regular UTF-8 AGENTS.md per directory is read alike), or turn RL017 off if the difference is intended"

// differ says in words how Rivumi's layer and Codex's file of one
// directory differ; "" when both agents get the same bytes (or neither
// gets any).
func differ(riv *resolve.Layer, c *agent.Candidate, codex string) string {
	codexGets := c != nil && (c.State == agent.Loaded || c.State == agent.Truncated)
	rivGets := riv != nil && riv.State == resolve.Active
	switch {
	case riv == nil && c == nil:
		return ""
	case riv == nil:
		if !codexGets {
			return ""
		}
		return fmt.Sprintf("%s loads %s; Rivumi reads no file in this directory (not one of its names)", codex, c.Path)
	case c == nil:
		if !rivGets {
			return ""
		}
		return fmt.Sprintf("Rivumi loads %s; %s reads no file in this directory (not one of its names)", riv.Path, codex)
	case riv.Path != c.Path:
		if !rivGets && !codexGets {
			return ""
		}
		return fmt.Sprintf("%s; %s %s %s", rivSees(riv), codex, codexVerb(c), c.Path)
	case c.State == agent.Empty:
		return "" // the same whitespace: neither gets text from it
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
		return fmt.Sprintf("Rivumi loads %s whole; %s removes %s", riv.Path, codex, what)
	case !rivGets && codexGets:
		how := "loads it"
		switch {
		case c.Link != "":
			how = "follows the link and loads " + c.Link
		case riv.State == resolve.Rejected && riv.Rej.Cause == resolve.CauseNotUTF8:
			how = "loads it with its invalid bytes replaced by U+FFFD"
		case riv.State == resolve.Rejected && riv.Rej.Cause == resolve.CauseOversized:
			how = "loads it: Codex has no size limit of its own, only the chain's shared budget"
		}
		return fmt.Sprintf("%s; %s %s", rivSees(riv), codex, how)
	case rivGets && !codexGets && c.State != agent.Dropped && c.State != agent.Failed:
		return fmt.Sprintf("Rivumi loads %s; %s %s", riv.Path, codex, codexVerb(c))
	}
	return ""
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
		if a.Profile().Name == agent.Codex {
			return " " + label + " loads it (it has no size limit of its own, only the chain's shared budget)."
		}
		return " " + label + " loads it."
	case "":
		return ""
	}
	return " " + label + ": " + c.Reason + "."
}

func utf8OK(c agent.Candidate) bool { return !c.Replaced }
