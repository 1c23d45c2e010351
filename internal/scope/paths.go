package scope

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"

	"github.com/rivumi/rivumi-lint/internal/par"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// PathDirs returns the directories to resolve for command-line PATHs (slash
// paths relative to root, "" for the root itself): a directory is resolved
// itself, a file from its directory. A PATH that is an instruction
// candidate also brings every directory below its own that holds a
// candidate (R7), found by snap's CandidateDirsBelow (the worktree's:
// Walker.DirsBelow, the directories at or below one, sorted), which walks
// only the subtrees of those candidates, each once.
//
// kinds, when not nil, holds what the disk has at each PATH, as its
// directory's listing said (resolve.Worktree.PrefetchKinds); a PATH whose
// kind is Missing there, or every PATH when kinds is nil, is lstat'ed.
//
// A PATH that does not exist (deleted in the change: `git diff
// --name-only | xargs rivumi-lint check`) is taken as a deleted file (F9):
// its directory is resolved when it still exists (the engine skips it
// otherwise), and a deleted candidate brings the directories below it.
// missing lists those PATHs, so the caller can say so.
func PathDirs(root string, e *resolve.Engine, snap resolve.Snapshot, rels []string, kinds []resolve.Kind) (dirs, missing []string, err error) {
	set := map[string]bool{}
	var expand []string
	kinds, err = lstatAll(root, rels, kinds)
	if err != nil {
		return nil, nil, err
	}
	for i, rel := range rels {
		abs := filepath.Join(root, filepath.FromSlash(rel))
		switch kinds[i] {
		case resolve.Missing:
			missing = append(missing, rel)
			dir := resolve.ParentDir(rel)
			set[dir] = true
			if e.IsName(path.Base(rel)) {
				expand = append(expand, dir)
			}
		case resolve.Dir:
			if !isRepo(abs) {
				set[rel] = true
				break
			}
			set[resolve.ParentDir(rel)] = true // a changed entry of its parent, like a file
			if e.IsName(path.Base(rel)) {
				expand = append(expand, resolve.ParentDir(rel))
			}
		case resolve.Symlink:
			if isDirBehind(abs) {
				set[rel] = true // the engine reports what is behind the link, never opens it
				break
			}
			fallthrough
		default:
			dir := resolve.ParentDir(rel)
			set[dir] = true
			if e.IsName(path.Base(rel)) {
				expand = append(expand, dir)
			}
		}
	}
	sort.Strings(expand)
	var done []string
	for _, p := range expand {
		if covered(done, p) {
			continue
		}
		done = append(done, p)
		dirs, err := snap.CandidateDirsBelow(p, e.Names())
		if err != nil {
			return nil, nil, err
		}
		for _, d := range Below(e, dirs, p) {
			set[d] = true
		}
	}
	return sorted(set), missing, nil
}

// lstatAll completes known (nil: none known) with the kind lstat(2) gives
// root/rel for every rel whose kind is Missing there, on as many
// goroutines as there are processors (pre-commit passes a thousand files),
// and returns the first
// error in rels order. A path that does not exist (no entry, or a file
// where a directory on the way was) is Missing.
func lstatAll(root string, rels []string, known []resolve.Kind) ([]resolve.Kind, error) {
	kinds := make([]resolve.Kind, len(rels))
	var ask []int
	for i := range rels {
		if known != nil && known[i] != resolve.Missing {
			kinds[i] = known[i]
			continue
		}
		ask = append(ask, i)
	}
	errs := make([]error, len(rels))
	par.Each(min(runtime.GOMAXPROCS(0), (len(ask)+63)/64), len(ask), func(k int) {
		i := ask[k]
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rels[i])))
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR):
			kinds[i] = resolve.Missing
		case err != nil:
			errs[i] = err
		case fi.IsDir():
			kinds[i] = resolve.Dir
		case fi.Mode()&os.ModeSymlink != 0:
			kinds[i] = resolve.Symlink
		case fi.Mode().IsRegular():
			kinds[i] = resolve.Regular
		default:
			kinds[i] = resolve.Special // resolved from its directory, as a file is
		}
	})
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("%s: %w", rels[i], err)
		}
	}
	return kinds, nil
}

// isRepo reports a nested repository or submodule checkout: a PATH naming
// one is a changed entry of its parent directory, like a file (C2, R7).
func isRepo(abs string) bool {
	return hasGitEntry(abs)
}

// isDirBehind reports whether what the link at abs leads to is a
// directory. It is not snap.DirLink (resolve.Worktree.DirLink), which asks
// whether p is a link first: here the kind is known already (the
// listing's or lstat's), so DirLink's lstat would be one more system call
// per linked PATH, and on Windows the two disagree on a junction, which
// the listing calls a link (resolve's winKind) while
// os.Lstat no longer sets ModeSymlink on a mount point: DirLink would
// resolve a PATH naming one from its parent.
func isDirBehind(abs string) bool {
	fi, err := os.Stat(abs)
	return err == nil && fi.IsDir()
}

// Below returns the directories of dirs at or below p that hold an
// instruction candidate (R7): the chains a change to p's instruction file
// reaches. dirs must be sorted.
func Below(e *resolve.Engine, dirs []string, p string) []string {
	var out []string
	i := sort.SearchStrings(dirs, p)
	for ; i < len(dirs); i++ {
		d := dirs[i]
		if p != "" && d != p && !strings.HasPrefix(d, p+"/") {
			if d > p+"/" {
				break
			}
			continue
		}
		info, err := e.Dir(d)
		if err == nil && (len(info.Files) > 0 || len(info.Also) > 0) {
			out = append(out, d)
		}
	}
	return out
}

func sorted(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}
