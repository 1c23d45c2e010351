// Package project opens what every command works on: the project root
// (R1), its configuration (§8) and an engine over its worktree.
package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rivumi/rivumi-lint/config"
	"github.com/rivumi/rivumi-lint/repo"
	"github.com/rivumi/rivumi-lint/resolve"
)

// ConfigName is the config file looked for at the root.
const ConfigName = ".rivumi-lint.yaml"

// Options say where the project is and how to read it.
type Options struct {
	Root             string // --root; "" = the Git worktree around the working directory
	Config           string // --config; "" = ROOT/.rivumi-lint.yaml when present
	UserInstructions string // --user-instructions; "" = no user layer
}

// Project is an opened project.
type Project struct {
	Root   string // absolute
	GitDir string // "" when the root is not in a Git worktree (--root outside Git)
	// GitTop is the top of the Git worktree holding Root, and Prefix Root's
	// slash path below it ("" unless --root names a subdirectory of a
	// worktree): the index and the ignore files are the worktree's.
	GitTop, Prefix string
	Config         *config.Config
	Engine         *resolve.Engine
	// Notes are things the run should tell the user, such as a fall-back to
	// the git binary.
	Notes   []string
	wt      *resolve.Worktree
	allDirs []string
	tracked map[string]bool // directories with tracked paths, relative to GitTop
	wd      string          // the working directory, once asked for
}

// place is where a run's project is (R1, F2): the root, and the Git
// repository around it as git finds it. Open and OpenDiff both start here,
// so every mode agrees on the root, the Git top level and the prefix.
type place struct {
	root   string // absolute: --root, else the worktree's top level
	top    string // the worktree's top level; "" without Git or without a worktree
	gitDir string // "" when the root is not in a Git repository (--root outside Git)
	prefix string // root's slash path below top ("" unless --root names a subdirectory)
	// noWorktree is set for a bare repository (or a root inside a Git
	// directory): only commits can be checked there.
	noWorktree *repo.NoWorktreeError
}

// locate finds the project root and its repository: --root DIR, or the
// Git worktree around the working directory, with the environment git
// honours (GIT_DIR, GIT_WORK_TREE: repo.Locate). --root outside any
// repository is a plain directory (gitDir ""); without --root that is an
// error (R1).
func locate(o Options) (place, error) {
	var pl place
	start := ""
	if o.Root != "" {
		root, err := filepath.Abs(o.Root)
		if err != nil {
			return pl, fmt.Errorf("--root %s: %w", o.Root, err)
		}
		fi, err := os.Stat(root)
		if err != nil || !fi.IsDir() {
			return pl, fmt.Errorf("--root %s: not a directory", o.Root)
		}
		pl.root, start = root, root
	} else {
		wd, err := os.Getwd()
		if err != nil {
			return pl, fmt.Errorf("working directory: %w", err)
		}
		start = wd
	}
	loc, err := repo.Locate(start)
	switch {
	case errors.Is(err, repo.ErrNotGit) && o.Root != "":
		return pl, nil
	case err != nil:
		return pl, err
	}
	pl.gitDir = loc.GitDir
	if loc.Top == "" {
		pl.noWorktree = &repo.NoWorktreeError{Dir: start, GitDir: loc.GitDir, Bare: loc.BareConfig}
		if pl.root == "" {
			pl.root = loc.GitDir
		}
		return pl, nil
	}
	pl.top = loc.Top
	if pl.root == "" {
		pl.root = loc.Top
		return pl, nil
	}
	rel, ok := repo.Within(loc.Top, pl.root)
	if !ok {
		return pl, fmt.Errorf("--root %s is outside the worktree %s of the Git directory %s (set by GIT_DIR, GIT_WORK_TREE or core.worktree): pass a --root inside that worktree, or unset those variables", o.Root, loc.Top, loc.GitDir)
	}
	pl.prefix = rel
	return pl, nil
}

