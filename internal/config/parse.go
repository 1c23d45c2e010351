package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/lint/severity"
)

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// Parse parses the content of a config file. name is used in error texts
// only, which read "name:line: what is wrong (what is accepted)". An empty
// file, or one of only comments, gives the defaults.
//
// profiles are the agent profiles (their registry, in its order): the
// agents key accepts their names, and their sections are keys.
func Parse(name string, data []byte, profiles ...Profile) (*Config, error) {
	if len(data) > MaxConfigBytes {
		return nil, &Error{Name: name, Msg: fmt.Sprintf("config is %d bytes; the limit is %d bytes (1 MiB)", len(data), MaxConfigBytes)}
	}
	d := &decoder{name: name, data: data, t: newTable(profiles)}
	if err := d.checkText(); err != nil {
		return nil, err
	}
	// Decode into a yaml.Node and walk it by hand: that gives a line for
	// every problem, and unlike decoding into a struct it never expands
	// aliases (yaml.v3 only caps alias expansion by a ratio heuristic when
	// it decodes into Go values).
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			c := defaultOf(d.t)
			c.Path = name
			return c, nil
		}
		return nil, d.yamlError(err)
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		return nil, d.errorf(&next, "a second YAML document starts here; the config is a single document (remove the \"---\" separator)")
	case !errors.Is(err, io.EOF):
		return nil, d.yamlError(err)
	}
	if err := d.rejectAliases(&doc); err != nil {
		return nil, err
	}
	c := defaultOf(d.t)
	c.Path = name
	if err := d.root(c, &doc); err != nil {
		return nil, err
	}
	return c, nil
}

type decoder struct {
	name string
	data []byte
	t    *table
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) *Error {
	return &Error{Name: d.name, Line: max(n.Line, 1), Msg: fmt.Sprintf(format, args...)}
}

// checkText rejects, with a line and column, what the YAML reader would
// reject without one: bytes that are not UTF-8 and characters YAML forbids
// (NUL and other control characters).
func (d *decoder) checkText() error {
	b := d.data
	for _, bom := range []struct{ mark, name string }{
		{"\x00\x00\xfe\xff", "UTF-32BE"}, {"\xff\xfe\x00\x00", "UTF-32LE"},
		{"\xfe\xff", "UTF-16BE"}, {"\xff\xfe", "UTF-16LE"},
	} {
		if bytes.HasPrefix(b, []byte(bom.mark)) {
			return &Error{Name: d.name, Line: 1, Msg: fmt.Sprintf("file starts with a %s byte-order mark; save it as UTF-8", bom.name)}
		}
	}
	line, col := 1, 1
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return &Error{Name: d.name, Line: line, Msg: fmt.Sprintf("invalid UTF-8 byte 0x%02x at column %d (offset %d); save the file as UTF-8", b[i], col, i)}
		}
		if !yamlChar(r) {
			return &Error{Name: d.name, Line: line, Msg: fmt.Sprintf("character %U at column %d is not allowed in YAML (use an escape in a double-quoted string)", r, col)}
		}
		// Count lines as the YAML scanner does, so that these lines agree
		// with the node lines used everywhere else.
		switch {
		case r == '\r' && i+1 < len(b) && b[i+1] == '\n':
			col++
		case r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029:
			line, col = line+1, 1
		default:
			col += size
		}
		i += size
	}
	return nil
}

// yamlChar is the printable set of YAML 1.1 §5.1 as yaml.v3's reader checks it.
func yamlChar(r rune) bool {
	switch {
	case r == '\t', r == '\n', r == '\r', r == 0x85:
		return true
	case r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0xd7ff, r >= 0xe000 && r <= 0xfffd:
		return true
	}
	return r >= 0x10000 && r <= 0x10ffff
}

