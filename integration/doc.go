// Package integration holds end-to-end tests that drive rivumi-lint through
// the real clients it integrates with (SPEC §7): the pre-commit framework,
// actionlint, reviewdog, the composite Action's shell steps under a
// simulated runner, and the copy-paste snippets of the docs.
//
// A missing client fails its test with an install hint; nothing is skipped.
// pre-commit is a Debian package (.ci/run installs it); actionlint and
// reviewdog are pinned Go tools of this module (`go tool actionlint`,
// `go tool reviewdog`), built once per test binary.
package integration