// Open finds the root, loads the config and opens the worktree source.
func Open(o Options) (*Project, error) {
	pl, err := locate(o)
	if err != nil {
		return nil, err
	}
	if pl.noWorktree != nil {
		return nil, fmt.Errorf("%w: checking files (the worktree mode, PATHs) needs a worktree; check commits there with --base REV [--head REV], as a pre-receive hook does", pl.noWorktree)
	}
	p := &Project{Root: pl.root, GitTop: pl.top, Prefix: pl.prefix, GitDir: pl.gitDir}
	if p.GitTop == "" {
		p.GitTop = p.Root
	}
	if p.Config, err = loadConfig(p.Root, o.Config); err != nil {
		return nil, err
	}
	var recorded map[string]resolve.Kind
	if p.GitDir != "" {
		scan, err := repo.ScanIndex(p.GitTop)
		if err != nil {
			return nil, fmt.Errorf("read Git index of %s: %w", p.GitTop, err)
		}
		if scan.Note != "" {
			p.Notes = append(p.Notes, scan.Note)
		}
		recorded = underPrefix(scan.Kinds, p.Prefix)
		p.tracked = scan.Tracked
	}
	if p.wt, err = resolve.OpenWorktree(p.Root, recorded); err != nil {
		return nil, err
	}
	opt := resolve.Options{
		Overrides:    p.Config.Filenames.Override,
		Normals:      p.Config.Filenames.Normal,
		MaxFileBytes: p.Config.Limits.MaxFileBytes,
	}
	if o.UserInstructions != "" {
		u, err := UserFile(o.UserInstructions)
		if err != nil {
			return nil, err
		}
		u.Location = Location(p.Root, u.Path)
		opt.User = u
	}
	p.Engine = resolve.New(p.wt, opt)
	return p, nil
}

// underPrefix keeps the entries below prefix, relative to it.
func underPrefix(kinds map[string]resolve.Kind, prefix string) map[string]resolve.Kind {
	if prefix == "" {
		return kinds
	}
	out := map[string]resolve.Kind{}
	for p, k := range kinds {
		if rest, ok := strings.CutPrefix(p, prefix+"/"); ok {
			out[rest] = k
		}
	}
	return out
}

// Close releases the worktree, if one was opened.
func (p *Project) Close() error {
	if p.wt == nil {
		return nil
	}
	return p.wt.Close()
}

func loadConfig(root, explicit string) (*config.Config, error) {
	if explicit != "" {
		return config.Load(explicit)
	}
	path := filepath.Join(root, ConfigName)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(), nil
	}
	// The repository's own config may come from an untrusted change: never
	// read it through a link (§10), or an error message could echo the target.
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("%s is a symbolic link; replace it with a regular file (rivumi-lint does not follow links)", path)
	}
	return config.Load(path)
}

// UserFile describes a user-level instruction file given on the command
// line; it must exist (a typo must not silently drop the user layer).
func UserFile(name string) (*resolve.UserFile, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return nil, fmt.Errorf("user instructions %s: %w", name, err)
	}
	if _, err := os.Lstat(abs); err != nil {
		return nil, fmt.Errorf("user instructions: %w", err)
	}
	return &resolve.UserFile{Path: abs, Display: Tilde(abs)}, nil
}

// Location is abs as a slash path relative to root when it lies inside
// the root, "" otherwise: the repository location of a user-level file
// given on the command line (F10).
func Location(root, abs string) string {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(rel)
}

// Tilde shows a path under the home directory as ~/… (P2).
func Tilde(abs string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return filepath.ToSlash(abs)
	}
	if rel, err := filepath.Rel(home, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "~/" + filepath.ToSlash(rel)
	}
	return filepath.ToSlash(abs)
}

// Rel turns a command-line path into a slash path relative to the root. A
// path with a ".." element or one outside the root is refused.
func (p *Project) Rel(arg string) (string, error) {
	for _, el := range strings.Split(filepath.ToSlash(arg), "/") {
		if el == ".." {
			return "", fmt.Errorf("path %q: \"..\" is not allowed; pass paths inside the project root %s", arg, p.Root)
		}
	}
	abs, err := p.abs(arg)
	if err != nil {
		return "", fmt.Errorf("path %q: %w", arg, err)
	}
	rel, err := filepath.Rel(p.Root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		// The working directory may reach the root through a link.
		if real, err2 := filepath.EvalSymlinks(filepath.Dir(abs)); err2 == nil {
			if rr, err3 := filepath.EvalSymlinks(p.Root); err3 == nil {
				if r2, err4 := filepath.Rel(rr, filepath.Join(real, filepath.Base(abs))); err4 == nil && r2 != ".." && !strings.HasPrefix(r2, ".."+string(filepath.Separator)) {
					return cleanRel(r2), nil
				}
			}
		}
		return "", fmt.Errorf("path %q is outside the project root %s", arg, p.Root)
	}
	return cleanRel(rel), nil
}

// abs is filepath.Abs with the working directory asked for once (a
// pre-commit hook passes a thousand paths).
func (p *Project) abs(arg string) (string, error) {
	if filepath.IsAbs(arg) {
		return filepath.Clean(arg), nil
	}
	if p.wd == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		p.wd = wd
	}
	return filepath.Join(p.wd, arg), nil
}

func cleanRel(rel string) string {
	rel = filepath.ToSlash(rel)
	if rel == "." {
		return ""
	}
	return rel
}
