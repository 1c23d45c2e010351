package lint

import (
	"sort"

	"github.com/rivumi/rivumi-lint/config"
	"github.com/rivumi/rivumi-lint/resolve"
)

// Limits are the budget figures the rules use (§8 limits).
type Limits struct {
	MaxFileBytes    int64
	MaxDynamicBytes int64
	ReservedBytes   int64
	WarnRatio       float64
}

// Run applies every enabled rule to every resolution and returns the result.
// skills is the rendered skills section (nil when there are no skills): it
// is the same for every directory and counts toward the budget (P3).
// A finding that several directories share (a rejected root file, say) is
// reported once, with all of those directories.
func Run(resolutions []*resolve.Resolution, cfg *config.Config, skills []byte) *Result {
	return RunWith(resolutions, cfg, skills, Options{})
}

// Options add what the engine's resolutions do not carry.
type Options struct {
	// Checkout, when not nil, returns a note on how a checkout of the
	// layer file at path differs in size from its content (F5: Git adds
	// CRs), "" when it does not; the budget finding shows it next to the
	// layer's bytes, so that it says which count it used.
	Checkout func(path string) string
}

// RunWith is Run with options.
func RunWith(resolutions []*resolve.Resolution, cfg *config.Config, skills []byte, opt Options) *Result {
	lim := Limits{cfg.Limits.MaxFileBytes, cfg.Limits.MaxDynamicBytes, cfg.Limits.ReservedBytes, cfg.Limits.WarnRatio}
	res := &Result{Findings: []Finding{}, Directories: []Directory{}, Drift: []Drift{}}
	index := map[findingKey]int{}
	// Directories whose chains are the same (a directory without
	// instruction files has its parent's) share one rendering and one run
	// of the rules: a whole-worktree check renders each distinct chain
	// once, not each of its directories. Only the budget rule, whose
	// message names the directory, runs per directory.
	type memo struct {
		instructions int     // rendered bytes
		findings     []int   // positions in res.Findings
		layers       []Layer // the directories' layer table, shared
	}
	memos := map[*resolve.DirInfo]*memo{}
	facts := factCache{}
	for _, r := range resolutions {
		dir := displayDir(r.Dir)
		key := contributor(r)
		m, ok := memos[key]
		if !ok {
			m = &memo{instructions: facts.instructionsLen(r)}
			for _, rule := range table {
				if rule.check == nil || rule.ID == budgetRule {
					continue
				}
				runRule(rule, cfg, &pass{res: r, limits: lim, instructions: m.instructions, skills: skills, facts: facts}, func(f Finding) {
					m.findings = append(m.findings, add(res, index, f, ""))
				})
			}
			memos[key] = m
		}
		for _, i := range m.findings {
			addDir(res, i, dir)
		}
		if budgetMayFire(m.instructions+len(skills), lim) {
			for _, rule := range table {
				if rule.ID == budgetRule {
					runRule(rule, cfg, &pass{res: r, limits: lim, instructions: m.instructions, skills: skills, facts: facts, checkout: opt.Checkout}, func(f Finding) {
						add(res, index, f, dir)
					})
				}
			}
		}
		d := directoryOf(r, m.instructions+len(skills), lim, m.layers)
		m.layers = d.Layers
		res.Directories = append(res.Directories, d)
	}
	res.Findings = mergeUserFindings(res.Findings)
	Sort(res.Findings)
	return res
}

// userFile is the user layer of r, nil when there is none.
func userFile(r *resolve.Resolution) *resolve.File {
	for _, l := range r.Layers {
		if l.Scope == resolve.ScopeUser {
			return l.File
		}
	}
	return nil
}

// mergeUserFindings reports a file that is both the user-level file and a
// project layer once (F10): a finding about it as the user layer is dropped
// when the same rule reports the same place as a project layer, and its
// directories go to that finding.
func mergeUserFindings(fs []Finding) []Finding {
	type place struct {
		rule, path   string
		line, column int
	}
	project := map[place]int{}
	merged := false
	for i, f := range fs {
		if !f.fromUser {
			project[place{f.Rule, f.Path, f.Line, f.Column}] = i
		}
	}
	drop := make([]bool, len(fs))
	for j, f := range fs {
		if i, ok := project[place{f.Rule, f.Path, f.Line, f.Column}]; ok && f.fromUser {
			fs[i].Directories = append(fs[i].Directories, f.Directories...)
			drop[j], merged = true, true
		}
	}
	if !merged {
		return fs
	}
	out := make([]Finding, 0, len(fs))
	for j, f := range fs {
		if !drop[j] {
			out = append(out, f)
		}
	}
	return out // Sort orders and compacts the merged directories
}

// budgetRule is the one rule whose findings depend on the directory, not
// only on its chain.
const budgetRule = "RL006"

// budgetMayFire is checkBudget's threshold: below it the rule reports
// nothing, and most directories of a check are below it.
func budgetMayFire(rendered int, lim Limits) bool {
	total := int64(rendered) + lim.ReservedBytes
	return total > lim.MaxDynamicBytes || float64(total) > lim.WarnRatio*float64(lim.MaxDynamicBytes)
}

