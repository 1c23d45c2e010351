package gitattr

import (
	"fmt"
	"math/rand"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// files is an in-memory tree of attributes files for Checker.
func loaderOf(files map[string]string) Loader {
	return func(dir string) ([]byte, bool, error) {
		s, ok := files[path.Join(dir, FileName)]
		return []byte(s), ok, nil
	}
}

func attrsOf(t *testing.T, c *Checker, p string) map[string]string {
	t.Helper()
	all, err := c.All(p)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range all {
		out[k] = v.String()
	}
	return out
}

// F5: a deeper .gitattributes overrides a shallower one; within a file the
// last matching line wins; a pattern with a slash is relative to its
// file's directory, one without matches the basename; `!attr` makes an
// attribute unspecified again; `dir/` never matches a file.
func TestF5DeeperFileOverrides(t *testing.T) {
	c := NewChecker(loaderOf(map[string]string{
		".gitattributes":   "AGENTS.md working-tree-encoding=UTF-16 eol=crlf\n*.md text\nsub/ -text\n",
		"a/.gitattributes": "AGENTS.md working-tree-encoding=UTF-8\nb/AGENTS.md !eol\n",
	}), nil)
	if got := attrsOf(t, c, "AGENTS.md"); got["working-tree-encoding"] != "UTF-16" || got["eol"] != "crlf" || got["text"] != "set" {
		t.Errorf("AGENTS.md: %v", got)
	}
	got := attrsOf(t, c, "a/b/AGENTS.md")
	if got["working-tree-encoding"] != "UTF-8" {
		t.Errorf("a/b/AGENTS.md: the deeper file must win: %v", got)
	}
	if _, ok := got["eol"]; ok {
		t.Errorf("a/b/AGENTS.md: !eol must leave eol unspecified: %v", got)
	}
	if got := attrsOf(t, c, "sub/x.md"); got["text"] != "set" {
		t.Errorf("sub/x.md: `sub/` must not match a file below sub: %v", got)
	}
	all, _ := c.All("a/AGENTS.md")
	if v := all["working-tree-encoding"]; v.From.File != "a/.gitattributes" || v.From.Line != 1 {
		t.Errorf("origin %v, want a/.gitattributes:1", v.From)
	}
}

// F5: macros are defined only in the root file (and info/attributes);
// `binary` is built in (-diff -merge -text); a macro's expansion records
// the line that used it.
func TestF5Macros(t *testing.T) {
	c := NewChecker(loaderOf(map[string]string{
		".gitattributes":   "[attr]wide working-tree-encoding=UTF-16LE -text\nAGENTS.md wide\nbin/* binary eol=crlf\n",
		"a/.gitattributes": "[attr]sub eol=crlf\nAGENTS.md sub\n",
	}), nil)
	all, _ := c.All("AGENTS.md")
	v := all["working-tree-encoding"]
	if v.Text != "UTF-16LE" || v.From.Line != 2 || v.From.Macro != "wide" {
		t.Errorf("working-tree-encoding = %+v", v)
	}
	if got := attrsOf(t, c, "a/AGENTS.md"); got["eol"] != "" || got["sub"] != "set" {
		t.Errorf("a macro in a subdirectory must be ignored: %v", got)
	}
	got := attrsOf(t, c, "bin/AGENTS.md")
	if got["text"] != "unset" || got["diff"] != "unset" || got["binary"] != "set" {
		t.Errorf("binary: %v", got)
	}
	cv, _ := c.Conversion("bin/AGENTS.md")
	if cv.CRLF != nil {
		t.Errorf("-text (binary) must switch eol=crlf off: %+v", cv)
	}
}

// F5: which checkouts add CR, and how many bytes (convert.c).
func TestF5CRLFBytes(t *testing.T) {
	eol := &Value{State: String, Text: "crlf"}
	for _, tc := range []struct {
		auto bool
		in   string
		n    int64
		conv bool
	}{
		{false, "a\nb\n", 6, true},
		{false, "a\r\nb\n", 6, true},
		{false, "a\r\nb\r\n", 6, false},
		{false, "", 0, false},
		{true, "a\nb\n", 6, true},
		{true, "a\r\nb\n", 5, false}, // auto: a CRLF already there
		{true, "a\x00\nb\n", 5, false},
		{true, "a\rb\n", 4, false},
	} {
		n, conv := Conversion{CRLF: eol, Auto: tc.auto}.CRLFBytes([]byte(tc.in))
		if n != tc.n || conv != tc.conv {
			t.Errorf("auto=%v %q: %d %v, want %d %v", tc.auto, tc.in, n, conv, tc.n, tc.conv)
		}
	}
	for _, enc := range []string{"UTF-8", "utf8", "Utf-8", "UTF8"} {
		if !IsUTF8(enc) {
			t.Errorf("IsUTF8(%q) = false", enc)
		}
	}
	for _, enc := range []string{"UTF-16", "UTF-8-BOM", "latin1", ""} {
		if IsUTF8(enc) {
			t.Errorf("IsUTF8(%q) = true", enc)
		}
	}
	cv := Conversion{Encoding: &Value{State: String, Text: "ISO-8859-1"}}
	if cv.Encoded([]byte("plain ascii\n")) || !cv.Encoded([]byte("caf\u00e9\n")) {
		t.Error("ISO-8859-1 keeps ASCII and changes the rest")
	}
	cv = Conversion{Encoding: &Value{State: String, Text: "UTF-16"}}
	if !cv.Encoded([]byte("plain ascii\n")) || cv.Encoded(nil) {
		t.Error("UTF-16 changes every non-empty file")
	}
}

// F5: the attribute lookup equals `git check-attr --cached -a` over
// generated attributes files (root, nested, info/attributes; macros,
// quoting, invalid lines) and paths. Each seed is one repository.
func TestF5DifferentialCheckAttr(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 8
	}
	for seed := 1; seed <= seeds; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) { diffOneSeed(t, int64(seed)) })
	}
}

