package claude

import (
	"math"
	"strings"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/agent/claude/jsstring"
	yaml "go.yaml.in/yaml/v3"
)

// frontOf is what Claude Code 2.1.328 takes from the front matter of a
// file it loads (qc, HZr): the text without it, and the paths: patterns
// that make a rules file conditional (nil when it is not).
type frontOf struct {
	content string
	paths   []string
	removed bool // a front matter block was there and is gone
}

// frontMatter splits s as qc does: a leading byte-order mark is
// ignored for the test; /^---\s*\n([\s\S]*?)---\s*\n?/ (JavaScript's \s)
// is the block, removed whatever its YAML is; without one the text stays
// as it was, the mark included.
func frontMatter(s string) frontOf {
	e := strings.TrimPrefix(s, "\ufeff")
	if len(e) < 3 || e[:3] != "---" || !strings.Contains(e[3:], "---") {
		return frontOf{content: s}
	}
	// \s*\n: the opening line's "\n" is the last one of the whitespace run
	// after the dashes (the lazy body cannot start inside that run, which
	// holds no "---").
	nl := -1
	i := 3
	for i < len(e) {
		r, n := utf8.DecodeRuneInString(e[i:])
		if !jsstring.IsSpace(int(r)) {
			break
		}
		if r == '\n' {
			nl = i
		}
		i += n
	}
	if nl < 0 {
		return frontOf{content: s}
	}
	b := strings.Index(e[nl+1:], "---")
	if b < 0 {
		return frontOf{content: s}
	}
	b += nl + 1
	body := e[nl+1 : b]
	end := b + 3
	for end < len(e) {
		r, n := utf8.DecodeRuneInString(e[end:])
		if !jsstring.IsSpace(int(r)) {
			break
		}
		end += n
	}
	return frontOf{content: e[end:], paths: rulePaths(body), removed: true}
}

// rulePaths is HZr on the YAML of a front matter: the patterns of
// its paths: key after brace expansion with a trailing "/**" dropped, nil
// when none is left or all are "**" (the rule loads at start then).
func rulePaths(body string) []string {
	v, ok := yamlPaths(body)
	if !ok || !jsTruthy(v) {
		return nil
	}
	budget := &braceBudget{results: 1000, bytes: 4194304}
	var out []string
	for _, p := range splitPaths(v, budget) {
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

// yamlPaths parses the front matter as Bar does (a failed parse is
// tried again with unsafe values quoted and leading tabs as spaces) and
// returns the top-level mapping's paths value; ok is false when there is
// none (no mapping, or YAML that does not parse either way). Scalars are
// typed by YAML 1.2's core schema, as Bun's parser types them (no
// timestamps, no "1_000", no yes/no), and a key given twice keeps its last
// value, as a JavaScript object does; the binary showed both.
func yamlPaths(body string) (any, bool) {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(body), &n); err != nil {
		n = yaml.Node{}
		fixed := leadingTabs(quoteValues(body))
		if err := yaml.Unmarshal([]byte(fixed), &n); err != nil {
			return nil, false
		}
	}
	doc := &n
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		doc = doc.Content[0]
	}
	for doc.Kind == yaml.AliasNode && doc.Alias != nil {
		doc = doc.Alias
	}
	if doc.Kind != yaml.MappingNode {
		return nil, false
	}
	var v any
	found := false
	for i := 0; i+1 < len(doc.Content); i += 2 {
		k := yamlValue(doc.Content[i], 0)
		if ks, ok := k.(string); ok && ks == "paths" {
			v, found = yamlValue(doc.Content[i+1], 0), true
		}
	}
	return v, found
}

// yamlValue is a node as a JavaScript value: a mapping an object
// (only its being one matters), a sequence a list, a scalar typed by the
// core schema.
func yamlValue(n *yaml.Node, depth int) any {
	if depth > 64 {
		return nil
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	switch n.Kind {
	case yaml.MappingNode:
		return map[string]any{}
	case yaml.SequenceNode:
		out := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			out = append(out, yamlValue(c, depth+1))
		}
		return out
	case yaml.ScalarNode:
		return yamlScalar(n)
	}
	return nil
}

// yamlScalar types a scalar: quoted ones and !!str are strings; a
// plain one is null, a boolean or a number when the core schema says so.
func yamlScalar(n *yaml.Node) any {
	s := n.Value
	tag := ""
	if n.Style&yaml.TaggedStyle != 0 {
		tag = n.Tag // the parser's own tags (1.1 rules) are not Bun's
	}
	switch tag {
	case "!!str", "!!binary":
		return s
	case "!!null":
		return nil
	case "!!bool":
		return s == "true" || s == "True" || s == "TRUE"
	case "!!int", "!!float":
		return yamlNumber(s)
	}
	if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return s
	}
	switch s {
	case "", "~", "null", "Null", "NULL":
		return nil
	case "true", "True", "TRUE":
		return true
	case "false", "False", "FALSE":
		return false
	}
	if coreNumber(s) {
		return yamlNumber(s)
	}
	return s
}

