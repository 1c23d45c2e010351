package fix

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/rivumi/rivumi-lint/internal/outfile"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// snapshot is a regular file as the fix read it: its bytes, mode and a
// stamp to see, just before the write, that nobody changed it meanwhile.
type snapshot struct {
	data  []byte
	mode  fs.FileMode
	size  int64
	mtime time.Time
	sum   [32]byte
}

func (s *snapshot) same(o *snapshot) bool {
	return s.size == o.size && s.mtime.Equal(o.mtime) && s.sum == o.sum && s.mode == o.mode
}

// errChanged marks a file that changed between the read and the write.
var errChanged = errors.New("it changed since the fix read it (another program is writing it?); run fix again")

// checkDirs returns an error when a directory between root and the slash
// path rel (exclusive) is a symbolic link or not a directory: the fix
// never writes through a link (C1, X1). It is openDir's check.
func checkDirs(root, rel string) error {
	d, _, err := openDir(root, rel)
	if err == nil {
		d.Close()
	}
	return err
}

// readAt is readIn of the slash path rel below root, reached through
// openDir: no link is followed on the way or at the file.
func readAt(root, rel string, limit int64) (*snapshot, error) {
	d, name, err := openDir(root, rel)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return readIn(d, name, limit)
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	}
	if n := resolve.ModeNote(m); n != "" {
		return "a " + n
	}
	return "not regular"
}

// Hooks run in the windows in which another program could change what a
// fix checked: tests set them to make that change (Options.Hooks); nil
// runs nothing.
type Hooks struct {
	// BeforeWrite runs after apply checked the directories on a change's
	// path and before it writes: the window in which a directory could be
	// swapped for a link.
	BeforeWrite func(abs string)
	// BeforeCommit runs after the new content is in its temporary file
	// and before the fix checks that the original did not change: the
	// window another program could write in.
	BeforeCommit func(d *os.Root, name string)
}

// openDir opens the directory holding the slash path rel below root, one
// component at a time: each must be a directory, not a link, and the
// handle opened must be the entry just checked. Every later step of a
// write works through the handle, so a component swapped for a link
// after the check is not followed (C1, X1). name is rel's last element.
func openDir(root, rel string) (d *os.Root, name string, err error) {
	d, err = os.OpenRoot(root)
	if err != nil {
		return nil, "", err
	}
	parts := strings.Split(rel, "/")
	cur := ""
	for _, el := range parts[:len(parts)-1] {
		cur = path.Join(cur, el)
		next, err := openSub(d, el, cur)
		d.Close()
		if err != nil {
			return nil, "", err
		}
		d = next
	}
	return d, parts[len(parts)-1], nil
}

func openSub(d *os.Root, el, rel string) (*os.Root, error) {
	fi, err := d.Lstat(el)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return nil, fmt.Errorf("it sits below the symbolic link %s, and fix never writes through a link", rel)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a directory", rel)
	}
	next, err := d.OpenRoot(el)
	if err != nil {
		return nil, err
	}
	if now, err := next.Stat("."); err != nil || !os.SameFile(fi, now) {
		next.Close()
		return nil, fmt.Errorf("%s was replaced while fix opened it (by a link?), and fix never writes through a link; run fix again", rel)
	}
	return next, nil
}

// readIn reads the regular file name in the directory d, without
// blocking on a FIFO, at most limit bytes (a larger file is an error): the entry
// is checked with Lstat, and the descriptor opened is checked to be that
// very file, so a link put in its place meanwhile is not followed.
func readIn(d *os.Root, name string, limit int64) (*snapshot, error) {
	fi, err := d.Lstat(name)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("it is not a regular file (%s)", kindOf(fi.Mode()))
	}
	f, err := d.OpenFile(name, os.O_RDONLY|resolve.NoFollowFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	now, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !os.SameFile(fi, now) || !now.Mode().IsRegular() {
		return nil, errChanged
	}
	if now.Size() > limit {
		return nil, &tooBigError{now.Size(), limit}
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errChanged
	}
	return &snapshot{data: data, mode: now.Mode(), size: now.Size(), mtime: now.ModTime(), sum: sha256.Sum256(data)}, nil
}

