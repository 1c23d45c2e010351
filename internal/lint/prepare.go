package lint

import (
	"runtime"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

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
	for ri := range table {
		rule := &table[ri]
		if rule.Input == InChain {
			runRule(rule, p.cfg, ps, collect)
		}
	}
	p.memos[key] = c
}

// besideBatch is how many chains go to the preparing goroutine at once: a
// channel operation per chain would cost as much as what it moves.
const besideBatch = 64

// DefaultBesideMin is the fewest chains for which PrepareBeside starts a
// goroutine: below it, starting one costs more than it saves.
const DefaultBesideMin = 256

// Beside prepares chains (Prepared.Add) on a goroutine of its own while
// the caller resolves the next ones: the second core is otherwise idle
// during a whole-worktree resolution.
type Beside struct {
	p     *Prepared
	feed  chan []*resolve.Resolution
	done  chan struct{}
	batch []*resolve.Resolution
}

// PrepareBeside starts preparing for about chains chains, when there are
// at least min (DefaultBesideMin when min is 0) and more than one
// processor. Otherwise it prepares nothing, Done returns nil and Check
// prepares in its own pass: the serial twin, with the same result (F1).
func PrepareBeside(cfg Config, checkout func(path string) *CheckoutFile, chains, min int) *Beside {
	if min <= 0 {
		min = DefaultBesideMin
	}
	b := &Beside{}
	if chains < min || runtime.GOMAXPROCS(0) < 2 {
		return b
	}
	b.p = Prepare(cfg, checkout)
	b.feed = make(chan []*resolve.Resolution, 16)
	b.done = make(chan struct{})
	go func() {
		defer close(b.done)
		for batch := range b.feed {
			for _, r := range batch {
				b.p.Add(r)
			}
		}
	}()
	return b
}

// Add hands r, the next chain in the order of Inputs.Chains, over.
func (b *Beside) Add(r *resolve.Resolution) {
	if b.p == nil {
		return
	}
	if b.batch = append(b.batch, r); len(b.batch) == besideBatch {
		b.feed <- b.batch
		b.batch = nil
	}
}

// Done waits for every chain handed over and returns what was prepared
// (nil when nothing was), for Inputs.Prepared. Call it once, after the
// last Add.
func (b *Beside) Done() *Prepared {
	if b.p == nil {
		return nil
	}
	if len(b.batch) > 0 {
		b.feed <- b.batch
	}
	close(b.feed)
	<-b.done
	return b.p
}
