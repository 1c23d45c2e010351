package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/content"
	"github.com/rivumi/rivumi-lint/render"
	"github.com/rivumi/rivumi-lint/resolve"
)

type checkFunc func(p *pass)

// pass is what one rule sees while it runs over one resolution.
type pass struct {
	res    *resolve.Resolution
	limits Limits
	// instructions is the byte length of the rendered instructions section
	// (P2) of the resolution.
	instructions int
	skills       []byte // the rendered skills section (P4b), the same for every resolution
	facts        factCache
	emit         func(Finding)
	// checkout notes how a layer's checkout differs in size (Options).
	checkout func(path string) string
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
	f := &fileFacts{rendered: len(render.Layer(l.Scope, l.Path, l.Content))}
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
	f.empty = len(content.Normalize(l.Content)) == 0
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
	p.emit(Finding{Path: path, Line: pos.Line, Column: pos.Column, Severity: sev,
		Message: fmt.Sprintf(format, args...)})
}

var noPos content.Pos

func checkRejected(id string) checkFunc {
	return func(p *pass) {
		for _, l := range p.res.Layers {
			if l.State != resolve.Rejected || l.Rej.Rule != id {
				continue
			}
			p.report(l.Path, l.Rej.Pos, 0, "Rivumi will skip this file: %s; %s", l.Rej.Reason, consequence(p.res, l))
		}
	}
}

// consequence says what skipping a layer costs: the runtime has no fall-back.
func consequence(r *resolve.Resolution, l resolve.Layer) string {
	if l.Scope == resolve.ScopeUser {
		return "the user-level instructions will not be loaded"
	}
	var next []string
	for _, d := range r.Dirs {
		if d.Path == l.Dir {
			for _, f := range d.Files[1:] {
				next = append(next, f.Path)
			}
		}
	}
	s := "its directory contributes no instructions"
	if l.Override {
		s += " and it overrides nothing"
	}
	if len(next) > 0 {
		s += " (there is no fall-back to " + strings.Join(next, ", ") + ")"
	}
	return s
}

func checkOverride(p *pass) {
	byOverride := map[string][]string{}
	var order []string
	for _, l := range p.res.Layers {
		if l.State == resolve.Suppressed {
			if _, ok := byOverride[l.By]; !ok {
				order = append(order, l.By)
			}
			byOverride[l.By] = append(byOverride[l.By], l.Path)
		}
	}
	for _, by := range order {
		p.report(by, noPos, 0, "Rivumi will use this override instead of the project layers above it: it suppresses %s",
			strings.Join(byOverride[by], ", "))
	}
}

func checkBudget(p *pass) {
	active := p.res.Active()
	if len(active) == 0 {
		return
	}
	rendered := p.instructions + len(p.skills)
	total := int64(rendered) + p.limits.ReservedBytes
	var sev Severity
	switch {
	case total > p.limits.MaxDynamicBytes:
		sev = Error
	case float64(total) > p.limits.WarnRatio*float64(p.limits.MaxDynamicBytes):
		sev = Warning
	default:
		return
	}
	var parts []string
	for _, l := range active {
		part := fmt.Sprintf("%s %d", l.Path, p.facts.of(l).rendered)
		if p.checkout != nil {
			if note := p.checkout(l.Path); note != "" {
				part += " (" + note + ")"
			}
		}
		parts = append(parts, part)
	}
	sizes := fmt.Sprintf("instructions %d", p.instructions)
	if len(p.skills) > 0 {
		parts = append(parts, fmt.Sprintf("skills section %d", len(p.skills)))
		sizes += fmt.Sprintf(" + skills %d", len(p.skills))
	}
	deepest := active[len(active)-1]
	dir := displayDir(p.res.Dir)
	if sev == Error {
		p.report(deepest.Path, noPos, sev,
			"Rivumi's dynamic context from %s would be %d bytes (%s + reserved %d), over limits.max_dynamic_bytes %d by %d bytes; layers (rendered bytes): %s",
			dir, total, sizes, p.limits.ReservedBytes, p.limits.MaxDynamicBytes, total-p.limits.MaxDynamicBytes, strings.Join(parts, ", "))
		return
	}
	p.report(deepest.Path, noPos, sev,
		"Rivumi's dynamic context from %s would be %d bytes (%s + reserved %d), %.0f%% of limits.max_dynamic_bytes %d (warn_ratio %g); layers (rendered bytes): %s",
		dir, total, sizes, p.limits.ReservedBytes, 100*float64(total)/float64(p.limits.MaxDynamicBytes), p.limits.MaxDynamicBytes, p.limits.WarnRatio, strings.Join(parts, ", "))
}