// yamlError turns a yaml.v3 error ("yaml: line N: msg") into an *Error.
func (d *decoder) yamlError(err error) *Error {
	msg := err.Error()
	if m := yamlLineRe.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return &Error{Name: d.name, Line: max(line, 1), Msg: "invalid YAML: " + m[2], Err: err}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	if a, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		// The node builder names no line for this; find the alias.
		a, _, _ = strings.Cut(a, "'")
		return &Error{Name: d.name, Line: d.lineOf("*" + a), Msg: fmt.Sprintf("alias *%s refers to no anchor; aliases are not supported here anyway: write the value out", a), Err: err}
	}
	// yaml.v3 leaves the line out when its (0-based) mark is on the first
	// line, so an error without one is on line 1.
	return &Error{Name: d.name, Line: 1, Msg: "invalid YAML: " + msg, Err: err}
}

// lineOf is the line of the first occurrence of s, or 1.
func (d *decoder) lineOf(s string) int {
	i := bytes.Index(d.data, []byte(s))
	if i < 0 {
		return 1
	}
	return 1 + bytes.Count(d.data[:i], []byte("\n"))
}

// rejectAliases refuses every alias: a few lines of anchors and aliases can
// stand for billions of nodes ("billion laughs"), and a config never needs
// them. The walk uses an explicit stack so that depth costs heap, not stack
// (the scanner already caps nesting at 10000 levels).
func (d *decoder) rejectAliases(doc *yaml.Node) error {
	stack := []*yaml.Node{doc}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.Kind == yaml.AliasNode {
			return d.errorf(n, "alias *%s is not allowed: anchors and aliases are not supported in this file; write the value out", n.Value)
		}
		// Children in reverse, so that the first alias in the file is
		// the one reported.
		for i := len(n.Content) - 1; i >= 0; i-- {
			stack = append(stack, n.Content[i])
		}
	}
	return nil
}

// pair is one key: value entry of a mapping.
type pair struct{ k, v *yaml.Node }

// entries returns the pairs of mapping m (where names m in messages),
// rejecting non-string keys and duplicate keys. A null m is an empty mapping.
func (d *decoder) entries(m *yaml.Node, where string) ([]pair, error) {
	if isNull(m) {
		return nil, nil
	}
	if m.Kind != yaml.MappingNode {
		return nil, d.errorf(m, "%s: expected a mapping of keys to values, got %s", where, describe(m))
	}
	seen := map[string]int{}
	out := make([]pair, 0, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.ShortTag() == "!!merge" {
			return nil, d.errorf(k, "%s: expected a plain key, got %s", where, describe(k))
		}
		if first, dup := seen[k.Value]; dup {
			return nil, d.errorf(k, "%s: duplicate key %s (first at line %d)", where, shown(k.Value), first)
		}
		seen[k.Value] = k.Line
		out = append(out, pair{k, v})
	}
	return out, nil
}

func (d *decoder) unknownKey(k *yaml.Node, section string, known []string) *Error {
	in := ""
	if section != "" {
		in = " in " + section
	}
	return d.errorf(k, "unknown key %s%s (known: %s)", shown(k.Value), in, strings.Join(known, ", "))
}

func (d *decoder) root(c *Config, doc *yaml.Node) error {
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return d.errorf(doc, "expected one YAML document")
	}
	top := doc.Content[0]
	if isNull(top) {
		return nil // "---" alone, or "~": nothing set
	}
	if top.Kind != yaml.MappingNode {
		return d.errorf(top, "expected a mapping of settings at the top level (keys: %s), got %s", strings.Join(d.t.namesIn(""), ", "), describe(top))
	}
	return d.section(c, "", pair{v: top})
}

// section reads the keys of a mapping against the table (Keys): section is
// "" for the top level, else the section key's path.
func (d *decoder) section(c *Config, section string, sec pair) error {
	where := section
	if where == "" {
		where = "config"
	}
	pairs, err := d.entries(sec.v, where)
	if err != nil {
		return err
	}
	given := map[string]*yaml.Node{}
	for _, p := range pairs {
		k := d.t.lookupKey(section, p.k.Value)
		if k == nil {
			return d.unknownKey(p.k, section, d.t.namesIn(section))
		}
		if err := d.value(c, k, p); err != nil {
			return err
		}
		given[k.Name()] = p.v
	}
	if section == "" {
		return nil
	}
	if k := d.t.lookupKey(sectionOf(section), nameOf(section)); k != nil && k.check != nil {
		return k.check(d, c, sec, given)
	}
	return nil
}

