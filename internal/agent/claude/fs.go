package claude

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Claude Code names files by absolute paths and follows links wherever
// they lead. The resolver answers for a path inside the root from the
// engine's source (links followed by follow, inside the root only), for a
// path below the user's home from the disk (the user's own files, as
// ReadCodexUser reads Codex's), and for any other path not at all: the
// view then says it is not exact when the answer matters.

// whereFrom is where an absolute path lies.
type whereFrom int

const (
	inRoot  whereFrom = iota // below (or at) the root: rel is set
	inHome                   // below the user's home (Home set)
	unknown                  // anywhere else: never read
)

// realOf is what realpath(3) makes of a path, as Claude Code's mo does:
// the path itself (linked false) when it cannot be resolved.
type realOf struct {
	path   string // absolute, physical
	linked bool   // path differs from the one asked about
	// out is the link that leads somewhere rivumi-lint does not read, ""
	// when the real path is known.
	out string
}

// fileRead is one file as Claude Code's tv reads it (links followed).
type fileRead struct {
	key  string       // the file it read: root-relative physical path, or absolute
	kind resolve.Kind // Regular, Missing, or what it is instead
	size int64
	data []byte // at most maxBytes; nil when not regular or over
	err  string // a read error (Claude Code logs it and skips the file)
	// inexact says why the bytes are not what Claude Code reads here: a
	// checkout converts them (F5), or the file lies where rivumi-lint
	// does not read.
	inexact string
}

// maxBytes is the largest file Claude Code 2.1.328 loads (U5t):
// anything longer is skipped whole.
const maxBytes = 4194304

func (c *Resolver) where(abs string) (whereFrom, string) {
	if rel, ok := agent.UnderRoot(c.o.RootAbs, abs); ok {
		return inRoot, rel
	}
	if c.o.Home != "" {
		if abs == c.home || strings.HasPrefix(abs, c.home+"/") {
			return inHome, ""
		}
	}
	return unknown, ""
}

// linkOut names where the path rel leaves the root: the absolute target
// of a link, or the path whose ".." steps out.
func linkOut(rel, target string) string {
	if strings.HasPrefix(target, "/") {
		return "to " + target
	}
	return "its target steps above the root"
}

// abs is the absolute path of the root-relative p.
func (c *Resolver) abs(rel string) string {
	if rel == "" {
		return c.o.RootAbs
	}
	return c.o.RootAbs + "/" + rel
}

// absName is c.abs(dir) + "/" + name, made in one piece.
func (c *Resolver) absName(dir, name string) string {
	if dir == "" {
		return c.o.RootAbs + "/" + name
	}
	return c.o.RootAbs + "/" + dir + "/" + name
}

// isSlash reports whether c.abs(dir) is "/", without making it.
func (c *Resolver) isSlash(dir string) bool {
	return dir == "" && c.o.RootAbs == "/"
}

// follow is follow() over the engine's source, once per path.
func (c *Resolver) follow(rel string) (agent.Followed, error) {
	if f, ok := c.follows[rel]; ok {
		return f, nil
	}
	if c.lstatSrc == nil {
		c.lstatSrc = &lstatMemo{Source: c.e.Source(), listed: c.e.Listed, seen: map[string]lstatResult{}}
	}
	if f, ok := c.lstatSrc.direct(rel); ok {
		c.follows[rel] = f
		return f, nil
	}
	f, err := agent.Follow(c.lstatSrc, c.o.RootAbs, rel)
	if err != nil && pathError(err) {
		// Claude Code's realpath and read fail for this path alone, and
		// it skips the file (#38.7): not the whole view's error.
		why := err.Error()
		if en := syscall.Errno(0); errors.As(err, &en) {
			why = en.Error() // the system's words, not this machine's path
		}
		f, err = agent.Followed{Walk: agent.WalkUnreadable, Target: why}, nil
	}
	if err != nil {
		return f, fmt.Errorf("follow %s: %w", rel, err)
	}
	c.follows[rel] = f
	return f, nil
}

// pathError says err belongs to one path, not to the source: a
// name the system refuses as too long, or no permission on the way.
func pathError(err error) bool {
	return !resolve.IsFatal(err) && (errors.Is(err, syscall.ENAMETOOLONG) || errors.Is(err, fs.ErrPermission))
}

// direct is follow's answer for rel (clean, relative) read off the engine's
// listing of its directory, when the engine found no link from the root
// down to that directory (fromListing asks) and the listing names rel as
// a directory or a file: then there is no link to follow on the way or at
// the end.
func (m *lstatMemo) direct(rel string) (agent.Followed, bool) {
	ent, ok := m.fromListing(rel)
	if !ok || ent.Kind != resolve.Dir && ent.Kind != resolve.Regular {
		return agent.Followed{}, false
	}
	ent.Name = path.Base(rel)
	return agent.Followed{Walk: agent.WalkFound, Path: rel, Ent: ent}, true
}