// tooBigError is a file over the limit fix reads.
type tooBigError struct{ size, limit int64 }

func (e *tooBigError) Error() string {
	return fmt.Sprintf("it is %d bytes, over the %d bytes fix reads (limits.max_file_bytes)", e.size, e.limit)
}

// tempName is a name for a temporary entry beside name; create retries
// with the next one when it exists (an entry of the user's is never
// opened or replaced: creation is exclusive).
func tempName(name, kind string, i int) string {
	return fmt.Sprintf(".%s.rivumi-fix%s-%d-%d", name, kind, os.Getpid(), i)
}

// replaceFile writes data to a temporary file beside name in d (created
// exclusively, mode 0600 while it is written, then mode: never wider
// than the original's), checks that name still holds what was read
// (was), and renames the temporary file over it: a reader sees the old
// file or the new one, never a part. The temporary file is removed on
// every failure. A file with other hard links gets a new inode: its other
// names keep the old text (docs/fix.md).
func replaceFile(d *os.Root, name string, data []byte, mode fs.FileMode, was *snapshot, limit int64, temps *outfile.Temps, beforeCommit func(d *os.Root, name string)) error {
	var tmp *os.File
	var tmpName string
	// Recorded in temps from creation to the rename: a signal's Clean
	// removes it (#38.4).
	id, err := temps.Track(func() (string, func() error, error) {
		for i := 0; ; i++ {
			tmpName = tempName(name, "", i)
			f, err := d.OpenFile(tmpName, os.O_WRONLY|os.O_CREATE|os.O_EXCL|resolve.NoFollowFlags, 0o600)
			if errors.Is(err, fs.ErrExist) && i < 100 {
				continue
			}
			if err != nil {
				return "", nil, err
			}
			tmp = f
			// Closed first: Windows removes no file that is open.
			return filepath.Join(d.Name(), tmpName), func() error { f.Close(); return d.Remove(tmpName) }, nil
		}
	})
	if err != nil {
		return err
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			temps.Done(id, func() error { return d.Remove(tmpName) })
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(mode.Perm() | mode&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if beforeCommit != nil {
		beforeCommit(d, name)
	}
	if was != nil {
		now, err := readIn(d, name, limit)
		if err != nil || !now.same(was) {
			return &skipError{errChanged}
		}
	}
	if err := temps.Done(id, func() error { return d.Rename(tmpName, name) }); err != nil {
		return err
	}
	done = true
	return nil
}

// skipError is a fix given up safely at write time: nothing was written,
// the finding stays (a skip line, not a write error).
type skipError struct{ err error }

func (e *skipError) Error() string { return e.err.Error() }
func (e *skipError) Unwrap() error { return e.err }

// replaceWithLink makes name in d a symbolic link to target through a
// temporary link beside it and a rename.
func replaceWithLink(d *os.Root, name, target string, temps *outfile.Temps) error {
	var tmp string
	id, err := temps.Track(func() (string, func() error, error) {
		for i := 0; ; i++ {
			tmp = tempName(name, "-link", i)
			err := d.Symlink(target, tmp)
			if errors.Is(err, fs.ErrExist) && i < 100 {
				continue
			}
			if err != nil {
				return "", nil, err
			}
			return filepath.Join(d.Name(), tmp), func() error { return d.Remove(tmp) }, nil
		}
	})
	if err != nil {
		return err
	}
	return temps.Done(id, func() error {
		err := d.Rename(tmp, name)
		if err != nil {
			d.Remove(tmp)
		}
		return err
	})
}

// applyEdits applies non-overlapping edits ordered by offset to b; ok is
// false when one does not fit b.
func applyEdits(b []byte, edits []edit) ([]byte, bool) {
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last || e.end < e.start || e.end > len(b) {
			return nil, false
		}
		out.Write(b[last:e.start])
		out.WriteString(e.text)
		last = e.end
	}
	out.Write(b[last:])
	return out.Bytes(), true
}

type edit struct {
	start, end int
	text       string
}
