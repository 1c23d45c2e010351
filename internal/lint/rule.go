package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Rule is one check, modelled on go/analysis's Analyzer: a value with its
// documentation, the input it reads and the function that runs over one
// value of that input. Each rule (or family of rules) lives in its own
// file and registers itself; the table is the single source of `rivumi-lint
// rules`, docs/rules.md, SARIF's rule list and the config's rule ids.
type Rule struct {
	ID      string   `json:"id"`
	Name    string   `json:"name"`
	Default Severity `json:"default_severity"`
	// Summary is one line: what the rule finds.
	Summary string `json:"summary"`
	// Doc is one paragraph: why it matters and how to fix it.
	Doc string `json:"doc"`
	// Category groups rules for code scanning's filters (a SARIF tag):
	// loading, precedence, budget, content, memory or config.
	Category string `json:"category"`
	// Precision is how rarely a finding is a false alarm, in SARIF's
	// terms (very-high, high, medium, low): the rules compute what the
	// runtime decides, so most are very-high.
	Precision string `json:"precision"`
	// SecuritySeverity is set on the rules whose findings are security
	// problems (a hidden or forged instruction, a link the runtime will
	// not follow): GitHub's security-severity score, "0.1" to "10.0".
	// It also gives the rule SARIF's "security" tag.
	SecuritySeverity string `json:"security_severity,omitempty"`
	// Agent is the agent profile whose loading the rule checks (A4):
	// "" for Rivumi's rules, AnyAgents for a rule comparing the enabled
	// profiles. A rule runs only while its profile is enabled.
	Agent string `json:"agent,omitempty"`
	// Input is what the rule reads; Run calls run once per value of it.
	Input Input `json:"-"`
	// rejects are the engine's rejection causes the rule reports (C1–C5,
	// F5): the one place where a cause becomes a rule id (RejectionRule).
	rejects []resolve.Cause
	run     func(p *pass)
}

// Input is what a rule reads (Inputs holds every kind).
type Input int

const (
	// InChain: one distinct chain of layers (directories with the same
	// chain share the findings); in the diff modes with how a checkout
	// writes its layer files (Inputs.Checkout, F5).
	InChain Input = iota
	// InDirectory: one resolved directory (the finding names it).
	InDirectory
	// InMemory: the explicit memory file (check --memory, preview).
	InMemory
	// InConfigChange: a changed config file of a diff-mode check (F7).
	InConfigChange
	// InAgents: one resolved directory as another agent profile sees it
	// (Inputs.Codex; A4), beside Rivumi's chain of it.
	InAgents
	// InReferences: one broken reference of an instruction file
	// (Inputs.References), with the directories it affects.
	InReferences
)

// table is every rule in id order; register fills it.
var table []Rule

// causeRule is the id of the rule that reports each rejection cause,
// from the table's rejects.
var causeRule = map[resolve.Cause]string{}

// register adds a rule to the table, keeping id order whatever the order
// of the rule files.
func register(r Rule) {
	i, found := slices.BinarySearchFunc(table, r.ID, func(a Rule, id string) int { return strings.Compare(a.ID, id) })
	if found {
		panic("lint: rule " + r.ID + " registered twice")
	}
	for _, c := range r.rejects {
		if id, ok := causeRule[c]; ok {
			panic("lint: rejection cause " + c.String() + " reported by " + id + " and " + r.ID)
		}
		causeRule[c] = r.ID
	}
	table = slices.Insert(table, i, r)
}

// RejectionRule is the id of the rule that reports a rejection of cause c
// (§5: RL001–RL004, RL012); "" when no rule does, which the table's test
// rules out for every cause of resolve.Causes. Outputs, drift and the
// language server name a rejection by it; the engine names only causes.
func RejectionRule(c resolve.Cause) string { return causeRule[c] }

// Rules returns the rule table in id order.
func Rules() []Rule { return table }

// Lookup returns the rule with the given id.
func Lookup(id string) (Rule, bool) {
	for _, r := range table {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Find returns the rule an id (RL004, in any case) or a name
// (invalid-utf8, in any case) names: what `rules ID` and the MCP server's
// explain_rule accept.
func Find(idOrName string) (Rule, bool) {
	// Rule ids are written RL004 everywhere, but rl004 is no other rule.
	if r, ok := Lookup(strings.ToUpper(idOrName)); ok {
		return r, true
	}
	for _, r := range table {
		if strings.EqualFold(r.Name, idOrName) {
			return r, true
		}
	}
	return Rule{}, false
}

// Explain is a rule's documentation as `rules ID` prints it.
func (r Rule) Explain() string {
	return fmt.Sprintf("%s %s (default severity: %s)\n\n%s\n\n%s\n\n%s\n", r.ID, r.Name, r.Default, r.Summary, r.Doc, r.URL())
}

// Tags are the rule's SARIF tags: "security" for a security rule, then
// its category.
func (r Rule) Tags() []string {
	if r.SecuritySeverity != "" {
		return []string{"security", r.Category}
	}
	return []string{r.Category}
}

// URL is where a rule is documented.
func (r Rule) URL() string {
	return "https://github.com/rivumi/rivumi-lint/blob/main/docs/rules.md#" + strings.ToLower(r.ID)
}
