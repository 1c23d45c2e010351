package refs

import (
	"reflect"
	"strings"
	"testing"
)

// show writes a Ref the way the tables below expect it.
func show(r Ref) string {
	s := r.Kind.String() + " " + r.Target
	if r.Tool != "" && r.Kind == Script {
		s = r.Tool + " " + s
	}
	if r.Dir != "" {
		s += " -C " + r.Dir
	}
	if r.File != "" {
		s += " -f " + r.File
	}
	if r.MayBeBinary {
		s += " (or a binary)"
	}
	return s
}

func extracted(text string) []string {
	var out []string
	for _, r := range Extract([]byte(text)) {
		out = append(out, show(r))
	}
	return out
}

func TestExtractLinks(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"inline", "See [setup](docs/setup.md).", []string{"link docs/setup.md"}},
		{"anchor cut", "[x](docs/a.md#install)", []string{"link docs/a.md"}},
		{"query cut", "[x](docs/a.md?plain=1)", []string{"link docs/a.md"}},
		{"only an anchor", "[x](#install)", nil},
		{"url decoded", "[x](docs/my%20notes.md)", []string{"link docs/my notes.md"}},
		{"angle brackets", "[x](<docs/my notes.md>)", []string{"link docs/my notes.md"}},
		{"title", `[x](docs/a.md "The title")`, []string{"link docs/a.md"}},
		{"parent", "[x](../common/README.md)", []string{"link ../common/README.md"}},
		{"root relative", "[x](/docs/a.md)", []string{"link /docs/a.md"}},
		{"root relative directory", "[x](/docs/)", []string{"link /docs/"}},
		{"site route", "[x](/customize/sandbox/quickstart)", nil},
		{"relative without extension", "[x](LICENSE)", []string{"link LICENSE"}},
		{"directory", "[x](docs/)", []string{"link docs/"}},
		{"balanced parens", "[x](docs/a_(b).md)", []string{"link docs/a_(b).md"}},
		{"image", "![diagram](assets/arch.png)", []string{"link assets/arch.png"}},
		{"https", "[x](https://example.com/a.md)", nil},
		{"mailto", "[x](mailto:a@b.c)", nil},
		{"custom scheme", "[x](vscode://file/a)", nil},
		{"protocol relative", "[x](//cdn.example.com/a.js)", nil},
		{"template", "[x]({{ site.url }}/a.md)", nil},
		{"empty", "[x]()", nil},
		{"escaped bracket", `\[x](docs/a.md)`, nil},
		{"in a code span", "`[x](docs/a.md)`", nil},
		{"in a fence", "```md\n[x](docs/a.md)\n```", nil},
		{"in a comment", "<!-- [x](docs/a.md) -->", nil},
		{"comment over lines", "<!--\n\n[x](docs/a.md)\n\n-->\n[y](docs/b.md)", []string{"link docs/b.md"}},
		{"reference definition", "[setup]: docs/setup.md", []string{"link docs/setup.md"}},
		{"definition with title", `[setup]: <docs/set up.md> "Setup"`, []string{"link docs/set up.md"}},
		{"footnote is not a definition", "[^1]: docs/setup.md is old", nil},
		{"definition url", "[gh]: https://github.com/a/b", nil},
		{"link text code span is not a path", "[`docs/a.md`](docs/a.md)", []string{"link docs/a.md"}},
		{"two links", "[a](a.md) and [b](b/c.md)", []string{"link a.md", "link b/c.md"}},
		{"nested brackets", "[see [here]](x/y.md)", []string{"link x/y.md"}},
		{"across lines", "[a long\nlink](x/y.md)", []string{"link x/y.md"}},
		{"blockquote", "> [x](docs/a.md)", []string{"link docs/a.md"}},
		{"reference use is not a target", "[x][setup]", nil},
		{"escaped paren", `[x](docs/a\(1\).md)`, []string{`link docs/a(1).md`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := extracted(c.text); !reflect.DeepEqual(got, c.want) {
				t.Errorf("Extract(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

func TestExtractPaths(t *testing.T) {
	yes := []struct{ span, target string }{
		{"docs/setup.md", "docs/setup.md"},
		{"pkg/api/testdata/", "pkg/api/testdata/"},
		{"./scripts/check.sh", "./scripts/check.sh"},
		{"../common/README.md", "../common/README.md"},
		{".github/workflows/ci.yml", ".github/workflows/ci.yml"},
		{"internal/lint/rule.go:42", "internal/lint/rule.go"},
		{"internal/lint/rule.go:42:7", "internal/lint/rule.go"},
		{"src/lib.rs::parse", "src/lib.rs"},
		{"tests/test_api.py::TestX::test_y", "tests/test_api.py"},
		{"docs/a.md#setup", "docs/a.md"},
		{"config/.env", "config/.env"},
		{"web/src/app.config.ts", "web/src/app.config.ts"},
		{"src/routes/+page.svelte", "src/routes/+page.svelte"},
		{"packages/@scope/x/README.md", "packages/@scope/x/README.md"},
		{"src/main.rs:L10-L20", "src/main.rs"},
	}
	for _, c := range yes {
		got := extracted("Read `" + c.span + "` first.")
		if want := []string{"path " + c.target}; !reflect.DeepEqual(got, want) {
			t.Errorf("span %q: got %q, want %q", c.span, got, want)
		}
	}
	no := []string{
		"README.md",                 // no slash: a name, not a path
		"owner/repo",                // a slug
		"feature/login",             // a branch
		"origin/main",               // a remote branch
		"github.com/owner/repo",     // a module path
		"golang.org/x/tools/go.mod", // a host
		"https://example.com/a.md",  // a URL
		"localhost:3000/api.json",   // a host and port
		"src/**/*.ts",               // a glob
		"src/{a,b}.ts",              // a brace glob
		"packages/*/package.json",   // a glob
		"$HOME/.config/x.toml",      // a variable
		"~/.codex/config.toml",      // the home directory
		"/etc/hosts.conf",           // absolute
		"--config=dir/x.yml",        // a flag
		"-f dir/x.yml",              // a flag and spaces
		"path/to/file.go",           // a placeholder
		"src/.../x.go",              // an ellipsis
		"<dir>/x.md",                // a template
		"{{dir}}/x.md",              // a template
		"a/b.md|c",                  // shell
		"a/b.md;",                   // shell
		"dist/$(VERSION).tar.gz",    // a substitution
		"v1/v1.2",                   // a version, not an extension
		"and/or",                    // prose
		"input/output",              // prose
		"pkg@1.2/x.js",              // a package at a version
		"user@host/x.txt",           // a user at a host
		"@types/node/index.d.ts",    // a package specifier
		"C:/Users/x.txt",            // a Windows drive
		"a//b.md",                   // an empty name
		"./",                        // only a directory mark
		"src/x.go:abc",              // not a position
		"100%/x.md",                 // a percent sign
		"cat docs/a.md",             // a command with spaces
	}
	for _, s := range no {
		if got := extracted("`" + s + "`"); len(got) != 0 {
			t.Errorf("span %q: got %q, want no reference", s, got)
		}
	}
}

func TestExtractCommands(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"make span", "Run `make lint`.", []string{"make lint"}},
		{"make a file goal", "`make out/report.html`", []string{"make out/report.html"}},
		{"make two goals", "`make fmt lint`", []string{"make fmt", "make lint"}},
		{"make -C", "`make -C web build`", []string{"make build -C web"}},
		{"make -Cdir", "`make -Cweb build`", []string{"make build -C web"}},
		{"make --directory=", "`make --directory=web build`", []string{"make build -C web"}},
		{"make -f", "`make -f tools.mk gen`", []string{"make gen -f tools.mk"}},
		{"make -j", "`make -j 8 test`", []string{"make test"}},
		{"make -j4 and vars", "`make -j4 V=1 test`", []string{"make test"}},
		{"make no goal", "`make`", nil},
		{"make placeholder", "`make <target>`", nil},
		{"make brackets", "`make [target]`", nil},
		{"make variable goal", "`make $(GOAL)`", nil},
		{"make glob", "`make test-*`", nil},
		{"make -C variable", "`make -C $DIR test`", nil},
		{"make -C absolute", "`make -C /tmp test`", nil},
		{"env before make", "`CGO_ENABLED=0 make build`", []string{"make build"}},
		{"quoted env before make", "`GOFLAGS=\"-tags x\" make build`", []string{"make build"}},
		{"sudo make", "`sudo make install`", []string{"make install"}},
		{"cd then make", "`cd web && make build`", []string{"make build -C web"}},
		{"cd in a subshell", "`(cd web && make a) && make b`", []string{"make a -C web", "make b"}},
		{"cd lost", "`cd $ROOT && make build`", nil},
		{"cd home", "`cd ~/src && make build`", nil},
		{"make after pipe", "`echo | make check`", []string{"make check"}},
		{"make redirect", "`make test > out.txt 2>&1`", []string{"make test"}},
		{"make comment", "```sh\nmake test # and lint\n```", []string{"make test"}},
		{"not a command word", "`cmake build`", nil},
		{"make as an argument", "`echo make test`", nil},

		{"npm run", "`npm run build`", []string{"npm script build"}},
		{"npm run with colon", "`npm run test:unit -- --watch`", []string{"npm script test:unit"}},
		{"npm run-script", "`npm run-script lint`", []string{"npm script lint"}},
		{"npm test", "`npm test`", []string{"npm script test"}},
		{"npm install", "`npm install`", nil},
		{"npm ci", "`npm ci`", nil},
		{"npm -w", "`npm run build -w pkg`", []string{"npm script build"}},
		{"npm --workspace first", "`npm --workspace pkg run build`", nil},
		{"npm --prefix", "`npm --prefix web run build`", []string{"npm script build -C web"}},
		{"npm run --if-present", "`npm run --if-present lint`", nil},
		{"npm run alone", "`npm run`", nil},
		{"npx", "`npx tsc`", nil},

		{"pnpm run", "`pnpm run build`", []string{"pnpm script build"}},
		{"pnpm bare", "`pnpm lint`", []string{"pnpm script lint (or a binary)"}},
		{"pnpm test", "`pnpm test`", []string{"pnpm script test"}},
		{"pnpm install", "`pnpm install`", nil},
		{"pnpm i", "`pnpm i`", nil},
		{"pnpm add", "`pnpm add -D vitest`", nil},
		{"pnpm dlx", "`pnpm dlx create-x`", nil},
		{"pnpm exec", "`pnpm exec tsc`", nil},
		{"pnpm -F", "`pnpm -F web build`", nil},
		{"pnpm --filter", "`pnpm --filter=web build`", nil},
		{"pnpm -r", "`pnpm -r test`", nil},
		{"pnpm -w", "`pnpm -w lint`", nil},
		{"pnpm -C", "`pnpm -C web build`", []string{"pnpm script build -C web (or a binary)"}},
		{"pnpm --dir run", "`pnpm --dir web run build`", []string{"pnpm script build -C web"}},
		{"pnpm start", "`pnpm start`", nil},

		{"yarn run", "`yarn run build`", []string{"yarn script build (or a binary)"}},
		{"yarn bare", "`yarn lint`", []string{"yarn script lint (or a binary)"}},
		{"yarn alone", "`yarn`", nil},
		{"yarn install", "`yarn install`", nil},
		{"yarn workspace", "`yarn workspace web build`", nil},
		{"yarn --cwd", "`yarn --cwd web build`", []string{"yarn script build -C web (or a binary)"}},
		{"yarn test", "`yarn test`", []string{"yarn script test"}},

		{"bun run", "`bun run dev`", []string{"bun script dev (or a binary)"}},
		{"bun run a file", "`bun run src/index.ts`", nil},
		{"bun run a file name", "`bun run index.ts`", nil},
		{"bun test", "`bun test`", nil},
		{"bun install", "`bun install`", nil},
		{"bun --filter", "`bun --filter web run dev`", nil},

		{"just", "`just test`", []string{"just test"}},
		{"just args", "`just test ./crates/x`", []string{"just test"}},
		{"just module", "`just docs::build`", []string{"just docs::build"}},
		{"just -f", "`just -f ci.just lint`", []string{"just lint -f ci.just"}},
		{"just --list", "`just --list`", nil},
		{"just alone", "`just`", nil},
		{"just override", "`just profile=release build`", []string{"just build"}},
		{"just --set", "`just --set profile release build`", []string{"just build"}},

		{"fence sh", "```sh\nmake build\nnpm run lint\n```", []string{"make build", "npm script lint"}},
		{"fence bash with prompt", "```bash\n$ make build\n```", []string{"make build"}},
		{"fence unlabelled", "```\nmake build\n```", []string{"make build"}},
		{"fence console", "```console\n$ just check\n```", []string{"just check"}},
		{"fence tilde", "~~~shell\nmake build\n~~~", []string{"make build"}},
		{"fence go", "```go\nmake(chan int)\n```", nil},
		{"fence yaml", "```yaml\nrun: make test\n```", nil},
		{"fence makefile", "```makefile\nbuild:\n\tmake -C sub all\n```", nil},
		{"fence text", "```text\nmake build\n```", nil},
		{"fence in a list", "1. Build:\n   ```bash\n   make build\n   ```", []string{"make build"}},
		{"fence keeps cd", "```sh\ncd web\nnpm run dev\n```", []string{"npm script dev -C web"}},
		{"fence cd && is for the line", "```sh\ncd web && npm run dev\nmake all\n```", []string{"npm script dev -C web", "make all"}},
		{"fence cd back", "```sh\ncd web\ncd ..\nmake all\n```", []string{"make all"}},
		{"fence continuation", "```sh\nmake \\\n  lint\n```", []string{"make lint"}},
		{"fence heredoc", "```sh\ncat <<EOF\nmake inside\nEOF\nmake after\n```", []string{"make after"}},
		{"fence unclosed", "```sh\nmake build", []string{"make build"}},
		{"fence paths are not spans", "```sh\ncat docs/a.md\n```", nil},
		{"fence in blockquote", "> ```sh\n> make build\n> ```", []string{"make build"}},
		{"span over two lines", "Run `make\nlint` now", []string{"make lint"}},
		{"double backtick span", "``make lint``", []string{"make lint"}},
		{"unmatched backtick", "a ` b `make lint`", []string{}},
		{"chained", "`make fmt && pnpm lint; just test`", []string{"make fmt", "pnpm script lint (or a binary)", "just test"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := extracted(c.text)
			if len(got) == 0 && len(c.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Extract(%q) = %q, want %q", c.text, got, c.want)
			}
		})
	}
}

// TestExtractPositions: Line and Col (1-based, bytes) and Offset point at
// the target as written, and text[Offset:End] is what a fix replaces.
func TestExtractPositions(t *testing.T) {
	text := "# T\n\nSee [the guide](docs/my%20guide.md#top) and `src/x.go:12`.\n\n```sh\ncd web && make -C sub lint\n```\n[def]: <a b/c.md>\n"
	refs := Extract([]byte(text))
	want := []struct {
		kind      Kind
		raw       string
		line, col int
	}{
		{Link, "docs/my%20guide.md", 3, 17},
		{Path, "src/x.go", 3, 46},
		{Make, "lint", 6, 23},
		{Link, "a b/c.md", 8, 9},
	}
	if len(refs) != len(want) {
		t.Fatalf("got %d refs, want %d: %+v", len(refs), len(want), refs)
	}
	for i, w := range want {
		r := refs[i]
		if r.Kind != w.kind || text[r.Offset:r.End] != w.raw || r.Line != w.line || r.Col != w.col {
			t.Errorf("ref %d: %v %q at %d:%d, want %v %q at %d:%d", i, r.Kind, text[r.Offset:r.End], r.Line, r.Col, w.kind, w.raw, w.line, w.col)
		}
		lineStart := strings.LastIndexByte(text[:r.Offset], '\n') + 1
		if r.Col != r.Offset-lineStart+1 {
			t.Errorf("ref %d: Col %d does not match Offset %d", i, r.Col, r.Offset)
		}
	}
	if refs[2].Dir != "web/sub" {
		t.Errorf("make -C sub after cd web: Dir = %q, want web/sub", refs[2].Dir)
	}
}

func TestExtractCRLF(t *testing.T) {
	got := extracted("Run `make lint`.\r\n\r\n```sh\r\nmake build\r\n```\r\n[a](x/y.md)\r\n")
	want := []string{"make lint", "make build", "link x/y.md"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
