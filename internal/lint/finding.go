package lint

// Finding is one problem, as plain data. Its JSON form is a public interface
// (docs/json.md): fields are added, never renamed.
type Finding struct {
	Rule     string   `json:"rule"`
	Name     string   `json:"name"`
	Severity Severity `json:"severity"`
	// Path is relative to the project root with forward slashes; a user-level
	// file is shown as ~/… .
	Path string `json:"path"`
	// Line and Column are 1-based (columns in bytes); 0 when the finding is
	// about the whole file.
	Line   int `json:"line"`
	Column int `json:"column"`
	// UTF16Column is Column counted in UTF-16 code units (content.Pos),
	// for the formats that count so (SARIF); not part of the JSON form.
	UTF16Column int    `json:"-"`
	Message     string `json:"message"`
	// Agent is the agent profiles the finding holds for (A4), joined by
	// commas: set on every finding once a profile other than Rivumi is
	// enabled ("rivumi", "codex", or the profiles compared,
	// "rivumi,codex,claude"); empty otherwise, so Rivumi-only output is
	// unchanged. It is the agent part of the baseline identity (B2).
	Agent string `json:"agent,omitempty"`
	// Agents is Agent as a list, in the table's order. One problem is one
	// finding, whatever the number of agents it holds for (mergeAgents).
	Agents []string `json:"agents,omitempty"`
	// Directories are the resolved directories whose chain the finding affects.
	Directories []string `json:"directories"`
	// DirectoriesTotal is how many directories the finding affects: a
	// writer may list fewer (the JSON output keeps MaxListedDirectories
	// unless --all-directories). Zero means len(Directories).
	DirectoriesTotal int `json:"directories_total"`
	// User is true for a finding about a user-level file outside the
	// project root: Path is not a repository path, so the github, SARIF and
	// rdjson outputs give it no file location (F10).
	User bool `json:"user,omitempty"`
	// Subject is what the finding is about, for a baseline's identity
	// (B2), set by a rule whose message lists more than that (RL006: the
	// sizes and layers of the chain); "" means the message. Not part of
	// the JSON form.
	Subject string `json:"-"`
	// Baseline is the finding's state against check --baseline (B3):
	// BaselineNew or BaselineUnchanged; empty without a baseline, so the
	// JSON form is unchanged then.
	Baseline string `json:"baseline,omitempty"`
	// Base is the finding's state against the base of the change in the
	// diff and staged scopes (B6: HEAD for --staged, the base revision
	// for --base): BaselineUnchanged when the base has a finding of its
	// identity (B2, counted as a baseline counts), so the change did not
	// bring it, else BaselineNew; empty in the other scopes. Unlike
	// Baseline it hides nothing: an old finding is reported, marked, and
	// fails the run unless check --fail-on-new. The JSON form is "new".
	Base string `json:"-"`
	// Fix, when set, is a text edit that removes the cause (X1); nil when
	// the fix is not a text edit or none is safe.
	Fix *Fix `json:"fix,omitempty"`
	// Excerpt is the raw bytes of line Line of the file, as the check read
	// it (worktree, index or commit), for the text output's source excerpt;
	// empty when the finding has no line or the bytes were not read. Not
	// part of the JSON form: a consumer with a line number has the file.
	Excerpt string `json:"-"`
	// Repair is how `rivumi-lint fix` removes the cause (X1), as the rule
	// that found it says: fix plans from it, never from the rule id. Not
	// part of the JSON form.
	Repair Repair `json:"-"`
	// fromUser marks a finding about the user-level file made on its
	// repository path, for Run to merge into the project layer's (F10).
	fromUser bool
	// differ is what an RL017 finding says, in parts, for mergeAgents to
	// put every agent's side of one file into one message.
	differ []differPart
	// covers says a profile's own finding says all its agent does
	// otherwise with the file (RL023: Copilot never reads the override),
	// so mergeAgents drops every RL017 side of that agent on it.
	covers bool
}

// A finding's Baseline: not in the baseline (it fails the run), or in it
// (known: listed in json and sarif, left out of the other formats).
const (
	BaselineNew       = "new"
	BaselineUnchanged = "unchanged"
)

// Known reports whether the baseline holds the finding (B3): it is kept
// in json and sarif, marked, and neither counts nor fails the run.
func (f *Finding) Known() bool { return f.Baseline == BaselineUnchanged }

