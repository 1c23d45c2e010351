package agent

import (
	"math"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// claudeFront is what Claude Code 2.1.328 takes from the front matter of a
// file it loads (qc, HZr): the text without it, and the paths: patterns
// that make a rules file conditional (nil when it is not).
type claudeFront struct {
	content string
	paths   []string
	removed bool // a front matter block was there and is gone
}

// claudeFrontMatter splits s as qc does: a leading byte-order mark is
// ignored for the test; /^---\s*\n([\s\S]*?)---\s*\n?/ (JavaScript's \s)
// is the block, removed whatever its YAML is; without one the text stays
// as it was, the mark included.
func claudeFrontMatter(s string) claudeFront {
	e := strings.TrimPrefix(s, "\ufeff")
	if len(e) < 3 || e[:3] != "---" || !strings.Contains(e[3:], "---") {
		return claudeFront{content: s}
	}
	// \s*\n: the opening line's "\n" is the last one of the whitespace run
	// after the dashes (the lazy body cannot start inside that run, which
	// holds no "---").
	nl := -1
	i := 3
	for i < len(e) {
		r, n := utf8.DecodeRuneInString(e[i:])
		if !jsSpace(int(r)) {
			break
		}
		if r == '\n' {
			nl = i
		}
		i += n
	}
	if nl < 0 {
		return claudeFront{content: s}
	}
	b := strings.Index(e[nl+1:], "---")
	if b < 0 {
		return claudeFront{content: s}
	}
	b += nl + 1
	body := e[nl+1 : b]
	end := b + 3
	for end < len(e) {
		r, n := utf8.DecodeRuneInString(e[end:])
		if !jsSpace(int(r)) {
			break
		}
		end += n
	}
	return claudeFront{content: e[end:], paths: claudeRulePaths(body), removed: true}
}

// claudeRulePaths is HZr on the YAML of a front matter: the patterns of
// its paths: key after brace expansion with a trailing "/**" dropped, nil
// when none is left or all are "**" (the rule loads at start then).
func claudeRulePaths(body string) []string {
	v, ok := claudeYAMLPaths(body)
	if !ok || !jsTruthy(v) {
		return nil
	}
	budget := &claudeBraceBudget{results: 1000, bytes: 4194304}
	var out []string
	for _, p := range claudeSplitPaths(v, budget) {
		p = strings.TrimSuffix(p, "/**")
		if p != "" {
			out = append(out, p)
		}
	}
	all := true
	for _, p := range out {
		if p != "**" {
			all = false
		}
	}
	if all {
		return nil
	}
	return out
}

// claudeYAMLPaths parses the front matter as Bar does (a failed parse is
// tried again with unsafe values quoted and leading tabs as spaces) and
// returns the top-level mapping's paths value; ok is false when there is
// none (no mapping, or YAML that does not parse either way).
func claudeYAMLPaths(body string) (any, bool) {
	var doc any
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		doc = nil
		fixed := claudeLeadingTabs(claudeQuoteValues(body))
		if err := yaml.Unmarshal([]byte(fixed), &doc); err != nil {
			return nil, false
		}
	}
	switch m := doc.(type) {
	case map[string]any:
		v, ok := m["paths"]
		return v, ok
	case map[any]any:
		for k, v := range m {
			if ks, ok := k.(string); ok && ks == "paths" {
				return v, true
			}
		}
	}
	return nil, false
}

// jsTruthy is JavaScript's truthiness of a parsed YAML value.
func jsTruthy(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case bool:
		return x
	case int:
		return x != 0
	case int64:
		return x != 0
	case uint64:
		return x != 0
	case float64:
		return x != 0 && !math.IsNaN(x)
	case string:
		return x != ""
	}
	return true
}

