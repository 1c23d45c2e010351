package agent

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Claude Code names files by absolute paths and follows links wherever
// they lead. The resolver answers for a path inside the root from the
// engine's source (links followed by follow, inside the root only), for a
// path below the user's home from the disk (the user's own files, as
// ReadCodexUser reads Codex's), and for any other path not at all: the
// view then says it is not exact when the answer matters.

// claudeWhere is where an absolute path lies.
type claudeWhere int

const (
	inRoot  claudeWhere = iota // below (or at) the root: rel is set
	inHome                     // below the user's home (Home set)
	unknown                    // anywhere else: never read
)

// claudeReal is what realpath(3) makes of a path, as Claude Code's mo does:
// the path itself (linked false) when it cannot be resolved.
type claudeReal struct {
	path   string // absolute, physical
	linked bool   // path differs from the one asked about
	// out is the link that leads somewhere rivumi-lint does not read, ""
	// when the real path is known.
	out string
}

// claudeRead is one file as Claude Code's tv reads it (links followed).
type claudeRead struct {
	key  string       // the file it read: root-relative physical path, or absolute
	kind resolve.Kind // Regular, Missing, or what it is instead
	size int64
	data []byte // at most claudeMaxBytes; nil when not regular or over
	err  string // a read error (Claude Code logs it and skips the file)
	// inexact says why the bytes are not what Claude Code reads here: a
	// checkout converts them (F5), or the file lies where rivumi-lint
	// does not read.
	inexact string
}

// claudeMaxBytes is the largest file Claude Code 2.1.328 loads (U5t):
// anything longer is skipped whole.
const claudeMaxBytes = 4194304

