package repo

import (
	"os"
	"path/filepath"
	"strings"
)

// CommonDir returns the common Git directory of the Git directory gitDir:
// the one its "commondir" file names (a linked worktree's main .git, where
// info/exclude, the config and the objects live), else gitDir itself.
func CommonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(b))
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}
