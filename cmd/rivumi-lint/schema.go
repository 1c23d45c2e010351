package main

import (
	"flag"
	"io"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/profiles"
)

// cmdSchema is `rivumi-lint schema` (X3): the JSON Schema of the config
// file, generated from the parser's key table (docs/rivumi-lint.schema.json
// holds the same bytes).
func cmdSchema(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	pos, code, done := parseFlags(fs, "schema", args, stdout, stderr,
		"The schema is JSON Schema draft 2020-12; docs/config.md says how editors use it.\n")
	if done {
		return code
	}
	if len(pos) > 0 {
		return fail(stderr, &usageError{"schema takes no arguments: usage: rivumi-lint schema"})
	}
	if _, err := stdout.Write(config.Schema(profiles.Config()...)); err != nil {
		return fail(stderr, err)
	}
	return exitOK
}
