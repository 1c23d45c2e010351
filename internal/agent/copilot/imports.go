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

// expand returns text with each import that names a file followed by
// that file's text; dir is where text's file lies (root-relative).
func (x *expander) expand(text []byte, dir string) ([]byte, error) {
	var out []byte
	fence := false
	for len(text) > 0 {
		line := text
		if i := bytes.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]
		if isFence(line) {
			fence = !fence
			out = append(out, line...)
			continue
		}
		if fence || !bytes.Contains(line, []byte("@")) {
			out = append(out, line...)
			continue
		}
		var err error
		if out, err = x.line(out, line, dir); err != nil {
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

// line appends line to out, expanding its imports outside code spans.
func (x *expander) line(out, line []byte, dir string) ([]byte, error) {
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
		i = j - 1
		ins, err := x.imported(ref, dir)
		if err != nil {
			return nil, err
		}
		out = append(out, ins...)
	}
	return out, nil
}

// imported is what follows the import @ref in dir: nothing when it is not
// expanded.
func (x *expander) imported(ref, dir string) ([]byte, error) {
	switch {
	case ref == "" || strings.HasPrefix(ref, "/"):
		return nil, nil
	case strings.HasPrefix(ref, "~"):
		x.w.inexact("the import @" + ref + " names a file of the user's home: whether Copilot expands it is not established")
		return nil, nil
	}
	p := path.Join(dir, ref)
	if p == ".." || strings.HasPrefix(p, "../") {
		switch {
		case x.c.o.GitAbove:
			x.w.inexact("the import @" + ref + " leaves the root, below which the Git top lies: Copilot expands it, rivumi-lint reads only the repository")
		case !x.c.o.Git:
			x.w.inexact("the import @" + ref + " leaves the directory (no Git): whether Copilot expands it is not established")
		}
		return nil, nil
	}
	f, err := x.c.read(p)
	if err != nil {
		return nil, err
	}
	if f.inexact != "" {
		x.w.inexact(f.inexact)
		return nil, nil
	}
	if f.kind != resolve.Regular || !utf8.Valid(f.data) {
		return nil, nil
	}
	abs := x.c.o.RootAbs + "/" + p
	if x.seen[p] {
		return []byte("\n\n<imported_custom_instruction source=\"" + abs + "\" skipped=\"already-loaded\" />"), nil
	}
	x.seen[p] = true
	sub, err := x.expand(content.Lossy(f.data), resolve.ParentDir(p))
	if err != nil {
		return nil, err
	}
	x.w.v.Candidates = append(x.w.v.Candidates, agent.Candidate{Path: p, State: agent.Imported, Size: f.size, Kept: int64(len(sub)), Reason: "imported", Text: sub})
	sub = bytes.TrimRight(sub, " \t\r\n")
	var b []byte
	b = append(b, "\n\n<imported_custom_instruction source=\""+abs+"\">\n"...)
	b = append(b, sub...)
	b = append(b, "\n</imported_custom_instruction>"...)
	return b, nil
}