// runRule runs one enabled rule over a pass; out receives its findings
// with rule, name and severity set, those on ignored paths dropped.
func runRule(rule Rule, cfg *config.Config, p *pass, out func(Finding)) {
	sev, on := severityFor(rule, cfg)
	if !on {
		return
	}
	user := userFile(p.res)
	p.emit = func(f Finding) {
		if user != nil && f.Path == user.Path {
			// F10: the user-level file by its repository path when it
			// lies inside the root, else flagged as having none.
			if user.Location != "" {
				f.Path, f.fromUser = user.Location, true
			} else {
				f.User = true
			}
		}
		if cfg.Ignored(f.Path) {
			return
		}
		f.Rule, f.Name = rule.ID, rule.Name
		f.Severity = effective(rule, sev, f.Severity)
		out(f)
	}
	rule.check(p)
}

// contributor is the deepest directory of r's chain that has candidates or
// near misses: two resolutions with the same contributor have the same
// layers and the same findings (nil: none has any).
func contributor(r *resolve.Resolution) *resolve.DirInfo {
	for i := len(r.Dirs) - 1; i >= 0; i-- {
		if d := r.Dirs[i]; len(d.Files) > 0 || len(d.NearMisses) > 0 {
			return d
		}
	}
	return nil
}

// Add merges findings made outside the rule table (memory, config changes)
// into a result, keeping the order stable.
func (r *Result) Add(cfg *config.Config, fs ...Finding) {
	index := map[findingKey]int{}
	for i, f := range r.Findings {
		index[keyOf(f)] = i
	}
	for _, f := range fs {
		rule, _ := Lookup(f.Rule)
		sev, on := severityFor(rule, cfg)
		if !on {
			continue
		}
		f.Name = rule.Name
		f.Severity = effective(rule, sev, f.Severity)
		add(r, index, f, "")
	}
	Sort(r.Findings)
}

// severityFor returns the configured severity of a rule (0 when the config
// leaves the rule's own choice) and whether the rule is on.
func severityFor(rule Rule, cfg *config.Config) (Severity, bool) {
	s, ok := cfg.Rules[rule.ID]
	if !ok {
		return 0, true
	}
	v, err := ParseSeverity(s)
	if err != nil || v == Off {
		return 0, v != Off
	}
	return v, true
}

// effective is a finding's severity: the configured one, else the one the
// check chose (RL006 and RL009 choose), else the rule's default.
func effective(rule Rule, configured, own Severity) Severity {
	if configured != 0 {
		return configured
	}
	if own != 0 {
		return own
	}
	return rule.Default
}

type findingKey struct {
	rule, path, message string
	line, column        int
}

func keyOf(f Finding) findingKey { return findingKey{f.Rule, f.Path, f.Message, f.Line, f.Column} }

// add merges f into res (a finding met before gains dir) and returns its
// position in res.Findings.
func add(res *Result, index map[findingKey]int, f Finding, dir string) int {
	k := keyOf(f)
	i, ok := index[k]
	if !ok {
		if f.Directories == nil {
			f.Directories = []string{}
		}
		index[k] = len(res.Findings)
		res.Findings = append(res.Findings, f)
		i = len(res.Findings) - 1
		if dir == "" {
			return i
		}
	}
	addDir(res, i, dir)
	return i
}

// addDir records that the finding at position i affects dir.
func addDir(res *Result, i int, dir string) {
	dirs := res.Findings[i].Directories
	if dir != "" && (len(dirs) == 0 || dirs[len(dirs)-1] != dir) {
		res.Findings[i].Directories = append(dirs, dir)
	}
}

// Sort orders findings by path, line, column, rule and message, and each
// finding's directories by name.
func Sort(fs []Finding) {
	for i := range fs {
		if !sort.StringsAreSorted(fs[i].Directories) {
			sort.Strings(fs[i].Directories)
		}
		fs[i].Directories = compact(fs[i].Directories)
	}
	sort.SliceStable(fs, func(i, j int) bool { return Less(fs[i], fs[j]) })
}

// Less orders findings by path, line, column, rule and message.
func Less(a, b Finding) bool {
	if a.Path != b.Path {
		return a.Path < b.Path
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	if a.Rule != b.Rule {
		return a.Rule < b.Rule
	}
	return a.Message < b.Message
}

func compact(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// directoryOf is r's row of the directory table. layers, when not nil, is
// the table of an identical chain, shared.
func directoryOf(r *resolve.Resolution, rendered int, lim Limits, layers []Layer) Directory {
	d := Directory{Path: displayDir(r.Dir), Fingerprint: r.Fingerprint, Layers: layers,
		RenderedBytes: rendered, BudgetBytes: int(lim.MaxDynamicBytes - lim.ReservedBytes)}
	if layers != nil {
		return d
	}
	d.Layers = []Layer{}
	for _, l := range r.Layers {
		var n int64
		switch {
		case l.Accepted():
			n = int64(len(l.Content))
		case l.Rej != nil && l.Rej.Rule == "RL003":
			n = l.Rej.Size
		}
		d.Layers = append(d.Layers, Layer{Path: l.Path, Scope: l.Scope, State: string(l.State), Reason: l.Reason(), Bytes: n})
	}
	return d
}