// claudeQuoteValues is nu: a "key: value" line whose value holds a YAML
// indicator is rewritten with the value double-quoted.
func claudeQuoteValues(e string) string {
	lines := strings.Split(e, "\n")
	for i, g := range lines {
		key, val, ok := claudeKeyValue(g)
		if !ok {
			continue
		}
		if strings.HasPrefix(val, `"`) && strings.HasSuffix(val, `"`) || strings.HasPrefix(val, "'") && strings.HasSuffix(val, "'") {
			continue
		}
		if strings.HasPrefix(val, "[") && strings.HasSuffix(val, "]") {
			var x any
			if yaml.Unmarshal([]byte(val), &x) == nil {
				if _, isList := x.([]any); isList {
					continue
				}
			}
		}
		if strings.ContainsAny(val, "{}[]*&#!|>%@`") || strings.Contains(val, ": ") {
			q := strings.ReplaceAll(strings.ReplaceAll(val, `\`, `\\`), `"`, `\"`)
			lines[i] = key + `: "` + q + `"`
		}
	}
	return strings.Join(lines, "\n")
}

// claudeKeyValue matches /^([a-zA-Z_-]+):\s+(\S.*)$/ on one line.
func claudeKeyValue(g string) (key, val string, ok bool) {
	i := 0
	for i < len(g) && (isASCIILetter(int(g[i])) || g[i] == '_' || g[i] == '-') {
		i++
	}
	if i == 0 || i >= len(g) || g[i] != ':' {
		return "", "", false
	}
	key = g[:i]
	j := i + 1
	for j < len(g) {
		r, n := utf8.DecodeRuneInString(g[j:])
		if !jsSpace(int(r)) {
			break
		}
		j += n
	}
	if j == i+1 || j >= len(g) {
		return "", "", false
	}
	// \S.*$: no line terminator (JavaScript's "." has none) after it
	for k := j; k < len(g); {
		r, n := utf8.DecodeRuneInString(g[k:])
		if jsLineEnd(int(r)) {
			return "", "", false
		}
		k += n
	}
	return key, g[j:], true
}

// claudeLeadingTabs is .replace(/^\t+/gm, …): leading tabs of each line
// (lines end at any JavaScript line terminator) as two spaces each.
func claudeLeadingTabs(s string) string {
	var b strings.Builder
	start := true
	for _, r := range s {
		if start && r == '\t' {
			b.WriteString("  ")
			continue
		}
		start = jsLineEnd(int(r))
		b.WriteRune(r)
	}
	return b.String()
}

type claudeBraceBudget struct{ results, bytes int }

// claudeSplitPaths is Us: a string split at top-level commas, trimmed,
// brace-expanded; a list's strings so; anything else nothing.
func claudeSplitPaths(v any, budget *claudeBraceBudget) []string {
	switch x := v.(type) {
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, claudeSplitPaths(e, budget)...)
		}
		return out
	case string:
		var parts []string
		var cur strings.Builder
		depth := 0
		for _, r := range x {
			switch {
			case r == '{':
				depth++
				cur.WriteRune(r)
			case r == '}':
				depth--
				cur.WriteRune(r)
			case r == ',' && depth == 0:
				if p := jsTrimString(cur.String()); p != "" {
					parts = append(parts, p)
				}
				cur.Reset()
			default:
				cur.WriteRune(r)
			}
		}
		if p := jsTrimString(cur.String()); p != "" {
			parts = append(parts, p)
		}
		var out []string
		for _, p := range parts {
			out = append(out, claudeExpandBraces(p, budget)...)
		}
		return out
	}
	return nil
}

// claudeExpandBraces is au: brace expansion within a budget, beyond which
// the pattern is used as it is.
func claudeExpandBraces(e string, budget *claudeBraceBudget) []string {
	if !strings.Contains(e, "{") {
		return []string{e}
	}
	var out []string
	stack := []string{e}
	units := len(toJS(e))
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pre, inner, post, ok := claudeBraceGroup(h)
		if !ok {
			out = append(out, h)
			continue
		}
		alts := strings.Split(inner, ",")
		budget.bytes -= len(toJS(h))
		n := len(out) + len(stack) + len(alts)
		if budget.bytes < 0 || n > budget.results || n*units > budget.bytes {
			return []string{e}
		}
		for i := len(alts) - 1; i >= 0; i-- {
			stack = append(stack, pre+jsTrimString(alts[i])+post)
		}
	}
	budget.results -= len(out)
	budget.bytes -= len(out) * units
	return out
}

// claudeBraceGroup matches /^([^{]*)\{([^}]+)\}(.*)$/.
func claudeBraceGroup(h string) (pre, inner, post string, ok bool) {
	i := strings.IndexByte(h, '{')
	if i < 0 {
		return "", "", "", false
	}
	j := strings.IndexByte(h[i+1:], '}')
	if j <= 0 {
		return "", "", "", false
	}
	j += i + 1
	post = h[j+1:]
	for _, r := range post {
		if jsLineEnd(int(r)) {
			return "", "", "", false
		}
	}
	return h[:i], h[i+1 : j], post, true
}
