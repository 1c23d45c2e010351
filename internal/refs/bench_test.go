package refs

import (
	"strings"
	"testing"
)

// hostile are inputs of MaxText bytes built to make a naive scanner
// quadratic: unmatched brackets and backtick runs, unclosed link tails,
// deep parentheses, one long span, a long shell line.
var hostile = map[string]string{
	"brackets":      strings.Repeat("[", MaxText),
	"backtick runs": strings.Repeat("` `` ``` ", MaxText/9),
	"link tails":    strings.Repeat("[a](bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", MaxText/64),
	"parens":        "[a](" + strings.Repeat("(", MaxText-4),
	"one span":      "`" + strings.Repeat("make a ", MaxText/7-1) + "`",
	"shell":         "```sh\n" + strings.Repeat("make a && cd b && npm run c; ", MaxText/29),
	"definitions":   strings.Repeat("[a]: b/c.md\n", MaxText/12),
}

// BenchmarkExtractHostile shows Extract stays near linear on MaxText
// bytes of hostile input (go test -bench ExtractHostile ./internal/refs).
func BenchmarkExtractHostile(b *testing.B) {
	for name, text := range hostile {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				Extract([]byte(text))
			}
		})
	}
}

// BenchmarkMakefileHostile: a makefile of MaxText bytes of nested
// variables and long continued lines.
func BenchmarkMakefileHostile(b *testing.B) {
	text := strings.Repeat("A$(X) = $(A$(X))$(B) \\\n", MaxText/24)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		parseMakefile([]byte(text), map[string]string{}, func([]string, bool, map[string]string) string { return "" })
	}
}

// typical is an instruction file of MaxFileBytes' default (32 KiB) made
// of the constructs the corpus holds: prose with links and path spans, a
// table of commands, a shell fence.
var typical = func() string {
	para := "## Build\n\nRead [the guide](docs/setup.md#install) and `internal/lint/rule.go:42` before `make lint`.\n\n" +
		"| command | what |\n|---|---|\n| `pnpm run build` | build |\n| `just test` | test |\n\n" +
		"```sh\ncd web && npm run dev\nmake -C tools gen\n```\n\n"
	return strings.Repeat(para, 32<<10/len(para))
}()

// BenchmarkResolveTypical extracts and resolves the references of a
// typical 32 KiB file in a small tree, with one Resolver (its listings
// and build files read once).
func BenchmarkResolveTypical(b *testing.B) {
	b.SetBytes(int64(len(typical)))
	for b.Loop() {
		rv := NewResolver(repoTree)
		for _, r := range Extract([]byte(typical)) {
			rv.Resolve("AGENTS.md", r)
		}
	}
}