func sectionOf(path string) string { return (&Key{Path: path}).Section() }
func nameOf(path string) string    { return (&Key{Path: path}).Name() }

// value reads one key's value by its kind into its field of c.
func (d *decoder) value(c *Config, k *Key, p pair) error {
	var err error
	switch k.Kind {
	case KindSection:
		return d.section(c, k.Path, p)
	case KindVersion:
		// Only version 1 exists; a later format must not be read as 1.
		var v int64
		if p.v.Kind != yaml.ScalarNode || p.v.ShortTag() != "!!int" || p.v.Decode(&v) != nil || v != 1 {
			return d.errorf(p.v, "%s: expected 1, got %s (this rivumi-lint reads config version 1)", k.Path, describe(p.v))
		}
		*c.at(k).(*int) = 1
	case KindInt:
		*c.at(k).(*int64), err = d.integer(p.v, k.Path, k.Min, k.Max)
	case KindRatio:
		*c.at(k).(*float64), err = d.ratio(p.v, k.Path)
	case KindString:
		*c.at(k).(*string), err = d.str(p.v, k.Path)
	case KindNames:
		err = d.names(c.at(k).(*[]string), p.v, k.Path)
	case KindGlobs:
		err = d.globs(c.at(k).(*[]string), p.v, k.Path)
	case KindRules:
		err = d.rules(c.Rules, p.v, "rules")
	case KindOverrides:
		err = d.overrides(c.at(k).(*[]Override), p.v, k.Path)
	case KindAgents:
		err = d.agents(c.at(k).(*[]string), p.v, k.Path)
	case KindEnum:
		var v string
		if v, err = d.str(p.v, k.Path); err == nil {
			if !slices.Contains(k.Enum, v) {
				return d.errorf(p.v, "%s: %s is not one of %s", k.Path, shown(v), strings.Join(k.Enum, ", "))
			}
			*c.at(k).(*string) = v
		}
	case KindPatterns:
		err = d.patterns(c.at(k).(*[]string), p.v, k.Path)
	case KindBool:
		if p.v.Kind != yaml.ScalarNode || p.v.ShortTag() != "!!bool" {
			return d.errorf(p.v, "%s: expected true or false, got %s", k.Path, describe(p.v))
		}
		err = p.v.Decode(c.at(k).(*bool))
	case KindChoices:
		err = d.choices(k, c.at(k).(*[]string), p.v)
	default:
		panic("config: key " + k.Path + " has an unknown kind")
	}
	return err
}

// checkLimits is the check between two limits: the line blamed is that of
// a value the user wrote, else the "limits" key.
func checkLimits(d *decoder, c *Config, section pair, given map[string]*yaml.Node) error {
	dynLine, resLine := given["max_dynamic_bytes"], given["reserved_bytes"]
	if c.Limits.ReservedBytes >= c.Limits.MaxDynamicBytes {
		at := firstNode(resLine, dynLine, section.k)
		return d.errorf(at, "limits.reserved_bytes (%d%s) must be less than limits.max_dynamic_bytes (%d%s): the reserve is taken out of the dynamic budget",
			c.Limits.ReservedBytes, defaultNote(resLine), c.Limits.MaxDynamicBytes, defaultNote(dynLine))
	}
	return nil
}

// firstNode returns the first non-nil node.
func firstNode(nodes ...*yaml.Node) *yaml.Node {
	for _, n := range nodes {
		if n != nil {
			return n
		}
	}
	return &yaml.Node{Line: 1}
}

func defaultNote(given *yaml.Node) string {
	if given == nil {
		return ", the default"
	}
	return ""
}

