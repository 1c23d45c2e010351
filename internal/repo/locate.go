package repo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	formatcfg "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/rivumi/rivumi-lint/internal/rootpath"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

// Location is where git itself finds the repository from a directory
// (R1, F2): the Git directory, and the worktree's top level unless there is
// none (a bare repository, or a directory inside a Git directory).
type Location struct {
	Top    string // the worktree's top level; "" when there is no worktree
	GitDir string
	// BareConfig is core.bare = true: the repository is bare, not merely
	// entered through its Git directory.
	BareConfig bool
	// FromEnv says GIT_DIR or GIT_WORK_TREE decided the location.
	FromEnv bool
	// Entry is the directory holding the .git entry discovery found; ""
	// when GIT_DIR named the Git directory or one was found as itself.
	Entry string
}

// Elsewhere is the error of a location whose .git entry leads to a Git
// directory whose core.worktree names another directory than the one
// holding the entry, nil otherwise. Git takes that directory as the top;
// rivumi-lint takes a repository's top as the directory holding its .git
// and refuses the rest (R1): a .git file and a config written inside a
// project would otherwise move the root to anywhere on the machine — a
// directory above the project, a missing one.
func (l *Location) Elsewhere() error {
	if l.Entry == "" || l.Top == "" || l.FromEnv || sameDir(l.Entry, l.Top) {
		return nil
	}
	return fmt.Errorf("the repository at %s sets core.worktree to %s, not to the directory holding its .git: rivumi-lint takes a repository's top as the directory holding its .git (R1); "+
		"unset it (git -C %s config --unset core.worktree), or name the worktree with GIT_WORK_TREE", strconv.Quote(l.Entry), strconv.Quote(l.Top), shell.Quote(l.Entry))
}

// ErrNoWorktree says a repository has no worktree: it is bare, or the
// directory is inside its Git directory.
var ErrNoWorktree = errors.New("no worktree")

// NoWorktreeError is a location without a worktree where a mode needs one.
type NoWorktreeError struct {
	Dir, GitDir string
	Bare        bool // core.bare = true
}

func (e *NoWorktreeError) Error() string {
	if e.Bare {
		return fmt.Sprintf("%s is a bare repository: it has %v", e.GitDir, ErrNoWorktree)
	}
	return fmt.Sprintf("%s is inside the Git directory %s, which has %v", e.Dir, e.GitDir, ErrNoWorktree)
}

func (e *NoWorktreeError) Unwrap() error { return ErrNoWorktree }

// Locate finds the repository the way git does from dir (git -C dir), its
// environment included: GIT_DIR names the Git directory (relative to the
// working directory) and then no discovery takes place; GIT_WORK_TREE names
// the worktree (relative to the working directory). Without GIT_DIR, each
// directory from dir upwards is tried: one holding .git is a worktree's top
// level, one that is itself a Git directory is a bare repository (or the
// inside of a .git directory). core.bare and core.worktree are honoured as
// git honours them. Nothing found is ErrNotGit.
func Locate(dir string) (*Location, error) {
	abs, err := rootpath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("find the repository of %s: %w", dir, err)
	}
	if env := os.Getenv("GIT_DIR"); env != "" {
		return locateEnv(env)
	}
	for d := abs; ; {
		p := filepath.Join(d, ".git")
		// A dangling .git link is no repository: git takes the directory
		// as an ordinary one and looks further up (R1, #33.3).
		if fi, err := os.Lstat(p); err == nil && !danglingLink(p, fi) {
			if fi.IsDir() {
				// A .git directory that is no Git directory (an empty
				// one, say): git looks further up too.
				if isGitDirectory(p) {
					return discovered(p, d)
				}
			} else {
				gd, err := readGitFile(p, fi)
				if err != nil {
					return nil, err
				}
				return discovered(gd, d)
			}
		}
		if isGitDirectory(d) {
			return worktreeOf(d, "")
		}
		parent := filepath.Dir(d)
		if parent == d {
			return nil, fmt.Errorf("%s: %w (run inside a repository, or pass --root DIR)", abs, ErrNotGit)
		}
		d = parent
	}
}

