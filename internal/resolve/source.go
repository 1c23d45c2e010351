package resolve

import "errors"

// Kind is what a directory entry is, as far as the read constraints care.
type Kind int

const (
	Missing   Kind = iota // no entry of that name
	Regular               // a regular file
	Symlink               // a symbolic link (or a path Git records as one, mode 120000)
	Dir                   // a directory
	Submodule             // a Git submodule (tree/index mode 160000)
	Special               // FIFO, socket, device or anything else that is not a regular file
)

func (k Kind) String() string {
	switch k {
	case Missing:
		return "missing"
	case Regular:
		return "regular file"
	case Symlink:
		return "symbolic link"
	case Dir:
		return "directory"
	case Submodule:
		return "submodule"
	default:
		return "special file"
	}
}

// Entry is one name inside a directory of a Source.
type Entry struct {
	Name string
	Kind Kind
	// Size is the byte size when known (regular files); -1 when unknown.
	Size int64
	// Note explains the kind when it is not obvious from the entry itself:
	// a noun phrase with its article that completes "it is …" in a
	// finding's sentence, e.g. "a FIFO", "a junction (…)", "a submodule
	// (Git records it with mode 160000)".
	Note string
	// Unstaged is set on an entry the Git index records as a link (Kind
	// Symlink, from the index) where the worktree holds a regular file
	// and core.symlinks is true: the link was replaced and the change is
	// not staged (`git add` records it).
	Unstaged bool
}

// Source is where the engine reads a tree of files from: the worktree on
// disk, the Git index or a commit's tree (R6). All paths are slash-separated
// and relative to the project root; the root directory itself is "".
//
// Implementations never follow symbolic links: a link is reported as an entry
// of Kind Symlink and is never opened (C1).
type Source interface {
	// Name is "worktree", "index" or "tree".
	Name() string
	// List returns the entries of directory dir, fs.ErrNotExist when dir does
	// not exist, or a *LinkedDirError when a directory on the way is a link.
	// The order is unspecified.
	//
	// List, Lstat, Read and LinkTarget return a *FatalError when the source
	// itself cannot answer (a missing or corrupt Git object, F6); every
	// other error belongs to the one file or directory asked about (C5).
	List(dir string) ([]Entry, error)
	// Lstat describes the entry at p without opening it. It is used only for
	// candidates below a symlinked directory, which are reported, never read.
	Lstat(p string) (Entry, error)
	// Read returns at most limit+1 bytes of the regular file at p, opening it
	// without following links and without blocking. It returns the kind the
	// opened object turned out to be; when that is not Regular the data is nil.
	Read(p string, limit int64) (data []byte, kind Kind, size int64, err error)
	// LinkTarget returns the target text of the symbolic link at p, without
	// touching what it points to. Returns "" when it cannot be known; the
	// error is a *FatalError or nil.
	LinkTarget(p string) (string, error)
}

// Snapshot is a Source a run's directory stage reads (R7): the worktree,
// a commit's tree, the index, and either of those read as its checkout
// holds it (gitattr). Besides the engine's reads it lists directories
// below one, tells links to directories, and reads ahead what the engine
// will read. Kinds are Lstat's, and Read's of the object it opens.
type Snapshot interface {
	Source
	// DirsBelow returns dir and every directory below it, sorted; a link
	// to a directory is listed itself, never descended into (C1). A dir
	// that is not a directory gives none.
	DirsBelow(dir string) ([]string, error)
	// CandidateDirsBelow returns, sorted, directories at or below dir: a
	// superset of those that hold an entry called like one of names (the
	// engine decides), with the links to directories. A dir that is not
	// a directory gives none.
	CandidateDirsBelow(dir string, names []string) ([]string, error)
	// DirLink reports whether p is a symbolic link that leads to a
	// directory, links on the way to p followed as lstat(2) does; the
	// directory stage resolves such a link itself, so the candidates
	// behind it are reported (C1).
	DirLink(p string) (bool, error)
	// Prefetch reads ahead, on several goroutines, what the engine will
	// read for dirs and every directory above them: their layer files
	// (the first of names, in priority order, that has an entry, when it
	// is a regular file: R2; limit is the engine's MaxFileBytes) and, on
	// the disk, their listings. Errors are not kept: the engine meets
	// them itself.
	Prefetch(dirs, names []string, limit int64)
}

// FatalError is an error of a source that makes the whole answer
// unknowable, not a property of one file: a Git object that is missing or
// corrupt, an index that cannot be read. It is never turned into a finding
// (a rejected layer would be a shorter answer, F6): the engine, the skills
// and every caller return it, and the command exits 2 with its text, which
// names the object and the fix.
type FatalError struct{ Err error }

func (e *FatalError) Error() string { return e.Err.Error() }
func (e *FatalError) Unwrap() error { return e.Err }

// Fatal wraps err as a *FatalError (nil stays nil; a fatal error is not
// wrapped twice).
func Fatal(err error) error {
	if err == nil || IsFatal(err) {
		return err
	}
	return &FatalError{Err: err}
}

// IsFatal reports whether err is or wraps a *FatalError.
func IsFatal(err error) bool {
	var fe *FatalError
	return errors.As(err, &fe)
}
