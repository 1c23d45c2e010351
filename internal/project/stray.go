package project

import (
	"os"
	"path/filepath"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/rootpath"
)

// strayNames are names a user may give the config that are not read.
var strayNames = []string{".rivumi-lint.yml", "rivumi-lint.yaml", "rivumi-lint.yml", ".rivumi-lint.json"}

// strayConfigs warns about a config that is there but not read (§8, issue
// #26): a file of another name at the root, or a .rivumi-lint.yaml in a
// directory between the root and the working directory (only the root's
// is read). A silently unread config checks with other settings than the
// user wrote.
func strayConfigs(root string) []Note {
	var notes []Note
	if _, err := os.Lstat(filepath.Join(root, ConfigName)); err != nil {
		for _, n := range strayNames {
			if _, err := os.Lstat(filepath.Join(root, n)); err == nil {
				notes = append(notes, repo.Warn("%s is not read: the config is %s at the root; rename it", n, ConfigName))
			}
		}
	}
	wd, err := rootpath.Getwd()
	if err != nil {
		return notes
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil || rel == "." || !filepath.IsLocal(rel) {
		return notes
	}
	for d := rel; d != "." && d != ""; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(root, d, ConfigName)); err == nil {
			shown := filepath.ToSlash(filepath.Join(d, ConfigName))
			notes = append(notes, repo.Warn("%s is not read: only the root's %s is (%s); pass --config %s, or move its settings to the root's", shown, ConfigName, root, shown))
		}
	}
	return notes
}
