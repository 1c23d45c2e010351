package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func TestFollow(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"docs/guide.md":    "guide\n",
		"docs/sub/":        "",
		"a/AGENTS.md":      "-> ../docs/guide.md",
		"a/chain.md":       "-> AGENTS.md",
		"a/viadir.md":      "-> ../dl/guide.md",
		"dl":               "-> docs",
		"a/up.md":          "-> ../../elsewhere.md",
		"a/dotdot.md":      "-> ../dl/../docs/guide.md",
		"a/loop.md":        "-> loop2.md",
		"a/loop2.md":       "-> loop.md",
		"a/dangling.md":    "-> nothing.md",
		"a/throughfile.md": "-> ../docs/guide.md/x",
		"a/dir.md":         "-> ../docs/sub",
	})
	// Absolute targets: inside the root they are followed, outside not.
	if err := os.Symlink(root+"/docs/guide.md", filepath.Join(root, "abs.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Dir(root)+"/x.md", filepath.Join(root, "absout.md")); err != nil {
		t.Fatal(err)
	}
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	closeWT := wt.Close
	t.Cleanup(func() { closeWT() }) // an open handle keeps Windows from removing the directory
	for _, tc := range []struct {
		p    string
		walk Walk
		path string
		kind resolve.Kind
	}{
		{"a/AGENTS.md", WalkFound, "docs/guide.md", resolve.Regular},
		{"a/chain.md", WalkFound, "docs/guide.md", resolve.Regular},
		{"a/viadir.md", WalkFound, "docs/guide.md", resolve.Regular},
		// ".." after a link is taken from the link's target, as the
		// system does, not lexically: dl/.. is the root, not a/.
		{"a/dotdot.md", WalkFound, "docs/guide.md", resolve.Regular},
		{"a/up.md", WalkOutside, "", 0},
		{"a/loop.md", WalkLooped, "", 0},
		{"a/dangling.md", WalkNotFound, "", 0},
		{"a/throughfile.md", WalkNotDir, "", 0},
		{"a/dir.md", WalkFound, "docs/sub", resolve.Dir},
		{"abs.md", WalkFound, "docs/guide.md", resolve.Regular},
		{"absout.md", WalkOutside, "", 0},
	} {
		f, err := Follow(wt, root, tc.p)
		if err != nil {
			t.Fatalf("%s: %v", tc.p, err)
		}
		if f.Walk != tc.walk || f.Walk == WalkFound && (f.Path != tc.path || f.Ent.Kind != tc.kind) {
			t.Errorf("Follow(%s) = %+v, want walk %d path %s kind %v", tc.p, f, tc.walk, tc.path, tc.kind)
		}
	}
}
