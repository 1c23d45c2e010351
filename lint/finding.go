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
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
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
	// fromUser marks a finding about the user-level file made on its
	// repository path, for Run to merge into the project layer's (F10).
	fromUser bool
}