// agents reads a list of agent profile names into list, in the profile
// table's order.
func (d *decoder) agents(list *[]string, v *yaml.Node, key string) error {
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		return d.errorf(v, "%s: expected a list of agent profiles (%s), got %s", key, strings.Join(d.t.agents, ", "), describe(v))
	}
	var names []string
	for _, item := range v.Content {
		name, err := d.str(item, key)
		if err != nil {
			return err
		}
		if !slices.Contains(d.t.agents, name) {
			return d.errorf(item, "%s: unknown agent profile %s; the profiles are %s", key, shown(name), strings.Join(d.t.agents, ", "))
		}
		if slices.Contains(names, name) {
			return d.errorf(item, "%s: duplicate profile %s", key, shown(name))
		}
		names = append(names, name)
	}
	var ordered []string
	for _, n := range d.t.agents { // the registry's order
		if slices.Contains(names, n) {
			ordered = append(ordered, n)
		}
	}
	*list = ordered
	return nil
}

// choices reads a list of k's Enum strings, each once, into list in
// Enum's order.
func (d *decoder) choices(k *Key, list *[]string, v *yaml.Node) error {
	if v.Kind != yaml.SequenceNode {
		return d.errorf(v, "%s: expected a list of %s (use [] for none), got %s", k.Path, strings.Join(k.Enum, ", "), describe(v))
	}
	var got []string
	for _, item := range v.Content {
		s, err := d.str(item, k.Path)
		if err != nil {
			return err
		}
		if !slices.Contains(k.Enum, s) {
			return d.errorf(item, "%s: %s is not one of %s", k.Path, shown(s), strings.Join(k.Enum, ", "))
		}
		if slices.Contains(got, s) {
			return d.errorf(item, "%s: duplicate %s", k.Path, shown(s))
		}
		got = append(got, s)
	}
	out := []string{}
	for _, e := range k.Enum {
		if slices.Contains(got, e) {
			out = append(out, e)
		}
	}
	*list = out
	return nil
}

// patterns reads a list of another tool's globs, each checked as
// doublestar reads them.
func (d *decoder) patterns(list *[]string, v *yaml.Node, key string) error {
	if v.Kind != yaml.SequenceNode {
		return d.errorf(v, "%s: expected a list of glob patterns (use [] for none), got %s", key, describe(v))
	}
	out := []string{}
	for _, item := range v.Content {
		s, err := d.str(item, key)
		if err != nil {
			return err
		}
		if s == "" || !doublestar.ValidatePattern(s) {
			return d.errorf(item, "%s: %s is an invalid glob pattern", key, shown(s))
		}
		out = append(out, s)
	}
	*list = out
	return nil
}

// names reads a list of candidate file names into list.
func (d *decoder) names(list *[]string, v *yaml.Node, key string) error {
	if v.Kind != yaml.SequenceNode {
		return d.errorf(v, "%s: expected a list of file names (use [] for none), got %s", key, describe(v))
	}
	names := make([]string, 0, len(v.Content))
	seen := map[string]int{}
	for _, item := range v.Content {
		name, err := d.str(item, key)
		if err != nil {
			return err
		}
		if err := d.fileName(item, key, name); err != nil {
			return err
		}
		if first, dup := seen[name]; dup {
			return d.errorf(item, "%s: duplicate name %s (first at line %d)", key, shown(name), first)
		}
		seen[name] = item.Line
		names = append(names, name)
	}
	*list = names
	return nil
}

// checkFilenames is the check between the two lists: a name in both would
// make one directory entry both an override and a normal layer; say which
// list to fix.
func checkFilenames(d *decoder, c *Config, section pair, given map[string]*yaml.Node) error {
	for _, list := range d.t.namesIn("filenames") {
		other := "normal"
		otherNames := c.Filenames.Normal
		if list == "normal" {
			other, otherNames = "override", c.Filenames.Override
		}
		var items []*yaml.Node
		if n := given[list]; n != nil {
			items = n.Content
		}
		for _, item := range items {
			if slices.Contains(otherNames, item.Value) {
				note := ""
				if given[other] == nil {
					note = " (the default; set filenames." + other + " too)"
				}
				return d.errorf(item, "filenames.%s: %s is also in filenames.%s%s; a name may appear in one list only", list, shown(item.Value), other, note)
			}
		}
	}
	if len(c.Filenames.Override)+len(c.Filenames.Normal) == 0 {
		return d.errorf(section.k, "filenames: override and normal are both empty; at least one candidate name is needed")
	}
	return nil
}

