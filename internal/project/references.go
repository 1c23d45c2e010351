package project

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/gitignore"
	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/refs"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// This file is RL021's input (docs/references.md): the references of the
// chains' accepted project files, resolved where the scope says, handed to
// lint as plain data.

// refFile is one instruction file the chains accepted, and the
// directories whose chains hold it (R7).
type refFile struct {
	path string
	text []byte
	dirs []string
}

// referenceFiles are the accepted project layer files of chains, by
// path, each read once (the engine's bytes).
func referenceFiles(chains []*resolve.Resolution) []*refFile {
	byPath := map[string]*refFile{}
	var out []*refFile
	for _, res := range chains {
		dir := resolve.DisplayDir(res.Dir)
		for _, l := range res.Layers {
			if l.Scope != resolve.ScopeProject || !l.Accepted() {
				continue
			}
			f, ok := byPath[l.Path]
			if !ok {
				f = &refFile{path: l.Path, text: l.Content}
				byPath[l.Path] = f
				out = append(out, f)
			}
			if n := len(f.dirs); n == 0 || f.dirs[n-1] != dir {
				f.dirs = append(f.dirs, dir)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out
}

// references computes RL021's input: in the worktree and PATH modes the
// unresolved links, make targets and just recipes (a notice); in the diff
// modes the references the change breaks, and those it adds that resolve
// on neither side (a warning).
func (r *Run) references() ([]lint.Reference, error) {
	find, err := r.referencesFinder()
	if err != nil || find == nil {
		return nil, err
	}
	return find(sameSource)
}

func sameSource(src resolve.Source) resolve.Source { return src }

// referencesFinder is references in two steps: what needs the engine,
// done now, and the finder, which reads the sources only through share
// (it may run beside the agent profiles' views, agent.Views, which then
// read the same sources under one lock). nil: nothing to find.
func (r *Run) referencesFinder() (func(share func(resolve.Source) resolve.Source) ([]lint.Reference, error), error) {
	rc := r.Config.References
	if !rc.Enabled || r.baseSide {
		return nil, nil
	}
	if !r.Config.RuleRuns("RL021") || !r.Config.Enabled(agent.Rivumi) {
		return nil, nil // nothing to extract for a rule that does not run
	}
	if r.sides == nil {
		files := referenceFiles(r.Resolutions)
		if len(files) == 0 {
			return nil, nil
		}
		return func(func(resolve.Source) resolve.Source) ([]lint.Reference, error) {
			c := &refCheck{cfg: rc}
			// A source of its own: the engine's lists only the regular
			// files a chain can use (Worktree.relevant), not a Makefile or
			// main.go.
			wt, err := r.p.openWorktree(nil)
			if err != nil {
				return nil, fmt.Errorf("references: %w", err)
			}
			defer wt.Close()
			c.head = refs.NewResolver(wt)
			if c.ign, err = r.p.headIgnores(wt); err != nil {
				return nil, err
			}
			return c.worktree(files)
		}, nil
	}
	if r.sides.Base == nil || !refsTouched(r.changes, r.Engine.Candidates()) {
		// Without a base nothing can be broken by the change; a change
		// that deletes, renames and touches none of the files references
		// read cannot break one (the cost rule of docs/references.md).
		return nil, nil
	}
	chains, err := r.deletedDirChains()
	if err != nil {
		return nil, err
	}
	files := referenceFiles(chains)
	head, base, changes := r.Engine.Source(), r.sides.Base, r.changes
	return func(share func(resolve.Source) resolve.Source) ([]lint.Reference, error) {
		c := &refCheck{cfg: rc}
		headSrc, baseSrc := share(head), share(base)
		c.head = refs.NewResolver(headSrc)
		var err error
		if c.ign, err = r.p.headIgnores(headSrc); err != nil {
			return nil, err
		}
		c.baseSrc = baseSrc
		c.base = refs.NewResolver(baseSrc)
		c.renames = renames(changes)
		c.deleted = map[string]bool{}
		for _, ch := range changes {
			if ch.Kind == repo.Deleted {
				c.deleted[ch.Path] = true
			}
		}
		return c.diff(files)
	}, nil
}

// deletedDirChains are the run's chains and, for a deleted path whose
// directory the head no longer has (R7 skips it), the chain of its
// deepest directory that remains: the files that may name the path.
func (r *Run) deletedDirChains() ([]*resolve.Resolution, error) {
	chains := r.Resolutions
	have := map[string]bool{}
	for _, res := range chains {
		have[res.Dir] = true
	}
	deleted := false
	for _, ch := range r.changes {
		if ch.Kind != repo.Deleted {
			continue
		}
		deleted = true
		for d := path.Dir(ch.Path); ; d = path.Dir(d) {
			if d == "." {
				d = ""
			}
			if have[d] {
				break
			}
			res, err := r.Engine.Chain(d)
			if err == nil {
				have[d] = true
				chains = append(chains, res)
				break
			}
			if !errors.Is(err, fs.ErrNotExist) || resolve.IsFatal(err) {
				return nil, fmt.Errorf("references: resolve %s: %w", resolve.DisplayDir(d), err)
			}
			if d == "" {
				break
			}
		}
	}
	if !deleted {
		return chains, nil
	}
	// A reference from any instruction file of the head may name the
	// deleted or renamed path (#33.2), not only those in the changed
	// directories' chains: read every candidate directory's chain, only
	// when the change deletes or renames something.
	snap, ok := r.Engine.Source().(resolve.Snapshot)
	if !ok {
		return chains, nil
	}
	dirs, err := snap.CandidateDirsBelow("", r.Engine.Candidates())
	if err != nil {
		return nil, fmt.Errorf("references: list instruction directories: %w", err)
	}
	for _, d := range dirs {
		if have[d] {
			continue
		}
		res, err := r.Engine.Chain(d)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) || resolve.IsFatal(err) {
				return nil, fmt.Errorf("references: resolve %s: %w", resolve.DisplayDir(d), err)
			}
			continue
		}
		have[d] = true
		chains = append(chains, res)
	}
	return chains, nil
}

// refsTouched reports whether the change can break a reference: it
// deletes (or renames) a path, touches an instruction file, or modifies a
// file a make, script or just reference resolves in.
func refsTouched(changes []repo.Change, candidates []string) bool {
	for _, ch := range changes {
		name := path.Base(ch.Path)
		switch {
		case ch.Kind == repo.Deleted, slices.Contains(candidates, name):
			return true
		case ch.Kind == repo.Modified && buildFile(name):
			return true
		}
	}
	return false
}

// buildFile reports whether name is a file make, a package runner or just
// reads targets from (or one a Makefile commonly includes).
func buildFile(name string) bool {
	switch name {
	case "Makefile", "makefile", "GNUmakefile", "package.json", "justfile", "Justfile", ".justfile":
		return true
	}
	return strings.HasSuffix(name, ".mk") || strings.HasSuffix(name, ".just")
}

// renames pairs each deleted path with the added path of the same blob:
// the diff has no renames (DiffTrees is --no-renames), and an exact
// rename is what a fix can name for certain.
func renames(changes []repo.Change) map[string]string {
	added := map[repo.Hash][]string{}
	for _, ch := range changes {
		if ch.Kind == repo.Added && ch.NewMode != repo.ModeSymlink {
			added[ch.New] = append(added[ch.New], ch.Path)
		}
	}
	out := map[string]string{}
	for _, ch := range changes {
		if ch.Kind == repo.Deleted && ch.OldMode != repo.ModeSymlink {
			if to := added[ch.Old]; len(to) == 1 {
				out[ch.Path] = to[0]
			}
		}
	}
	return out
}

type refCheck struct {
	cfg     config.References
	head    *refs.Resolver
	base    *refs.Resolver
	baseSrc resolve.Source
	renames map[string]string // deleted path → added path, same blob
	deleted map[string]bool
	ign     *headIgnores
}

// precise are the classes reported without a change to prove them
// broken: ≥ 95 % of their unresolved references were truly broken on the
// corpus of docs/references.md; paths and scripts were not.
func precise(k refs.Kind) bool { return k == refs.Link || k == refs.Make || k == refs.Just }

// vendored are directory names whose contents are generated, fetched or
// built: a target below one is often ignored on one side and tracked on
// the other (the replay's two false findings), so it is not checked.
var vendored = []string{"node_modules", "vendor", "third_party", "dist", "build"}

// skip reports whether reference ref of file is not checked: a command
// the config leaves out, a target under a vendored directory, or one the
// config's references.ignore matches.
func (c *refCheck) skip(file string, ref refs.Ref) bool {
	if ref.Tool != "" && !slices.Contains(c.cfg.Commands, ref.Tool) {
		return true
	}
	target := ref.Target
	if ref.Kind == refs.Link || ref.Kind == refs.Path {
		target = targetPath(file, ref)
		for _, name := range strings.Split(target, "/") {
			if slices.Contains(vendored, name) {
				return true
			}
		}
	}
	for _, g := range c.cfg.Ignore {
		if ok, _ := doublestar.Match(g, target); ok {
			return true
		}
	}
	return false
}

func (c *refCheck) worktree(files []*refFile) ([]lint.Reference, error) {
	var out []lint.Reference
	for _, f := range files {
		for _, ref := range refs.Extract(f.text) {
			if !precise(ref.Kind) || c.skip(f.path, ref) {
				continue
			}
			res := c.head.Resolve(f.path, ref)
			if res.Err != nil {
				return nil, fmt.Errorf("references of %s: %w", f.path, res.Err)
			}
			if res.Status != refs.Unresolved {
				continue
			}
			if ref.Kind == refs.Link {
				// A missing target Git ignores is a build's output, not
				// a broken link.
				if ign, err := c.ign.ignored(targetPath(f.path, ref), strings.HasSuffix(ref.Target, "/")); err != nil || ign {
					if err != nil {
						return nil, err
					}
					continue
				}
			}
			out = append(out, reference(f, ref, lint.Notice,
				fmt.Sprintf("%s does not resolve: %s. Fix: point it at the right place, or remove it", what(ref), res.Why)))
		}
	}
	return out, nil
}

func (c *refCheck) diff(files []*refFile) ([]lint.Reference, error) {
	var out []lint.Reference
	for _, f := range files {
		var baseKeys map[string]bool // read only when a reference may be new
		for _, ref := range refs.Extract(f.text) {
			if c.skip(f.path, ref) {
				continue
			}
			hr := c.head.Resolve(f.path, ref)
			if hr.Err != nil {
				return nil, fmt.Errorf("references of %s: %w", f.path, hr.Err)
			}
			if hr.Status != refs.Unresolved && !hr.Outside {
				continue
			}
			br := c.base.Resolve(f.path, ref)
			if br.Err != nil {
				return nil, fmt.Errorf("references of %s on the base: %w", f.path, br.Err)
			}
			if hr.Outside && br.Status != refs.Resolved {
				// "../x" from below the root that the base did not have
				// either: a sibling checkout, not checked.
				continue
			}
			if br.Status == refs.Resolved && (ref.Kind == refs.Link || ref.Kind == refs.Path) {
				// A target the head's ignore rules match was tracked by
				// mistake and untracked: it is still made where it is
				// used (the replay's two false findings).
				isDir := false
				if e, ok, err := entryOf(c.baseSrc, br.Path); err != nil {
					return nil, err
				} else if ok {
					isDir = e.Kind == resolve.Dir
				}
				ign, err := c.ign.ignored(br.Path, isDir)
				if err != nil {
					return nil, err
				}
				if ign {
					continue
				}
			}
			switch {
			case br.Status == refs.Resolved:
				msg, fix := c.broken(f, ref, br)
				rf := reference(f, ref, lint.Warning, msg)
				rf.NewTarget = fix
				out = append(out, rf)
			case br.Status == refs.Unresolved && precise(ref.Kind):
				if baseKeys == nil {
					var err error
					if baseKeys, err = c.keysOnBase(f.path); err != nil {
						return nil, err
					}
				}
				if baseKeys[ref.Key()] {
					continue // there before the change: not this change's doing
				}
				out = append(out, reference(f, ref, lint.Warning,
					fmt.Sprintf("this change adds %s, which resolves on neither side: %s. Fix: point it at the right place, or remove it", what(ref), hr.Why)))
			}
		}
	}
	return out, nil
}

// keysOnBase returns the keys of the references the base's version of
// file makes; none when the base has no such file.
func (c *refCheck) keysOnBase(file string) (map[string]bool, error) {
	keys := map[string]bool{}
	data, kind, _, err := c.baseSrc.Read(file, 1<<20)
	switch {
	case err != nil && resolve.IsFatal(err):
		return nil, fmt.Errorf("read %s on the base: %w", file, err)
	case err != nil || kind != resolve.Regular:
		return keys, nil
	}
	for _, ref := range refs.Extract(data) {
		keys[ref.Key()] = true
	}
	return keys, nil
}

// broken says what the change did to the target ref resolved to on the
// base (br.Path), and the target's new spelling when a rename says it.
func (c *refCheck) broken(f *refFile, ref refs.Ref, br refs.Result) (msg, fix string) {
	const tail = ". Fix: point it at the new place, or restore the target"
	switch ref.Kind {
	case refs.Link, refs.Path:
		if to, ok := c.renamedTo(br.Path); ok {
			msg = fmt.Sprintf("%s is broken by this change: %s was renamed to %s in this change", what(ref), code(br.Path), code(to))
			return msg + tail, newSpelling(f.path, ref, f.text, br.Path, to)
		}
		if c.deleted[br.Path] || c.deletedBelow(br.Path) {
			return fmt.Sprintf("%s is broken by this change: %s was deleted in this change", what(ref), code(br.Path)) + tail, ""
		}
		return fmt.Sprintf("%s is broken by this change: %s is no longer there", what(ref), code(br.Path)) + tail, ""
	}
	if c.deleted[br.Path] {
		if to, ok := c.renames[br.Path]; ok {
			return fmt.Sprintf("%s is broken by this change: %s, which defined it, was renamed to %s in this change", what(ref), code(br.Path), code(to)) + tail, ""
		}
		return fmt.Sprintf("%s is broken by this change: %s, which defined it, was deleted in this change", what(ref), code(br.Path)) + tail, ""
	}
	return fmt.Sprintf("%s is broken by this change: the %s %s is no longer defined in %s", what(ref), noun(ref), ref.Target, br.Path) + tail, ""
}

// renamedTo is where p went: its exact rename, or for a directory the one
// new directory every renamed file below it moved to.
func (c *refCheck) renamedTo(p string) (string, bool) {
	if to, ok := c.renames[p]; ok {
		return to, true
	}
	dir := ""
	for from, to := range c.renames {
		rel, ok := strings.CutPrefix(from, p+"/")
		if !ok {
			continue
		}
		d, ok := strings.CutSuffix(to, "/"+rel)
		if !ok || dir != "" && d != dir {
			return "", false
		}
		dir = d
	}
	for from := range c.deleted {
		if _, ok := c.renames[from]; !ok && strings.HasPrefix(from, p+"/") {
			return "", false // some files below went away: not a rename
		}
	}
	return dir, dir != ""
}

func (c *refCheck) deletedBelow(p string) bool {
	for d := range c.deleted {
		if strings.HasPrefix(d, p+"/") {
			return true
		}
	}
	return false
}

// newSpelling is the target text pointing at to as ref's text points at
// from: relative to the same directory (a link's: the file's), with the
// same "./" and trailing "/"; "" when that cannot be said (an encoded
// link, a base not found).
func newSpelling(file string, ref refs.Ref, text []byte, from, to string) string {
	written := string(text[ref.Offset:ref.End])
	if written != ref.Target || strings.ContainsAny(to, " ()<>%") {
		return "" // percent-encoded, or a path a link would have to encode
	}
	t := strings.TrimSuffix(written, "/")
	suffix := written[len(t):]
	if strings.HasPrefix(t, "/") {
		return "/" + to + suffix
	}
	dir := path.Dir(file)
	for {
		// A link is written as a renderer reads it, from the file's own
		// directory; a path from the directory it was found in.
		if ref.Kind == refs.Link || path.Join(dir, t) == from || dir == "." && path.Clean(t) == from {
			rel, err := filepath.Rel(filepath.FromSlash(dir), filepath.FromSlash(to))
			if err != nil {
				return ""
			}
			rel = filepath.ToSlash(rel)
			if strings.HasPrefix(t, "./") && !strings.HasPrefix(rel, "../") {
				rel = "./" + rel
			}
			return rel + suffix
		}
		if dir == "." {
			return ""
		}
		dir = path.Dir(dir)
	}
}

// reference is the lint input for ref of f.
func reference(f *refFile, ref refs.Ref, sev lint.Severity, msg string) lint.Reference {
	return lint.Reference{Path: f.path, Start: content.PosAt(f.text, ref.Offset), End: content.PosAt(f.text, ref.End),
		Severity: sev, Message: msg, Directories: f.dirs}
}

// what names the reference as the reader wrote it.
func what(ref refs.Ref) string {
	switch ref.Kind {
	case refs.Link:
		return "the link to " + code(ref.Target)
	case refs.Path:
		return "the path " + code(ref.Target)
	}
	return code(refCommand(ref))
}

func refCommand(ref refs.Ref) string {
	switch ref.Kind {
	case refs.Script:
		return ref.Tool + " run " + ref.Target
	}
	return ref.Tool + " " + ref.Target
}

func noun(ref refs.Ref) string {
	switch ref.Kind {
	case refs.Make:
		return "make target"
	case refs.Script:
		return "script"
	}
	return "just recipe"
}

func code(s string) string { return "`" + s + "`" }

// targetPath is a link's or path's target read from the file's directory
// (or the root, for "/…"), cleaned.
func targetPath(file string, ref refs.Ref) string {
	if strings.HasPrefix(ref.Target, "/") {
		return strings.TrimLeft(path.Clean(ref.Target), "/")
	}
	return path.Join(path.Dir(file), ref.Target)
}

// entryOf returns the entry at p in src; ok is false when there is none.
func entryOf(src resolve.Source, p string) (resolve.Entry, bool, error) {
	dir := path.Dir(p)
	if dir == "." {
		dir = ""
	}
	ents, err := src.List(dir)
	if err != nil {
		if resolve.IsFatal(err) {
			return resolve.Entry{}, false, fmt.Errorf("references: list %s: %w", resolve.DisplayDir(dir), err)
		}
		return resolve.Entry{}, false, nil
	}
	for _, e := range ents {
		if e.Name == path.Base(p) {
			return e, true, nil
		}
	}
	return resolve.Entry{}, false, nil
}

// headIgnores are Git's ignore rules as the checked side has them: the
// files outside the tree and the .gitignore files the snapshot holds
// (F4), read only for the few targets asked about. Paths are relative to
// the root; the rules match them below the worktree top (prefix).
type headIgnores struct {
	src    resolve.Source
	prefix string
	outer  *gitignore.Rules
	lists  map[string]*gitignore.List
}

func (p *Project) headIgnores(src resolve.Source) (*headIgnores, error) {
	h := &headIgnores{src: src, prefix: p.Prefix, outer: gitignore.NewRules(false), lists: map[string]*gitignore.List{}}
	if p.GitDir != "" && p.GitTop != "" {
		outer, err := gitignore.Standard(p.GitTop, p.GitDir)
		if err != nil {
			return nil, fmt.Errorf("references: ignore rules: %w", err)
		}
		h.outer = outer
	}
	return h, nil
}

func (h *headIgnores) top(p string) string {
	if h.prefix == "" || p == "" {
		return path.Join(h.prefix, p)
	}
	return h.prefix + "/" + p
}

// list is the .gitignore of dir in the snapshot, nil when none.
func (h *headIgnores) list(dir string) (*gitignore.List, error) {
	if l, ok := h.lists[dir]; ok {
		return l, nil
	}
	var l *gitignore.List
	data, kind, _, err := h.src.Read(path.Join(dir, ".gitignore"), gitignore.MaxFileBytes)
	switch {
	case err != nil && resolve.IsFatal(err):
		return nil, fmt.Errorf("references: read %s: %w", path.Join(dir, ".gitignore"), err)
	case err == nil && kind == resolve.Regular:
		l = gitignore.Parse(data, path.Join(dir, ".gitignore"), h.top(dir))
	}
	h.lists[dir] = l
	return l, nil
}

// ignored reports whether Git ignores p (or a directory on its way).
func (h *headIgnores) ignored(p string, isDir bool) (bool, error) {
	if h == nil || p == "" {
		return false, nil
	}
	rules := h.outer
	names := strings.Split(p, "/")
	dir := ""
	for i, name := range names {
		l, err := h.list(dir)
		if err != nil {
			return false, err
		}
		rules = rules.With(l)
		dir = path.Join(dir, name)
		last := i == len(names)-1
		if rules.Excluded(h.top(dir), !last || isDir) {
			return true, nil
		}
	}
	return false, nil
}
