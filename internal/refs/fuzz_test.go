package refs

// Native fuzz targets for the reference grammar and the build-file
// parsers (§10: parsers never panic and stay bounded on hostile input).
//
//	go test ./internal/refs -run '^$' -fuzz '^FuzzExtract$' -fuzztime 60s

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"See [x](docs/a.md#b) and `src/x.go:1`.\n",
		"```sh\ncd web && make -C sub lint\nnpm run build\n```\n",
		"[def]: <a b.md> \"t\"\n",
		"<!-- [x](a.md)\n\n-->`make x`",
		"`` ` `` `pnpm --filter x y` `just a::b`",
		"> ```\n> make $(X) <t> [y]\n",
		"[a](<b)[c](d(e)f)![g](h.png 'i')",
		"```sh\ncat <<EOF\nmake x\nEOF\n```",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		refs := Extract(text)
		prev := -1
		for _, r := range refs {
			if r.Kind < Link || r.Kind > Just {
				t.Fatalf("kind %d", r.Kind)
			}
			if r.Target == "" {
				t.Fatalf("empty target: %+v", r)
			}
			if r.Offset < 0 || r.End < r.Offset || r.End > len(text) {
				t.Fatalf("range %d:%d outside %d bytes", r.Offset, r.End, len(text))
			}
			if r.Offset < prev {
				t.Fatalf("refs out of order: %d after %d", r.Offset, prev)
			}
			prev = r.Offset
			line := bytes.Count(text[:r.Offset], []byte("\n")) + 1
			col := r.Offset - (bytes.LastIndexByte(text[:r.Offset], '\n') + 1) + 1
			if r.Line != line || r.Col != col {
				t.Fatalf("%+v at %d:%d, want %d:%d", r, r.Line, r.Col, line, col)
			}
			// npm's own aliases of its test command (npm t, npm tst) run the
			// test script.
			alias := func(raw string) bool { return r.Kind == Script && r.Target == "test" && (raw == "t" || raw == "tst") }
			if raw := string(text[r.Offset:r.End]); r.Kind != Link && raw != r.Target && r.Kind != Make && !alias(raw) {
				t.Fatalf("%v target %q but the text holds %q", r.Kind, r.Target, raw)
			}
			if r.Kind == Path {
				if _, ok := pathToken(r.Target); !ok {
					t.Fatalf("path %q is not path-like", r.Target)
				}
			}
			if utf8.Valid(text) && !utf8.ValidString(r.Target) && r.Kind != Link {
				t.Fatalf("invalid UTF-8 target %q from valid text", r.Target)
			}
		}
	})
}

// fuzzSource is a tree in which every build file is the fuzzed text, so
// includes and imports of any name find more of it.
type fuzzSource struct{ data []byte }

func (s fuzzSource) List(dir string) ([]resolve.Entry, error) {
	return []resolve.Entry{
		{Name: "Makefile", Kind: resolve.Regular, Size: int64(len(s.data))},
		{Name: "justfile", Kind: resolve.Regular, Size: int64(len(s.data))},
		{Name: "package.json", Kind: resolve.Regular, Size: int64(len(s.data))},
		{Name: "a.mk", Kind: resolve.Regular, Size: int64(len(s.data))},
		{Name: "sub", Kind: resolve.Dir},
	}, nil
}

func (s fuzzSource) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	return s.data, resolve.Regular, int64(len(s.data)), nil
}

func FuzzMakefile(f *testing.F) {
	f.Add([]byte(makefileText))
	f.Add([]byte("include a.mk Makefile sub/*.mk\nX := $(X)$(X)\n$(X): ; \n%:\n"))
	f.Add([]byte("A = $(B)\nB = $(A)\n$(A):\n"))
	f.Add([]byte("define x\ndefine y\nendef\n\\\n\\\n.PHONY: $(eval x)\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m := parseMakefile(data, map[string]string{}, func([]string, bool, map[string]string) string { return "" })
		m.has("lint")
		rv := NewResolver(fuzzSource{data})
		for _, goal := range []string{"lint", "a.mk", "x"} {
			r := rv.Resolve("AGENTS.md", Ref{Kind: Make, Tool: "make", Target: goal})
			if r.Status < Resolved || r.Status > NotChecked {
				t.Fatalf("status %v", r.Status)
			}
		}
		if n := len(rv.makes); n > 2 {
			t.Fatalf("%d makefile parses for two directories", n)
		}
	})
}

func FuzzPackageJSON(f *testing.F) {
	f.Add([]byte(`{"scripts": {"a": "b"}, "devDependencies": {"@x/y": "1"}, "bin": {"z": "z.js"}}`))
	f.Add([]byte(`{"scripts": [], "bin": "x.js"}`))
	f.Add([]byte(strings.Repeat("[", 20000)))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := parsePackageJSON(data)
		if err == nil && (p.scripts == nil || p.deps == nil) {
			t.Fatal("nil maps without an error")
		}
		rv := NewResolver(fuzzSource{data})
		r := rv.Resolve("AGENTS.md", Ref{Kind: Script, Tool: "pnpm", Target: "a", MayBeBinary: true})
		if (r.Status == Resolved) != (err == nil && p.scripts["a"]) {
			t.Fatalf("resolved %v but parsed scripts %v (%v)", r.Status, p, err)
		}
	})
}

func FuzzJustfile(f *testing.F) {
	f.Add([]byte(justText))
	f.Add([]byte("import 'justfile'\nimport? 'sub/justfile'\nmod m 'justfile'\nset fallback\nx:\n"))
	f.Add([]byte("x := '''\ny:\n'''\n[a] @z p=\"a:b\" *q: x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		j := parseJustfile(data)
		for name := range j.recipes {
			if !recipeName(name) {
				t.Fatalf("recipe %q is not a recipe name", name)
			}
		}
		rv := NewResolver(fuzzSource{data})
		for _, target := range []string{"x", "m::x"} {
			r := rv.Resolve("sub/AGENTS.md", Ref{Kind: Just, Tool: "just", Target: target})
			if r.Status < Resolved || r.Status > NotChecked {
				t.Fatalf("status %v", r.Status)
			}
		}
	})
}
