package lint

// Rule is one check: a small value registered in the table below. The table
// is the single source of `rivumi-lint rules`, docs/rules.md and SARIF's
// rule list.
type Rule struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Default Severity `json:"default_severity"`
	// Summary is one line: what the rule finds.
	Summary string `json:"summary"`
	// Doc is one paragraph: why it matters and how to fix it.
	Doc   string `json:"doc"`
	check checkFunc
}

// Rules returns the rule table in id order.
func Rules() []Rule { return table }

// Lookup returns the rule with the given id.
func Lookup(id string) (Rule, bool) {
	for _, r := range table {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// URL is where a rule is documented.
func (r Rule) URL() string {
	return "https://github.com/rivumi/rivumi-lint/blob/main/docs/rules.md#" + lowerID(r.ID)
}

func lowerID(id string) string {
	b := []byte(id)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

var table = []Rule{
	{ID: "RL001", Name: "symlink", Default: Error,
		Summary: "An instruction file is a symbolic link, sits in a symlinked directory, or is recorded by Git as a symlink.",
		Doc:     "Rivumi never follows symbolic links when it loads instruction files (C1): a layer that is a link, that sits below a symlinked directory, or that Git records with mode 120000 (even where the checkout holds a plain file because core.symlinks=false) is skipped without a word, and since the runtime does not fall back to the next candidate the directory contributes no instructions at all. The finding says where the link points; the linter never opens the target. Fix: replace the link with a regular file holding the text.",
		check:   checkRejected("RL001")},
	{ID: "RL002", Name: "not-regular", Default: Error,
		Summary: "An instruction candidate is a directory, FIFO, socket, device or submodule.",
		Doc:     "Only regular files are loaded (C2). The first candidate name that has any directory entry is the directory's layer, whatever its type, so a directory or FIFO named AGENTS.md makes Rivumi skip the directory's instructions entirely. Fix: rename or remove the entry so that the instruction file is a regular file.",
		check:   checkRejected("RL002")},
	{ID: "RL003", Name: "oversized", Default: Error,
		Summary: "An instruction file is larger than limits.max_file_bytes.",
		Doc:     "Files larger than max_file_bytes (default 32768 bytes) are rejected whole (C3): Rivumi loads none of the text, not a truncated part. Fix: shorten the file or move detail into deeper directories' files; raise limits.max_file_bytes only if the runtime is configured the same way.",
		check:   checkRejected("RL003")},
	{ID: "RL004", Name: "invalid-utf8", Default: Error,
		Summary: "An instruction file is not valid UTF-8.",
		Doc:     "Instruction files must be UTF-8 (C4); any invalid byte rejects the whole file. The finding gives the line, column (in bytes) and byte offset of the first invalid byte, and names a UTF-16 or UTF-32 byte-order mark when the file starts with one. Fix: re-save the file as UTF-8 (without converting it to UTF-16, which many Windows editors do by default).",
		check:   checkRejected("RL004")},
	{ID: "RL005", Name: "override", Default: Notice,
		Summary: "An override file suppresses the instruction layers above it.",
		Doc:     "An *.override.md layer suppresses every project layer of a shallower directory, earlier overrides included (R4); the user layer stays. The notice lists the suppressed files and the directories whose chain is affected, so that a reviewer sees which rules stop applying there. It is a notice, not a problem: silence it with rules.RL005: off once overrides are routine.",
		check:   checkOverride},
	{ID: "RL006", Name: "budget", Default: Error,
		Summary: "The rendered instructions exceed the dynamic-context budget (or come close to it).",
		Doc:     "The dynamic sections of the prompt share limits.max_dynamic_bytes, of which limits.reserved_bytes are kept for the runtime, workspace and memory sections (P3). When the rendered instructions (and skills) of a directory plus the reserve exceed the limit, the finding is an error; above limits.warn_ratio of the budget it is a warning. It sits on the deepest active layer and lists every active layer with its bytes. Fix: shorten the layers, or use an override to replace rather than add to the layers above.",
		check:   checkBudget},
	{ID: "RL007", Name: "shadowed", Default: Warning,
		Summary: "Two candidate files in one directory: only the first in priority order is used.",
		Doc:     "In each directory only the first candidate name that exists is the layer (R2): RIVUMI.override.md, AGENTS.override.md, RIVUMI.md, AGENTS.md by default. Any later candidate in the same directory is shadowed and never loaded, even if the chosen one is rejected. Fix: merge the text into one file and delete the other.",
		check:   checkShadowed},
	{ID: "RL008", Name: "boundary-marker", Default: Error,
		Summary: "Instruction text contains `<rivumi:` or `</rivumi:`, which could forge or close a prompt section.",
		Doc:     "Layers are rendered inside `<rivumi:section>` and `<rivumi:layer>` markers (P2). Text that contains the marker prefix can close the layer early or pretend to be another section or a user-level layer. Fix: remove the marker text, or write it differently (for example in a code span with the angle bracket escaped).",
		check:   checkMarkers},
	{ID: "RL009", Name: "empty", Default: Warning,
		Summary: "An active layer has no text; an empty override silences every layer above it.",
		Doc:     "A layer whose text is empty after normalisation (P2: BOM dropped, trailing white space trimmed) adds nothing. An empty override is worse: it still suppresses every shallower project layer, so the directory ends up with no project instructions; that case is an error. Fix: write the intended text or delete the file.",
		check:   checkEmpty},
	{ID: "RL010", Name: "hidden-unicode", Default: Error,
		Summary: "Instruction text contains characters a reviewer cannot see.",
		Doc:     "Bidirectional controls (U+202A-U+202E, U+2066-U+2069), zero-width characters (U+200B-U+200D, U+2060, U+FEFF other than a leading byte-order mark), tag characters (U+E0000-U+E007F) and C0 control characters other than tab, LF and CR (NUL included) change what the model reads without showing in a diff. The finding gives the position of the first one and the count. Fix: delete them.",
		check:   checkHidden},
	{ID: "RL011", Name: "near-miss-name", Default: Warning,
		Summary: "A file name close to an instruction file name that Rivumi will not load.",
		Doc:     "Candidate names are matched exactly and case-sensitively (R2). agents.md, Agents.md, AGENT.md, RIVUMI.MD or AGENTS.override.MD are not loaded on Linux but are on a case-insensitive disk (macOS, Windows), so the agent behaves differently per machine. Fix: rename the file to the exact candidate name.",
		check:   checkNearMiss},
	{ID: "RL012", Name: "unreadable", Default: Error,
		Summary: "An instruction file could not be read.",
		Doc:     "An I/O error while opening or reading a chosen layer (permissions, a vanished file) rejects the layer (C5); the run goes on. The finding carries the error text. Fix: make the file readable by the user the agent runs as. In diff and staged modes it also reports a layer file that a filter attribute (filter=lfs, Git LFS) converts on checkout: the runtime then reads bytes this check could not read; the layer is not rejected (F5, docs/behaviour.md). Fix: unset the filter for instruction files (AGENTS.md -filter).",
		check:   checkRejected("RL012")},
	{ID: "RL013", Name: "memory-corrupt", Default: Warning,
		Summary: "A line of the explicit memory file is corrupt and will be skipped.",
		Doc:     "Explicit memory is JSON Lines (P4). A line that is not a JSON object, is not valid UTF-8, has wrong types, an unknown type, an empty text, a project entry without project, a created_at that is not RFC 3339, or is over 1 MiB is skipped by the runtime; the finding gives its line number and the reason. Fix: repair or delete the line.",
		check:   nil},
	{ID: "RL014", Name: "config-changed", Default: Notice,
		Summary: "The linter's own configuration changed in this change.",
		Doc:     "In diff mode (--base, --staged, pull requests) the change is checked with the base's .rivumi-lint.yaml (the defaults when the base has none; --config overrides both sides), so a change cannot switch off its own review (F7): a config change takes effect once it is on the base. The notice lists every key the head's version changes, as a dotted path (rules.RL008, limits.max_file_bytes, filenames.normal, ignore), each marked loosened, tightened or changed, so that the reviewer sees what the next changes will be held to. Its own severity comes from the base's config.",
		check:   nil},
}
