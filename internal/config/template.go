package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// plainName is a list item YAML reads as the same string unquoted.
var plainName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._-]*$`)

// Template is the file `rivumi-lint init` writes (X2): every key of the table
// at its default with its doc as a comment, rules and ignore as commented
// examples (setting them would change nothing but the file's meaning to a
// reader), and a first line that points editors at the schema.
//
// profiles are the agent profiles' registry: their sections are written
// too.
func Template(schemaURL string, profiles ...Profile) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# yaml-language-server: $schema=%s\n", schemaURL)
	b.WriteString("# rivumi-lint configuration: every key below is at its default (docs/config.md).\n")
	b.WriteString("# Change what differs in your runtime; `rivumi-lint schema` prints what is accepted.\n")
	newTable(profiles).writeKeys(&b, "", "")
	return []byte(b.String())
}

func (t *table) writeKeys(b *strings.Builder, section, indent string) {
	for _, k := range t.keysIn(section) {
		if section == "" {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "%s# %s\n", indent, k.Doc)
		switch k.Kind {
		case KindSection:
			fmt.Fprintf(b, "%s%s:\n", indent, k.Name())
			t.writeKeys(b, k.Path, indent+"  ")
		case KindBool:
			fmt.Fprintf(b, "%s%s: %t\n", indent, k.Name(), k.Default().(bool))
		case KindNames, KindAgents, KindChoices:
			if len(k.Default().([]string)) == 0 {
				fmt.Fprintf(b, "%s%s: []\n", indent, k.Name())
				continue
			}
			fmt.Fprintf(b, "%s%s:\n", indent, k.Name())
			for _, n := range k.Default().([]string) {
				fmt.Fprintf(b, "%s  - %s\n", indent, yamlString(n))
			}
		case KindPatterns:
			fmt.Fprintf(b, "%s%s: []\n", indent, k.Name())
		case KindEnum:
			fmt.Fprintf(b, "%s%s: %s\n", indent, k.Name(), k.Default().(string))
		case KindGlobs:
			// Null: nothing ignored, and items can be added below.
			fmt.Fprintf(b, "%s%s:\n%s  # - testdata/**\n", indent, k.Name(), indent)
		case KindOverrides:
			// Null: no override; the example shows an entry's shape.
			fmt.Fprintf(b, "%s%s:\n%s  # - paths: [\"docs/**\"]\n%s  #   rules:\n%s  #     near-miss-name: \"off\"\n", indent, k.Name(), indent, indent, indent)
		case KindRules:
			fmt.Fprintf(b, "%s%s:\n", indent, k.Name())
			for _, r := range lint.Rules() {
				fmt.Fprintf(b, "%s  # %s: %-7s # %s\n", indent, r.ID, r.Default, r.Name)
			}
		case KindRatio:
			fmt.Fprintf(b, "%s%s: %s\n", indent, k.Name(), strconv.FormatFloat(k.Default().(float64), 'g', -1, 64))
		case KindString:
			fmt.Fprintf(b, "%s%s: %s\n", indent, k.Name(), strconv.Quote(k.Default().(string)))
		default: // integers
			fmt.Fprintf(b, "%s%s: %v\n", indent, k.Name(), k.Default())
		}
	}
}

// yamlString writes s so that YAML reads it back as the string s.
func yamlString(s string) string {
	if plainName.MatchString(s) {
		return s
	}
	return strconv.Quote(s)
}
