// Package integration holds end-to-end tests that drive rivumi-lint through
// the real clients it integrates with (SPEC §7): the pre-commit framework,
// actionlint, reviewdog, the composite Action's shell steps under a
// simulated runner, and the copy-paste snippets of the docs.
//
// The tests that drive a real client (pre-commit, actionlint, reviewdog)
// and the long differential run need RIVUMI_LINT_INTEGRATION=1, which
// .ci/run always sets; without it they report a skip that names the
// variable, so `go test ./...` stays fast on a fresh machine. With it, a
// missing client fails its test with an install hint. pre-commit is a
// Debian package (.ci/run installs it); actionlint and reviewdog are pinned
// Go tools of the tools modules, never of the main go.mod
// (`go tool -modfile=tools/go.mod actionlint`,
// `go tool -modfile=tools/reviewdog/go.mod reviewdog`), all built at once
// when the test binary starts.
package integration
