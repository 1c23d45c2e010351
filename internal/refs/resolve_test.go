package refs

import (
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// one extracts the single reference of text.
func one(t *testing.T, text string) Ref {
	t.Helper()
	refs := Extract([]byte(text))
	if len(refs) != 1 {
		t.Fatalf("Extract(%q) = %d refs, want 1: %+v", text, len(refs), refs)
	}
	return refs[0]
}

var repoTree = memSource{files: map[string]string{
	"AGENTS.md":                       "",
	"docs/setup.md":                   "",
	"docs/My Notes.md":                "",
	"docs/img/":                       "",
	"pkg/api/AGENTS.md":               "",
	"pkg/api/handler.go":              "",
	"pkg/api/testdata/":               "",
	"scripts/check.sh":                "",
	"linkdir":                         "->docs",
	"linkfile.md":                     "->docs/setup.md",
	"vendor/lib":                      "@sub",
	"web/AGENTS.md":                   "",
	"web/package.json":                `{"scripts": {"dev": "vite", "test:unit": "vitest"}, "devDependencies": {"vitest": "1", "typescript": "5"}}`,
	"package.json":                    `{"scripts": {"lint": "eslint .", "build": "tsc -b"}}`,
	"bad/package.json":                `{"scripts": [1]}`,
	"bad/AGENTS.md":                   "",
	"Makefile":                        makefileText,
	"mk/common.mk":                    "common:\n\t@true\n",
	"mk/gen.mk":                       "GEN := generate\n$(GEN):\n\t@true\n",
	"sub/Makefile":                    "all: ; @true\nsub-only:\n",
	"sub/AGENTS.md":                   "",
	"envvar/Makefile":                 "$(BIN):\n\tgo build\n",
	"envvar/AGENTS.md":                "",
	"evalrules/Makefile":              "$(foreach t,a b,$(eval $(call rule,$t)))\n",
	"evalrules/AGENTS.md":             "",
	"generated/Makefile":              "include config.mk\nall:\n",
	"generated/AGENTS.md":             "",
	"justfile":                        justText,
	"mods/docs.just":                  "build:\n    mkdocs build\n",
	"tools/justfile":                  "set fallback\nlocal:\n    true\n",
	"tools/AGENTS.md":                 "",
	"nofile/AGENTS.md":                "",
	"deep/a/b/AGENTS.md":              "",
	"deep/a/b/c.md":                   "",
	"linked/Makefile":                 "->../Makefile",
	"linked/AGENTS.md":                "",
	".github/copilot-instructions.md": "",
}}

const makefileText = `# the root Makefile
.PHONY: lint test \
	fmt
BIN := rivumi
include mk/common.mk
-include mk/missing.mk
include mk/gen.mk
ifeq ($(CI),true)
ci-only:
else
local-only:
endif
$(BIN): main.go
	go build -o $@ .
%.pb.go: %.proto
	protoc $<
clean::
	rm -rf out
build test: deps
	go build ./...
define HELP
not-a-target:
endef
VERSION = 1.0
dist-$(VERSION).tar.gz:
	tar czf $@ .
`

const justText = `set shell := ["bash", "-c"]
alias t := test
mod docs 'mods/docs.just'
version := "1.0"

# Run the tests
test *args:
    cargo test {{args}}

[private]
@fmt:
    cargo fmt

serve port="8000:80": build
    echo {{port}}

build:
    cargo build
`

func TestResolvePaths(t *testing.T) {
	for _, c := range []struct {
		file, text string
		status     Status
		path       string
	}{
		{"AGENTS.md", "[x](docs/setup.md)", Resolved, "docs/setup.md"},
		{"AGENTS.md", "[x](docs/My%20Notes.md)", Resolved, "docs/My Notes.md"},
		{"AGENTS.md", "[x](docs/my%20notes.md)", Unresolved, ""}, // exact case
		{"AGENTS.md", "[x](Docs/setup.md)", Unresolved, ""},
		{"AGENTS.md", "[x](docs/)", Resolved, "docs"},
		{"AGENTS.md", "[x](docs/setup.md/)", Unresolved, ""}, // a file where a directory is asked for
		{"AGENTS.md", "`docs/img/`", Resolved, "docs/img"},
		{"AGENTS.md", "`docs/missing.md`", Unresolved, ""},
		{"pkg/api/AGENTS.md", "`testdata/`", Resolved, "pkg/api/testdata"},
		{"pkg/api/AGENTS.md", "`./testdata/`", Resolved, "pkg/api/testdata"},
		{"pkg/api/AGENTS.md", "`pkg/api/handler.go`", Resolved, "pkg/api/handler.go"}, // from the root
		{"pkg/api/AGENTS.md", "[x](../../docs/setup.md)", Resolved, "docs/setup.md"},
		{"pkg/api/AGENTS.md", "[x](/docs/setup.md)", Resolved, "docs/setup.md"},
		{"pkg/api/AGENTS.md", "[x](/handler.go)", Unresolved, ""}, // root-relative only
		{"AGENTS.md", "[x](../other-repo/README.md)", NotChecked, ""},
		{"pkg/api/AGENTS.md", "`../../../other-repo/x.md`", NotChecked, ""},
		{"pkg/api/AGENTS.md", "`../other-repo/x.md`", NotChecked, ""}, // from the root: a sibling checkout
		{"pkg/api/AGENTS.md", "`../docs/setup.md`", Resolved, "docs/setup.md"},
		{"pkg/api/AGENTS.md", "`../api/handler.go`", Resolved, "pkg/api/handler.go"},
		{"AGENTS.md", "`linkdir/setup.md`", NotChecked, ""},
		{"AGENTS.md", "`linkfile.md/`", NotChecked, ""}, // a link is never followed, even to say it leads somewhere
		{"AGENTS.md", "[x](linkfile.md)", NotChecked, ""},
		{"AGENTS.md", "`vendor/lib/src/x.c`", NotChecked, ""},
		{"AGENTS.md", "`vendor/lib/`", Resolved, "vendor/lib"},
		{"AGENTS.md", "`.git/hooks/pre-commit.sample`", NotChecked, ""},
		{"deep/a/b/AGENTS.md", "[x](c.md)", Resolved, "deep/a/b/c.md"},
		{"deep/a/b/AGENTS.md", "`a/b/c.md`", Resolved, "deep/a/b/c.md"}, // from deep/
		{".github/copilot-instructions.md", "`scripts/check.sh`", Resolved, "scripts/check.sh"},
	} {
		refs := Extract([]byte(c.text))
		if len(refs) == 0 {
			if c.status != Unresolved || c.path != "" {
				t.Errorf("%s %s: no reference extracted", c.file, c.text)
			}
			continue
		}
		got := Resolve(repoTree, c.file, refs[0])
		if got.Status != c.status || got.Path != c.path {
			t.Errorf("%s %s: %v %q (%s), want %v %q", c.file, c.text, got.Status, got.Path, got.Why, c.status, c.path)
		}
	}
}

func TestResolveNear(t *testing.T) {
	got := Resolve(repoTree, "AGENTS.md", one(t, "`docs/img/missing.png`"))
	if got.Status != Unresolved || got.Near != "docs/img" || got.Found != 2 {
		t.Errorf("got %+v, want Unresolved near docs/img with 2 names found", got)
	}
	got = Resolve(repoTree, "AGENTS.md", one(t, "`nowhere/x.md`"))
	if got.Status != Unresolved || got.Found != 0 {
		t.Errorf("got %+v, want Unresolved with no name found", got)
	}
	if !strings.Contains(got.Why, "nowhere/x.md") {
		t.Errorf("Why %q does not name the target", got.Why)
	}
}

func TestResolveMake(t *testing.T) {
	for _, c := range []struct {
		file, text string
		status     Status
		path       string
	}{
		{"AGENTS.md", "`make lint`", Resolved, "Makefile"},   // .PHONY over a continuation
		{"AGENTS.md", "`make fmt`", Resolved, "Makefile"},    // the continued line
		{"AGENTS.md", "`make build`", Resolved, "Makefile"},  // two targets on a rule
		{"AGENTS.md", "`make clean`", Resolved, "Makefile"},  // double colon
		{"AGENTS.md", "`make rivumi`", Resolved, "Makefile"}, // $(BIN) expanded
		{"AGENTS.md", "`make api.pb.go`", Resolved, "Makefile"},
		{"AGENTS.md", "`make common`", Resolved, "Makefile"},     // include
		{"AGENTS.md", "`make generate`", Resolved, "Makefile"},   // a variable of the included file
		{"AGENTS.md", "`make ci-only`", Resolved, "Makefile"},    // every branch
		{"AGENTS.md", "`make local-only`", Resolved, "Makefile"}, // every branch
		{"AGENTS.md", "`make dist-1.0.tar.gz`", Resolved, "Makefile"},
		{"AGENTS.md", "`make not-a-target`", Unresolved, ""}, // inside define
		{"AGENTS.md", "`make deploy`", Unresolved, ""},
		{"AGENTS.md", "`make docs`", Resolved, "docs"}, // an existing directory: nothing to be done
		{"AGENTS.md", "`make -C sub sub-only`", Resolved, "sub/Makefile"},
		{"AGENTS.md", "`make -C sub lint`", Unresolved, ""}, // -C reads that Makefile only
		{"AGENTS.md", "`make -C nowhere all`", Unresolved, ""},
		{"sub/AGENTS.md", "`make lint`", Resolved, "Makefile"}, // the root's, from above
		{"sub/AGENTS.md", "`make all`", Resolved, "sub/Makefile"},
		{"AGENTS.md", "`cd sub && make all`", Resolved, "sub/Makefile"},
		{"AGENTS.md", "`make -C envvar app`", NotChecked, ""},       // $(BIN) from the environment
		{"AGENTS.md", "`make -C evalrules a`", NotChecked, ""},      // $(eval)
		{"AGENTS.md", "`make -C generated config`", NotChecked, ""}, // include of a file not there
		{"AGENTS.md", "`make -C generated all`", Resolved, "generated/Makefile"},
		{"AGENTS.md", "`make -C linked lint`", NotChecked, ""}, // a linked Makefile is not followed
		{"AGENTS.md", "`make -f mk/common.mk common`", Resolved, "mk/common.mk"},
		{"AGENTS.md", "`make -f mk/none.mk common`", Unresolved, ""},
		{"AGENTS.md", "`make -C nofile x`", Unresolved, ""},
		{"linked/AGENTS.md", "`make lint`", Resolved, "Makefile"}, // the root's answers above the link
	} {
		got := Resolve(repoTree, c.file, one(t, c.text))
		if got.Status != c.status || got.Path != c.path {
			t.Errorf("%s %s: %v %q (%s), want %v %q", c.file, c.text, got.Status, got.Path, got.Why, c.status, c.path)
		}
	}
}

func TestResolveScripts(t *testing.T) {
	for _, c := range []struct {
		file, text string
		status     Status
		path       string
	}{
		{"AGENTS.md", "`npm run lint`", Resolved, "package.json"},
		{"AGENTS.md", "`npm run deploy`", Unresolved, ""},
		{"web/AGENTS.md", "`npm run dev`", Resolved, "web/package.json"},
		{"web/AGENTS.md", "`npm run test:unit`", Resolved, "web/package.json"},
		{"web/AGENTS.md", "`pnpm lint`", Resolved, "package.json"}, // the root's
		{"web/AGENTS.md", "`pnpm vitest run`", NotChecked, ""},     // a binary of a dependency
		{"web/AGENTS.md", "`pnpm tsc --noEmit`", NotChecked, ""},   // typescript's binary
		{"web/AGENTS.md", "`pnpm run vitest`", Unresolved, ""},     // run: scripts only
		{"AGENTS.md", "`cd web && npm run dev`", Resolved, "web/package.json"},
		{"AGENTS.md", "`npm --prefix web run dev`", Resolved, "web/package.json"},
		{"AGENTS.md", "`pnpm -C web dev`", Resolved, "web/package.json"},
		{"AGENTS.md", "`yarn dev`", Unresolved, ""},
		{"pkg/api/AGENTS.md", "`npm run build`", Resolved, "package.json"}, // nearest upward
		{"bad/AGENTS.md", "`npm run lint`", Resolved, "package.json"},      // the root's answers
		{"bad/AGENTS.md", "`npm run x`", NotChecked, ""},                   // bad/package.json cannot be read
	} {
		got := Resolve(repoTree, c.file, one(t, c.text))
		if got.Status != c.status || got.Path != c.path {
			t.Errorf("%s %s: %v %q (%s), want %v %q", c.file, c.text, got.Status, got.Path, got.Why, c.status, c.path)
		}
	}
}

func TestResolveJust(t *testing.T) {
	for _, c := range []struct {
		file, text string
		status     Status
		path       string
	}{
		{"AGENTS.md", "`just test`", Resolved, "justfile"},
		{"AGENTS.md", "`just t`", Resolved, "justfile"}, // an alias
		{"AGENTS.md", "`just fmt`", Resolved, "justfile"},
		{"AGENTS.md", "`just serve`", Resolved, "justfile"}, // a default holding ":"
		{"AGENTS.md", "`just docs`", Resolved, "justfile"},  // a module
		{"AGENTS.md", "`just docs::build`", NotChecked, ""},
		{"AGENTS.md", "`just version`", Unresolved, ""}, // a variable
		{"AGENTS.md", "`just deploy`", Unresolved, ""},
		{"tools/AGENTS.md", "`just local`", Resolved, "tools/justfile"},
		{"tools/AGENTS.md", "`just build`", Resolved, "justfile"}, // set fallback
		{"sub/AGENTS.md", "`just build`", Resolved, "justfile"},   // just looks upward
		{"AGENTS.md", "`just -f mods/docs.just build`", Resolved, "mods/docs.just"},
	} {
		got := Resolve(repoTree, c.file, one(t, c.text))
		if got.Status != c.status || got.Path != c.path {
			t.Errorf("%s %s: %v %q (%s), want %v %q", c.file, c.text, got.Status, got.Path, got.Why, c.status, c.path)
		}
	}
}

// TestResolveFatal: a source that cannot answer is never a finding; its
// *resolve.FatalError comes back for the caller to end the run (F6).
func TestResolveFatal(t *testing.T) {
	src := memSource{files: repoTree.files, fatal: "docs"}
	got := Resolve(src, "AGENTS.md", one(t, "`docs/setup.md`"))
	if got.Status != NotChecked || !resolve.IsFatal(got.Err) {
		t.Errorf("got %+v, want NotChecked with a fatal error", got)
	}
	src = memSource{files: repoTree.files, fatal: "Makefile"}
	got = Resolve(src, "AGENTS.md", one(t, "`make lint`"))
	if got.Status != NotChecked || !resolve.IsFatal(got.Err) {
		t.Errorf("got %+v, want NotChecked with a fatal error", got)
	}
}

// TestResolveIncludeLoop: a makefile that includes itself, and a
// justfile that imports itself, end within the bounds.
func TestResolveIncludeLoop(t *testing.T) {
	src := memSource{files: map[string]string{
		"Makefile": "include Makefile\nx:\n",
		"justfile": "import 'justfile'\ny:\n",
	}}
	if got := Resolve(src, "AGENTS.md", one(t, "`make x`")); got.Status != Resolved {
		t.Errorf("make x: %+v", got)
	}
	got := Resolve(src, "AGENTS.md", one(t, "`make z`"))
	if got.Status != NotChecked || !strings.Contains(got.Why, "nest deeper") {
		t.Errorf("make z: %+v, want not checked for the include depth", got)
	}
	if got := Resolve(src, "AGENTS.md", one(t, "`just y`")); got.Status != Resolved {
		t.Errorf("just y: %+v", got)
	}
}
