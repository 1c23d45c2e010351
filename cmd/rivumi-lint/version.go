package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version is the module version when built with `go install …@vX`, else
// "devel" with the VCS revision when the build recorded one.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
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

func cmdVersion(stdout io.Writer) int {
	fmt.Fprintf(stdout, "rivumi-lint %s\n", version())
	return exitOK
}