// discovered is the location of Git directory gd, whose .git entry
// discovery found in directory d.
func discovered(gd, d string) (*Location, error) {
	loc, err := worktreeOf(gd, d)
	if err == nil {
		loc.Entry = d
	}
	return loc, err
}

// locateEnv is Locate with GIT_DIR set: the worktree is GIT_WORK_TREE,
// else core.worktree, else none when core.bare is set, else the working
// directory (git's implicit worktree, as in a hook of a linked worktree).
func locateEnv(env string) (*Location, error) {
	gd := fromCwd(env)
	bad := func(why string) error {
		return fmt.Errorf("GIT_DIR=%s: %s; git would refuse it too: unset GIT_DIR, or set it to the repository's Git directory", env, why)
	}
	fi, err := os.Stat(gd)
	switch {
	case err != nil:
		return nil, bad(err.Error())
	case fi.Mode().IsRegular():
		if gd, err = readGitFile(gd, fi); err != nil {
			return nil, bad(err.Error())
		}
	}
	if !isGitDirectory(gd) {
		return nil, bad("not a Git directory (no HEAD, objects and refs)")
	}
	wd, err := rootpath.Getwd()
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	// Git takes the working directory as the top level here. A hook of a
	// linked worktree (Git exports its GIT_DIR) that changes into a
	// subdirectory would then see another project root than the same
	// command run without the variable: inside the worktree the Git
	// directory belongs to, that worktree's top level is the top (R1).
	implicit := wd
	if own := ownTop(gd); own != "" {
		if _, ok := rootpath.WithinResolved(own, wd); ok {
			implicit = own
		}
	}
	loc, err := worktreeOf(gd, implicit)
	if err != nil {
		return nil, err
	}
	loc.FromEnv = true
	return loc, nil
}

// worktreeOf completes a location from its Git directory: implicit is the
// worktree top level git would take without configuration ("" when gd was
// found as a Git directory itself).
func worktreeOf(gd, implicit string) (*Location, error) {
	loc := &Location{GitDir: filepath.Clean(gd)}
	bare, worktree := coreWorktree(gd)
	loc.BareConfig = bare
	switch wt := os.Getenv("GIT_WORK_TREE"); {
	case wt != "":
		loc.Top, loc.FromEnv = fromCwd(wt), true
	case bare:
	case worktree != "":
		if !filepath.IsAbs(worktree) {
			worktree = filepath.Join(gd, worktree)
		}
		loc.Top = filepath.Clean(worktree)
	default:
		loc.Top = implicit
	}
	return loc, nil
}

// ownTop is the top level of the worktree whose Git directory is gd, when
// that worktree points back at gd: the directory holding a .git directory
// gd, or, for a linked worktree, the one its gitdir file names.
func ownTop(gd string) string {
	top := ""
	if b, err := os.ReadFile(filepath.Join(gd, "gitdir")); err == nil {
		top = filepath.Dir(strings.TrimSpace(string(b)))
	} else if filepath.Base(gd) == ".git" {
		top = filepath.Dir(gd)
	}
	if top == "" {
		return ""
	}
	p := filepath.Join(top, ".git")
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		if !sameDir(p, gd) {
			return ""
		}
	default:
		if back, err := readGitFile(p, fi); err != nil || !sameDir(back, gd) {
			return ""
		}
	}
	return top
}

// fromCwd makes a path from the environment absolute the way git reads it:
// relative to the working directory.
func fromCwd(p string) string {
	if abs, err := rootpath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// readGitFile reads a .git file ("gitdir: PATH", linked worktrees and
// submodules); a relative PATH is relative to the file's directory.
func readGitFile(p string, fi os.FileInfo) (string, error) {
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is neither a directory nor a file", p)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", p, err)
	}
	line, _, _ := strings.Cut(string(b), "\n")
	dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
	if !ok {
		return "", fmt.Errorf("%s: no gitdir: line", p)
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(p), dir)
	}
	return filepath.Clean(dir), nil
}

