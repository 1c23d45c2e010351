package main

import (
	"errors"
	"io"
)

func cmdPreview(args []string, stdout, stderr io.Writer) int {
	return fail(stderr, errors.New("preview is not implemented yet"))
}
