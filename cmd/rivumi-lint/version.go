package main

import (
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"

	buildversion "github.com/rivumi/rivumi-lint/internal/version"
)

// version is the release version (internal/version: linker stamp, else
// the module version Go recorded, else devel).
func version() string { return buildversion.String() }

func cmdVersion(stdout io.Writer) int {
	fmt.Fprintf(stdout, "rivumi-lint %s\n", version())
	return exitOK
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}
