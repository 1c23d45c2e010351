package memory

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// ReadFile streams the memory file at path (bounded memory, §9) and
// returns the selection for the project key. The file is opened without
// blocking (a FIFO must not hang the run, §10) and the opened descriptor
// must be a regular file (no stat-then-open race). The last component may
// be a symbolic link: the memory file is the user's own, named by them or
// by $RIVUMI_HOME, and dotfile managers link such files (as with --config).
func ReadFile(path, project string) (Selection, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return Selection{}, fmt.Errorf("memory file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Selection{}, fmt.Errorf("memory file %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		return Selection{}, fmt.Errorf("memory file %s is %s, not a regular file", path, describeMode(fi.Mode()))
	}
	sel, err := Select(f, project)
	if err != nil {
		return sel, fmt.Errorf("memory file %s: %w", path, err)
	}
	return sel, nil
}

func describeMode(m fs.FileMode) string {
	if m.IsDir() {
		return "a directory"
	}
	if n := resolve.ModeNote(m); n != "" {
		return "a " + n
	}
	return "a special file"
}