func (c *ClaudeResolver) where(abs string) (claudeWhere, string) {
	if rel, ok := underRoot(c.o.RootAbs, abs); ok {
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
func (c *ClaudeResolver) abs(rel string) string {
	if rel == "" {
		return c.o.RootAbs
	}
	return c.o.RootAbs + "/" + rel
}

// follow is follow() over the engine's source, once per path.
func (c *ClaudeResolver) follow(rel string) (followed, error) {
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
	f, err := follow(c.lstatSrc, c.o.RootAbs, rel)
	if err != nil && claudePathError(err) {
		// Claude Code's realpath and read fail for this path alone, and
		// it skips the file (#38.7): not the whole view's error.
		why := err.Error()
		if en := syscall.Errno(0); errors.As(err, &en) {
			why = en.Error() // the system's words, not this machine's path
		}
		f, err = followed{walk: unreadable, target: why}, nil
	}
	if err != nil {
		return f, fmt.Errorf("follow %s: %w", rel, err)
	}
	c.follows[rel] = f
	return f, nil
}

// claudePathError says err belongs to one path, not to the source: a
// name the system refuses as too long, or no permission on the way.
func claudePathError(err error) bool {
	return !resolve.IsFatal(err) && (errors.Is(err, syscall.ENAMETOOLONG) || errors.Is(err, fs.ErrPermission))
}

// direct is follow's answer for rel (clean, relative) read off the engine's
// listing of its directory, when the engine found no link from the root
// down to that directory (fromListing asks) and the listing names rel as
// a directory or a file: then there is no link to follow on the way or at
// the end.
func (m *lstatMemo) direct(rel string) (followed, bool) {
	ent, ok := m.fromListing(rel)
	if !ok || ent.Kind != resolve.Dir && ent.Kind != resolve.Regular {
		return followed{}, false
	}
	ent.Name = path.Base(rel)
	return followed{walk: found, path: rel, ent: ent}, true
}

// realpath resolves abs as mo does: a path that cannot be resolved (it is
// missing, dangles, loops, or goes through a file) is its own real path.
func (c *ClaudeResolver) realpath(abs string) (claudeReal, error) {
	switch w, rel := c.where(abs); w {
	case inRoot:
		f, err := c.follow(rel)
		if err != nil {
			return claudeReal{}, err
		}
		r := claudeReal{path: abs}
		switch f.walk {
		case found:
			r.path = c.abs(f.path)
			r.linked = r.path != abs
		case outside:
			r.out = linkOut(rel, f.target)
			r.linked = true
		}
		return r, nil
	case inHome:
		p, err := filepath.EvalSymlinks(filepath.FromSlash(abs))
		if err != nil {
			return claudeReal{path: abs}, nil
		}
		p = filepath.ToSlash(p)
		return claudeReal{path: p, linked: p != abs}, nil
	}
	return claudeReal{path: abs, out: abs}, nil
}

// read reads the file at abs as Claude Code does: links followed, at most
// claudeMaxBytes, lossily decoded later. Each file inside the root is
// read once, reusing what the engine read of it.
func (c *ClaudeResolver) read(abs string) (claudeRead, error) {
	switch w, rel := c.where(abs); w {
	case inRoot:
		f, err := c.follow(rel)
		if err != nil {
			return claudeRead{}, err
		}
		switch f.walk {
		case notFound, looped, notDir:
			return claudeRead{kind: resolve.Missing}, nil
		case unreadable:
			// what it is cannot be known; Claude Code's read fails as this lstat did
			return claudeRead{kind: resolve.Regular, err: f.target}, nil
		case outside:
			return claudeRead{inexact: "it leads out of the repository through a symbolic link (" + linkOut(rel, f.target) + "), which Claude Code follows; rivumi-lint reads nothing outside the root"}, nil
		}
		if f.ent.Kind != resolve.Regular {
			return claudeRead{kind: f.ent.Kind}, nil
		}
		r, err := c.readPhysical(f.path)
		r.key = f.path
		return r, err
	case inHome:
		r := readHomeFile(abs)
		r.key = abs
		return r, nil
	}
	return claudeRead{inexact: "it lies outside the repository and the user's home, where rivumi-lint reads nothing"}, nil
}

// readPhysical reads the regular file at p (no link on the way), once.
func (c *ClaudeResolver) readPhysical(p string) (claudeRead, error) {
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

func (c *ClaudeResolver) readOnce(p string) (claudeRead, error) {
	if info, ok := c.e.Listed(resolve.ParentDir(p)); ok {
		for _, f := range info.Files {
			if f.Path != p {
				continue
			}
			if data, whole := f.Bytes(); data != nil && whole {
				r := claudeRead{kind: resolve.Regular, size: int64(len(data)), data: data}
				if r.size > claudeMaxBytes {
					r.data = nil
				}
				return r, nil
			}
		}
	}
	src := c.e.Source()
	data, kind, size, err := src.Read(p, claudeMaxBytes)
	if resolve.IsFatal(err) {
		return claudeRead{}, fmt.Errorf("read %s: %w", p, err)
	}
	r := claudeRead{kind: kind, size: size}
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
	if r.size <= claudeMaxBytes {
		r.data = data
	}
	return r, nil
}

// readHomeFile reads a file below the user's home from the disk.
func readHomeFile(abs string) claudeRead {
	p := filepath.FromSlash(abs)
	st, err := os.Stat(p)
	if err != nil {
		return claudeRead{kind: resolve.Missing}
	}
	if !st.Mode().IsRegular() {
		k := resolve.Special
		if st.IsDir() {
			k = resolve.Dir
		}
		return claudeRead{kind: k}
	}
	r := claudeRead{kind: resolve.Regular, size: st.Size()}
	if st.Size() > claudeMaxBytes {
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

// claudeDirent is one entry of a directory listing in the order the
// system gives it.
type claudeDirent struct {
	name string
	kind resolve.Kind // the entry itself (a link is Symlink)
}

// list lists the directory at the physical path abs in the system's order
// (Claude Code walks .claude/rules so). ordered is false when the source
// cannot give that order (a Git tree or index lists by name).
func (c *ClaudeResolver) list(abs string) (ents []claudeDirent, ordered bool, err error) {
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
			ents = append(ents, claudeDirent{name: e.Name, kind: e.Kind})
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
			ents = append(ents, claudeDirent{name: d.Name(), kind: k})
		}
		return ents, true, nil
	}
	return nil, true, nil
}

// statKind is what abs is after following links (stat), Missing when it
// cannot be stat'ed; out is set when that is not known here.
func (c *ClaudeResolver) statKind(abs string) (resolve.Kind, string, error) {
	switch w, rel := c.where(abs); w {
	case inRoot:
		f, err := c.follow(rel)
		if err != nil {
			return 0, "", err
		}
		switch f.walk {
		case found:
			return f.ent.Kind, "", nil
		case outside:
			return 0, rel + " (" + linkOut(rel, f.target) + ")", nil
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
func (c *ClaudeResolver) isLink(abs string) bool {
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
		prel, ok := underRoot(c.o.RootAbs, r.path)
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

// claudeDecode decodes a file's bytes as Claude Code does (Buffer's UTF-8:
// each maximal invalid sequence one U+FFFD).
func claudeDecode(b []byte) string { return string(content.Lossy(b)) }

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
	if ent, ok := entryOf(info, name); ok && (ent.Kind == resolve.Regular || ent.Kind == resolve.Symlink) {
		return ent, true
	}
	return resolve.Entry{}, false
}
