// Package integration holds end-to-end tests that drive rivumi-lint through
// the real clients it integrates with (SPEC §7): the pre-commit framework,
// actionlint, reviewdog, the composite Action's shell steps under a
// simulated runner, and the copy-paste snippets of the docs.
//
// A missing client fails its test with an install hint; nothing is skipped.
// pre-commit is a Debian package (.ci/run installs it); actionlint and
// reviewdog are pinned Go tools of the tools modules, never of the main
// go.mod (`go tool -modfile=tools/go.mod actionlint`,
// `go tool -modfile=tools/reviewdog/go.mod reviewdog`), built once.
package integration