var (
	genDirs     = []string{"", "a", "a/b", "a/b/d", "c", "A"}
	genNames    = []string{"AGENTS.md", "RIVUMI.md", "x.md", "agents.MD", "AGENTS.override.md", "x y.md", "!x", "b", "d"}
	genPatterns = []string{"*", "*.md", "AGENTS.md", "A*", "a/*", "/AGENTS.md", "b/AGENTS.md", "**/AGENTS.md",
		"a/**", "[AR]*.md", "?GENTS.md", "*.MD", "RIVUMI.md", "b/", "\"AGENTS.md\"", "!AGENTS.md", "d/*.md",
		"**/b/*", "\"x y.md\"", "x\\ y.md", "\\!x", "\"\\101GENTS.md\"", "/b/**", "*/AGENTS.md", "[!a]*", "b",
		"**", "a/b/d/*", "\"unterminated", "[[:upper:]]*"}
	genAttrs = []string{"text", "eol", "filter", "working-tree-encoding", "diff", "foo", "binary", "mac1", "mac2", "crlf"}
	genVals  = []string{"crlf", "lf", "auto", "lfs", "UTF-16", "x=y", ""}
)

func genLine(r *rand.Rand, macros bool) string {
	switch r.Intn(14) {
	case 0:
		return "# comment " + genPatterns[r.Intn(len(genPatterns))]
	case 1:
		return ""
	case 2:
		if macros || r.Intn(2) == 0 {
			return fmt.Sprintf("[attr]mac%d %s", 1+r.Intn(2), genStates(r))
		}
	case 3:
		return genPatterns[r.Intn(len(genPatterns))] + " a+b" // invalid name: line dropped
	case 4:
		return genPatterns[r.Intn(len(genPatterns))] + " " + strings.Repeat("x", 2050) // too long
	}
	sep := []string{" ", "\t", "  "}[r.Intn(3)]
	lead := []string{"", "", " ", "\t"}[r.Intn(4)]
	end := []string{"", "", "\r", " "}[r.Intn(4)]
	return lead + genPatterns[r.Intn(len(genPatterns))] + sep + genStates(r) + end
}

func genStates(r *rand.Rand) string {
	var parts []string
	for i := r.Intn(4); i >= 0; i-- {
		a := genAttrs[r.Intn(len(genAttrs))]
		switch r.Intn(4) {
		case 0:
			parts = append(parts, a)
		case 1:
			parts = append(parts, "-"+a)
		case 2:
			parts = append(parts, "!"+a)
		default:
			parts = append(parts, a+"="+genVals[r.Intn(len(genVals))])
		}
	}
	return strings.Join(parts, " ")
}

func genFile(r *rand.Rand, macros bool) string {
	var b strings.Builder
	if r.Intn(8) == 0 {
		b.WriteString("\xef\xbb\xbf") // a UTF-8 byte-order mark
	}
	for i := r.Intn(7); i >= 0; i-- {
		b.WriteString(genLine(r, macros))
		b.WriteByte('\n')
	}
	return b.String()
}

func diffOneSeed(t *testing.T, seed int64) {
	r := rand.New(rand.NewSource(seed))
	g := gittest.New(t)
	files := map[string]string{}
	var index strings.Builder
	for _, d := range genDirs {
		if r.Intn(3) == 0 {
			continue
		}
		p := path.Join(d, FileName)
		files[p] = genFile(r, d == "")
		g.Write(p, files[p])
		id := strings.TrimSpace(g.Git("hash-object", "-w", "--no-filters", p))
		fmt.Fprintf(&index, "100644 %s\t%s\n", id, p)
	}
	g.Input(index.String(), "update-index", "--add", "--index-info")
	var info *File
	if r.Intn(2) == 0 {
		text := genFile(r, true)
		gitDir := filepath.Join(g.Dir, ".git")
		if err := os.WriteFile(filepath.Join(gitDir, "info", "attributes"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		if info, err = ReadInfo(gitDir); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, d := range genDirs {
		for _, n := range genNames {
			paths = append(paths, path.Join(d, n))
		}
	}
	out := g.Input(strings.Join(paths, "\x00")+"\x00", "check-attr", "--cached", "-a", "-z", "--stdin")
	want := map[string]map[string]string{}
	f := strings.Split(out, "\x00")
	for i := 0; i+2 < len(f); i += 3 {
		if want[f[i]] == nil {
			want[f[i]] = map[string]string{}
		}
		want[f[i]][f[i+1]] = f[i+2]
	}
	c := NewChecker(loaderOf(files), info)
	for _, p := range paths {
		got := attrsOf(t, c, p)
		w := want[p]
		if w == nil {
			w = map[string]string{}
		}
		if fmt.Sprint(sorted(got)) != fmt.Sprint(sorted(w)) {
			t.Errorf("seed %d, %s:\n got %v\nwant %v (git check-attr)\nfiles: %q\ninfo: %v", seed, p, sorted(got), sorted(w), files, info != nil)
		}
	}
}

func sorted(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}
