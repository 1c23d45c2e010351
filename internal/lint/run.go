package lint

import (
	"slices"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/agent"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Limits are the size limits of C3 and P3 (§8 limits); config.Limits is
// this type.
type Limits struct {
	MaxFileBytes    int64
	MaxDynamicBytes int64
	ReservedBytes   int64
	WarnRatio       float64
}

// Config is what the rules read of the configuration (config.Config):
// the severities the file sets, the limits and the ignore globs.
type Config interface {
	// RuleSeverity is the severity the config sets for a rule; set is
	// false when it leaves the rule's own choice.
	RuleSeverity(id string) (sev Severity, set bool)
	// SeverityAt is RuleSeverity for the findings on path, the config's
	// per-path overrides applied (O3).
	SeverityAt(id, path string) (sev Severity, set bool)
	// RuleRuns reports whether the rule may report anything: on by
	// RuleSeverity, or turned on for some paths by an override.
	RuleRuns(id string) bool
	RuleLimits() Limits
	// Ignored reports whether findings on path are dropped (§8 ignore).
	Ignored(path string) bool
}

// Inputs are everything the rules read, each kind for the rules that
// declare it (Rule.Input).
type Inputs struct {
	// Chains are the resolutions of the checked directories (Chain and
	// Directory rules).
	Chains []*resolve.Resolution
	// Skills is the rendered skills section (nil when there are no
	// skills): the same for every directory, it counts toward the budget
	// (P3).
	Skills []byte
	// Checkout, in the diff modes, says how a Git checkout writes the
	// layer file at path (F5); nil when it writes the content as read.
	Checkout func(path string) *CheckoutFile
	// Memory is the explicit memory file, nil when none is checked.
	Memory *MemoryFile
	// ConfigChanges are the config files a diff-mode change touches.
	ConfigChanges []ConfigChange
	// References are the broken references the pipeline found (RL021).
	References []Reference
	// Prepared, when not nil, holds the chains' part of the check done
	// beforehand (Prepare) with the same config and Checkout.
	Prepared *Prepared
	// Agents are the enabled agent profiles (A1), in the table's order;
	// nil is Rivumi alone. Profiles are the enabled profiles other than
	// Rivumi's, resolved: the Agents rules' input.
	Agents   []string
	Profiles []AgentInput
}

// AgentInput is one enabled profile's resolver and its views of Chains'
// directories, one each in the same order.
type AgentInput struct {
	Resolver agent.Resolver
	Views    []*agent.View
}

// ordered returns names in Agents' order (the registry's), each once.
func (in *Inputs) ordered(names []string) []string {
	var out []string
	for _, a := range in.Agents {
		if slices.Contains(names, a) {
			out = append(out, a)
		}
	}
	return out
}

// rivumiOn reports whether Rivumi's profile is enabled.
func (in *Inputs) rivumiOn() bool {
	return in.Agents == nil || slices.Contains(in.Agents, agent.Rivumi)
}

// on reports whether rule runs with the enabled profiles: Rivumi's rules
// while Rivumi is on, a profile's while it is resolved, a comparison
// while Rivumi and another are.
func (in *Inputs) on(rule Rule) bool {
	switch rule.Agent {
	case "":
		return in.rivumiOn()
	case AnyAgents:
		return in.rivumiOn() && len(in.Profiles) > 0
	}
	for _, p := range in.Profiles {
		if p.Resolver.Profile().Name == rule.Agent {
			return true
		}
	}
	return false
}

// applies reports whether the Agents rule runs over profile a's views.
func applies(rule Rule, a agent.Resolver) bool {
	return rule.Agent == AnyAgents || rule.Agent == a.Profile().Name
}

// agentOf is a finding's Agent (A4): empty while Rivumi alone is on.
func (in *Inputs) agentOf(rule Rule) string {
	if in.Agents == nil || len(in.Agents) == 1 && in.Agents[0] == agent.Rivumi {
		return ""
	}
	switch rule.Agent {
	case "":
		return agent.Rivumi
	case AnyAgents:
		return strings.Join(in.Agents, ",")
	}
	return rule.Agent
}

// Check runs every enabled rule over the inputs it declares. A finding
// that several directories share (a rejected root file, say) is reported
// once, with all of those directories.
func Check(in Inputs, cfg Config) *Result {
	lim := cfg.RuleLimits()
	skills := in.Skills
	// One Directory per chain: sized once, not grown (10,000 of them in a
	// whole-worktree check).
	res := &Result{Findings: []Finding{}, Directories: make([]Directory, 0, len(in.Chains)), Drift: []Drift{}}
	index := map[findingKey]int{}
	// Directories whose chains are the same (a directory without
	// instruction files has its parent's) share one rendering and one run
	// of the rules: a whole-worktree check renders each distinct chain
	// once, not each of its directories. Only the Directory rules (the
	// budget), whose messages name the directory, run per directory.
	type memo struct {
		instructions int     // rendered bytes
		findings     []int   // positions in res.Findings
		layers       []Layer // the directories' layer table, shared
		used         string  // the directories' budget share (UsedShare), shared
	}
	memos := map[*resolve.DirInfo]*memo{}
	// The Agents rules' findings (positions in res.Findings) per Codex
	// view and Rivumi chain.
	type agentKey struct {
		view  *agent.View
		chain *resolve.DirInfo
	}
	agentMemo := map[agentKey][]int{}
	// Each profile's last key and its findings: a directory's next one
	// in the chains' order is mostly its child, with the same view and
	// chain, found without the map.
	type lastAgent struct {
		key   agentKey
		found []int
		ok    bool
	}
	last := make([]lastAgent, len(in.Profiles))
	// Each profile's Agents rules, its label and one pass, reused by
	// every chain the rules run over: chosen, made and allocated once,
	// not at each of the thousands of views' first directories.
	type profileRun struct {
		rules   []*Rule
		label   string
		pass    pass
		got     []int // the findings of the pass running; nil for none
		collect func(Finding)
	}
	runs := make([]profileRun, len(in.Profiles))
	for pi, a := range in.Profiles {
		pr := &runs[pi]
		pr.label = a.Resolver.Profile().Label()
		pr.collect = func(f Finding) { pr.got = append(pr.got, add(res, index, f, "")) }
		for ri := range table {
			rule := &table[ri]
			if rule.Input == InAgents && applies(*rule, a.Resolver) && in.on(*rule) &&
				(rule.Agent != AnyAgents || in.rivumiOn()) {
				pr.rules = append(pr.rules, rule)
			}
		}
	}
	facts := factCache{}
	// The Chain rules' one pass and where its findings go, likewise.
	var chainPass pass
	var chainGot []int
	chainCollect := func(f Finding) { chainGot = append(chainGot, add(res, index, f, "")) }
	var prepared map[*resolve.DirInfo]*preparedChain
	if in.Prepared != nil {
		facts, prepared = in.Prepared.facts, in.Prepared.memos
	}
	for ci, r := range in.Chains {
		dir := resolve.DisplayDir(r.Dir)
		key := contributor(r)
		m, ok := memos[key]
		if pc := prepared[key]; !ok && pc != nil && pc.first == r {
			// Prepared from this same chain: its findings enter the
			// result here, in the order computing them now would give.
			m = &memo{instructions: pc.instructions}
			for _, f := range pc.findings {
				m.findings = append(m.findings, add(res, index, f, ""))
			}
			memos[key], ok = m, true
		}
		if !ok {
			m = &memo{instructions: facts.instructionsLen(r)}
			// One pass serves the rules: runRule sets only what emit
			// reads.
			chainPass = pass{res: r, limits: lim, instructions: m.instructions, skills: skills, facts: facts, checkout: in.Checkout}
			chainGot = nil
			for ri := range table {
				rule := &table[ri]
				if rule.Input != InChain {
					continue
				}
				runRule(rule, cfg, &chainPass, chainCollect)
			}
			m.findings = chainGot
			memos[key] = m
		}
		for _, i := range m.findings {
			addDir(res, i, dir)
		}
		// Most directories are below the budget's threshold: the rule
		// would report nothing.
		if lim.Budget(int64(m.instructions+len(skills))+lim.ReservedBytes) != Off {
			for ri := range table {
				rule := &table[ri]
				if rule.Input == InDirectory {
					runRule(rule, cfg, &pass{res: r, limits: lim, instructions: m.instructions, skills: skills, facts: facts, checkout: in.Checkout}, func(f Finding) {
						add(res, index, f, dir)
					})
				}
			}
		}
		for pi, a := range in.Profiles {
			// Directories with the same view of the agent and the same
			// Rivumi chain have the same findings: the rules run once.
			v := a.Views[ci]
			ak := agentKey{v.Origin(), key}
			var found []int
			ok := last[pi].ok && last[pi].key == ak
			if ok {
				found = last[pi].found
			} else {
				found, ok = agentMemo[ak]
			}
			if !ok {
				// One pass serves the rules: runRule sets only what emit
				// reads. Most passes find nothing and allocate nothing.
				pr := &runs[pi]
				pr.pass = pass{res: r, agent: a.Resolver, view: v, agents: in.Agents, label: pr.label}
				pr.got = nil
				for _, rule := range pr.rules {
					runRule(rule, cfg, &pr.pass, pr.collect)
				}
				found = pr.got
				agentMemo[ak] = found
			}
			last[pi] = lastAgent{ak, found, true}
			for _, i := range found {
				addDir(res, i, dir)
			}
		}
		d := directoryOf(r, m.instructions+len(skills), lim, m.layers, m.used)
		m.layers, m.used = d.Layers, d.Used
		res.Directories = append(res.Directories, d)
	}
	for ri := range table {
		rule := &table[ri]
		var passes []*pass
		switch {
		case rule.Input == InMemory && in.Memory != nil:
			passes = append(passes, &pass{memory: in.Memory})
		case rule.Input == InConfigChange:
			for i := range in.ConfigChanges {
				passes = append(passes, &pass{change: &in.ConfigChanges[i]})
			}
		case rule.Input == InReferences:
			for i := range in.References {
				passes = append(passes, &pass{ref: &in.References[i]})
			}
		}
		for _, p := range passes {
			runRule(rule, cfg, p, func(f Finding) { add(res, index, f, "") })
		}
	}
	res.Findings = mergeUserFindings(res.Findings)
	res.Findings = in.forAgents(res.Findings)
	res.Findings = in.mergeAgents(res.Findings)
	Sort(res.Findings)
	return res
}

// forAgents keeps the findings of the rules the enabled profiles run,
// marks each with its agent, and tells in a rejection's message what
// Codex does with the same file when the codex profile is on (A4).
func (in *Inputs) forAgents(fs []Finding) []Finding {
	if in.Agents == nil {
		return fs
	}
	out := fs[:0]
	for _, f := range fs {
		rule, _ := Lookup(f.Rule)
		if !in.on(rule) {
			continue
		}
		if f.Agent == "" {
			f.Agent = in.agentOf(rule)
		}
		if len(rule.rejects) > 0 && !f.User {
			for _, a := range in.Profiles {
				note := agentNote(a.Resolver, f.Path)
				if note == "" {
					continue
				}
				if f.Subject == "" {
					// The identity (B2) is Rivumi's words alone, so that a
					// new profile's note does not move it.
					f.Subject = f.Message
				}
				f.Message = withAgentNote(f.Message, note)
			}
		}
		out = append(out, f)
	}
	return out
}

// mergeAgents makes one finding of one problem, whatever the number of
// agents it holds for (#34): the RL017 findings of one place (a file, or
// an import's line) become one, naming every agent's side in one message;
// an agent's side of a file Rivumi rejects is left out where the
// rejection's own finding is reported, since its message already says
// what every enabled agent does with the file. Every finding gets Agents.
func (in *Inputs) mergeAgents(fs []Finding) []Finding {
	if in.Agents == nil {
		return fs
	}
	rejected := map[string]bool{} // paths a rejection's finding is about
	type own struct {
		agent, path  string
		line, column int
	}
	owned := map[own]bool{} // files, and lines, a profile's own rule reports, by agent
	for _, f := range fs {
		rule, ok := Lookup(f.Rule)
		switch {
		case !ok || f.User:
		case len(rule.rejects) > 0:
			rejected[f.Path] = true
		case rule.Agent != "" && rule.Agent != AnyAgents && rule.Agent != agent.Rivumi:
			owned[own{agent: rule.Agent, path: f.Path}] = true
			owned[own{rule.Agent, f.Path, f.Line, f.Column}] = true
			if f.covers {
				owned[own{rule.Agent, f.Path, -1, -1}] = true
			}
		}
	}
	type place struct {
		path         string
		line, column int
	}
	at := map[place]int{} // place → index in out of its RL017 finding
	out := fs[:0]
	for _, f := range fs {
		if f.differ == nil {
			f.Agents = strings.Split(f.Agent, ",")
			out = append(out, f)
			continue
		}
		var parts []differPart
		for _, d := range f.differ {
			_, name, _ := strings.Cut(f.Agent, ",") // rivumi,NAME
			if d.rejected && rejected[f.Path] || d.about == f.Path && owned[own{agent: name, path: f.Path}] ||
				d.atLine && owned[own{name, f.Path, f.Line, f.Column}] || owned[own{name, f.Path, -1, -1}] {
				continue // said by the rejection's finding, or the agent's own
			}
			parts = append(parts, d)
		}
		if len(parts) == 0 {
			continue
		}
		f.differ = parts
		k := place{f.Path, f.Line, f.Column}
		i, ok := at[k]
		if !ok {
			at[k] = len(out)
			f.Agents = strings.Split(f.Agent, ",")
			f.Subject = differSubject(f.differ)
			out = append(out, f)
			continue
		}
		m := &out[i]
		m.differ = append(m.differ, f.differ...)
		m.Agents = in.ordered(append(m.Agents, strings.Split(f.Agent, ",")...))
		m.Agent = strings.Join(m.Agents, ",")
		for _, d := range f.Directories {
			if !slices.Contains(m.Directories, d) {
				m.Directories = append(m.Directories, d)
			}
		}
		m.Message = differMessage(m.differ)
		m.Subject = differSubject(m.differ)
	}
	return out
}

// differSubject is the baseline subject (B2) of an RL017 finding: what
// Rivumi does with the place, without the agents' sides, so that a new
// profile that differs the same way keeps the identity.
func differSubject(parts []differPart) string {
	var leads []string
	for _, d := range parts {
		if !slices.Contains(leads, d.lead) {
			leads = append(leads, d.lead)
		}
	}
	return "agents differ: " + strings.Join(leads, ". ")
}

// differMessage is the message of the RL017 parts of one place: a
// sentence per Rivumi side, with the sides of every agent that has it.
func differMessage(parts []differPart) string {
	var leads []string
	sides := map[string][]string{}
	first := map[string]differPart{}
	for _, d := range parts {
		if _, ok := first[d.lead]; !ok {
			leads = append(leads, d.lead)
			first[d.lead] = d
		}
		if !slices.Contains(sides[d.lead], d.side) {
			sides[d.lead] = append(sides[d.lead], d.side)
		}
	}
	var sentences []string
	for _, l := range leads {
		sentences = append(sentences, first[l].sentence(sides[l]))
	}
	return strings.Join(sentences, ". ") + ". " + differFix
}

// withAgentNote puts an agent's note into a rejection's message, before
// its fix.
func withAgentNote(msg, note string) string {
	if i := strings.LastIndex(msg, ". Fix: "); i >= 0 {
		return msg[:i+1] + note + msg[i+1:]
	}
	return msg + "." + note
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

// runRule runs one enabled rule over a pass; out receives its findings
// with rule, name and severity set, those on ignored paths dropped. The
// rule's emit is p's method over what is set here: no closure is made
// per rule and pass (one per rule of each of 10,000 directories' passes
// showed in a whole worktree's profile).
func runRule(rule *Rule, cfg Config, p *pass, out func(Finding)) {
	if !cfg.RuleRuns(rule.ID) {
		return
	}
	if !p.userKnown {
		if p.res != nil {
			p.user = userFile(p.res)
		}
		p.userKnown = true
	}
	// Ignore globs name repository paths of the chains (§8); the memory
	// file and a changed config are reported whatever they match.
	p.chain = rule.Input == InChain || rule.Input == InDirectory || rule.Input == InAgents || rule.Input == InReferences
	p.rule, p.cfg, p.out = rule, cfg, out
	rule.run(p)
}

// emit reports f for the rule runRule runs.
func (p *pass) emit(f Finding) {
	if user := p.user; user != nil && f.Path == user.Path {
		// F10: the user-level file by its repository path when it
		// lies inside the root, else flagged as having none.
		if user.Location != "" {
			f.Path, f.fromUser = user.Location, true
		} else {
			f.User = true
		}
	}
	if f.Fix != nil {
		f.Fix = fixAt(f.Fix, f.Path, f.User)
		if f.Fix == nil && f.Repair.Kind == RepairDeleteHidden {
			// The edits were the repair: none is left to apply.
			f.Repair = Repair{}
		}
	}
	if p.chain && p.cfg.Ignored(f.Path) {
		return
	}
	// The severity by the finding's path (O3): overrides may turn
	// the rule off here, or on where rules: turns it off.
	sev, set := p.cfg.SeverityAt(p.rule.ID, f.Path)
	if set && sev == Off {
		return
	}
	f.Rule, f.Name = p.rule.ID, p.rule.Name
	f.Severity = effective(*p.rule, sev, f.Severity)
	if f.Line > 0 && f.Excerpt == "" {
		f.Excerpt = lineOf(p.bytesOf(f.Path), f.Line)
	}
	p.out(f)
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
// the table of an identical chain, shared, and used, when not "", its
// budget share.
func directoryOf(r *resolve.Resolution, rendered int, lim Limits, layers []Layer, used string) Directory {
	if used == "" {
		// Formatted once per chain, not per directory: every directory of
		// the chain has the same share.
		used = lim.UsedShare(int64(rendered) + lim.ReservedBytes)
	}
	d := Directory{Path: resolve.DisplayDir(r.Dir), Fingerprint: r.Fingerprint, Layers: layers,
		RenderedBytes: rendered, BudgetBytes: int(lim.MaxDynamicBytes - lim.ReservedBytes),
		Used: used, Budget: lim.BudgetLine(int64(rendered))}
	if layers != nil {
		return d
	}
	d.Layers = []Layer{}
	for _, l := range r.Layers {
		var n int64
		switch {
		case l.Accepted():
			n = int64(len(l.Content))
		case l.Rej != nil && l.Rej.Cause == resolve.CauseOversized:
			n = l.Rej.Size
		}
		reason := l.Reason()
		if l.State == resolve.Rejected {
			reason = RejectionRule(l.Rej.Cause)
		}
		d.Layers = append(d.Layers, Layer{Path: l.Path, Scope: l.Scope, State: string(l.State), Reason: reason, Bytes: n})
	}
	return d
}

// fixAt is fix with its edits on path, where F10 moved a finding about the
// user-level file; nil for a file outside the root, which no fix writes.
func fixAt(fix *Fix, path string, user bool) *Fix {
	if user {
		return nil
	}
	if len(fix.Edits) == 0 || fix.Edits[0].Path == path {
		return fix
	}
	moved := &Fix{Description: fix.Description, Edits: slices.Clone(fix.Edits)}
	for i := range moved.Edits {
		moved.Edits[i].Path = path
	}
	return moved
}
