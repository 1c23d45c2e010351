package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema(testProfiles...)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("schema.json", inst); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		t.Fatalf("the generated schema does not compile: %v", err)
	}
	return s
}

// X3: the keys of the schema are the keys of the table, with every rule id
// of lint's table under rules, and every mapping allows no other key; the
// parser accepts each of them at its default and refuses a key next to
// them that is not in the table.
func TestSchemaKeysX3(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(Schema(testProfiles...), &doc); err != nil {
		t.Fatal(err)
	}
	if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Errorf("$schema = %v", doc["$schema"])
	}
	var inSchema []string
	var walk func(prefix string, obj map[string]any)
	walk = func(prefix string, obj map[string]any) {
		if obj["additionalProperties"] != false {
			t.Errorf("schema of %q does not set additionalProperties: false", prefix)
		}
		props, _ := obj["properties"].(map[string]any)
		for name, sub := range props {
			p := strings.TrimPrefix(prefix+"."+name, ".")
			inSchema = append(inSchema, p)
			if m := sub.(map[string]any); m["properties"] != nil {
				walk(p, m)
			}
		}
	}
	walk("", doc)
	var inTable []string
	for _, k := range newTable(testProfiles).keys {
		inTable = append(inTable, k.Path)
		if k.Kind == KindRules {
			for _, r := range lint.Rules() {
				inTable = append(inTable, k.Path+"."+r.ID, k.Path+"."+r.Name)
			}
		}
	}
	sort.Strings(inSchema)
	sort.Strings(inTable)
	if !slices.Equal(inSchema, inTable) {
		t.Fatalf("schema keys %q\n  table keys %q", inSchema, inTable)
	}

	s := compileSchema(t)
	for _, path := range inTable {
		val := "null"
		if k := findKey(path); k != nil && k.Kind != KindSection && k.Kind != KindGlobs && k.Kind != KindRules {
			b, _ := json.Marshal(k.Default())
			val = string(b)
		} else if strings.HasPrefix(path, "rules.") {
			val = "warning"
		}
		in := nest(path, val)
		if _, err := Parse(name, []byte(in), testProfiles...); err != nil {
			t.Errorf("parser refuses schema key %s:\n%s%v", path, in, err)
		}
		if err := validateYAML(s, []byte(in)); err != nil {
			t.Errorf("schema refuses key %s:\n%s%v", path, in, err)
		}
		// A key beside it that the table does not have.
		bad := nest(path[:strings.LastIndexByte("."+path, '.')]+"zz_unknown", "1")
		if strings.HasPrefix(bad, ".") {
			bad = nest("zz_unknown", "1")
		}
		if _, err := Parse(name, []byte(bad), testProfiles...); err == nil || !strings.Contains(err.Error(), "unknown") {
			t.Errorf("parser accepts %q: %v", bad, err)
		}
		if validateYAML(s, []byte(bad)) == nil {
			t.Errorf("schema accepts %q", bad)
		}
	}
}

func findKey(path string) *Key {
	keys := newTable(testProfiles).keys
	for i := range keys {
		if keys[i].Path == path {
			return &keys[i]
		}
	}
	return nil
}