// Old reports whether the change's base already has the finding (B6).
func (f *Finding) Old() bool { return f.Base == BaselineUnchanged }

// BaselineState is the finding's SARIF baselineState: "unchanged" when a
// baseline file holds it (B3) or the change's base has it (B6), "new"
// when it was compared and neither has it, "" when it was not compared.
func (f *Finding) BaselineState() string {
	switch {
	case f.Known() || f.Old():
		return BaselineUnchanged
	case f.Baseline != "" || f.Base != "":
		return BaselineNew
	}
	return ""
}

// Fix is a repair of a finding's cause that is a pure text edit of one or
// more files (X1): removing hidden characters or C0 controls. Writers carry
// it as it is — SARIF `fixes`, rdjson `suggestions`, the language server's
// code actions — and `rivumi-lint fix` applies the same edits, so no front
// end re-derives what the fix is. Fixes that are not text edits (a
// transcoding, a rename, swapping a link with its target) are made only by
// `rivumi-lint fix` and carry no Fix.
type Fix struct {
	// Description says what the fix does, in the imperative ("Remove 2
	// hidden characters").
	Description string `json:"description"`
	// Edits never overlap and are ordered by Start.Offset.
	Edits []Edit `json:"edits"`
}

// Repair is a finding's repair for `rivumi-lint fix` (X1): its kind and
// what the kind needs. fix checks the file as it is on disk before it
// plans the change, and skips, saying why, where the repair is unsafe.
type Repair struct {
	Kind RepairKind
	// Name (RepairRename) is the exact instruction file name the file is
	// renamed to: set for a candidate name in another case, "" for a name
	// an edit away from one, where a rename would be a guess that fix
	// leaves to the user.
	Name string
	// Refused says fix will skip it, as the check can already tell (a
	// link whose target is not a regular file inside the root): the
	// outputs then do not offer fix for it.
	Refused bool
	// Unstaged says the worktree holds the repair already and only Git's
	// index lags (a link replaced by a regular file, not staged: #33.8):
	// `git add` is all that is left, which fix leaves to the user.
	Unstaged bool
}

// Says is what `rivumi-lint fix` does about the finding, for people: ""
// when it does nothing.
func (r Repair) Says() string {
	if r.Refused {
		return ""
	}
	switch r.Kind {
	case RepairDeleteHidden:
		return "deletes the hidden characters"
	case RepairTranscode:
		return "re-encodes the file as UTF-8"
	case RepairSwap:
		return "swaps the link with its target, so that the instruction file holds the text"
	case RepairCopy:
		return "replaces the link with a copy of its target"
	case RepairRename:
		if r.Name != "" {
			return "renames the file to " + r.Name
		}
	}
	return ""
}

// RepairKind is what `rivumi-lint fix` does about a finding.
type RepairKind int

const (
	// RepairNone: fix leaves the finding alone.
	RepairNone RepairKind = iota
	// RepairDeleteHidden: apply Finding.Fix, whose edits delete characters
	// a reviewer cannot see (RL010's set); fix re-checks that each edit
	// still deletes only such characters.
	RepairDeleteHidden
	// RepairTranscode: re-encode a file that is not UTF-8 as UTF-8, unless
	// a working-tree-encoding attribute makes Git write it otherwise.
	RepairTranscode
	// RepairSwap: the file is a symbolic link to a regular file inside the
	// root; the link and its target change places.
	RepairSwap
	// RepairRename: give the file its exact name, Repair.Name.
	RepairRename
	// RepairCopy: the file is a symbolic link to another instruction file
	// inside the root, which cannot become the link in a swap (Rivumi
	// would then skip it); the link is replaced with a copy of the
	// target's bytes.
	RepairCopy
)

// Edit replaces the bytes [Start.Offset, End.Offset) of the file at Path
// (as Finding.Path) with Text. The positions refer to the file's bytes as
// the check read them.
type Edit struct {
	Path  string `json:"path"`
	Start Pos    `json:"start"`
	End   Pos    `json:"end"`
	Text  string `json:"text"`
}

// Pos is a position in a file: 1-based line, 1-based column in bytes, and
// the 0-based byte offset from the start of the file. Each writer converts
// to the unit its format wants (UTF-16 code units for an editor).
type Pos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Offset int `json:"offset"`
}