// realpath resolves abs as mo does: a path that cannot be resolved (it is
// missing, dangles, loops, or goes through a file) is its own real path.
func (c *Resolver) realpath(abs string) (realOf, error) {
	switch w, rel := c.where(abs); w {
	case inRoot:
		f, err := c.follow(rel)
		if err != nil {
			return realOf{}, err
		}
		r := realOf{path: abs}
		switch f.Walk {
		case agent.WalkFound:
			r.path = c.abs(f.Path)
			r.linked = r.path != abs
		case agent.WalkOutside:
			r.out = linkOut(rel, f.Target)
			r.linked = true
		}
		return r, nil
	case inHome:
		p, err := filepath.EvalSymlinks(filepath.FromSlash(abs))
		if err != nil {
			return realOf{path: abs}, nil
		}
		p = filepath.ToSlash(p)
		return realOf{path: p, linked: p != abs}, nil
	}
	return realOf{path: abs, out: abs}, nil
}

// read reads the file at abs as Claude Code does: links followed, at most
// maxBytes, lossily decoded later. Each file inside the root is
// read once, reusing what the engine read of it.
func (c *Resolver) read(abs string) (fileRead, error) {
	switch w, rel := c.where(abs); w {
	case inRoot:
		f, err := c.follow(rel)
		if err != nil {
			return fileRead{}, err
		}
		switch f.Walk {
		case agent.WalkNotFound, agent.WalkLooped, agent.WalkNotDir:
			return fileRead{kind: resolve.Missing}, nil
		case agent.WalkUnreadable:
			// what it is cannot be known; Claude Code's read fails as this lstat did
			return fileRead{kind: resolve.Regular, err: f.Target}, nil
		case agent.WalkOutside:
			return fileRead{inexact: "it leads out of the repository through a symbolic link (" + linkOut(rel, f.Target) + "), which Claude Code follows; rivumi-lint reads nothing outside the root"}, nil
		}
		if f.Ent.Kind != resolve.Regular {
			return fileRead{kind: f.Ent.Kind}, nil
		}
		r, err := c.readPhysical(f.Path)
		r.key = f.Path
		return r, err
	case inHome:
		r := readHomeFile(abs)
		r.key = abs
		return r, nil
	}
	return fileRead{inexact: "it lies outside the repository and the user's home, where rivumi-lint reads nothing"}, nil
}

// readPhysical reads the regular file at p (no link on the way), once.
func (c *Resolver) readPhysical(p string) (fileRead, error) {
	if r, ok := c.reads[p]; ok {
		return r, nil
	}
	r, err := c.readOnce(p)
	if err != nil {
		return r, err
	}
	c.reads[p] = r
	return r, nil
}

func (c *Resolver) readOnce(p string) (fileRead, error) {
	if info, ok := c.e.Listed(resolve.ParentDir(p)); ok {
		for _, f := range info.Files {
			if f.Path != p {
				continue
			}
			if data, whole := f.Bytes(); data != nil && whole {
				r := fileRead{kind: resolve.Regular, size: int64(len(data)), data: data}
				if r.size > maxBytes {
					r.data = nil
				}
				return r, nil
			}
		}
	}
	src := c.e.Source()
	data, kind, size, err := src.Read(p, maxBytes)
	if resolve.IsFatal(err) {
		return fileRead{}, fmt.Errorf("read %s: %w", p, err)
	}
	r := fileRead{kind: kind, size: size}
	var re *resolve.RejectError
	switch {
	case errors.As(err, &re):
		r.kind = resolve.Regular
		r.inexact = re.Rej.Reason
		return r, nil
	case err != nil && errors.Is(err, fs.ErrNotExist):
		r.kind = resolve.Missing
		return r, nil
	case err != nil:
		r.err = err.Error()
		return r, nil
	case kind != resolve.Regular:
		return r, nil
	}
	if conv, ok := src.(interface{ Converts(p string) string }); ok {
		if why := conv.Converts(p); why != "" {
			r.inexact = why
		}
	}
	if size < int64(len(data)) {
		r.size = int64(len(data))
	}
	if r.size <= maxBytes {
		r.data = data
	}
	return r, nil
}

// readHomeFile reads a file below the user's home from the disk.
func readHomeFile(abs string) fileRead {
	p := filepath.FromSlash(abs)
	st, err := os.Stat(p)
	if err != nil {
		return fileRead{kind: resolve.Missing}
	}
	if !st.Mode().IsRegular() {
		k := resolve.Special
		if st.IsDir() {
			k = resolve.Dir
		}
		return fileRead{kind: k}
	}
	r := fileRead{kind: resolve.Regular, size: st.Size()}
	if st.Size() > maxBytes {
		return r
	}
	data, err := os.ReadFile(p)
	if err != nil {
		r.err = err.Error()
		return r
	}
	r.data, r.size = data, int64(len(data))
	return r
}

// dirent is one entry of a directory listing in the order the
// system gives it.
type dirent struct {
	name string
	kind resolve.Kind // the entry itself (a link is Symlink)
}