// nest writes path: val as nested YAML mappings.
func nest(path, val string) string {
	var b strings.Builder
	parts := strings.Split(path, ".")
	for i, p := range parts {
		b.WriteString(strings.Repeat("  ", i) + p + ":")
		if i == len(parts)-1 {
			b.WriteString(" " + val)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// errNotJSON marks a config that has no JSON form (not YAML at all, a
// non-string key, NaN or infinity): a schema has no say about it.
var errNotJSON = errors.New("no JSON form")

func validateYAML(s *jsonschema.Schema, data []byte) error {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("%w: %v", errNotJSON, err)
	}
	v, err := toJSON(v)
	if err != nil {
		return err
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("%w: %v", errNotJSON, err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	return s.Validate(inst)
}

func toJSON(v any) (any, error) {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			j, err := toJSON(e)
			if err != nil {
				return nil, err
			}
			v[k] = j
		}
	case map[any]any:
		return nil, fmt.Errorf("%w: a key that is not a string", errNotJSON)
	case []any:
		for i, e := range v {
			j, err := toJSON(e)
			if err != nil {
				return nil, err
			}
			v[i] = j
		}
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%w: %v", errNotJSON, v)
		}
	}
	return v, nil
}

// notInSchema are the parser's checks a JSON Schema cannot express, by a
// part of their message; docs/config.md lists the same.
var notInSchema = []struct{ msg, why string }{
	{"alias", "YAML anchors and aliases are refused; JSON has none"},
	{"a second YAML document", "a file is one YAML document; JSON has one value"},
	{"must be less than limits.max_dynamic_bytes", "reserved_bytes < max_dynamic_bytes compares two keys, one perhaps at its default"},
	{"is also in filenames.", "a name in both lists compares two keys, one perhaps at its default"},
	{"invalid glob", "doublestar glob syntax (brackets, braces, a trailing backslash)"},
	{"an invalid glob pattern", "doublestar glob syntax of claude.md_excludes"},
	{"expected a plain key", "a YAML merge key (<<) is refused; JSON has none"},
	{"sets RL", "a rule set by its id and by its name compares two keys"},
}

// config is one config text from the repository and where it is.
type corpusConfig struct {
	where string
	data  []byte
}

// X3: the schema and the parser agree on every config text the repository
// holds: the YAML blocks of the docs, the YAML files of the testscripts,
// the inputs of the parser's tests and init's file. What the parser
// accepts validates; what it refuses fails validation, unless it has no
// JSON form or the check is one of notInSchema.
func TestSchemaAgreesWithParserX3(t *testing.T) {
	s := compileSchema(t)
	corpus := append(docConfigs(t), scriptConfigs(t)...)
	corpus = append(corpus, testInputs(t)...)
	corpus = append(corpus, corpusConfig{"init's template", Template(SchemaURL("main"), testProfiles...)})
	var valid, invalid, notJSON int
	used := map[string]bool{}
	for _, c := range corpus {
		_, perr := Parse(name, c.data, testProfiles...)
		serr := validateYAML(s, c.data)
		switch {
		case perr == nil && serr != nil:
			t.Errorf("%s: the parser accepts it, the schema does not: %v\n%s", c.where, serr, c.data)
		case perr == nil:
			valid++
		case errors.Is(serr, errNotJSON):
			notJSON++
		case serr == nil:
			why := ""
			for _, n := range notInSchema {
				if strings.Contains(perr.Error(), n.msg) {
					why = n.why
					used[n.msg] = true
				}
			}
			if why == "" {
				t.Errorf("%s: the parser refuses it (%v), the schema accepts it\n%s", c.where, perr, c.data)
			}
		default:
			invalid++
		}
	}
	for _, n := range notInSchema {
		if !used[n.msg] {
			t.Errorf("no config in the corpus shows the schema missing %q: drop it from notInSchema and docs/config.md", n.msg)
		}
	}
	t.Logf("%d configs: %d valid, %d refused by both, %d without a JSON form", len(corpus), valid, invalid, notJSON)
	// The corpus must be the real one, not an empty walk.
	if valid < 20 || invalid < 60 {
		t.Errorf("corpus too small: %d valid, %d invalid", valid, invalid)
	}
}

var yamlBlock = regexp.MustCompile("(?ms)^```ya?ml\n(.*?)^```")

// docConfigs are the YAML blocks of the docs and the README that are
// configs: the parser accepts them, or their top level names a config key
// (workflows and pre-commit files are neither).
func docConfigs(t *testing.T) []corpusConfig {
	files, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	files = append(files, filepath.Join("..", "..", "README.md"))
	var out []corpusConfig
	configs := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range yamlBlock.FindAllSubmatch(b, -1) {
			out = append(out, corpusConfig{fmt.Sprintf("%s block %d", f, i+1), m[1]})
			if _, err := Parse(name, m[1], testProfiles...); err == nil {
				configs++
			}
		}
	}
	if configs < 2 {
		t.Errorf("only %d YAML blocks in the docs are configs; README.md and docs/config.md show one each", configs)
	}
	return out
}