// coreNumber reports whether a plain scalar is an int or a float of
// the core schema.
func coreNumber(s string) bool {
	switch s {
	case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return true
	}
	digits := func(t, set string) bool {
		if t == "" {
			return false
		}
		for _, r := range t {
			if !strings.ContainsRune(set, r) {
				return false
			}
		}
		return true
	}
	if strings.HasPrefix(s, "0o") {
		return digits(s[2:], "01234567")
	}
	if strings.HasPrefix(s, "0x") {
		return digits(s[2:], "0123456789abcdefABCDEF")
	}
	t := strings.TrimLeft(s, "+-")
	if len(s)-len(t) > 1 {
		return false
	}
	// [0-9]+ | (\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
	mant, exp, hasExp := t, "", false
	if i := strings.IndexAny(t, "eE"); i >= 0 {
		mant, exp, hasExp = t[:i], t[i+1:], true
	}
	if hasExp && !digits(strings.TrimLeft(exp, "+-"), "0123456789") || len(exp)-len(strings.TrimLeft(exp, "+-")) > 1 {
		return false
	}
	whole, frac, dot := mant, "", false
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		whole, frac, dot = mant[:i], mant[i+1:], true
	}
	switch {
	case !dot:
		return digits(whole, "0123456789")
	case whole == "":
		return digits(frac, "0123456789")
	}
	return digits(whole, "0123456789") && (frac == "" || digits(frac, "0123456789"))
}

// yamlNumber is a number's value as far as truthiness goes.
func yamlNumber(s string) float64 {
	switch strings.TrimLeft(s, "+-") {
	case ".nan", ".NaN", ".NAN":
		return math.NaN()
	case ".inf", ".Inf", ".INF":
		return math.Inf(1)
	}
	if strings.HasPrefix(s, "0o") || strings.HasPrefix(s, "0x") {
		if strings.Trim(s[2:], "0") == "" {
			return 0
		}
		return 1
	}
	zero := true
	for _, r := range s {
		if r >= '1' && r <= '9' {
			if i := strings.IndexAny(s, "eE"); i < 0 || strings.IndexRune(s, r) < i {
				zero = false
			}
		}
	}
	if zero {
		return 0
	}
	return 1
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

// quoteValues is nu: a "key: value" line whose value holds a YAML
// indicator is rewritten with the value double-quoted.
func quoteValues(e string) string {
	lines := strings.Split(e, "\n")
	for i, g := range lines {
		key, val, ok := keyValue(g)
		if !ok {
			continue
		}
		if strings.HasPrefix(val, `"`) && strings.HasSuffix(val, `"`) || strings.HasPrefix(val, "'") && strings.HasSuffix(val, "'") {
			continue
		}
		if strings.HasPrefix(val, "[") && strings.HasSuffix(val, "]") {
			var x yaml.Node
			if yaml.Unmarshal([]byte(val), &x) == nil && len(x.Content) > 0 && x.Content[0].Kind == yaml.SequenceNode {
				continue
			}
		}
		if strings.ContainsAny(val, "{}[]*&#!|>%@`") || strings.Contains(val, ": ") {
			q := strings.ReplaceAll(strings.ReplaceAll(val, `\`, `\\`), `"`, `\"`)
			lines[i] = key + `: "` + q + `"`
		}
	}
	return strings.Join(lines, "\n")
}

// keyValue matches /^([a-zA-Z_-]+):\s+(\S.*)$/ on one line.
func keyValue(g string) (key, val string, ok bool) {
	i := 0
	for i < len(g) && (jsstring.IsASCIILetter(int(g[i])) || g[i] == '_' || g[i] == '-') {
		i++
	}
	if i == 0 || i >= len(g) || g[i] != ':' {
		return "", "", false
	}
	key = g[:i]
	j := i + 1
	for j < len(g) {
		r, n := utf8.DecodeRuneInString(g[j:])
		if !jsstring.IsSpace(int(r)) {
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
		if jsstring.IsLineEnd(int(r)) {
			return "", "", false
		}
		k += n
	}
	return key, g[j:], true
}

// leadingTabs is .replace(/^\t+/gm, …): leading tabs of each line
// (lines end at any JavaScript line terminator) as two spaces each.
func leadingTabs(s string) string {
	var b strings.Builder
	start := true
	for _, r := range s {
		if start && r == '\t' {
			b.WriteString("  ")
			continue
		}
		start = jsstring.IsLineEnd(int(r))
		b.WriteRune(r)
	}
	return b.String()
}

type braceBudget struct{ results, bytes int }

// splitPaths is Us: a string split at top-level commas, trimmed,
// brace-expanded; a list's strings so; anything else nothing.
func splitPaths(v any, budget *braceBudget) []string {
	switch x := v.(type) {
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, splitPaths(e, budget)...)
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
				if p := jsstring.TrimString(cur.String()); p != "" {
					parts = append(parts, p)
				}
				cur.Reset()
			default:
				cur.WriteRune(r)
			}
		}
		if p := jsstring.TrimString(cur.String()); p != "" {
			parts = append(parts, p)
		}
		var out []string
		for _, p := range parts {
			out = append(out, expandBraces(p, budget)...)
		}
		return out
	}
	return nil
}

// expandBraces is au: brace expansion within a budget, beyond which
// the pattern is used as it is.
func expandBraces(e string, budget *braceBudget) []string {
	if !strings.Contains(e, "{") {
		return []string{e}
	}
	var out []string
	stack := []string{e}
	units := len(jsstring.Of(e))
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		pre, inner, post, ok := braceGroup(h)
		if !ok {
			out = append(out, h)
			continue
		}
		alts := strings.Split(inner, ",")
		budget.bytes -= len(jsstring.Of(h))
		n := len(out) + len(stack) + len(alts)
		if budget.bytes < 0 || n > budget.results || n*units > budget.bytes {
			return []string{e}
		}
		for i := len(alts) - 1; i >= 0; i-- {
			stack = append(stack, pre+jsstring.TrimString(alts[i])+post)
		}
	}
	budget.results -= len(out)
	budget.bytes -= len(out) * units
	return out
}

// braceGroup matches /^([^{]*)\{([^}]+)\}(.*)$/.
func braceGroup(h string) (pre, inner, post string, ok bool) {
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
		if jsstring.IsLineEnd(int(r)) {
			return "", "", "", false
		}
	}
	return h[:i], h[i+1 : j], post, true
}
