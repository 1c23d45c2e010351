package report

import (
	"os/exec"
	"strings"
	"testing"
)

// Issue 22: report is a near-leaf. Its writers read plain data (lint's
// result types and the preview's plain value, preview/view) and never link
// the pipeline: no Git reader, no project, no preview builder, no go-git.
func TestReportImportsNoPipeline(t *testing.T) {
	if testing.Short() {
		t.Skip("go list in -short")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps .: %v", err)
	}
	const mod = "github.com/rivumi/rivumi-lint/"
	forbidden := []string{"repo", "gitignore", "gitattr", "project", "preview", "drift", "scope", "config", "fix", "lsp", "hook"}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/go-git/") {
			t.Errorf("report depends on %s", pkg)
		}
		rel, ok := strings.CutPrefix(pkg, mod)
		if !ok {
			continue
		}
		for _, f := range forbidden {
			if rel == f || strings.HasPrefix(rel, f+"/") && rel != "preview/view" {
				t.Errorf("report depends on %s", pkg)
			}
		}
	}
}
