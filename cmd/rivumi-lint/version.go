package main

import (
	"fmt"
	"io"

	buildversion "github.com/rivumi/rivumi-lint/internal/version"
)

// version is the release version (internal/version: linker stamp, else
// the module version Go recorded, else devel).
func version() string { return buildversion.String() }

func cmdVersion(stdout io.Writer) int {
	fmt.Fprintf(stdout, "rivumi-lint %s\n", version())
	return exitOK
}
