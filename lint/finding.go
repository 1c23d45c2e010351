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
}
