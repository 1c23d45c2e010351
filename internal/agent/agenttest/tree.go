// Package agenttest makes the small trees the agent profiles' tests
// resolve.
package agenttest

import (
	"os"
	"path/filepath"
	"strings"
)

// NoLink begins the failure of a tree whose link the system reported
// made and did not make (Wine's os.Symlink): the Windows lane under Wine
// counts it as that gap, not as a failure of the test.
const NoLink = "the system reported a symbolic link made and made none"

// TB is the part of testing.TB Tree uses: the package imports no
// testing, so that it is no test dependency of the command (D4).
type TB interface {
	Helper()
	Fatal(args ...any)
	TempDir() string
}

// Tree writes files (path → content; a content starting "-> " is a link
// to the rest) under a new directory holding .git, and returns it.
func Tree(t TB, files map[string]string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if strings.HasSuffix(p, "/") {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(c, "-> "); ok {
			if err = os.Symlink(target, full); err == nil {
				if fi, lerr := os.Lstat(full); lerr != nil || fi.Mode()&os.ModeSymlink == 0 {
					t.Fatal(NoLink + ": " + full)
				}
			}
		} else {
			err = os.WriteFile(full, []byte(c), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}
