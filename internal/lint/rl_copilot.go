package lint

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/codex"
	"github.com/rivumi/rivumi-lint/internal/agent/copilot"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// The copilot profile's rules (#35): where GitHub Copilot CLI differs from
// the other agents in ways that hurt. They read Copilot's view of each
// checked directory (docs/agent-profiles.md, rules 1–8) and run only while
// the profile is on. None has a fix: each cause is a file another agent
// reads as it is (a CLAUDE.md's import, an override, a link, front
// matter), so removing it is the user's choice.

func init() {
	copilotCLI := "GitHub Copilot CLI " + copilot.Version
	register(Rule{ID: "RL022", Name: "copilot-loaded-twice", Default: Warning, Agent: copilot.Name,
		Category: "loading", Precision: "very-high",
		Summary: copilotCLI + " sends the same file's text twice: an @import of a file it loads anyway, or a link to a file of another directory.",
		Doc: copilotCLI + " drops a block whose text equals an earlier one (identical files, or a link beside its target, load once), but it loads every instruction file on its own and also expands @imports of it into the file that imports them, each importing file whole: a CLAUDE.md holding @AGENTS.md sends AGENTS.md twice. A link in another directory to an instruction file with imports gives a second text: as a GEMINI.md it is read raw (Copilot never expands a GEMINI.md's imports), under another name its imports are resolved beside the link, not beside the target. Either way the model reads the rules twice, which costs context and weighs them double. " +
			"The finding is on the import (its line and column) or the link. There is no automatic fix: the import or link is there for another agent. Fix: drop the import where Copilot loads the file anyway (for Claude Code, a link CLAUDE.md -> AGENTS.md beside its target gives the same bytes and Copilot loads it once); import a file from one instruction file only; replace a link to another directory's file with a file of its own.",
		Input: InAgents, run: checkCopilotTwice})
	register(Rule{ID: "RL023", Name: "copilot-unread", Default: Warning, Agent: copilot.Name,
		Category: "loading", Precision: "very-high",
		Summary: "An instruction file " + copilotCLI + " never reads on the path: a .github/instructions folder between the Git root and the working directory, or an AGENTS.override.md the other enabled agents honour.",
		Doc: copilotCLI + " reads .github/instructions/**/*.instructions.md only at the Git root and in the directory it is started in, never in the directories between: a nested folder's files (a package's own) load only when Copilot starts in that very directory, not in the root or below it (a warning). It never reads AGENTS.override.md: where Rivumi or Codex take the override instead of the AGENTS.md beside it, Copilot loads that AGENTS.md instead (a notice: the override may be meant for them alone; RL017 is then not reported on it). " +
			"There is no automatic fix. Fix: move a nested folder's files to the root's .github/instructions with an applyTo pattern below their directory (applyTo: \"pkg/**\"); put what an override must say for Copilot too into the AGENTS.md beside it.",
		Input: InAgents, run: checkCopilotUnread})
	register(Rule{ID: "RL024", Name: "copilot-front-matter", Default: Notice, Agent: copilot.Name,
		Category: "content", Precision: "very-high",
		Summary: copilotCLI + " sends an instruction file's front matter into the prompt as text.",
		Doc:     copilotCLI + " loads AGENTS.md, CLAUDE.md, GEMINI.md and .github/copilot-instructions.md raw, front matter included; it reads front matter only in .github/instructions files, so keys there (applyTo, paths, description) neither limit where the file applies nor stay out of the prompt (Claude Code removes front matter; Rivumi and Codex keep it too). The finding is on the file's first line. Fix: remove the front matter, or move text meant for some paths to .github/instructions/NAME.instructions.md with applyTo.",
		Input:   InAgents, run: checkCopilotFrontMatter})
	register(Rule{ID: "RL025", Name: "copilot-import", Default: Warning, Agent: copilot.Name,
		Category: "loading", Precision: "very-high",
		Summary: "An @import " + copilotCLI + " does not expand: missing, not a file, not UTF-8, an absolute path, or outside the Git root.",
		Doc:     copilotCLI + " expands an @path import (resolved beside the importing file) into the file's text, and leaves the @path as plain text when it names no file, a directory, a file that is not UTF-8, an absolute path, or a path leaving the Git root, without a word. Only tokens shaped like a file's path are reported (./ or ../ first, or an extension: @docs/style.md), not @mentions. The finding is at the import. Fix: point it at an existing UTF-8 file inside the repository, by a path relative to the importing file, or inline the text.",
		Input:   InAgents, run: checkCopilotImport})
}

func copilotLabel() string { return "GitHub Copilot CLI " + copilot.Version }

// inSpan reports whether the candidate's text is in Copilot's span: a
// chain file's own block or an import, sent (Kept > 0: a repeated block
// is dropped, with its imports).
func inSpan(c *agent.Candidate) bool {
	switch {
	case c.Kept == 0:
		return false
	case c.State == agent.Imported:
		return true
	}
	return c.State == agent.Loaded && c.ImportedBy == ""
}

