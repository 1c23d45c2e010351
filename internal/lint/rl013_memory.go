package lint

import (
	"fmt"

	"github.com/rivumi/rivumi-lint/internal/memory"
)

func init() {
	register(Rule{ID: "RL013", Name: "memory-corrupt", Default: Warning,
		Category: "memory", Precision: "very-high",
		Summary: "A line of the explicit memory file is corrupt and will be skipped.",
		Doc:     "Explicit memory is JSON Lines (P4). A line that is not a JSON object, is not valid UTF-8, has wrong types, an unknown type, an empty text, a project entry without project, a created_at that is not RFC 3339, or is over 1 MiB is skipped by the runtime; the finding gives its line number and the reason. Fix: repair or delete the line.",
		Input:   InMemory,
		run:     checkMemory})
}

// MemoryFile is the Memory input: the corrupt lines of the explicit memory
// file (`check --memory FILE`, the preview's memory).
type MemoryFile struct {
	Path string // as shown: relative to the root inside it, else ~/… or absolute
	// User is set when the file lies outside the root: Path is not a
	// repository location (F10).
	User     bool
	Problems []memory.Problem // the first memory.MaxProblems corrupt lines
	More     int              // corrupt lines beyond Problems
}

// checkMemory reports one finding per corrupt line; lines beyond
// memory.MaxProblems are counted in one more finding on the whole file.
func checkMemory(p *pass) {
	m := p.memory
	for _, pr := range m.Problems {
		p.emit(Finding{Path: m.Path, Line: pr.Line, User: m.User, Message: "Rivumi will skip this memory line: " + pr.Reason + ". Fix: repair or delete the line"})
	}
	if m.More > 0 {
		p.emit(Finding{Path: m.Path, User: m.User,
			Message: fmt.Sprintf("Rivumi will skip %d more corrupt memory line(s), not listed one by one (only the first %d are). Fix: repair or delete them, then check again", m.More, memory.MaxProblems)})
	}
}
