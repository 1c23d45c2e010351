package preview

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rivumi/rivumi-lint/lint"
	"github.com/rivumi/rivumi-lint/memory"
	"github.com/rivumi/rivumi-lint/project"
	"github.com/rivumi/rivumi-lint/resolve"
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

// openMemory opens a memory file for reading without blocking (a FIFO must
// not hang the preview, §10) and checks that the opened descriptor is a
// regular file (no stat-then-open race). The last component may be a
// symbolic link: the memory file is the user's own, named by them or by
// $RIVUMI_HOME, and dotfile managers link such files (as with --config).
func openMemory(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, fmt.Errorf("memory file: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("memory file %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("memory file %s is %s, not a regular file", path, describeMode(fi.Mode()))
	}
	return f, nil
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

// selectMemory streams the memory file at path (bounded memory, §9) and
// returns the selection for the project key.
func selectMemory(path, project string) (memory.Selection, error) {
	f, err := openMemory(path)
	if err != nil {
		return memory.Selection{}, err
	}
	defer f.Close()
	sel, err := memory.Select(f, project)
	if err != nil {
		return sel, fmt.Errorf("memory file %s: %w", path, err)
	}
	return sel, nil
}

// memoryFindings turns the corrupt lines of a selection into RL013
// findings on the file shown as display. Lines beyond memory.MaxProblems
// are counted in one more finding on the whole file.
func memoryFindings(sel memory.Selection, display string, inRoot bool) []lint.Finding {
	out := make([]lint.Finding, 0, len(sel.Problems)+1)
	for _, p := range sel.Problems {
		out = append(out, lint.Finding{Rule: "RL013", Path: display, Line: p.Line, User: !inRoot,
			Message: "Rivumi will skip this memory line: " + p.Reason})
	}
	if sel.MoreProblems > 0 {
		out = append(out, lint.Finding{Rule: "RL013", Path: display, User: !inRoot,
			Message: fmt.Sprintf("Rivumi will skip %d more corrupt memory line(s), not listed one by one (only the first %d are)", sel.MoreProblems, memory.MaxProblems)})
	}
	return out
}

// MemoryFindings reads the memory file at path (`check --memory FILE`) and
// returns one RL013 finding per corrupt line, with its line number, on the
// file shown as ~/… under the home directory, else as given (slash
// separated). project is the memory project key; corrupt lines do not
// depend on it. A missing file, a file that is not regular (a FIFO, say:
// never opened in a blocking way) or an I/O error is an error (exit 2).
// Pass the findings to lint.Result.Add, which applies the rules config.
func MemoryFindings(path, project string) ([]lint.Finding, error) {
	sel, err := selectMemory(path, project)
	if err != nil {
		return nil, err
	}
	d, in := displayPath(path, "")
	return memoryFindings(sel, d, in), nil
}

// AddMemoryFindings adds the RL013 findings of the memory file at path to
// res (`check --memory FILE`), with p's rules config (rules.RL013) applied
// by lint.Result.Add. The file is shown relative to p's root when inside
// it, as ~/… under the home directory, else absolute. Errors as
// MemoryFindings.
func AddMemoryFindings(res *lint.Result, p *project.Project, path string) error {
	sel, err := selectMemory(path, ProjectKey("", p))
	if err != nil {
		return err
	}
	d, in := displayPath(path, p.Root)
	res.Add(p.Config, memoryFindings(sel, d, in)...)
	return nil
}

// ProjectKey is the memory project key (P4): flag (--project) when set,
// else the config's project, else the absolute root path.
func ProjectKey(flag string, p *project.Project) string {
	switch {
	case flag != "":
		return flag
	case p.Config != nil && p.Config.Project != "":
		return p.Config.Project
	}
	return p.Root
}

// displayPath shows a local file: relative to root (forward slashes) when
// inside it (inRoot: a repository location), else ~/… under the home
// directory, else absolute (or as given when root is "" and the path is
// relative).
func displayPath(path, root string) (display string, inRoot bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path), false
	}
	if root != "" {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return filepath.ToSlash(rel), true
		}
	}
	if t := project.Tilde(abs); strings.HasPrefix(t, "~/") || root != "" || filepath.IsAbs(path) {
		return t, false
	}
	return filepath.ToSlash(filepath.Clean(path)), false
}

// exists reports whether path has a directory entry; an error other than
// "does not exist" counts as existing, so that the caller reports it.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil || !(errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR))
}
