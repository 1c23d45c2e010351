// Package project opens what every command works on, the project root
// (R1) and its Git repository, and runs the one pipeline of check and
// preview over it: scope → engine → skills → rules → drift (pipeline.go).
package project

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
	"github.com/rivumi/rivumi-lint/internal/rootpath"
)

// ConfigName is the config file looked for at the root.
const ConfigName = ".rivumi-lint.yaml"

// Options say where the project is and how to read it.
type Options struct {
	Root             string // --root; "" = the Git worktree around the working directory
	Config           string // --config; "" = ROOT/.rivumi-lint.yaml when present
	UserInstructions string // --user-instructions; "" = no user layer
	// Agents are the agent profiles to resolve (--agent, A1); nil keeps
	// the config's agents.
	Agents []string
	// Env is where the agents find their user files (agent.EnvFrom, as
	// the command finds them); the zero value reads none.
	Env agent.Env
	// Overlay holds unsaved editor texts by slash path relative to the
	// root: the worktree source reads them instead of the disk's bytes
	// (the language server, X4; project/overlay.go).
	Overlay map[string][]byte
	// Targets are the paths the run is about, as given on the command
	// line (check's and fix's PATHs, preview's DIR). With no Root, a
	// repository inside the worktree that holds them all — a submodule
	// or a nested repository — is the project root, as `cd` there would
	// make it (R1, inner.go).
	Targets []string
	// Enter makes a target that is itself the top of another repository
	// that repository (preview DIR); otherwise it is an entry of the
	// repository around it, as pre-commit passes a changed gitlink.
	Enter bool
	// Stay refuses targets in another repository instead of moving the
	// root there (fix never writes into another repository, X1).
	Stay bool
	// Command is the subcommand, for the commands messages suggest.
	Command string
	// StdinPath names the file StdinText stands for (check
	// --stdin-filename): the worktree source reads the text in its place.
	// The file must exist, as an editor's buffer's does.
	StdinPath string
	StdinText []byte

	// prepareBesideMin, when not 0, replaces lint.DefaultBesideMin
	// (tests make the rules run beside the resolution on small trees).
	prepareBesideMin int
	// fullDrift resolves every base chain, where the drift skips those
	// whose inputs are the same at the base (repo.ChainInputs): the twin
	// tests compare the two.
	fullDrift bool
	// scanGate, when not nil (tests), holds the index scan beside the
	// first listings until they are done (repo.ScanIndexBeside).
	scanGate chan struct{}
}

// Project is an opened project: where it is (R1, F2), found once for
// every scope. Its sources (the worktree, the index, a commit's tree) are
// opened by the run that reads them (Start).
type Project struct {
	Root   string // absolute
	GitDir string // "" when the root is not in a Git repository (--root outside Git)
	// GitTop is the top of the Git worktree holding Root (Root without a
	// worktree), and Prefix Root's slash path below it ("" unless --root
	// names a subdirectory of a worktree): the index and the ignore files
	// are the worktree's.
	GitTop, Prefix string
	// Notes are things the run should tell the user, such as a fall-back to
	// the git binary.
	Notes []Note
	opts  Options
	// noWorktree is set for a bare repository (or a root inside a Git
	// directory): only commits can be checked there.
	noWorktree *repo.NoWorktreeError
	wt         *resolve.Worktree
	// repo is the one repository the project opens (openRepo, once:
	// repoOnce), nil until asked for or when it failed (repoErr).
	repo     *repo.Repo
	repoErr  error
	repoOnce sync.Once
	allDirs  []string
	tracked  func(dir string) bool // a tracked path lies below dir (relative to GitTop)
	// skipIgnores are the index's skip-worktree .gitignore entries (F4).
	skipIgnores []repo.IndexEntry
	// unmerged are the paths below the root that the index holds in
	// conflict stages (RL012 in the worktree mode).
	unmerged map[string]bool
	// trackedDirs is about how many directories hold tracked paths: what
	// a whole-worktree walk reserves room for.
	trackedDirs int
	// way are the directories the targets lie on the way to, where an
	// uninitialised submodule is an ordinary directory (unpopulated.go);
	// set before the worktree opens.
	way map[string]bool
	// scanned says the index was scanned with tracked (worktree's
	// withTracked); scans without it leave tracked nil.
	scanned bool
	wd      string // the working directory, once asked for
}