// fileName checks one candidate name: it is matched as a directory entry,
// so it must be a single path element.
func (d *decoder) fileName(n *yaml.Node, key, name string) error {
	switch {
	case name == "":
		return d.errorf(n, "%s: file name is empty", key)
	case name == "." || name == "..":
		return d.errorf(n, "%s: %s is not a file name", key, shown(name))
	case strings.ContainsAny(name, "/\\"):
		return d.errorf(n, "%s: file name %s contains a path separator; names are matched inside each directory", key, shown(name))
	case strings.ContainsRune(name, 0):
		return d.errorf(n, "%s: file name %s contains a NUL byte", key, shown(name))
	}
	return nil
}

// globs reads a list of doublestar globs into list; null sets nothing.
func (d *decoder) globs(list *[]string, v *yaml.Node, key string) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return d.errorf(v, "%s: expected a list of glob patterns, got %s", key, describe(v))
	}
	globs := make([]string, 0, len(v.Content))
	for _, item := range v.Content {
		g, err := d.str(item, key)
		if err != nil {
			return err
		}
		switch {
		case g == "":
			return d.errorf(item, "%s: empty pattern", key)
		case strings.HasPrefix(g, "/") || strings.HasPrefix(g, "./"):
			// Paths are matched relative to the root without a prefix,
			// so such a glob would silently match nothing.
			return d.errorf(item, "%s: pattern %s must be relative to the root, without a leading \"/\" or \"./\"", key, shown(g))
		case !doublestar.ValidatePattern(g):
			return d.errorf(item, "%s: invalid glob %s (doublestar syntax: *, **, ?, [class], {a,b}; check brackets, braces and a trailing \\)", key, shown(g))
		}
		globs = append(globs, g)
	}
	*list = globs
	return nil
}

// rules reads a mapping of rule ids or names to severities into into;
// where is the key path for messages ("rules", "overrides[0].rules").
func (d *decoder) rules(into map[string]severity.Severity, v *yaml.Node, where string) error {
	pairs, err := d.entries(v, where)
	if err != nil {
		return err
	}
	byName := map[string]string{}
	for _, r := range lint.Rules() {
		byName[r.Name] = r.ID
	}
	given := map[string]*yaml.Node{} // rule id → the key that set it
	for _, p := range pairs {
		id := p.k.Value
		if named, ok := byName[id]; ok {
			id = named // a rule's name (invalid-utf8) names it as its id does
		}
		if _, ok := lint.Lookup(id); !ok {
			return d.errorf(p.k, "unknown rule %s in %s (a rule id such as RL004 or a name such as invalid-utf8; `rivumi-lint rules` lists them)", shown(p.k.Value), where)
		}
		if first, dup := given[id]; dup {
			return d.errorf(p.k, "%s: %s sets %s again (first as %s at line %d)", where, shown(p.k.Value), id, shown(first.Value), first.Line)
		}
		given[id] = p.k
		key := where + "." + p.k.Value
		if p.v.Kind != yaml.ScalarNode || p.v.ShortTag() != "!!str" {
			return d.errorf(p.v, "%s: expected a severity (%s), got %s", key, strings.Join(severity.Names, ", "), describe(p.v))
		}
		sev, err := severity.Parse(p.v.Value)
		if err != nil {
			return d.errorf(p.v, "%s: unknown severity %s (accepted: %s)", key, shown(p.v.Value), strings.Join(severity.Names, ", "))
		}
		into[id] = sev
	}
	return nil
}

