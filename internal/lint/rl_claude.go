package lint

import (
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/claude"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// The claude profile's rules (issue #24): they read Claude Code's view of
// each checked directory and run only while the profile is on.

func init() {
	claudeCode := "Claude Code " + claude.Version
	register(Rule{ID: "RL018", Name: "claude-agents-off", Default: Warning, Agent: claude.Name,
		Category: "loading", Precision: "very-high",
		Summary: claudeCode + " loads no AGENTS.md on a path where a CLAUDE.md-family file exists.",
		Doc:     "In its default mode (the agents-md plugin's instructionFiles: claude-md-or-agents-md) " + claudeCode + " reads AGENTS.md only when no CLAUDE.md, .claude/CLAUDE.md or CLAUDE.local.md loads anywhere on the chain — one such file, a link CLAUDE.md → AGENTS.md at the root included, turns off every AGENTS.md of every directory, silently. Fix: set instructionFiles to claude-md-and-agents-md in Claude Code's settings (claude.instruction_files here), or give each directory that needs it a CLAUDE.md. An @AGENTS.md import in the root's CLAUDE.md is no fix: " + claude.Version + " drops an import that lies above its working directory.",
		Input:   InAgents, run: checkClaudeAgentsOff})
	register(Rule{ID: "RL019", Name: "claude-import", Default: Warning, Agent: claude.Name,
		Category: "loading", Precision: "very-high",
		Summary: "An @import that " + claudeCode + " does not load: missing, not a file, too deep, or outside its working directory.",
		Doc:     claudeCode + " expands @path imports in instruction files into entries of their own, four levels deep, each path once, and only for paths (and link targets) inside the directory it was started in; an import it cannot load vanishes without a word. The finding is at the import. Fix: point the import at an existing file below the directories Claude is started in, or inline the text.",
		Input:   InAgents, run: checkClaudeImport})
	register(Rule{ID: "RL020", Name: "claude-oversized", Default: Error, Agent: claude.Name,
		Category: "loading", Precision: "very-high",
		Summary: claudeCode + " skips an instruction file over 4 MiB whole.",
		Doc:     claudeCode + " reads an instruction file of up to 4,194,304 bytes whole and skips a larger one entirely, with no message (its documentation says files load in full regardless of length). Fix: shorten the file or split it into the directories it is about.",
		Input:   InAgents, run: checkClaudeOversized})
}

func claudeLabel() string { return "Claude Code " + claude.Version }

func checkClaudeAgentsOff(p *pass) {
	for _, c := range p.view.Candidates {
		base := c.Path[strings.LastIndexByte(c.Path, '/')+1:]
		if c.State != agent.Ignored || base != "AGENTS.md" || loadedThroughLink(p.view, c.Path) {
			continue
		}
		p.emit(Finding{Path: c.Path, Agent: claude.Name,
			Message: fmt.Sprintf("%s does not load this AGENTS.md: %s. Fix: set instructionFiles to claude-md-and-agents-md in Claude Code's settings (claude.instruction_files here), or give this directory a CLAUDE.md",
				claudeLabel(), c.Reason)})
	}
}

func checkClaudeImport(p *pass) {
	for _, c := range p.view.Candidates {
		switch c.State {
		case agent.NotAFile, agent.Outside, agent.Dropped, agent.Oversized, agent.Failed:
		default:
			continue
		}
		importer := c.ImportedBy
		if importer == "" || strings.HasPrefix(importer, "/") || strings.HasPrefix(importer, "~") {
			continue // not an import, or one made by a file outside the repository
		}
		// The message names the importer itself: the reason without it.
		why := strings.TrimSuffix(c.Reason, "; imported by "+importer)
		p.emit(Finding{Path: importer, Line: c.Line, Column: c.Column, Agent: claude.Name,
			Message: fmt.Sprintf("%s does not load the import of %s: %s. Fix: point it at an existing file inside the directories Claude is started in, or inline the text",
				claudeLabel(), c.Path, why)})
	}
}

func checkClaudeOversized(p *pass) {
	for _, c := range p.view.Candidates {
		if c.State != agent.Oversized || c.ImportedBy != "" {
			continue // an import too large is RL019's
		}
		p.emit(Finding{Path: c.Path, Agent: claude.Name,
			Message: fmt.Sprintf("%s skips this file whole: %s. Fix: shorten it or split it into the directories it is about", claudeLabel(), c.Reason)})
	}
}

// loadedThroughLink reports whether the view loads the bytes of the file
// at p through a link beside it (CLAUDE.md -> AGENTS.md, the layout RL001
// and fix recommend): the agent then has the file's text after all.
func loadedThroughLink(v *agent.View, p string) bool {
	for _, c := range v.Candidates {
		if c.Link == p && c.State == agent.Loaded && resolve.ParentDir(c.Path) == resolve.ParentDir(p) {
			return true
		}
	}
	return false
}
