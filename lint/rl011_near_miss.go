package lint

import "strings"

func init() {
	register(Rule{ID: "RL011", Name: "near-miss-name", Default: Warning,
		Summary: "A file name close to an instruction file name that Rivumi will not load.",
		Doc:     "Candidate names are matched exactly and case-sensitively (R2). agents.md, Agents.md, AGENT.md, RIVUMI.MD or AGENTS.override.MD are not loaded on Linux but are on a case-insensitive disk (macOS, Windows), so the agent behaves differently per machine. Fix: rename the file to the exact candidate name.",
		run:     checkNearMiss})
}

func checkNearMiss(p *pass) {
	for _, d := range p.res.Dirs {
		for _, nm := range d.NearMisses {
			name := nm.Path[strings.LastIndexByte(nm.Path, '/')+1:]
			if strings.EqualFold(name, nm.Like) {
				p.report(nm.Path, noPos, 0, "Rivumi will not load this file: names are matched case-sensitively and this is not %s (a case-insensitive disk would load it)", nm.Like)
				continue
			}
			p.report(nm.Path, noPos, 0, "Rivumi will not load this file: its name is close to %s but not it", nm.Like)
		}
	}
}