// list lists the directory at the physical path abs in the system's order
// (Claude Code walks .claude/rules so). ordered is false when the source
// cannot give that order (a Git tree or index lists by name).
func (c *Resolver) list(abs string) (ents []dirent, ordered bool, err error) {
	switch w, rel := c.where(abs); w {
	case inRoot:
		es, err := c.e.Source().List(rel)
		if err != nil {
			var le *resolve.LinkedDirError
			if errors.Is(err, fs.ErrNotExist) || errors.As(err, &le) || !resolve.IsFatal(err) {
				return nil, true, nil
			}
			return nil, false, fmt.Errorf("list %s: %w", resolve.DisplayDir(rel), err)
		}
		for _, e := range es {
			ents = append(ents, dirent{name: e.Name, kind: e.Kind})
		}
		return ents, c.e.Source().Name() == "worktree", nil
	case inHome:
		f, err := os.Open(filepath.FromSlash(abs))
		if err != nil {
			return nil, true, nil
		}
		defer f.Close()
		des, _ := f.ReadDir(-1) // unsorted: the system's order
		for _, d := range des {
			k := resolve.Special
			switch t := d.Type(); {
			case t&fs.ModeSymlink != 0:
				k = resolve.Symlink
			case t.IsDir():
				k = resolve.Dir
			case t.IsRegular():
				k = resolve.Regular
			}
			ents = append(ents, dirent{name: d.Name(), kind: k})
		}
		return ents, true, nil
	}
	return nil, true, nil
}

// statKind is what abs is after following links (stat), Missing when it
// cannot be stat'ed; out is set when that is not known here.
func (c *Resolver) statKind(abs string) (resolve.Kind, string, error) {
	switch w, rel := c.where(abs); w {
	case inRoot:
		f, err := c.follow(rel)
		if err != nil {
			return 0, "", err
		}
		switch f.Walk {
		case agent.WalkFound:
			return f.Ent.Kind, "", nil
		case agent.WalkOutside:
			return 0, rel + " (" + linkOut(rel, f.Target) + ")", nil
		}
		return resolve.Missing, "", nil
	case inHome:
		st, err := os.Stat(filepath.FromSlash(abs))
		switch {
		case err != nil:
			return resolve.Missing, "", nil
		case st.IsDir():
			return resolve.Dir, "", nil
		case st.Mode().IsRegular():
			return resolve.Regular, "", nil
		}
		return resolve.Special, "", nil
	}
	return 0, abs, nil
}

// isLink reports whether the entry at abs itself is a symbolic link
// (lstat).
func (c *Resolver) isLink(abs string) bool {
	switch w, rel := c.where(abs); w {
	case inRoot:
		dir, name := resolve.ParentDir(rel), path.Base(rel)
		if rel == "" {
			return false
		}
		r, err := c.realpath(c.abs(dir))
		if err != nil || r.out != "" {
			return false
		}
		prel, ok := agent.UnderRoot(c.o.RootAbs, r.path)
		if !ok {
			return false
		}
		ent, err := c.e.Source().Lstat(path.Join(prel, name))
		return err == nil && ent.Kind == resolve.Symlink
	case inHome:
		st, err := os.Lstat(filepath.FromSlash(abs))
		return err == nil && st.Mode()&fs.ModeSymlink != 0
	}
	return false
}

// decode decodes a file's bytes as Claude Code does (Buffer's UTF-8:
// each maximal invalid sequence one U+FFFD).
func decode(b []byte) string { return string(content.Lossy(b)) }

// lstatMemo is a source whose Lstat answers each path once: follow walks
// every file's path from the root, and the chains of a run share their
// directories. A path the engine's listing of its directory already
// names as a directory, a file or a link is answered from the listing
// without a system call: follow's paths are chain directories and the
// instruction files in them, which the engine listed.
type lstatMemo struct {
	resolve.Source
	listed func(dir string) (*resolve.DirInfo, bool)
	seen   map[string]lstatResult
}

type lstatResult struct {
	ent resolve.Entry
	err error
}

func (m *lstatMemo) Lstat(p string) (resolve.Entry, error) {
	if ent, ok := m.fromListing(p); ok {
		return ent, nil
	}
	if r, ok := m.seen[p]; ok {
		return r.ent, r.err
	}
	ent, err := m.Source.Lstat(p)
	m.seen[p] = lstatResult{ent, err}
	return ent, err
}

// fromListing is p's entry as the engine's listing of its directory has
// it, when that listing exists and names p unambiguously.
func (m *lstatMemo) fromListing(p string) (resolve.Entry, bool) {
	if m.listed == nil || p == "" {
		return resolve.Entry{}, false
	}
	info, ok := m.listed(resolve.ParentDir(p))
	if !ok || info.Linked != "" {
		return resolve.Entry{}, false
	}
	name := path.Base(p)
	if k := info.ChildKind(name); k == resolve.Dir || k == resolve.Symlink {
		return resolve.Entry{Name: name, Kind: k, Size: -1}, true
	}
	if ent, ok := info.Lookup(name); ok && (ent.Kind == resolve.Regular || ent.Kind == resolve.Symlink) {
		return ent, true
	}
	return resolve.Entry{}, false
}
