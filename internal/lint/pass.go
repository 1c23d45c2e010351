package lint

import (
	"fmt"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/render"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// pass is what one rule sees while it runs over one value of its input.
type pass struct {
	// Chain and Directory inputs.
	res    *resolve.Resolution
	limits Limits
	// instructions is the byte length of the rendered instructions section
	// (P2) of the resolution.
	instructions int
	skills       []byte // the rendered skills section (P4b), the same for every resolution
	facts        factCache
	// checkout says how a Git checkout writes a layer file (F5); nil
	// outside the diff modes.
	checkout func(path string) *CheckoutFile
	// memory is the Memory input, change the ConfigChange input, ref the
	// References input.
	memory *MemoryFile
	change *ConfigChange
	ref    *Reference
	// agent and view are the Agents input: a profile's resolver and its
	// view of the resolution's directory.
	agent agent.Resolver
	view  *agent.View
	// agents are the enabled profiles' names (Inputs.Agents), for a rule
	// that says which other agents read a file otherwise.
	agents []string
	// label is the agent profile's Label(), made once per check.
	label string
	// What runRule sets for emit: the rule running, the config, where its
	// findings go, whether ignore globs apply (chain) and the user layer's
	// file (user, once userKnown: the same for every rule of the pass).
	rule      *Rule
	cfg       Config
	out       func(Finding)
	chain     bool
	user      *resolve.File
	userKnown bool
}

// fileFacts is what the content rules and the budget need from one
// accepted file, computed once per run however many chains hold it.
type fileFacts struct {
	rendered  int // bytes of its rendered layer (render.Layer)
	markers   int
	marker    content.Pos
	hidden    int
	firstHide content.Hidden
	empty     bool // no text after normalisation
}

type factCache map[*resolve.File]*fileFacts

func (c factCache) of(l resolve.Layer) *fileFacts {
	if f, ok := c[l.File]; ok {
		return f
	}
	// The normalised length, once, for the rendered length and for empty:
	// no copy of the text is made to measure it.
	norm := content.NormalizedLen(l.Content)
	f := &fileFacts{rendered: render.LayerLen(l.Scope, l.Path, norm), empty: norm == 0}
	var first []content.Pos
	first, f.markers = content.Markers(l.Content, 1)
	if f.markers > 0 {
		f.marker = first[0]
	}
	var hid []content.Hidden
	hid, f.hidden = content.HiddenChars(l.Content, 1)
	if f.hidden > 0 {
		f.firstHide = hid[0]
	}
	c[l.File] = f
	return f
}

// instructionsLen is len(render.Instructions(r)), from the cached layer
// lengths: no section is built.
func (c factCache) instructionsLen(r *resolve.Resolution) int {
	n := 0
	for _, l := range r.Layers {
		if l.State == resolve.Active {
			n += c.of(l).rendered
		}
	}
	if n == 0 {
		return 0
	}
	return n + sectionOverhead
}

// sectionOverhead is what the section element adds around its body.
var sectionOverhead = len(render.Section("instructions", nil))

// report emits a finding on path for the resolution's directory.
func (p *pass) report(path string, pos content.Pos, sev Severity, format string, args ...any) {
	p.emit(Finding{Path: path, Line: pos.Line, Column: pos.Column, UTF16Column: pos.UTF16Column, Severity: sev,
		Message: fmt.Sprintf(format, args...)})
}

var noPos content.Pos
