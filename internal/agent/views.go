package agent

import (
	"fmt"
	"runtime"
	"sync"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Engine is what a resolver reads of the Rivumi engine: its listings
// and its source. A resolver is handed one already serialised (Views):
// it never locks anything itself.
type Engine interface {
	Dir(dir string) (*resolve.DirInfo, error)
	Listed(dir string) (*resolve.DirInfo, bool)
	Source() resolve.Source
}

// Build makes one profile's resolver over an engine.
type Build func(e Engine) (Resolver, error)

// Views builds each profile's resolver over e and resolves its view of
// each of dirs: views[i][j] is resolvers[i]'s of dirs[j]. beside, when not
// nil, is other work that reads the sources the resolvers read only
// through share (the references of a check), and the engine not at all.
//
// With a second processor the resolvers run on goroutines of their own,
// beside each other and beside beside; each is built over the engine
// under one lock, and every source beside's share wraps is read under the
// same lock (a listing, a Git object database and a checkout's
// conversions are each made for one reader). With one processor
// everything runs in turn on the caller's goroutine over e itself, and
// share returns its source, the serial twin (F1). The views are the same
// either way: each resolver keeps its own state. The resolvers keep the
// engine they were built over, so later questions (FileState) are
// serialised too.
func Views(e *resolve.Engine, builds []Build, dirs []string, beside func(share func(resolve.Source) resolve.Source)) ([]Resolver, [][]*View, error) {
	return views(e, builds, dirs, beside, runtime.GOMAXPROCS(0) >= 2)
}

// views is Views, on goroutines when parallel.
func views(e *resolve.Engine, builds []Build, dirs []string, beside func(share func(resolve.Source) resolve.Source), parallel bool) ([]Resolver, [][]*View, error) {
	units := len(builds) // what can run at once
	if beside != nil {
		units++
	}
	parallel = parallel && units >= 2
	var mu sync.Mutex
	resolvers := make([]Resolver, len(builds))
	for i, build := range builds {
		var over Engine = e
		if parallel {
			over = newLocked(e, &mu)
		}
		res, err := build(over)
		if err != nil {
			return nil, nil, err
		}
		resolvers[i] = res
	}
	views := make([][]*View, len(resolvers))
	errs := make([]error, len(resolvers))
	resolveAll := func(i int) {
		res := resolvers[i]
		views[i] = make([]*View, len(dirs))
		for j, dir := range dirs {
			v, err := res.View(dir)
			if err != nil {
				views[i], errs[i] = nil, fmt.Errorf("%s profile: resolve %s: %w", res.Profile().Name, resolve.DisplayDir(dir), err)
				return
			}
			views[i][j] = v
		}
	}
	if !parallel {
		if beside != nil {
			beside(func(src resolve.Source) resolve.Source { return src })
		}
		for i := range resolvers {
			resolveAll(i)
		}
	} else {
		var wg sync.WaitGroup
		if beside != nil {
			wg.Go(func() {
				beside(func(src resolve.Source) resolve.Source { return &lockedSource{src: src, mu: &mu} })
			})
		}
		for i := 1; i < len(resolvers); i++ {
			wg.Go(func() { resolveAll(i) })
		}
		if len(resolvers) > 0 {
			resolveAll(0)
		}
		wg.Wait()
	}
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return resolvers, views, nil
}

// lockedEngine reads an engine under a lock, for one resolver. The
// directories it was given are kept: a resolver asks for the same ones
// again and again, and a listing, once made, does not change.
type lockedEngine struct {
	e    *resolve.Engine
	mu   *sync.Mutex
	src  lockedSource
	dirs map[string]lockedDir
}

type lockedDir struct {
	info *resolve.DirInfo
	err  error
}

func newLocked(e *resolve.Engine, mu *sync.Mutex) *lockedEngine {
	return &lockedEngine{e: e, mu: mu, src: lockedSource{src: e.Source(), mu: mu}, dirs: map[string]lockedDir{}}
}

func (l *lockedEngine) Dir(dir string) (*resolve.DirInfo, error) {
	if d, ok := l.dirs[dir]; ok {
		return d.info, d.err
	}
	l.mu.Lock()
	info, err := l.e.Dir(dir)
	l.mu.Unlock()
	l.dirs[dir] = lockedDir{info, err}
	return info, err
}

func (l *lockedEngine) Listed(dir string) (*resolve.DirInfo, bool) {
	if d, ok := l.dirs[dir]; ok && d.err == nil {
		return d.info, true
	}
	l.mu.Lock()
	info, ok := l.e.Listed(dir)
	l.mu.Unlock()
	if ok {
		l.dirs[dir] = lockedDir{info: info}
	}
	return info, ok
}

func (l *lockedEngine) Source() resolve.Source { return &l.src }

// lockedSource reads a source under a lock.
type lockedSource struct {
	src resolve.Source
	mu  *sync.Mutex
}

func (l *lockedSource) Name() string { return l.src.Name() }

func (l *lockedSource) List(dir string) ([]resolve.Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.src.List(dir)
}

func (l *lockedSource) Lstat(p string) (resolve.Entry, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.src.Lstat(p)
}

func (l *lockedSource) Read(p string, limit int64) ([]byte, resolve.Kind, int64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.src.Read(p, limit)
}

func (l *lockedSource) LinkTarget(p string) (string, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.src.LinkTarget(p)
}

// Converts passes on a checkout source's answer ("" for a source that
// converts nothing).
func (l *lockedSource) Converts(p string) string {
	conv, ok := l.src.(interface{ Converts(p string) string })
	if !ok {
		return ""
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return conv.Converts(p)
}

// ViewCache keeps a resolver's views, one per directory: each is resolved
// once, on the first call for its directory, and read-only after.
type ViewCache map[string]*View

// Get returns dir's view, resolving it with resolve the first time.
func (m ViewCache) Get(dir string, resolve func(dir string) (*View, error)) (*View, error) {
	if v, ok := m[dir]; ok {
		return v, nil
	}
	v, err := resolve(dir)
	if err != nil {
		return nil, err
	}
	m[dir] = v
	return v, nil
}
