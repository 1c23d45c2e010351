package lint

import "github.com/rivumi/rivumi-lint/resolve"

// Prepared is the part of Check that needs only the chains, done while
// they are still being resolved: for each distinct chain, its rendered
// length and the findings of the Chain rules. The budget (the Directory
// rules) and the directory table wait for Check, since they count the
// skills section, read after the chains. A whole-worktree check runs it
// on the second core beside the resolution, which otherwise has it idle.
// Check replays what was prepared in its own order, so the result is the
// same as without it.
type Prepared struct {
	cfg      Config
	lim      Limits
	checkout func(path string) *CheckoutFile
	facts    factCache
	memos    map[*resolve.DirInfo]*preparedChain
}

// preparedChain is one distinct chain's share of Check: first is the
// resolution it was prepared from, which must be the one Check meets
// first for it to be used.
type preparedChain struct {
	first        *resolve.Resolution
	instructions int
	findings     []Finding
}

// Prepare starts the chains' part of Check with the config and the
// checkout view (Inputs.Checkout) that Check will be given.
func Prepare(cfg Config, checkout func(path string) *CheckoutFile) *Prepared {
	return &Prepared{cfg: cfg, lim: cfg.RuleLimits(), checkout: checkout, facts: factCache{},
		memos: map[*resolve.DirInfo]*preparedChain{}}
}

// Add prepares r, a chain in the order of Inputs.Chains. Add and Check
// must not run at the same time.
func (p *Prepared) Add(r *resolve.Resolution) {
	key := contributor(r)
	if _, ok := p.memos[key]; ok {
		return
	}
	c := &preparedChain{first: r, instructions: p.facts.instructionsLen(r)}
	// The Chain rules do not read the skills section (only the budget
	// does), which is not known yet. One pass serves them all: runRule
	// sets only its emit.
	ps := &pass{res: r, limits: p.lim, instructions: c.instructions, facts: p.facts, checkout: p.checkout}
	collect := func(f Finding) { c.findings = append(c.findings, f) }
	for _, rule := range table {
		if rule.Input == InChain {
			runRule(rule, p.cfg, ps, collect)
		}
	}
	p.memos[key] = c
}
