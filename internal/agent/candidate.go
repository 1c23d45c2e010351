package agent

// State is what an agent does with one candidate of a chain (A3). Every
// profile answers in these words; a state only some agents give a file is
// still one of them.
type State string

const (
	Loaded    State = "loaded"    // in the text whole
	Truncated State = "truncated" // in the text up to the budget
	Dropped   State = "dropped"   // the budget was used up before it
	Empty     State = "empty"     // its text is whitespace only: adds nothing, costs nothing
	Shadowed  State = "shadowed"  // a name before it took the directory's slot
	NotAFile  State = "not a file"
	Outside   State = "outside"  // a link out of the root: rivumi-lint does not read it
	Failed    State = "error"    // an error the agent meets: it loads no project file at all
	Ignored   State = "ignored"  // read by Rivumi only (RIVUMI.md): the agent never looks
	Disabled  State = "disabled" // the agent's settings turn project files off

	Imported    State = "imported"    // in the text, as an @-import of another file
	Oversized   State = "oversized"   // over the agent's size limit: skipped whole
	Conditional State = "conditional" // loads only when a matching file is read (a rules file's paths:)
	Excluded    State = "excluded"    // the agent's settings exclude it (claudeMdExcludes)
)

// Candidate is one file a chain considers, in chain order. Rules read its
// typed facts; Reason is for people only and no rule parses it.
type Candidate struct {
	Path   string // relative to the root
	State  State
	Size   int64  // the file's bytes (after following links); -1 unknown
	Kept   int64  // bytes in the text: Size when loaded, fewer when truncated
	Link   string // where a followed link leads, relative to the root
	Reason string // in words
	// Line and Column are where a truncation cuts (1-based).
	Line, Column int
	// Budget is the byte budget a truncated or dropped file was over.
	Budget int64

	// ImportedBy is the file whose @-import brought this one in (the
	// path as the agent shows it: relative to the root, or absolute and
	// "~/" paths for files outside it); "" for a file of the chain itself.
	ImportedBy string
	// CommentsRemoved and FrontMatterRemoved say the agent loads the file
	// with its HTML comments, or its front matter, taken out.
	CommentsRemoved, FrontMatterRemoved bool
	// Replaced says bytes that are not UTF-8 were replaced (U+FFFD) in
	// the text the agent loads.
	Replaced bool
	// FrontMatter says the text the agent loads begins with front matter
	// (a block between "---" lines) that it keeps: the model reads the
	// keys as text.
	FrontMatter bool

	// Text is the decoded text that enters the chain.
	Text []byte
	// Label is how the agent labels the file in its message, when it
	// does (Claude's "project instructions, checked into the codebase").
	Label string
	// Shown is the path as the agent shows it when that is not the
	// root's absolute path joined with Path (a link's own path, an
	// import); "" otherwise.
	Shown string
}

// View is what an agent loads from one directory (A3): its chain's
// candidates and text.
type View struct {
	Dir        string // relative to the root
	Start      string // the chain's first directory (its root marker's)
	Candidates []Candidate
	// Lost is why the agent loads no project file at all ("" when it
	// does): an error on the way, which it logs and goes on without them.
	Lost string
	// Inexact is why the text cannot be known here ("" when it is exact):
	// a link out of the root, a chain that starts above the root.
	Inexact string
	User    *UserFile
	// RootAbs is the root's absolute, physical path, as the agent names
	// the directories of its chain.
	RootAbs string
	// Shares is the view whose chain this one shares (a directory that
	// adds nothing has its parent's); nil for a view with its own.
	Shares *View
	// Render makes the agent's instruction message from the view: the
	// profile's own rendering.
	Render func(v *View) []byte
}

// Origin is the view whose chain this one shares, itself when it has its
// own: views with one origin have the same candidates and findings.
func (v *View) Origin() *View {
	if v.Shares != nil {
		return v.Shares
	}
	return v
}

// Exact reports whether the view's text is what the agent would send.
func (v *View) Exact() bool { return v.Inexact == "" }

// Message returns the instruction message the agent puts into the model
// input from the view's directory, nil when it sends none.
func (v *View) Message() []byte {
	if v.Render == nil {
		return nil
	}
	return v.Render(v)
}

// UserFile is an agent's user-level file as it reads it: the user's own
// file (links followed), costing nothing of a budget.
type UserFile struct {
	Path string // as shown
	Text []byte // decoded as the agent decodes it
}
