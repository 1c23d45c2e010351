// Package drift compares the resolutions of the same directories at a base
// and a head revision (R9): for each directory whose fingerprint changed,
// which layers were added, removed or modified, and which became
// suppressed, un-suppressed, shadowed, un-shadowed or rejected. Directories
// whose changes are identical are reported as one group.
package drift

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Change values of lint.LayerChange. Shadowed and Unshadowed are the R2
// counterparts of Suppressed and Unsuppressed: another candidate in the
// same directory now wins, or no longer does.
const (
	Added        = "added"
	Removed      = "removed"
	Modified     = "modified"
	Suppressed   = "suppressed"
	Unsuppressed = "unsuppressed"
	Shadowed     = "shadowed"
	Unshadowed   = "unshadowed"
	Rejected     = "rejected"
)

// Compare resolves, with base (an engine over the base revision), the
// directory of every head resolution, and returns the drift groups, sorted
// by their first directory.
//
// A directory that did not exist at the base is compared with its nearest
// ancestor that did: that is the chain its path inherited, so a new
// directory drifts only when it brings or changes instructions.
//
// Directories are grouped by identical change lists, so that one edit of a
// root AGENTS.md shows once with every directory it reaches, even when
// those directories have different chains. Base and Head carry the group's
// fingerprints when every directory of the group has the same ones, and are
// empty when the group's chains differ.
//
// same, when not nil, reports a directory whose chain reads the same
// entries at the base as at the head (repo.ChainInputs): its base chain is
// its head chain, so it has no drift and is not resolved at the base.
func Compare(base *resolve.Engine, heads []*resolve.Resolution, same func(dir string) bool) ([]lint.Drift, error) {
	type group struct {
		d      *lint.Drift
		baseFP map[string]bool
		headFP map[string]bool
	}
	groups := map[string]*group{}
	for _, h := range heads {
		if same != nil && same(h.Dir) {
			continue
		}
		b, err := chainOrAncestor(base, h.Dir)
		if err != nil {
			return nil, err
		}
		if b.Fingerprint == h.Fingerprint {
			continue
		}
		changes := Changes(b.Layers, h.Layers)
		if len(changes) == 0 {
			// The fingerprint covers exactly what Changes compares; keep the
			// directory visible should the two ever disagree.
			changes = []lint.LayerChange{{Path: resolve.DisplayDir(h.Dir), Change: Modified, Detail: "the chain changed"}}
		}
		k := key(changes)
		g, ok := groups[k]
		if !ok {
			g = &group{d: &lint.Drift{Changes: changes}, baseFP: map[string]bool{}, headFP: map[string]bool{}}
			groups[k] = g
		}
		g.d.Directories = append(g.d.Directories, resolve.DisplayDir(h.Dir))
		g.baseFP[b.Fingerprint] = true
		g.headFP[h.Fingerprint] = true
	}
	out := make([]lint.Drift, 0, len(groups))
	for _, g := range groups {
		sort.Strings(g.d.Directories)
		if len(g.baseFP) == 1 && len(g.headFP) == 1 {
			for fp := range g.baseFP {
				g.d.Base = fp
			}
			for fp := range g.headFP {
				g.d.Head = fp
			}
		}
		out = append(out, *g.d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Directories[0] < out[j].Directories[0] })
	return out, nil
}

// chainOrAncestor resolves dir, or its nearest ancestor that exists.
func chainOrAncestor(e *resolve.Engine, dir string) (*resolve.Resolution, error) {
	for d := dir; ; d = resolve.ParentDir(d) {
		r, err := e.Chain(d)
		if err == nil {
			return r, nil
		}
		if !errors.Is(err, fs.ErrNotExist) || resolve.IsFatal(err) || d == "" {
			return nil, fmt.Errorf("resolve %s at the base: %w", resolve.DisplayDir(d), err)
		}
	}
}

