package main

import (
	"errors"
	"io"
)

func cmdHook(args []string, stdout, stderr io.Writer) int {
	return fail(stderr, errors.New("hook is not implemented yet"))
}
