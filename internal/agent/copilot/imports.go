package copilot

import (
	"bytes"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// expander expands one instruction file's @path imports (rule 6): seen
// are the files it imported already, of this instruction file only.
type expander struct {
	c    *Resolver
	w    *view
	seen map[string]bool
}

// at is where an import is: the file that makes it (root-relative), the
// 1-based line and byte column of its "@" in the file's bytes.
type at struct {
	from         string
	line, column int
}

// expand returns text with each import that names a file followed by
// that file's text; from is text's file (root-relative), bom whether its
// bytes begin with the BOM that text no longer has (the columns of its
// first line count it).
func (x *expander) expand(text []byte, from string, bom bool) ([]byte, error) {
	var out []byte
	fence := false
	n := 0
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]
		n++
		if isFence(line) {
			fence = !fence
			out = append(out, line...)
			continue
		}
		if fence || !bytes.Contains(line, []byte("@")) {
			out = append(out, line...)
			continue
		}
		shift := 0
		if n == 1 && bom {
			shift = 3
		}
		var err error
		if out, err = x.line(out, line, at{from: from, line: n, column: shift}); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// isFence reports whether line opens or closes a fenced code block.
func isFence(line []byte) bool {
	s := strings.TrimLeft(string(line), " ")
	if len(string(line))-len(s) > 3 {
		return false
	}
	return strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~")
}

func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// line appends line to out, expanding its imports outside code spans;
// pos is the line's place (its column the bytes before the line's first).
func (x *expander) line(out, line []byte, pos at) ([]byte, error) {
	code := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		out = append(out, ch)
		switch {
		case ch == '`':
			code = !code
			continue
		case ch != '@' || code || i > 0 && !isSpace(line[i-1]):
			continue
		}
		j := i + 1
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		ref := string(line[i+1 : j])
		out = append(out, ref...)
		ins, err := x.imported(ref, at{from: pos.from, line: pos.line, column: pos.column + i + 1})
		i = j - 1
		if err != nil {
			return nil, err
		}
		out = append(out, ins...)
	}
	return out, nil
}

// imported is what follows the import @ref made at pos: nothing when it
// is not expanded. An import that names a file Copilot does not expand is
// a candidate of the view (the importer's typed position on it), when
// the token has a path's shape (pathShape): not an @mention.
func (x *expander) imported(ref string, pos at) ([]byte, error) {
	dir := resolve.ParentDir(pos.from)
	unread := func(p string, st agent.State, why string) {
		if pathShape(ref) {
			x.w.v.Candidates = append(x.w.v.Candidates, agent.Candidate{Path: p, State: st, Size: -1,
				ImportedBy: pos.from, Line: pos.line, Column: pos.column, Reason: why})
		}
	}
	switch {
	case ref == "":
		return nil, nil
	case strings.HasPrefix(ref, "/"):
		unread(ref, agent.Ignored, "an absolute path: Copilot expands no such import")
		return nil, nil
	case strings.HasPrefix(ref, "~"):
		x.w.inexact("the import @" + ref + " names a file of the user's home: whether Copilot expands it is not established")
		return nil, nil
	}
	p := path.Join(dir, ref)
	// Outside Git the working directory is the boundary (rule 6).
	if wd := x.w.v.Dir; !x.c.o.Git && wd != "" && p != wd && !strings.HasPrefix(p, wd+"/") {
		unread(ref, agent.Outside, "it leaves the working directory, outside Git: Copilot expands no such import")
		return nil, nil
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		switch {
		case x.c.o.GitAbove:
			x.w.inexact("the import @" + ref + " leaves the root, below which the Git top lies: Copilot expands it, rivumi-lint reads only the repository")
		case !x.c.o.Git:
			unread(ref, agent.Outside, "it leaves the working directory, outside Git: Copilot expands no such import")
		default:
			unread(ref, agent.Outside, "it leaves the Git root: Copilot expands no such import")
		}
		return nil, nil
	}
	f, err := x.c.read(p)
	if err != nil {
		return nil, err
	}
	// A file is named, and known as loaded, by its real path (links
	// followed): x.md -> docs/y.md and @docs/y.md are one file.
	real := p
	if f.real != "" {
		real = f.real
	}
	abs := x.c.o.RootAbs + "/" + real
	if x.seen[real] {
		// Before the file is judged: the importing file itself is loaded,
		// whatever its bytes (not UTF-8, it imports itself as loaded too).
		return []byte("\n\n<imported_custom_instruction source=\"" + abs + "\" skipped=\"already-loaded\" />"), nil
	}
	if f.inexact != "" {
		x.w.inexact(f.inexact)
		return nil, nil
	}
	switch {
	case f.kind == resolve.Missing:
		unread(p, agent.NotAFile, "no such file: Copilot leaves the import as text")
		return nil, nil
	case f.kind != resolve.Regular:
		unread(p, agent.NotAFile, "it is not a file: Copilot leaves the import as text")
		return nil, nil
	case !utf8.Valid(f.data):
		unread(p, agent.Ignored, "it is not valid UTF-8: Copilot leaves the import as text")
		return nil, nil
	}
	x.seen[real] = true
	sub, err := x.expand(content.Lossy(f.data), p, f.bom)
	if err != nil {
		return nil, err
	}
	x.w.v.Candidates = append(x.w.v.Candidates, agent.Candidate{Path: p, State: agent.Imported, Size: f.size, Kept: int64(len(sub)),
		ImportedBy: pos.from, Line: pos.line, Column: pos.column, Reason: "imported", Text: sub})
	sub = bytes.TrimRight(sub, " \t\r\n")
	var b []byte
	b = append(b, "\n\n<imported_custom_instruction source=\""+abs+"\">\n"...)
	b = append(b, sub...)
	b = append(b, "\n</imported_custom_instruction>"...)
	return b, nil
}

// pathShape reports whether an @token reads as a file's path, which its
// author meant Copilot to import: it starts "./" or "../", or its last
// element has an extension ("@docs/style.md", "@AGENTS.md"). A mention
// ("@octocat", "@types/node") is text Copilot leaves alone, as it should.
func pathShape(ref string) bool {
	if strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "../") {
		return true
	}
	base := ref[strings.LastIndexByte(ref, '/')+1:]
	i := strings.LastIndexByte(base, '.')
	return i > 0 && i < len(base)-1
}
