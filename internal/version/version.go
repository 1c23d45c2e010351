// Package version says which rivumi-lint this binary is (SPEC §12 D2): the
// release version stamped by the linker, else the module version Go
// recorded (`go install …@v0.3.0`), else a development build.
package version

import (
	"runtime"
	"runtime/debug"
	"strings"
)

// stamped is set at link time by releases and by the Action's source build:
//
//	-ldflags "-X github.com/rivumi/rivumi-lint/internal/version.stamped=v0.3.0"
//
// (.goreleaser.yaml, action/install.sh). A var, not a const: -X sets only
// package-level string variables.
var stamped string

// Package is the import path -X names (build scripts and tests use it).
const Package = "github.com/rivumi/rivumi-lint/internal/version"

// String is the version `rivumi-lint version` and SARIF's
// tool.driver.version report.
func String() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return from(stamped, bi)
}

// from decides the version from the linker stamp and the build info; a
// function of its inputs so every case is testable without a build.
func from(stamp string, bi *debug.BuildInfo) string {
	if s := strings.TrimSpace(stamp); s != "" {
		return s
	}
	if bi == nil {
		return "devel"
	}
	// `go install github.com/rivumi/rivumi-lint/cmd/rivumi-lint@v0.3.0`
	// records the module version; a build inside a checkout records
	// "(devel)" (Go < 1.24) or a pseudo-version derived from VCS (≥ 1.24).
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
}

// stampedCommit is the commit a release was built from, set at link time
// like stamped (-X …version.stampedCommit=<full hash>).
var stampedCommit string

// Build is what `rivumi-lint version` prints below the version: the
// commit (and whether the tree had changes), the Go toolchain and the
// platform, so that a bug report names the exact build.
type Build struct {
	Commit   string // "" when unknown
	Modified bool
	Go       string // runtime.Version()
	Platform string // GOOS/GOARCH
}

// Info is this binary's Build.
func Info() Build {
	bi, _ := debug.ReadBuildInfo()
	b := buildFrom(stampedCommit, bi)
	b.Go, b.Platform = runtime.Version(), runtime.GOOS+"/"+runtime.GOARCH
	return b
}

func buildFrom(commit string, bi *debug.BuildInfo) Build {
	b := Build{Commit: strings.TrimSpace(commit)}
	if bi == nil {
		return b
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			if b.Commit == "" {
				b.Commit = s.Value
			}
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	return b
}