func checkCopilotTwice(p *pass) {
	// A text twice needs two in the span: most views have fewer, and
	// need no map.
	n := 0
	for i := range p.view.Candidates {
		if inSpan(&p.view.Candidates[i]) {
			n++
		}
	}
	if n < 2 {
		return
	}
	byFile := map[string][]*agent.Candidate{} // real path → its texts in the span, in order
	var order []string
	for i := range p.view.Candidates {
		c := &p.view.Candidates[i]
		if !inSpan(c) {
			continue
		}
		real := c.Path
		if c.Link != "" {
			real = c.Link
		}
		if _, ok := byFile[real]; !ok {
			order = append(order, real)
		}
		byFile[real] = append(byFile[real], c)
	}
	for _, real := range order {
		cs := byFile[real]
		if len(cs) < 2 {
			continue
		}
		// The first time is the file on its own when it is a block of the
		// chain, else the first import: every other one is the finding.
		first := cs[0]
		for _, c := range cs {
			if c.ImportedBy == "" && c.Link == "" {
				first = c
				break
			}
		}
		once := "once on its own"
		if first.ImportedBy != "" {
			once = "once imported by " + first.ImportedBy
		} else if first.Link != "" {
			once = "once through the link " + first.Path
		}
		for _, c := range cs {
			if c == first {
				continue
			}
			if c.ImportedBy != "" {
				if len(byFile[c.ImportedBy]) > 1 {
					continue // a file sent twice sends its imports twice: the finding is its own
				}
				fix := "drop the import, since Copilot loads the file anyway (if another agent needs it, a link beside the target, CLAUDE.md -> AGENTS.md, gives it the same bytes and Copilot loads it once)"
				if first.ImportedBy != "" {
					fix = "import it from one instruction file only, or inline it once"
				}
				p.emit(Finding{Path: c.ImportedBy, Line: c.Line, Column: c.Column, Agent: copilot.Name,
					Message: fmt.Sprintf("%s sends the text of %s twice: %s and again here, where this file imports it. Fix: %s", copilotLabel(), real, once, fix)})
				continue
			}
			p.emit(Finding{Path: c.Path, Agent: copilot.Name,
				Message: fmt.Sprintf("%s sends the text of %s twice: %s and again through this link, which leads to another directory, where the file's imports come out otherwise (a GEMINI.md's are never expanded, another name's are resolved beside the link), so it is a second text. Fix: give this directory a file of its own, or remove the link (Copilot loads %s on this path already)", copilotLabel(), real, once, real)})
		}
	}
}

func checkCopilotUnread(p *pass) {
	for _, c := range p.view.Candidates {
		if c.State != agent.Ignored || c.ImportedBy != "" || !strings.Contains("/"+c.Path, "/.github/instructions/") {
			continue
		}
		folder := c.Path[:strings.Index("/"+c.Path, "/.github/instructions/")-1] // never the root's
		p.emit(Finding{Path: c.Path, Agent: copilot.Name,
			Message: fmt.Sprintf("%s reads .github/instructions only at the Git root and in the directory it is started in, not in the directories between: started below %s, it never loads this file. Fix: move it to the root's .github/instructions with an applyTo pattern below %s (applyTo: \"%s/**\")", copilotLabel(), folder, folder, folder)})
	}
	// The overrides: Copilot never reads one (rule 2); said where another
	// enabled agent takes it.
	for _, l := range p.res.Layers {
		if l.Scope != resolve.ScopeProject || !l.Override || path.Base(l.Path) != "AGENTS.override.md" || l.State == resolve.Rejected {
			continue
		}
		var who []string
		if slices.Contains(p.agents, agent.Rivumi) && l.State == resolve.Active {
			who = append(who, "Rivumi")
		}
		if slices.Contains(p.agents, codex.Name) {
			who = append(who, codex.Profile.Label())
		}
		if len(who) == 0 {
			continue
		}
		beside := path.Join(l.Dir, "AGENTS.md")
		take := " take"
		if len(who) == 1 {
			take = " takes"
		}
		p.emit(Finding{Path: l.Path, Agent: copilot.Name, Severity: Notice, covers: true,
			Message: fmt.Sprintf("%s never reads AGENTS.override.md: where %s this override, Copilot loads %s beside it instead, if there is one. Fix: put what the override says that Copilot must follow too into %s, or turn RL023 off for the override if it is meant for the others alone",
				copilotLabel(), strings.Join(who, " and ")+take, beside, beside)})
	}
}

func checkCopilotFrontMatter(p *pass) {
	for _, c := range p.view.Candidates {
		if !c.FrontMatter || !inSpan(&c) || c.State != agent.Loaded {
			continue
		}
		p.emit(Finding{Path: c.Path, Line: 1, Column: 1, Agent: copilot.Name,
			Message: fmt.Sprintf("%s sends this file's front matter into the prompt as text: it reads front matter only in .github/instructions files, so its keys neither limit where the file applies nor stay out of the model's input. Fix: remove the front matter, or move text meant for some paths to .github/instructions/NAME.instructions.md with applyTo", copilotLabel())})
	}
}

func checkCopilotImport(p *pass) {
	for _, c := range p.view.Candidates {
		if c.ImportedBy == "" {
			continue
		}
		switch c.State {
		case agent.NotAFile, agent.Outside, agent.Ignored:
		default:
			continue
		}
		p.emit(Finding{Path: c.ImportedBy, Line: c.Line, Column: c.Column, Agent: copilot.Name,
			Message: fmt.Sprintf("%s does not expand the import of %s: %s. Fix: point it at an existing UTF-8 file inside the repository, by a path relative to the importing file, or inline the text",
				copilotLabel(), c.Path, c.Reason)})
	}
}
