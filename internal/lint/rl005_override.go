package lint

import (
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

func init() {
	register(Rule{ID: "RL005", Name: "override", Default: Notice,
		Category: "precedence", Precision: "very-high",
		Summary: "An override file suppresses the instruction layers above it.",
		Doc:     "An *.override.md layer suppresses every project layer of a shallower directory, earlier overrides included (R4); the user layer stays. The notice lists the suppressed files and the directories whose chain is affected, so that a reviewer sees which rules stop applying there. It is a notice, not a problem: silence it with rules.RL005: off once overrides are routine.",
		run:     checkOverride})
}

func checkOverride(p *pass) {
	byOverride := map[string][]string{}
	var order []string
	for _, l := range p.res.Layers {
		if l.State == resolve.Suppressed {
			if _, ok := byOverride[l.By]; !ok {
				order = append(order, l.By)
			}
			byOverride[l.By] = append(byOverride[l.By], rootRelative(l.Path))
		}
	}
	for _, by := range order {
		p.report(by, noPos, 0, "Rivumi will use this override instead of the project layers above it: it suppresses %s. "+
			"Fix: nothing if that is intended; else copy the rules that must still apply into the override, or rename it to a normal layer (AGENTS.md); rules.RL005: off silences this notice",
			strings.Join(byOverride[by], ", "))
	}
}

// rootRelative writes a path of the root directory as ./NAME, so that
// "suppresses ./AGENTS.md" cannot be read as any directory's AGENTS.md.
func rootRelative(p string) string {
	if !strings.Contains(p, "/") && !strings.HasPrefix(p, "~") {
		return "./" + p
	}
	return p
}