// scriptConfigs are the YAML files of the testscripts.
func scriptConfigs(t *testing.T) []corpusConfig {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testscripts: %v", err)
	}
	var out []corpusConfig
	for _, f := range files {
		a, err := txtar.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range a.Files {
			if strings.HasSuffix(file.Name, ".yaml") || strings.HasSuffix(file.Name, ".yml") {
				out = append(out, corpusConfig{f + ": " + file.Name, file.Data})
			}
		}
	}
	return out
}

// testInputs are the config texts of the parser's own tests in
// config_test.go: the first field of every case of TestParseErrors and
// TestParsePartial, the strings TestParseEmpty loops over, and
// TestParseEveryKey's in, read from the source so that a new case joins.
func testInputs(t *testing.T) []corpusConfig {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "config_test.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []corpusConfig
	add := func(fn string, e ast.Expr) {
		s, ok := evalString(e)
		if !ok {
			t.Fatalf("%s: cannot evaluate the case at %s", fn, fset.Position(e.Pos()))
		}
		out = append(out, corpusConfig{fmt.Sprintf("%s case at %s", fn, fset.Position(e.Pos())), []byte(s)})
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		switch fn := fd.Name.Name; fn {
		case "TestParseErrors", "TestParsePartial":
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				as, ok := n.(*ast.AssignStmt)
				if !ok || len(as.Lhs) != 1 || !isIdent(as.Lhs[0], "cases") {
					return true
				}
				for _, el := range as.Rhs[0].(*ast.CompositeLit).Elts {
					add(fn, el.(*ast.CompositeLit).Elts[0])
				}
				return false
			})
		case "TestParseEmpty", "TestParseEveryKey":
			ast.Inspect(fd.Body, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.RangeStmt:
					if cl, ok := n.X.(*ast.CompositeLit); ok {
						for _, el := range cl.Elts {
							add(fn, el)
						}
					}
				case *ast.AssignStmt:
					if isIdent(n.Lhs[0], "in") {
						add(fn, n.Rhs[0])
					}
				}
				return true
			})
		}
	}
	return out
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// evalString evaluates the string expressions the test cases use:
// literals, + and strings.Repeat.
func evalString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		a, ok1 := evalString(e.X)
		b, ok2 := evalString(e.Y)
		return a + b, ok1 && ok2 && e.Op == token.ADD
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Repeat" && len(e.Args) == 2 {
			s, ok := evalString(e.Args[0])
			lit, ok2 := e.Args[1].(*ast.BasicLit)
			if !ok || !ok2 {
				return "", false
			}
			n, err := strconv.Atoi(lit.Value)
			return strings.Repeat(s, n), err == nil
		}
	}
	return "", false
}

// X2: the file init writes reads back as exactly the defaults, and the
// schema accepts it; its first line points editors at the schema.
func TestTemplateX2(t *testing.T) {
	url := SchemaURL("v1.2.3")
	tpl := Template(url, testProfiles...)
	c, err := Parse(name, tpl, testProfiles...)
	if err != nil {
		t.Fatalf("init's file does not parse: %v\n%s", err, tpl)
	}
	want := Default(testProfiles...)
	want.Path = name
	if !equal(c, want) {
		t.Fatalf("init's file parses to\n %+v, want the defaults\n %+v", c, want)
	}
	if first, _, _ := strings.Cut(string(tpl), "\n"); first != "# yaml-language-server: $schema="+url {
		t.Errorf("first line %q", first)
	}
	if err := validateYAML(compileSchema(t), tpl); err != nil {
		t.Errorf("schema refuses init's file: %v", err)
	}
	// Every key is in the file, and every rule id as a commented example.
	for _, k := range newTable(testProfiles).keys {
		if !strings.Contains(string(tpl), k.Name()+":") || !strings.Contains(string(tpl), k.Doc) {
			t.Errorf("init's file lacks %s or its doc", k.Path)
		}
	}
	for _, r := range lint.Rules() {
		if !regexp.MustCompile(`(?m)^  # ` + r.ID + `: ` + r.Default.String() + ` `).Match(tpl) {
			t.Errorf("init's file lacks the example line of %s", r.ID)
		}
	}
}