// locate finds the project root and its repository: --root DIR, or the
// Git worktree around the working directory, with the environment git
// honours (GIT_DIR, GIT_WORK_TREE: repo.Locate). --root outside any
// repository is a plain directory (GitDir ""); without --root that is an
// error (R1).
func (p *Project) locate(o Options) error {
	start := ""
	if o.Root != "" {
		root, err := rootpath.Abs(o.Root)
		if err != nil {
			return fmt.Errorf("--root %s: %w", o.Root, err)
		}
		fi, err := os.Stat(root)
		if err != nil || !fi.IsDir() {
			return fmt.Errorf("--root %s: not a directory", o.Root)
		}
		p.Root, start = root, root
	} else {
		wd, err := rootpath.Getwd()
		if err != nil {
			return fmt.Errorf("working directory: %w", err)
		}
		start = wd
	}
	loc, err := repo.Locate(start)
	switch {
	case errors.Is(err, repo.ErrNotGit) && o.Root != "":
		return nil
	case err != nil:
		return err
	}
	if err := loc.Elsewhere(); err != nil {
		return err
	}
	p.GitDir = loc.GitDir
	if loc.Top == "" {
		p.noWorktree = &repo.NoWorktreeError{Dir: start, GitDir: loc.GitDir, Bare: loc.BareConfig}
		if p.Root == "" {
			p.Root = loc.GitDir
		}
		return nil
	}
	p.GitTop = loc.Top
	if p.Root == "" {
		p.Root = loc.Top
		return nil
	}
	rel, ok := rootpath.WithinResolved(loc.Top, p.Root)
	if !ok {
		return fmt.Errorf("--root %s is outside the worktree %s of the Git directory %s (set by GIT_DIR, GIT_WORK_TREE or core.worktree): pass a --root inside that worktree, or unset those variables", o.Root, loc.Top, loc.GitDir)
	}
	p.Prefix = rel
	return nil
}

