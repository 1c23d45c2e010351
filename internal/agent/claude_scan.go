package agent

import (
	"errors"
	"fmt"
)

// claudeMarkdown is what Claude Code 2.1.328 makes of a file's text once
// its front matter is gone (Pht): when the text holds "<!--", the text
// rebuilt from the lexer's top-level tokens with block-level comments
// removed (and its line ends normalised); and the @-imports of its text
// tokens, in order, as written (resolved by the caller). err is set when
// the lexer gives up, which makes Claude Code skip the file.
func claudeMarkdown(text string) (out string, imports []string, err error) {
	out, imps, _, err := claudeMarkdownImports(text)
	for _, m := range imps {
		imports = append(imports, m.path)
	}
	return out, imports, err
}

// mdImport is one @-import: the path as the scan reads it and the token
// as written (after the "@"), to find it in the file again.
type mdImport struct{ path, raw string }

// claudeMarkdownImports is claudeMarkdown with each import's token as
// written; stripped says a block comment was removed.
func claudeMarkdownImports(text string) (out string, imports []mdImport, stripped bool, err error) {
	hasComment := containsStr(text, "<!--")
	hasAt := containsStr(text, "@")
	if !hasComment && !hasAt {
		return text, nil, false, nil
	}
	u := toJS(text)
	toks, err := mdLexSafe(u)
	if err != nil {
		return "", nil, false, err
	}
	out = text
	if hasComment {
		var o js
		o, stripped = mdStrip(toks)
		out = fromJS(o)
	}
	if hasAt {
		imports = mdImports(toks)
	}
	return out, imports, stripped, nil
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// mdLexSafe lexes u, turning the lexer's giving up into an error.
func mdLexSafe(u js) (toks []*mdToken, err error) {
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
func mdStrip(toks []*mdToken) (js, bool) {
	var o js
	stripped := false
	for _, t := range toks {
		if t.typ == "html" && mdIsComment(t.raw) {
			stripped = true
			k := mdRemoveComments(t.raw)
			if len(jsTrim(k)) > 0 {
				o = append(o, k...)
			}
			continue
		}
		o = append(o, t.raw...)
	}
	return o, stripped
}

func mdIsComment(raw js) bool {
	y := jsTrimStart(raw)
	return startsWith(y, "<!--", 0) && indexOf(y, "-->", 0) >= 0
}

// mdRemoveComments is raw.replace(/<!--[\s\S]*?-->/g, "").
func mdRemoveComments(raw js) js {
	var out js
	i := 0
	for {
		s := indexOf(raw, "<!--", i)
		if s < 0 {
			break
		}
		e := indexOf(raw, "-->", s+4)
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
func mdImports(toks []*mdToken) []mdImport {
	var out []mdImport
	var walk func([]*mdToken)
	walk = func(ts []*mdToken) {
		for _, k := range ts {
			switch k.typ {
			case "code", "codespan":
				continue
			case "html":
				if mdIsComment(k.raw) {
					if rest := mdRemoveComments(k.raw); len(jsTrim(rest)) > 0 {
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
func mdAtPaths(s js, out []mdImport) []mdImport {
	for i := 0; i < len(s); i++ {
		if s[i] != '@' || i > 0 && !jsSpace(int(s[i-1])) {
			continue
		}
		j := i + 1
		var h js
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
			if jsSpace(int(c)) {
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
		raw := fromJS(h)
		if k := indexOfUnit(h, '#', 0); k >= 0 {
			h = h[:k]
		}
		if len(h) > 0 {
			p := fromJS(mdUnescapeSpaces(h))
			if claudeImportShape(p) {
				out = append(out, mdImport{path: p, raw: raw})
			}
		}
		i = next - 1
	}
	return out
}

func mdUnescapeSpaces(h js) js {
	var out js
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

// claudeImportShape is the test an @-token passes to be an import: a
// path starting "./", "~/" or "/" (not "/" alone), or with a letter,
// digit, ".", "_" or "-".
func claudeImportShape(h string) bool {
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
	case isASCIILetter(int(c)) || isASCIIDigit(int(c)) || c == '.' || c == '_' || c == '-':
		return true
	}
	return false
}
