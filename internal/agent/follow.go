package agent

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// maxHops is how many links a path may pass through before the system
// gives up (Linux's ELOOP after 40), as an agent's open would.
const maxHops = 40

// walk is where a path leads once every link on the way is followed.
type walk int

const (
	found    walk = iota // an entry at the end (ent says what)
	notFound             // nothing there, or a dangling link: not-found to the agent
	outside              // a link leads out of the root: not read (R10)
	looped               // too many links (ELOOP): an error to the agent
	notDir               // a file on the way (ENOTDIR): an error to the agent
	// unreadable is an error of this one path (a name over the system's
	// limit, no permission): the Claude resolver's, which loads the other
	// files; target holds the error.
	unreadable
)

// followed is the answer of follow.
type followed struct {
	walk walk
	path string        // found: the entry's path, relative to the root, no link on the way
	ent  resolve.Entry // found: what it is (never a link)
	// target is the text of the link that leads outside (outside), or the
	// link that looped (looped).
	target string
}

// follow resolves p (relative to the root) in src as an agent's open or
// stat does, following every link on the way and at the end, never
// leaving the root: a link that leads out of it is reported, not followed
// (rivumi-lint reads nothing outside the root). rootAbs maps an absolute
// link target inside the root back to it. Only Lstat and LinkTarget are
// used: nothing is opened, and each path resolved is physical, so the
// source's own no-follow reads then open it as it is.
func follow(src resolve.Source, rootAbs, p string) (followed, error) {
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
				return followed{walk: outside, target: p}, nil
			}
			real = real[:len(real)-1]
			continue
		}
		cur := strings.Join(append(real, c), "/")
		ent, err := src.Lstat(cur)
		if resolve.IsFatal(err) {
			return followed{}, err
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return followed{}, err
		}
		if err != nil || ent.Kind == resolve.Missing {
			return followed{walk: notFound}, nil
		}
		switch ent.Kind {
		case resolve.Symlink:
			hops++
			t, err := src.LinkTarget(cur)
			if err != nil {
				return followed{}, err
			}
			if hops > maxHops {
				return followed{walk: looped, target: cur}, nil
			}
			if t == "" {
				return followed{walk: notFound}, nil
			}
			if strings.HasPrefix(t, "/") {
				rel, ok := underRoot(rootAbs, t)
				if !ok {
					return followed{walk: outside, target: t}, nil
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
				return followed{walk: notFound}, nil // another repository's files are not in the snapshot
			}
		}
		// Anything after a file, even a trailing slash or ".", is
		// ENOTDIR to the system.
		if len(pending) > 0 {
			return followed{walk: notDir, target: cur}, nil
		}
		ent.Name = c
		return followed{walk: found, path: cur, ent: ent}, nil
	}
	// p named a directory (or the root).
	return followed{walk: found, path: strings.Join(real, "/"), ent: resolve.Entry{Name: path.Base("/" + strings.Join(real, "/")), Kind: resolve.Dir}}, nil
}

func allEmpty(cs []string) bool {
	for _, c := range cs {
		if c != "" && c != "." {
			return false
		}
	}
	return true
}

// underRoot returns the absolute slash path t relative to rootAbs when it
// lies inside it, lexically (rootAbs is physical).
func underRoot(rootAbs, t string) (string, bool) {
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