// Open finds the project root, the Git repository around it, the Git top
// level and the prefix (R1, F2): every scope and the preview agree on them.
func Open(o Options) (*Project, error) {
	p := &Project{opts: o}
	if err := p.locate(o); err != nil {
		return nil, err
	}
	if p.GitTop == "" && p.noWorktree == nil {
		p.GitTop = p.Root
	}
	if err := p.enterInner(o); err != nil {
		return nil, err
	}
	if o.StdinPath != "" {
		if err := p.useStdin(o); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// worktree opens the worktree source (the worktree mode and the preview)
// with the kinds the index records (R10: read only). withTracked asks
// for the directories that hold tracked paths too (p.tracked), which only
// a walk of directories needs (scope.Walker): a check of PATHs that names
// no instruction file walks none.
func (p *Project) worktree(withTracked bool) (*resolve.Worktree, error) {
	if p.noWorktree != nil && p.opts.Command == "fix" {
		return nil, fmt.Errorf("fix writes in a worktree, and %s has none (a bare repository?): run it in a checkout", p.Root)
	}
	if p.noWorktree != nil {
		return nil, fmt.Errorf("%w: checking files (the worktree mode, PATHs) needs a worktree; check commits there with --base REV [--head REV], as a pre-receive hook does", p.noWorktree)
	}
	if p.wt != nil && (p.scanned || !withTracked || p.GitDir == "") {
		return p.wt, nil
	}
	var recorded map[string]resolve.Kind
	if p.GitDir != "" {
		scan, err := repo.ScanIndexOf(p.GitTop, withTracked)
		if err != nil {
			return nil, indexError(p.GitTop, err)
		}
		recorded = p.useScan(scan, withTracked, p.wt == nil)
	}
	if p.wt != nil {
		return p.wt, nil // opened before without the tracked directories
	}
	wt, err := p.openWorktree(recorded)
	if err != nil {
		return nil, err
	}
	p.wt = wt
	return wt, nil
}

// openWorktree opens the worktree source with the kinds the index records
// and the editor's unsaved texts (Options.Overlay, X4): both ways of
// opening it (worktree and worktreeBeside) go through here.
func (p *Project) openWorktree(recorded map[string]resolve.Kind) (*resolve.Worktree, error) {
	wt, err := resolve.OpenWorktree(p.Root, recorded)
	if err != nil {
		return nil, err
	}
	if p.opts.Overlay != nil {
		wt.SetOverlay(p.opts.Overlay)
	}
	wt.SetUnmerged(p.unmerged)
	if p.GitDir != "" {
		top, gitDir := p.GitTop, p.GitDir
		// Read only when the index's kinds meet a plain file (C1, #33.8);
		// a failure leaves the note hedged, never the run stopped.
		wt.SetSymlinksOff(sync.OnceValues(func() (bool, bool) {
			off, err := repo.SymlinksOff(top, gitDir)
			return off, err == nil
		}))
	}
	return wt, nil
}

func indexError(top string, err error) error {
	return fmt.Errorf("read Git index of %s: %w", top, err)
}

// useScan takes what the index scan found: its note (when first), the
// tracked directories when asked for, and the kinds it records below the
// prefix, which it returns.
func (p *Project) useScan(scan *repo.IndexScan, withTracked, first bool) map[string]resolve.Kind {
	if scan.Note != "" && first {
		p.Notes = append(p.Notes, repo.Info("%s", scan.Note))
	}
	if withTracked {
		// Git never ignores a tracked path: a tracked link to a directory
		// that an ignore pattern matches is still listed by the walk, so
		// the candidates behind it are reported (F4, C1).
		links := map[string]bool{}
		for path, k := range scan.Kinds {
			if k == resolve.Symlink {
				links[path] = true
			}
		}
		dirs := scan.Tracked
		p.tracked = func(d string) bool { return links[d] || dirs.Has(d) }
		p.trackedDirs = dirs.Len()
		p.skipIgnores = scan.SkipIgnores
		p.scanned = true
	}
	p.unmerged = underPrefix(scan.Unmerged, p.Prefix)
	return p.unpopulated(underPrefix(scan.Kinds, p.Prefix))
}

// worktreeBeside is worktree on two cores: it opens the worktree without
// the index's kinds while the index is scanned beside it
// (repo.ScanIndexBeside), so that the first listings need not wait for
// the scan. scanning reports whether the scan still runs; join waits for
// it, gives its kinds to the worktree (resolve.Worktree.Record: listings
// made without them are made again when they matter) and returns its
// error; join may be called more than once and must be called before the
// worktree is read further. With one processor it is worktree itself,
// its serial twin (F1): the same state once join returns. It needs a
// repository with a worktree that is not open yet.
func (p *Project) worktreeBeside(withTracked bool) (wt *resolve.Worktree, scanning func() bool, join func() error, err error) {
	pending := repo.ScanIndexBeside(p.GitTop, withTracked, p.opts.scanGate)
	if pending == nil {
		wt, err := p.worktree(withTracked)
		return wt, nil, func() error { return nil }, err
	}
	var joined bool
	var jerr error
	join = func() error {
		if joined {
			return jerr
		}
		joined = true
		scan, err := pending.Wait()
		if err != nil {
			jerr = indexError(p.GitTop, err)
			return jerr
		}
		recorded := p.useScan(scan, withTracked, true)
		if p.wt != nil {
			p.wt.Record(recorded)
			p.wt.SetUnmerged(p.unmerged)
		}
		return nil
	}
	wt, err = p.openWorktree(nil)
	if err != nil {
		if jerr := join(); jerr != nil {
			return nil, nil, nil, jerr // the serial order: the index first
		}
		return nil, nil, nil, err
	}
	p.wt = wt
	return wt, pending.Running, join, nil
}

// engineOptions are the engine's settings from cfg, with the user layer
// of --user-instructions.
func (p *Project) engineOptions(cfg *config.Config) (resolve.Options, error) {
	if p.opts.Agents != nil {
		cfg.Agents = p.opts.Agents
	}
	opt := resolve.Options{
		Overrides:    cfg.Filenames.Override,
		Normals:      cfg.Filenames.Normal,
		MaxFileBytes: cfg.Limits.MaxFileBytes,
	}
	for _, row := range profilesOn(cfg) {
		if row.Also != nil {
			opt.Also = append(opt.Also, row.Also(cfg.Section(row.Profile.Name))...)
		}
		opt.AnyCase = append(opt.AnyCase, row.AnyCase...)
	}
	if p.opts.UserInstructions != "" {
		u, err := UserFile(p.opts.UserInstructions)
		if err != nil {
			return opt, err
		}
		u.Location, _ = rootpath.Within(p.Root, u.Path)
		opt.User = u
	}
	return opt, nil
}

// underPrefix keeps the entries below prefix, relative to it.
func underPrefix[V any](kinds map[string]V, prefix string) map[string]V {
	if prefix == "" || kinds == nil {
		return kinds
	}
	out := map[string]V{}
	for p, k := range kinds {
		if rest, ok := strings.CutPrefix(p, prefix+"/"); ok {
			out[rest] = k
		}
	}
	return out
}

// Close releases the sources that were opened.
func (p *Project) Close() error {
	var err error
	if p.wt != nil {
		err = p.wt.Close()
	}
	if p.repo != nil {
		err = errors.Join(err, p.repo.Close())
	}
	return err
}

// UserFile describes a user-level instruction file given on the command
// line; it must exist (a typo must not silently drop the user layer).
func UserFile(name string) (*resolve.UserFile, error) {
	abs, err := rootpath.Abs(name)
	if err != nil {
		return nil, fmt.Errorf("user instructions %s: %w", name, err)
	}
	if _, err := os.Lstat(abs); err != nil {
		return nil, fmt.Errorf("user instructions: %w", err)
	}
	return &resolve.UserFile{Path: abs, Display: Tilde(abs)}, nil
}

// Tilde shows a path under the home directory as ~/… (P2).
func Tilde(abs string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return filepath.ToSlash(abs)
	}
	if rel, ok := rootpath.Within(home, abs); ok {
		return "~/" + rel
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
	rel, ok := rootpath.Within(p.Root, abs)
	if !ok {
		// The working directory may reach the root through a link.
		if real, err2 := filepath.EvalSymlinks(filepath.Dir(abs)); err2 == nil {
			if rr, err3 := filepath.EvalSymlinks(p.Root); err3 == nil {
				if r2, ok := rootpath.Within(rr, filepath.Join(real, filepath.Base(abs))); ok {
					return r2, nil
				}
			}
		}
		return "", fmt.Errorf("path %q is outside the project root %s", arg, p.Root)
	}
	return rel, nil
}

// abs is filepath.Abs with the working directory asked for once (a
// pre-commit hook passes a thousand paths).
func (p *Project) abs(arg string) (string, error) {
	if filepath.IsAbs(arg) {
		return filepath.Clean(arg), nil
	}
	if filepath.VolumeName(arg) != "" {
		return filepath.Abs(arg) // Windows: C:x, in that drive's working directory
	}
	if p.wd == "" {
		wd, err := rootpath.Getwd()
		if err != nil {
			return "", err
		}
		p.wd = wd
	}
	if arg != "" && os.IsPathSeparator(arg[0]) {
		// Windows: \x and /x are on the working directory's drive, not
		// below the working directory (joined to it, \ was the root).
		return filepath.Join(filepath.VolumeName(p.wd)+string(filepath.Separator), arg), nil
	}
	return filepath.Join(p.wd, arg), nil
}
