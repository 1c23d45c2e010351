package agent

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// maxHops is how many links a path may pass through before the system
// gives up (Linux's ELOOP after 40), as an agent's open would.
const maxHops = 40

// Walk is where a path leads once every link on the way is followed.
type Walk int

const (
	WalkFound    Walk = iota // an entry at the end (Ent says what)
	WalkNotFound             // nothing there, or a dangling link: not-found to the agent
	WalkOutside              // a link leads out of the root: not read (R10)
	WalkLooped               // too many links (ELOOP): an error to the agent
	WalkNotDir               // a file on the way (ENOTDIR): an error to the agent
	// WalkUnreadable is an error of this one path (a name over the system's
	// limit, no permission): the Claude resolver's, which loads the other
	// files; Target holds the error.
	WalkUnreadable
)

// Followed is the answer of Follow.
type Followed struct {
	Walk Walk
	Path string        // WalkFound: the entry's path, relative to the root, no link on the way
	Ent  resolve.Entry // WalkFound: what it is (never a link)
	// Target is the text of the link that leads outside (WalkOutside), or
	// the link that looped (WalkLooped), or the error (WalkUnreadable).
	Target string
}

// Follow resolves p (relative to the root) in src as an agent's open or
// stat does, following every link on the way and at the end, never
// leaving the root: a link that leads out of it is reported, not followed
// (rivumi-lint reads nothing outside the root). rootAbs maps an absolute
// link target inside the root back to it. Only Lstat and LinkTarget are
// used: nothing is opened, and each path resolved is physical, so the
// source's own no-follow reads then open it as it is.
func Follow(src resolve.Source, rootAbs, p string) (Followed, error) {
	pending := strings.Split(p, "/")
	var real []string // the resolved prefix: directories, no links
	hops := 0
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			if len(real) == 0 {
				return Followed{Walk: WalkOutside, Target: p}, nil
			}
			real = real[:len(real)-1]
			continue
		}
		cur := strings.Join(append(real, c), "/")
		ent, err := src.Lstat(cur)
		if resolve.IsFatal(err) {
			return Followed{}, err
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Followed{}, err
		}
		if err != nil || ent.Kind == resolve.Missing {
			return Followed{Walk: WalkNotFound}, nil
		}
		switch ent.Kind {
		case resolve.Symlink:
			hops++
			t, err := src.LinkTarget(cur)
			if err != nil {
				return Followed{}, err
			}
			if hops > maxHops {
				return Followed{Walk: WalkLooped, Target: cur}, nil
			}
			if t == "" {
				return Followed{Walk: WalkNotFound}, nil
			}
			if strings.HasPrefix(t, "/") {
				rel, ok := UnderRoot(rootAbs, t)
				if !ok {
					return Followed{Walk: WalkOutside, Target: t}, nil
				}
				real = nil
				t = rel
			}
			pending = append(strings.Split(t, "/"), pending...)
			continue
		case resolve.Dir:
			real = append(real, c)
			continue
		case resolve.Submodule:
			if !allEmpty(pending) {
				return Followed{Walk: WalkNotFound}, nil // another repository's files are not in the snapshot
			}
		}
		// Anything after a file, even a trailing slash or ".", is
		// ENOTDIR to the system.
		if len(pending) > 0 {
			return Followed{Walk: WalkNotDir, Target: cur}, nil
		}
		ent.Name = c
		return Followed{Walk: WalkFound, Path: cur, Ent: ent}, nil
	}
	// p named a directory (or the root).
	return Followed{Walk: WalkFound, Path: strings.Join(real, "/"), Ent: resolve.Entry{Name: path.Base("/" + strings.Join(real, "/")), Kind: resolve.Dir}}, nil
}

func allEmpty(cs []string) bool {
	for _, c := range cs {
		if c != "" && c != "." {
			return false
		}
	}
	return true
}

// UnderRoot returns the absolute slash path t relative to rootAbs when it
// lies inside it, lexically (rootAbs is physical).
func UnderRoot(rootAbs, t string) (string, bool) {
	if rootAbs == "" {
		return "", false
	}
	r := strings.TrimSuffix(rootAbs, "/")
	switch {
	case t == r:
		return "", true
	case strings.HasPrefix(t, r+"/"):
		return t[len(r)+1:], true
	}
	return "", false
}

// Ancestors returns the directories from start (an ancestor of dir, ""
// for the root) down to dir.
func Ancestors(dir, start string) []string {
	var out []string
	for d := dir; ; d = resolve.ParentDir(d) {
		out = append(out, d)
		if d == start || d == "" {
			break
		}
	}
	slices.Reverse(out)
	return out
}
