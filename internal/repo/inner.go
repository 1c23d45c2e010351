package repo

import (
	"os"
	"path/filepath"
)

// Inner is the innermost repository strictly below top that holds rel (a
// slash path below top, "" for top): the slash path of the nearest of rel
// and its ancestors, top excluded, that has a .git entry — a submodule's
// checkout (a .git file) or a nested repository (a .git directory).
// "" means top's own repository holds rel. Git never looks past such a
// directory from outside it, so a path there belongs to that repository
// (R1): `cd` there finds it.
func Inner(top, rel string) string {
	for d := rel; d != "" && d != "."; d = parentDir(d) {
		if _, err := os.Lstat(filepath.Join(top, filepath.FromSlash(d), ".git")); err == nil {
			return d
		}
	}
	return ""
}
