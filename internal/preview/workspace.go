package preview

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/repo"
)

// workspaceOf reads the branch from HEAD and asks the git binary whether
// the worktree is dirty. Where either cannot be known the value is
// "unknown" and note says why: the preview never fails on it.
//
// The state is git's own answer (`git status`, optional locks off so the
// index is never refreshed): ignore rules, racily-clean entries,
// sparse checkouts and submodules are exactly as the user sees them, and a
// tracked file replaced by a 2 GiB one is dirty by its size, unhashed.
// go-git's Status differs from Git on several of these and would link its
// network transports into every run of the binary.
func workspaceOf(root string) (ws Workspace, note string) {
	ws = Workspace{Branch: "unknown", State: "unknown"}
	top, err := repo.FindRoot(root)
	if err != nil {
		return ws, fmt.Sprintf("workspace: no Git repository at %s; branch and state are unknown", root)
	}
	gitDir, err := repo.GitDir(top)
	if err != nil {
		return ws, fmt.Sprintf("workspace: %v; branch and state are unknown", err)
	}
	branch, err := repo.ReadHeadBranch(gitDir)
	if err != nil {
		note = fmt.Sprintf("workspace: %v; branch unknown", err)
	} else {
		ws.Branch = branch
	}
	dirty, err := gitDirty(top, gitDir)
	switch {
	case err != nil:
		note = joinNote(note, fmt.Sprintf("workspace: %v; state unknown", err))
	case dirty:
		ws.State = "dirty"
	default:
		ws.State = "clean"
	}
	return ws, note
}

// gitDirty reports whether git status lists anything: a staged, unstaged
// or untracked change. Only the first byte of its output is kept.
func gitDirty(root, gitDir string) (bool, error) {
	cmd := repo.GitCommand(root, gitDir, "status", "--porcelain=v1", "-z", "--untracked-files=normal")
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 4096}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return false, fmt.Errorf("git status: %w", err)
	}
	if err := cmd.Start(); err != nil {
		if errors.Is(err, exec.ErrNotFound) {
			return false, errors.New("the git binary is not installed (install git to see the worktree state)")
		}
		return false, fmt.Errorf("git status: %w", err)
	}
	var first [1]byte
	n, _ := io.ReadFull(out, first[:])
	io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return false, fmt.Errorf("git status failed (%v): %s", err, msg)
	}
	return n > 0, nil
}

// limitedBuffer keeps the first max bytes written to it and drops the rest.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
