package lint

import "strings"

func init() {
	register(Rule{ID: "RL014", Name: "config-changed", Default: Notice,
		Category: "config", Precision: "very-high",
		Summary: "The linter's own configuration changed in this change.",
		Doc:     "In diff mode (--base, --staged, pull requests) the change is checked with the base's .rivumi-lint.yaml (the defaults when the base has none; --config overrides both sides), so a change cannot switch off its own review (F7): a config change takes effect once it is on the base. The notice lists every key the head's version changes, as a dotted path (rules.RL008, limits.max_file_bytes, filenames.normal, ignore), each marked loosened, tightened or changed, so that the reviewer sees what the next changes will be held to. Its own severity comes from the base's config.",
		Input:   InConfigChange,
		run:     checkConfigChange})
}

// ConfigChange is the ConfigChange input: a config file the change adds,
// deletes or modifies (F7).
type ConfigChange struct {
	Path string
	What string // "changed", "was added" or "was deleted"
	Used string // which config this run used, as a clause: "the base's version (main (abc123))"
	// Keys are the settings the head's version changes; KeysErr says why
	// they cannot be compared (the head's or base's version does not parse).
	Keys    []ConfigKey
	KeysErr error
}

// ConfigKey is one changed setting: its dotted key, the values and whether
// it loosens, tightens or changes the checks.
type ConfigKey struct {
	Key, Old, New string
	Effect        string // "loosened", "tightened" or "changed"
}

func checkConfigChange(p *pass) {
	c := p.change
	msg := "the lint config changed in this change: " + c.Path + " " + c.What + "; this run used " + c.Used +
		": a config change takes effect once it is on the base. "
	const review = "Fix: review that it does not switch off or loosen the checks this change is held to"
	if c.KeysErr != nil {
		// The repository's config is not the one used: say why its keys
		// are not listed rather than fail the run.
		p.emit(Finding{Path: c.Path, Message: msg + "Its keys cannot be compared: " + c.KeysErr.Error() + ". " + review})
		return
	}
	var by [3][]string
	for _, k := range c.Keys {
		i := map[string]int{"loosened": 0, "tightened": 1, "changed": 2}[k.Effect]
		by[i] = append(by[i], k.Key+" ("+k.Old+" → "+k.New+")")
	}
	var parts []string
	for i, verb := range []string{"loosens", "tightens", "changes"} {
		if len(by[i]) > 0 {
			parts = append(parts, verb+" "+strings.Join(by[i], ", "))
		}
	}
	if len(parts) == 0 {
		msg += "The head's version changes no setting. "
	} else {
		msg += "The head's version " + strings.Join(parts, "; ") + ". "
	}
	p.emit(Finding{Path: c.Path, Message: msg + review})
}