func checkShadowed(p *pass) {
	for _, d := range p.res.Dirs {
		for _, f := range d.Files[min(1, len(d.Files)):] {
			p.report(f.Path, noPos, 0, "Rivumi will not load this file: %s in the same directory comes first in priority order", d.Files[0].Path)
		}
	}
}

func checkMarkers(p *pass) {
	for _, l := range p.res.Active() {
		f := p.facts.of(l)
		if f.markers == 0 {
			continue
		}
		p.report(l.Path, f.marker, 0, "Rivumi will load this text inside a <rivumi:layer> element, and it contains %d section marker(s) (<rivumi: or </rivumi:) that could close the layer or forge a section", f.markers)
	}
}

func checkEmpty(p *pass) {
	for _, l := range p.res.Active() {
		if !p.facts.of(l).empty {
			continue
		}
		if l.Override && l.Scope == resolve.ScopeProject {
			p.report(l.Path, noPos, Error, "Rivumi will load this empty override, which silences every project layer above it and adds no text")
			continue
		}
		p.report(l.Path, noPos, Warning, "Rivumi will load this layer, but it has no text")
	}
}

func checkHidden(p *pass) {
	for _, l := range p.res.Active() {
		f := p.facts.of(l)
		if f.hidden == 0 {
			continue
		}
		p.report(l.Path, f.firstHide.Pos, 0, "Rivumi will pass %d character(s) a reviewer cannot see to the model; the first is %s", f.hidden, f.firstHide.Name)
	}
}

func checkNearMiss(p *pass) {
	for _, d := range p.res.Dirs {
		for _, nm := range d.NearMisses {
			name := nm.Path[strings.LastIndexByte(nm.Path, '/')+1:]
			if strings.EqualFold(name, nm.Like) {
				p.report(nm.Path, noPos, 0, "%s", caseMessage(d, name, nm.Like))
				continue
			}
			p.report(nm.Path, noPos, 0, "Rivumi will not load this file: its name is close to %s but not it", nm.Like)
		}
	}
}

// caseMessage is RL011's message for a candidate name in another case: what
// Linux and FreeBSD (case-sensitive) load, and what a checkout on macOS or
// Windows (case-insensitive by default) loads instead (D1). It is the same
// wherever the check runs.
func caseMessage(d *resolve.DirInfo, name, like string) string {
	const head = "Rivumi will not load this file: names are matched case-sensitively and this is not %s, so on Linux and FreeBSD it is never read; "
	msg := fmt.Sprintf(head, like)
	cf := d.CaseFold
	switch {
	case cf != nil && cf.Loads() == name:
		return msg + fmt.Sprintf("on macOS and Windows (case-insensitive disks by default) opening %s gets this file, and it is the layer of %s there", cf.As, displayDir(d.Path))
	case cf != nil && slices.Contains(cf.Names, name):
		others := slices.DeleteFunc(slices.Clone(cf.Names), func(n string) bool { return n == name })
		return msg + fmt.Sprintf("its name differs from %s only in case, so a checkout on macOS or Windows (case-insensitive disks by default) holds only one of these files and which text Rivumi loads there depends on the checkout", strings.Join(others, " and "))
	case cf != nil:
		return msg + fmt.Sprintf("on macOS and Windows (case-insensitive disks by default) it would be opened as %s, but %s comes first there", like, strings.Join(cf.Names, " and "))
	case len(d.Files) > 0:
		return msg + fmt.Sprintf("on macOS and Windows (case-insensitive disks by default) it would be opened as %s, but %s comes first there too", like, d.Files[0].Name)
	}
	return msg + "a case-insensitive disk (macOS, Windows) would load it"
}

func displayDir(d string) string {
	if d == "" {
		return "."
	}
	return d
}
