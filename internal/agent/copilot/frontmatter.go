package copilot

import (
	"bytes"
	"strings"
)

// fmValue is one front matter key's value: a scalar, or a list.
type fmValue struct {
	scalar string
	list   []string
}

// frontMatter reads the keys of text's front matter (--- lines), as far
// as rule 4 needs: scalars, flow lists and block lists. A value that is
// not YAML (an unclosed list) is kept raw, as the binary shows it.
func frontMatter(text []byte) (map[string]fmValue, bool) {
	if !bytes.HasPrefix(text, []byte("---")) {
		return nil, false // most files: no split of the whole text
	}
	lines := strings.SplitAfter(string(text), "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], "\r\n") != "---" {
		return nil, false
	}
	out := map[string]fmValue{}
	closed := false
	var last string
	for _, l := range lines[1:] {
		l = strings.TrimRight(l, "\r\n")
		if l == "---" {
			closed = true
			break
		}
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "- ") && last != "" && l != t {
			v := out[last]
			v.list = append(v.list, unquote(strings.TrimSpace(t[2:])))
			out[last] = v
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		if !ok || k == "" || k[0] == ' ' || k[0] == '\t' {
			continue
		}
		v = strings.TrimSpace(v)
		last = k
		switch {
		case strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]"):
			var list []string
			for _, s := range strings.Split(v[1:len(v)-1], ",") {
				if s = unquote(strings.TrimSpace(s)); s != "" {
					list = append(list, s)
				}
			}
			out[k] = fmValue{list: list}
		default:
			out[k] = fmValue{scalar: unquote(v)}
		}
	}
	if !closed {
		return nil, false
	}
	return out, true
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	return s
}