// isGitDirectory is git's test of a Git directory: a HEAD that is a link
// or names a reference or an object, and objects and refs directories (in
// the common directory of a linked worktree).
func isGitDirectory(d string) bool {
	common := CommonDir(d)
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	head := filepath.Join(d, "HEAD")
	fi, err := os.Lstat(head)
	if err != nil {
		return false
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return true
	}
	if !fi.Mode().IsRegular() || fi.Size() > 4096 {
		return false
	}
	b, err := os.ReadFile(head)
	if err != nil {
		return false
	}
	s := strings.TrimSpace(string(b))
	if strings.HasPrefix(s, "ref:") {
		return strings.HasPrefix(strings.TrimSpace(s[4:]), "refs/")
	}
	_, ok := ParseHash(s)
	return ok
}

// coreWorktree reads core.bare and core.worktree of Git directory gd from
// the common config, and from config.worktree with
// extensions.worktreeConfig. An unreadable config gives neither; opening
// the repository reports it.
func coreWorktree(gd string) (bare bool, worktree string) {
	common := CommonDir(gd)
	cfg, err := readGitConfig(filepath.Join(common, "config"))
	if err != nil {
		return false, ""
	}
	apply := func(c *formatcfg.Config) {
		core := c.Section("core")
		if core.Options.Has("bare") {
			bare = gitBool(core.Options.Get("bare"))
		}
		if core.Options.Has("worktree") {
			worktree = strings.TrimSpace(core.Options.Get("worktree"))
		}
	}
	apply(cfg)
	if ext := cfg.Section("extensions").Options; ext.Has("worktreeconfig") && gitBool(ext.Get("worktreeconfig")) {
		if wc, err := readGitConfig(filepath.Join(gd, "config.worktree")); err == nil {
			apply(wc)
		}
	}
	return bare, worktree
}

// gitBool is the value of a Git config boolean that is present: true,
// yes, on, 1, or no value at all (go-git gives "").
func gitBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "true", "yes", "on", "1":
		return true
	}
	return false
}

// sameDir reports whether a and b name the same directory, through links
// too.
func sameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return err1 == nil && err2 == nil && ra == rb
}

// objectSearchDirs are the object directories to read: objectDirs, led by
// what Git's environment adds when GIT_DIR names this repository —
// GIT_OBJECT_DIRECTORY and GIT_ALTERNATE_OBJECT_DIRECTORIES. A pre-receive
// hook sees the pushed objects only there (Git's quarantine directory).
func (r *Repo) objectSearchDirs() []string {
	dirs := r.objectDirs()
	env := os.Getenv("GIT_DIR")
	if env == "" || !sameDir(fromCwd(env), r.GitDir) {
		return dirs
	}
	var out []string
	add := func(d string) {
		for _, have := range out {
			if have == d {
				return
			}
		}
		out = append(out, d)
	}
	if od := os.Getenv("GIT_OBJECT_DIRECTORY"); od != "" {
		od = fromCwd(od)
		add(od)
		for _, a := range alternates(od, 0) {
			add(a)
		}
	}
	for _, a := range filepath.SplitList(os.Getenv("GIT_ALTERNATE_OBJECT_DIRECTORIES")) {
		if a = strings.TrimSpace(a); a != "" {
			a = fromCwd(a)
			add(a)
			for _, b := range alternates(a, 0) {
				add(b)
			}
		}
	}
	if len(out) == 0 {
		return dirs
	}
	for _, d := range dirs {
		add(d)
	}
	return out
}

// danglingLink reports whether p, whose Lstat is fi, is a link that leads
// nowhere.
func danglingLink(p string, fi os.FileInfo) bool {
	if fi.Mode()&os.ModeSymlink == 0 {
		return false
	}
	_, err := os.Stat(p)
	return err != nil
}