// overrides reads the list of {paths, rules} entries (O1): both keys
// required, paths at least one glob as ignore: takes them, rules as
// rules: takes them.
func (d *decoder) overrides(list *[]Override, v *yaml.Node, key string) error {
	const want = "a list of entries {paths: [globs], rules: {RULE: severity}}"
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.SequenceNode {
		return d.errorf(v, "%s: expected %s, got %s", key, want, describe(v))
	}
	if len(v.Content) > maxOverrides {
		// Every finding is matched against the entries: a hostile file
		// must not make that the cost of the run (§10).
		return d.errorf(v.Content[maxOverrides], "%s: more than %d entries; merge entries with the same rules (an entry takes many globs)", key, maxOverrides)
	}
	out := make([]Override, 0, len(v.Content))
	for i, item := range v.Content {
		where := fmt.Sprintf("%s[%d]", key, i)
		if item.Kind != yaml.MappingNode {
			return d.errorf(item, "%s: expected a mapping with paths and rules, got %s", where, describe(item))
		}
		pairs, err := d.entries(item, where)
		if err != nil {
			return err
		}
		o := Override{Rules: map[string]severity.Severity{}}
		var paths, rules *yaml.Node
		for _, p := range pairs {
			switch p.k.Value {
			case "paths":
				paths = p.v
				if p.v.Kind != yaml.SequenceNode || len(p.v.Content) == 0 {
					return d.errorf(p.v, "%s.paths: expected a list of at least one glob pattern, got %s", where, describe(p.v))
				}
				if err := d.globs(&o.Paths, p.v, where+".paths"); err != nil {
					return err
				}
			case "rules":
				rules = p.v
				if err := d.rules(o.Rules, p.v, where+".rules"); err != nil {
					return err
				}
			default:
				return d.unknownKey(p.k, where, []string{"paths", "rules"})
			}
		}
		switch {
		case paths == nil:
			return d.errorf(item, "%s: no paths (the globs of the findings' paths it applies to)", where)
		case rules == nil || len(o.Rules) == 0:
			return d.errorf(firstNode(rules, item), "%s: no rules (a mapping of rule ids or names to severities)", where)
		}
		out = append(out, o)
	}
	*list = out
	return nil
}

// integer reads an integer scalar in [lo, hi].
func (d *decoder) integer(n *yaml.Node, key string, lo, hi int64) (int64, error) {
	want := fmt.Sprintf("an integer from %d to %d", lo, hi)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" {
		return 0, d.errorf(n, "%s: expected %s, got %s", key, want, describe(n))
	}
	var v int64
	if err := n.Decode(&v); err != nil || v < lo || v > hi {
		return 0, d.errorf(n, "%s: %s is out of range; expected %s", key, shown(n.Value), want)
	}
	return v, nil
}

// ratio reads a number in (0, 1].
func (d *decoder) ratio(n *yaml.Node, key string) (float64, error) {
	const want = "a number greater than 0 and at most 1, such as 0.8"
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!float" && n.ShortTag() != "!!int") {
		return 0, d.errorf(n, "%s: expected %s, got %s", key, want, describe(n))
	}
	var v float64
	// Written as a negation so that NaN fails it too.
	if err := n.Decode(&v); err != nil || !(v > 0 && v <= 1) {
		return 0, d.errorf(n, "%s: %s is out of range; expected %s", key, shown(n.Value), want)
	}
	return v, nil
}

// str reads a string scalar. Plain 123 or true are not strings in YAML, and
// are refused rather than converted, as the strict contract asks.
func (d *decoder) str(n *yaml.Node, key string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		return "", d.errorf(n, "%s: expected a string, got %s", key, describe(n))
	}
	return n.Value, nil
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null"
}

// describe names a node's type for "got ..." in messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.AliasNode:
		return "an alias"
	case yaml.DocumentNode:
		return "a document"
	}
	switch t := n.ShortTag(); t {
	case "!!null":
		return "nothing (null)"
	case "!!str":
		return "the string " + shown(n.Value)
	case "!!int":
		return "the integer " + shown(n.Value)
	case "!!float":
		return "the number " + shown(n.Value)
	case "!!bool":
		return "the boolean " + shown(n.Value)
	default:
		return "a value tagged " + shown(t)
	}
}

// shown quotes a value from the file for a message: on one line, and cut
// short, since the file may be hostile and messages end up in CI logs.
func shown(s string) string {
	const limit = 64
	n := 0
	for i := range s {
		if n == limit {
			return strconv.Quote(s[:i]) + "..."
		}
		n++
	}
	return strconv.Quote(s)
}
