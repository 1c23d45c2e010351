package preview

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// Memory is what the preview knows about the explicit memory file (P4).
type Memory struct {
	// Path is the file as shown: ~/… under the home directory, relative to
	// the root inside it, else absolute; "" when there is no memory file.
	Path     string `json:"path"`
	Project  string `json:"project"`  // the project key entries are matched against
	Lines    int    `json:"lines"`    // lines read
	Selected int    `json:"selected"` // entries selected (user preferences + this project's)
	Rendered int    `json:"rendered"` // entries rendered: the last 20 selected
	Corrupt  int    `json:"corrupt"`  // corrupt lines (each an RL013 finding)
	// Note says why there is no memory, when there is none.
	Note string `json:"note,omitempty"`
}

// exists reports whether path has a directory entry; an error other than
// "does not exist" counts as existing, so that the caller reports it.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR))
}
