package main

import (
	"fmt"
	"io"

	"github.com/rivumi/rivumi-lint/internal/profiles"
	buildversion "github.com/rivumi/rivumi-lint/internal/version"
)

// version is the release version (internal/version: linker stamp, else
// the module version Go recorded, else devel).
func version() string { return buildversion.String() }

// cmdVersion prints the version on the first line (what scripts compare:
// the Action's install step reads that line), then the build: commit, Go
// toolchain, platform and the pinned agent versions.
func cmdVersion(stdout io.Writer) int {
	fmt.Fprintf(stdout, "rivumi-lint %s\n", version())
	b := buildversion.Info()
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	}
	if b.Modified {
		commit += " (with uncommitted changes)"
	}
	fmt.Fprintf(stdout, "  commit:  %s\n  go:      %s %s\n", commit, b.Go, b.Platform)
	for _, row := range profiles.All() {
		if p := row.Profile; p.Version != "" {
			fmt.Fprintf(stdout, "  agent:   %s %s (--agent %s)\n", p.Product, p.Version, p.Name)
		}
	}
	return exitOK
}