// Changes lists how the layers of a chain changed from base to head, in
// chain order (the user layer first, then shallow to deep).
func Changes(base, head []resolve.Layer) []lint.LayerChange {
	type item struct {
		order string
		c     lint.LayerChange
	}
	var items []item
	add := func(l resolve.Layer, change, detail string) {
		items = append(items, item{orderKey(l), lint.LayerChange{Path: l.Path, Change: change, Detail: detail}})
	}
	byPath := make(map[string]resolve.Layer, len(base))
	for _, l := range base {
		byPath[l.Path] = l
	}
	seen := make(map[string]bool, len(head))
	for _, h := range head {
		seen[h.Path] = true
		b, ok := byPath[h.Path]
		if !ok {
			d := ""
			if h.State != resolve.Active {
				d = "it is " + stateDetail(h)
			}
			add(h, Added, d)
			continue
		}
		for _, c := range layerChanges(b, h) {
			add(h, c[0], c[1])
		}
	}
	for _, b := range base {
		if !seen[b.Path] {
			d := ""
			if b.State != resolve.Active {
				d = "it was " + stateDetail(b)
			}
			add(b, Removed, d)
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].order < items[j].order })
	out := make([]lint.LayerChange, len(items))
	for i, it := range items {
		out[i] = it.c
	}
	return out
}

// layerChanges compares one layer present on both sides.
func layerChanges(b, h resolve.Layer) [][2]string {
	var out [][2]string
	was := "was " + stateDetail(b)
	switch {
	case b.State == h.State:
		switch {
		case h.State == resolve.Rejected && lint.RejectionRule(b.Rej.Cause) != lint.RejectionRule(h.Rej.Cause):
			out = append(out, [2]string{Rejected, rejection(h) + ", " + was})
		case h.State == resolve.Suppressed && b.By != h.By:
			out = append(out, [2]string{Suppressed, "by " + h.By + ", " + was})
		case h.State == resolve.Shadowed && b.By != h.By:
			out = append(out, [2]string{Shadowed, "by " + h.By + ", " + was})
		}
	case h.State == resolve.Rejected:
		out = append(out, [2]string{Rejected, rejection(h)})
	case h.State == resolve.Suppressed:
		out = append(out, [2]string{Suppressed, "by " + h.By + ", " + was})
	case h.State == resolve.Shadowed:
		out = append(out, [2]string{Shadowed, "by " + h.By + ", " + was})
	case b.State == resolve.Suppressed:
		out = append(out, [2]string{Unsuppressed, "active now, " + was})
	case b.State == resolve.Shadowed:
		out = append(out, [2]string{Unshadowed, "active now, " + was})
	case b.State == resolve.Rejected:
		out = append(out, [2]string{Modified, "accepted now, " + was})
	}
	if b.Accepted() && h.Accepted() && b.Sum != h.Sum {
		d := fmt.Sprintf("%d → %d bytes", len(b.Content), len(h.Content))
		if len(b.Content) == len(h.Content) {
			d = fmt.Sprintf("new content, %d bytes", len(h.Content))
		}
		out = append(out, [2]string{Modified, d})
	}
	return out
}

func stateDetail(l resolve.Layer) string {
	switch l.State {
	case resolve.Suppressed:
		return "suppressed by " + l.By
	case resolve.Shadowed:
		return "shadowed by " + l.By
	case resolve.Rejected:
		return "rejected: " + rejection(l)
	}
	return "active"
}

func rejection(l resolve.Layer) string {
	if l.Rej == nil {
		return ""
	}
	return lint.RejectionRule(l.Rej.Cause) + ": " + l.Rej.Reason
}

// orderKey sorts the user layer first, then project layers shallow to deep,
// then by path.
func orderKey(l resolve.Layer) string {
	if l.Scope == resolve.ScopeUser {
		return "0"
	}
	depth := 0
	if l.Dir != "" {
		depth = strings.Count(l.Dir, "/") + 1
	}
	return fmt.Sprintf("1%06d%s", depth, l.Path)
}

func key(cs []lint.LayerChange) string {
	var b strings.Builder
	for _, c := range cs {
		b.WriteString(c.Path)
		b.WriteByte(0)
		b.WriteString(c.Change)
		b.WriteByte(0)
		b.WriteString(c.Detail)
		b.WriteByte(0)
	}
	return b.String()
}
