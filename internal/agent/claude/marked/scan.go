package marked

import (
	"errors"
	"fmt"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent/claude/jsstring"
)

// Import is one @-import: the path as the scan reads it and the token as
// written (after the "@"), to find it in the file again.
type Import struct{ Path, Raw string }

// Scan is what Claude Code 2.1.328 makes of a file's text once its front
// matter is gone (Pht): when the text holds "<!--", the text rebuilt from
// the lexer's top-level tokens with block-level comments removed (and its
// line ends normalised), and stripped set when one was; and the @-imports
// of its text tokens, in order, as written (resolved by the caller). err
// is set when the lexer gives up, which makes Claude Code skip the file.
func Scan(text string) (out string, imports []Import, stripped bool, err error) {
	hasComment := strings.Contains(text, "<!--")
	hasAt := strings.Contains(text, "@")
	if !hasComment && !hasAt {
		return text, nil, false, nil
	}
	u := jsstring.Of(text)
	toks, err := mdLexSafe(u)
	if err != nil {
		return "", nil, false, err
	}
	out = text
	if hasComment {
		var o jsstring.String
		o, stripped = mdStrip(toks)
		out = jsstring.UTF8(o)
	}
	if hasAt {
		imports = mdImports(toks)
	}
	return out, imports, stripped, nil
}

// mdLexSafe lexes u, turning the lexer's giving up into an error.
func mdLexSafe(u jsstring.String) (toks []*mdToken, err error) {
	defer func() {
		if r := recover(); r != nil {
			var me mdError
			if e, ok := r.(error); ok && errors.As(e, &me) {
				err = fmt.Errorf("claude's markdown lexer: %w", me)
				return
			}
			panic(r)
		}
	}()
	return mdLex(u), nil
}

// mdStrip is iht: the top-level tokens' text, each HTML token that starts
// with "<!--" and holds "-->" without its comments, and left out when
// only whitespace remains.
func mdStrip(toks []*mdToken) (jsstring.String, bool) {
	var o jsstring.String
	stripped := false
	for _, t := range toks {
		if t.typ == "html" && mdIsComment(t.raw) {
			stripped = true
			k := mdRemoveComments(t.raw)
			if len(jsstring.Trim(k)) > 0 {
				o = append(o, k...)
			}
			continue
		}
		o = append(o, t.raw...)
	}
	return o, stripped
}

func mdIsComment(raw jsstring.String) bool {
	y := jsstring.TrimStart(raw)
	return jsstring.StartsWith(y, "<!--", 0) && jsstring.IndexOf(y, "-->", 0) >= 0
}

// mdRemoveComments is raw.replace(/<!--[\s\S]*?-->/g, "").
func mdRemoveComments(raw jsstring.String) jsstring.String {
	var out jsstring.String
	i := 0
	for {
		s := jsstring.IndexOf(raw, "<!--", i)
		if s < 0 {
			break
		}
		e := jsstring.IndexOf(raw, "-->", s+4)
		if e < 0 {
			break
		}
		out = append(out, raw[i:s]...)
		i = e + 3
	}
	return append(out, raw[i:]...)
}

// mdImports is GZr's walk: the @-paths of text tokens (and of what is left
// of an HTML comment token), skipping code, code spans and other HTML, in
// document order, as written; each with its "#…" cut and "\ " read as a
// space, when it looks like a path.
func mdImports(toks []*mdToken) []Import {
	var out []Import
	var walk func([]*mdToken)
	walk = func(ts []*mdToken) {
		for _, k := range ts {
			switch k.typ {
			case "code", "codespan":
				continue
			case "html":
				if mdIsComment(k.raw) {
					if rest := mdRemoveComments(k.raw); len(jsstring.Trim(rest)) > 0 {
						out = mdAtPaths(rest, out)
					}
				}
				continue
			case "text":
				out = mdAtPaths(k.text, out)
			}
			walk(k.tokens)
			walk(k.items)
		}
	}
	walk(toks)
	return out
}

// mdAtPaths adds the paths of /(?:^|\s)@((?:[^\s\\]|\\ )+)/g in s.
func mdAtPaths(s jsstring.String, out []Import) []Import {
	for i := 0; i < len(s); i++ {
		if s[i] != '@' || i > 0 && !jsstring.IsSpace(int(s[i-1])) {
			continue
		}
		j := i + 1
		var h jsstring.String
		for j < len(s) {
			c := s[j]
			if c == '\\' {
				if j+1 < len(s) && s[j+1] == ' ' {
					h = append(h, '\\', ' ')
					j += 2
					continue
				}
				break
			}
			if jsstring.IsSpace(int(c)) {
				break
			}
			h = append(h, c)
			j++
		}
		if len(h) == 0 {
			continue
		}
		// the next match starts its search after this one
		next := j
		raw := jsstring.UTF8(h)
		if k := jsstring.IndexOfUnit(h, '#', 0); k >= 0 {
			h = h[:k]
		}
		if len(h) > 0 {
			p := jsstring.UTF8(mdUnescapeSpaces(h))
			if importShape(p) {
				out = append(out, Import{Path: p, Raw: raw})
			}
		}
		i = next - 1
	}
	return out
}

func mdUnescapeSpaces(h jsstring.String) jsstring.String {
	var out jsstring.String
	for i := 0; i < len(h); i++ {
		if h[i] == '\\' && i+1 < len(h) && h[i+1] == ' ' {
			out = append(out, ' ')
			i++
			continue
		}
		out = append(out, h[i])
	}
	return out
}

// importShape is the test an @-token passes to be an import: a
// path starting "./", "~/" or "/" (not "/" alone), or with a letter,
// digit, ".", "_" or "-".
func importShape(h string) bool {
	if h == "" {
		return false
	}
	switch {
	case len(h) >= 2 && (h[:2] == "./" || h[:2] == "~/"):
		return true
	case h[0] == '/':
		return h != "/"
	case h[0] == '@':
		return false
	}
	switch c := h[0]; {
	case c == '#' || c == '%' || c == '^' || c == '&' || c == '*' || c == '(' || c == ')':
		return false
	case jsstring.IsASCIILetter(int(c)) || jsstring.IsASCIIDigit(int(c)) || c == '.' || c == '_' || c == '-':
		return true
	}
	return false
}
