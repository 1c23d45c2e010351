package preview

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Workspace is what the workspace section shows (P5).
type Workspace struct {
	Branch string `json:"branch"` // a branch name, "(detached at 0123456789ab)" or "unknown"
	State  string `json:"state"`  // clean, dirty or unknown
}

// workspaceOf reads the branch and whether the worktree is dirty through
// go-git. When go-git cannot open or read the repository the values are
// "unknown" and note says why: the preview never fails on it.
func workspaceOf(root string) (ws Workspace, note string) {
	ws = Workspace{Branch: "unknown", State: "unknown"}
	defer func() {
		// go-git is not hardened against every repository layout (§10):
		// a panic in it must cost the workspace values, not the preview.
		if r := recover(); r != nil {
			ws = Workspace{Branch: "unknown", State: "unknown"}
			note = fmt.Sprintf("workspace: go-git failed on the repository (%v); branch and state are unknown", r)
		}
	}()
	r, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return ws, fmt.Sprintf("workspace: go-git cannot open a repository at %s (%v); branch and state are unknown", root, err)
	}
	head, err := r.Storer.Reference(plumbing.HEAD)
	switch {
	case err != nil:
		note = fmt.Sprintf("workspace: cannot read HEAD (%v)", err)
	case head.Type() == plumbing.SymbolicReference:
		// An unborn branch (no commit yet) still has its name.
		ws.Branch = head.Target().Short()
	default:
		h := head.Hash().String()
		ws.Branch = "(detached at " + h[:min(12, len(h))] + ")"
	}
	wt, err := r.Worktree()
	if err != nil {
		return ws, joinNote(note, fmt.Sprintf("workspace: no worktree (%v); state unknown", err))
	}
	if idx, err := r.Storer.Index(); err == nil && changedByStat(wt.Filesystem.Root(), idx) {
		ws.State = "dirty"
		return ws, note
	}
	st, err := wt.Status()
	if err != nil {
		return ws, joinNote(note, fmt.Sprintf("workspace: go-git cannot compute the status (%v); state unknown", err))
	}
	if st.IsClean() {
		ws.State = "clean"
	} else {
		ws.State = "dirty"
	}
	return ws, note
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// changedByStat reports whether a tracked file is plainly changed without
// reading it: gone, of another type, or of another size than the index
// records. go-git's Status hashes every file whose stat data differs from
// the index, so a tracked file replaced by a 2 GiB one (§10) would cost
// seconds of hashing to learn what its size already says. Entries whose
// recorded size proves nothing (sparse-checkout, intent-to-add, submodules,
// Git's racily-clean smudge of size 0) are left to Status.
func changedByStat(root string, idx *index.Index) bool {
	for _, e := range idx.Entries {
		// Stage 0 is a merged entry (go-git's index.Merged constant is 1).
		if e.SkipWorktree || e.IntentToAdd || e.Stage != 0 || e.Mode == filemode.Submodule {
			continue
		}
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(e.Name)))
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return true // deleted
		}
		if err != nil {
			continue
		}
		switch e.Mode {
		case filemode.Symlink:
			if fi.Mode()&os.ModeSymlink == 0 {
				return true
			}
		case filemode.Regular, filemode.Executable, filemode.Deprecated:
			if !fi.Mode().IsRegular() {
				return true
			}
			if e.Size != 0 && uint32(fi.Size()) != e.Size {
				return true
			}
		}
	}
	return false
}
