package lint

func init() {
	register(Rule{ID: "RL007", Name: "shadowed", Default: Warning,
		Category: "precedence", Precision: "very-high",
		Summary: "Two candidate files in one directory: only the first in priority order is used.",
		Doc:     "In each directory only the first candidate name that exists is the layer (R2): RIVUMI.override.md, AGENTS.override.md, RIVUMI.md, AGENTS.md by default. Any later candidate in the same directory is shadowed and never loaded, even if the chosen one is rejected. Fix: merge the text into one file and delete the other.",
		run:     checkShadowed})
}

func checkShadowed(p *pass) {
	for _, d := range p.res.Dirs {
		for _, f := range d.Files[min(1, len(d.Files)):] {
			p.report(f.Path, noPos, 0, "Rivumi will not load this file: %s in the same directory comes first in priority order. Fix: merge its text into %s and delete this file", d.Files[0].Path, d.Files[0].Name)
		}
	}
}
