package claude

import (
	"github.com/rivumi/rivumi-lint/internal/agent/claude/jsstring"
	"path"
	"strings"
)

// textExts are the extensions of files Claude Code 2.1.328 loads
// ($Zr): any other (lower-cased) extension is skipped as not text; a name
// without one loads.
var textExts = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`.md .txt .text .json .yaml .yml .toml .xml .csv .html .htm .css .scss .sass .less
		.js .ts .tsx .jsx .mjs .cjs .mts .cts .py .pyi .pyw .rb .erb .rake .go .rs .java .kt .kts .scala .c .cpp .cc
		.cxx .h .hpp .hxx .cs .swift .sh .bash .zsh .fish .ps1 .bat .cmd .env .ini .cfg .conf .config .properties .sql
		.graphql .gql .proto .vue .svelte .astro .ejs .hbs .pug .jade .php .pl .pm .lua .r .dart .ex .exs .erl .hrl
		.clj .cljs .cljc .edn .hs .lhs .elm .ml .mli .f .f90 .f95 .for .cmake .make .makefile .gradle .sbt .rst .adoc
		.asciidoc .org .tex .latex .lock .log .diff .patch`) {
		textExts[e] = true
	}
}

// textFile reports whether Claude Code loads a file by this path's
// extension (Node's path.extname, lower-cased).
func textFile(p string) bool {
	ext := strings.ToLower(nodeExtname(p))
	return ext == "" || textExts[ext]
}

// nodeExtname is Node's posix path.extname: from the last "." of the last
// component, "" when that component has none or only starts with one.
func nodeExtname(p string) string {
	startDot, startPart, end := -1, 0, -1
	matchedSlash := true
	preDotState := 0
	for i := len(p) - 1; i >= 0; i-- {
		c := p[i]
		if c == '/' {
			if !matchedSlash {
				startPart = i + 1
				break
			}
			continue
		}
		if end == -1 {
			matchedSlash = false
			end = i + 1
		}
		if c == '.' {
			if startDot == -1 {
				startDot = i
			} else if preDotState != 1 {
				preDotState = 1
			}
		} else if startDot != -1 {
			preDotState = -1
		}
	}
	if startDot == -1 || end == -1 || preDotState == 0 ||
		preDotState == 1 && startDot == end-1 && startDot == startPart+1 {
		return ""
	}
	return p[startDot:end]
}

// resolveImport is where an @-import written as h points from the
// directory base (the importing file's real directory): "~" is home, an
// absolute path is itself, anything else is below base; "" when "~" is
// asked for and home is not known.
func resolveImport(h, base, home string) string {
	r := jsstring.TrimString(h)
	switch {
	case r == "":
		return path.Clean(base)
	case r == "~" || strings.HasPrefix(r, "~/"):
		if home == "" {
			return ""
		}
		return path.Clean(home + "/" + strings.TrimPrefix(r[1:], "/"))
	case strings.HasPrefix(r, "/"):
		return path.Clean(r)
	}
	return path.Clean(base + "/" + r)
}

// withinOf reports whether p is dir or below it.
func withinOf(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// projectDir is kpn: the directory a file belongs to for the
// AGENTS.md placement, the part before its last "/.claude/" (else its
// directory).
func projectDir(p string) string {
	i := strings.LastIndex(p, "/.claude/")
	if i == -1 {
		i = strings.LastIndexByte(p, '/')
	}
	if i <= 0 {
		return "/"
	}
	return p[:i]
}
