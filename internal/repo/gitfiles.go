package repo

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"

	formatcfg "github.com/go-git/go-git/v5/plumbing/format/config"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// This file holds the reads of Git's own files and configuration that the
// other packages need (issue 22: no package outside repo reads them):
// what the config says about ignore rules, info/exclude and
// core.excludesFile, info/attributes, the skip-worktree blobs of a sparse
// checkout, the index lock, HEAD's branch for the preview and a path of
// the config for hook install. The callers parse the bytes they are given
// and word their own errors where they did before.

// InfoAttributes names info/attributes as the attributes' File field and
// the messages show it.
const InfoAttributes = "info/attributes"

// InfoExcludeFile returns the path of info/exclude in the common Git
// directory of gitDir (a linked worktree shares its main worktree's), for
// ReadExcludeFile and the messages that name it.
func InfoExcludeFile(gitDir string) string {
	return filepath.Join(CommonDir(gitDir), "info", "exclude")
}

// OverLimitError is a file over the limit its reader was given.
type OverLimitError struct{ Name string }

func (e *OverLimitError) Error() string { return e.Name + " is over the limit" }

// ReadExcludeFile reads info/exclude or core.excludesFile as Git does: it
// follows a symbolic link there (only in-tree .gitignore files are read
// without), and a missing or unreadable file or one that is not a regular
// file has no patterns (ok false, no error). A file over limit bytes is
// an *OverLimitError.
func ReadExcludeFile(name string, limit int64) (data []byte, ok bool, err error) {
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, false, nil // missing, unreadable or not a file: Git reads no pattern
	}
	if fi.Size() > limit {
		return nil, false, &OverLimitError{name}
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, false, nil
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, nil
	}
	if int64(len(data)) > limit {
		return nil, false, &OverLimitError{name}
	}
	return data, true, nil
}

// ReadInfoAttributes reads info/attributes of the common Git directory
// commonDir, at most limit bytes; ok is false when there is none. Like Git
// it follows a link there.
func ReadInfoAttributes(commonDir string, limit int64) (data []byte, ok bool, err error) {
	name := filepath.Join(commonDir, "info", "attributes")
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", InfoAttributes, err)
	}
	defer f.Close()
	data, err = io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, false, fmt.Errorf("%s is over %d bytes, more than rivumi-lint reads of an attributes file; shorten it", name, limit)
	}
	return data, true, nil
}

// EntryBlob is one index entry's blob as ReadEntries read it: ReadEntry's
// results.
type EntryBlob struct {
	Entry IndexEntry
	Data  []byte
	Kind  resolve.Kind
	Size  int64
	Err   error
}

// ReadEntries reads the blobs of ents (a sparse checkout's skip-worktree
// .gitignore entries, IndexScan.SkipIgnores) from r, each as ReadEntry
// with limit; an entry that cannot be read carries its error. Like every
// read of a Repo, it is not for concurrent use.
func (r *Repo) ReadEntries(ents []IndexEntry, limit int64) []EntryBlob {
	out := make([]EntryBlob, len(ents))
	for i, e := range ents {
		b := EntryBlob{Entry: e}
		b.Data, b.Kind, b.Size, b.Err = r.ReadEntry(e, limit)
		out[i] = b
	}
	return out
}

// IndexLocked reports whether Git's index of the worktree top with Git
// directory gitDir is locked (IndexLockFile exists: another git is
// running, or one crashed); err is the error of looking, other than the
// file's absence.
func IndexLocked(top, gitDir string) (lock string, locked bool, err error) {
	lock = IndexLockFile(top, gitDir)
	if _, err := os.Lstat(lock); err == nil {
		return lock, true, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return lock, false, err
	}
	return lock, false, nil
}

// ReadHeadBranch reads HEAD of gitDir: the branch it names (also an
// unborn one), or "(detached at 0123456789ab)".
func ReadHeadBranch(gitDir string) (string, error) {
	f, err := os.Open(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil {
		return "", fmt.Errorf("read HEAD: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if target, ok := strings.CutPrefix(s, "ref:"); ok {
		target = strings.TrimSpace(target)
		if name, ok := strings.CutPrefix(target, "refs/heads/"); ok && name != "" {
			return name, nil
		}
		if target != "" {
			return target, nil
		}
	}
	if (len(s) == 40 || len(s) == 64) && strings.Trim(s, "0123456789abcdef") == "" {
		return "(detached at " + s[:12] + ")", nil
	}
	return "", errors.New("HEAD is neither a reference nor an object id")
}

// DiscoverConfigPath asks `git config --type=path --get KEY` in dir, with
// the repository Git finds there (DiscoverCommand), so that includes, "~/"
// and per-worktree config count; set is false when the key is not set
// (exit status 1, nothing on stderr). On failure stderr is what git wrote,
// for the caller's message.
func DiscoverConfigPath(dir, key string) (value string, set bool, stderr []byte, err error) {
	cmd := DiscoverCommand(dir, "config", "--type=path", "--get", key)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 1 && errb.Len() == 0 {
		return "", false, nil, nil // key not set
	}
	if err != nil {
		return "", false, errb.Bytes(), err
	}
	return strings.TrimRight(string(out), "\r\n"), true, nil, nil
}

// IgnoreConfig is what the Git configuration says about ignore rules.
type IgnoreConfig struct {
	// ExcludesFile is core.excludesFile, "~" expanded and absolute; when
	// unset, Git's default ($XDG_CONFIG_HOME/git/ignore, else
	// ~/.config/git/ignore); "" for none.
	ExcludesFile string
	// IgnoreCase is core.ignoreCase.
	IgnoreCase bool
}

// ReadIgnoreConfig reads core.excludesFile and core.ignoreCase for the
// worktree top with Git directory gitDir, as `git status` sees them: the
// system, global, repository and worktree config files, read natively in
// Git's order. Only what the native reader cannot apply — an include or
// includeIf section, `-c` settings passed down in GIT_CONFIG_PARAMETERS or
// GIT_CONFIG_COUNT, a bare `ignoreCase` key — is asked of `git config`
// (through GitCommand); without the git binary that is an error. Starting
// git costs milliseconds on every run, so it is the fall-back, never the
// rule.
func ReadIgnoreConfig(top, gitDir string) (IgnoreConfig, error) {
	c, err := readIgnoreConfigNative(top, gitDir)
	var ng *needGitError
	if !errors.As(err, &ng) {
		return c, err
	}
	if _, lerr := exec.LookPath("git"); lerr != nil {
		return IgnoreConfig{}, fmt.Errorf("%s, which only the git binary can apply to core.excludesFile: install git", ng.why)
	}
	return readIgnoreConfigGit(top, gitDir)
}

// readIgnoreConfigGit asks `git config` for both settings.
func readIgnoreConfigGit(top, gitDir string) (IgnoreConfig, error) {
	var c IgnoreConfig
	excl, set, err := gitConfig(top, gitDir, "--path", "core.excludesFile")
	if err != nil {
		return c, err
	}
	if set {
		c.ExcludesFile = absFrom(top, excl)
	} else {
		c.ExcludesFile = defaultExcludesFile()
	}
	ic, set, err := gitConfig(top, gitDir, "--bool", "core.ignoreCase")
	if err != nil {
		return c, err
	}
	c.IgnoreCase = set && ic == "true"
	return c, nil
}

// SymlinksOff reports whether core.symlinks is false for the worktree top
// with Git directory gitDir, as `git config` reads it (every config file,
// includes too): Git's default is true, and `git init` sets it false on a
// file system without links (the usual case on Windows). Then a checkout
// holds a link as a plain file with its target as text; otherwise a
// regular file where the index records a link is a change not staged.
// The config files are read natively; `git config` only for what that
// reader cannot apply (see ReadIgnoreConfig).
func SymlinksOff(top, gitDir string) (bool, error) {
	off := false
	err := eachConfig(gitDir, func(file string, core *formatcfg.Section) error {
		if core.HasOption("symlinks") {
			v := core.Option("symlinks")
			if strings.TrimSpace(v) == "" {
				return &needGitError{fmt.Sprintf("the Git config %s sets core.symlinks without a value", file)}
			}
			// Only the words Git reads as false turn links off; a
			// value git cannot read makes `git status` fail too.
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "false", "no", "off", "0":
				off = true
			default:
				off = false
			}
		}
		return nil
	})
	var ng *needGitError
	if !errors.As(err, &ng) {
		return off, err
	}
	v, set, err := gitConfig(top, gitDir, "--bool", "core.symlinks")
	return set && v == "false", err
}

// needGitError is a configuration the native reader cannot apply.
type needGitError struct{ why string }

func (e *needGitError) Error() string { return e.why + ": the git binary is needed to read it" }

// gitConfig runs `git config -z TYPE --get KEY`; set is false when the key
// is not set (exit status 1).
func gitConfig(top, gitDir, typ, key string) (value string, set bool, err error) {
	cmd := GitCommand(top, gitDir, "config", "-z", typ, "--get", key)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 1 && stderr.Len() == 0 {
			return "", false, nil
		}
		return "", false, fmt.Errorf("read %s with `git config`: %v: %s (fix the Git configuration; `git status` fails the same way)",
			key, err, strings.TrimSpace(stderr.String()))
	}
	v, _, _ := bytes.Cut(out, []byte{0})
	return string(v), true, nil
}

// absFrom makes a relative core.excludesFile absolute the way Git finds
// it: relative to the worktree top, where Git runs. "" stays "" (set to
// nothing: no file, and no default either).
func absFrom(top, p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(top, p)
}

// defaultExcludesFile is Git's xdg_config_home("ignore").
func defaultExcludesFile() string {
	if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
		return filepath.Join(x, "git", "ignore")
	}
	if h, ok := os.LookupEnv("HOME"); ok {
		return filepath.Join(h, ".config", "git", "ignore")
	}
	return ""
}

// readIgnoreConfigNative reads the config files Git reads, in Git's order
// (the last value wins): system, global, repository, worktree.
func readIgnoreConfigNative(top, gitDir string) (IgnoreConfig, error) {
	var c IgnoreConfig
	var excl *string
	err := eachConfig(gitDir, func(file string, core *formatcfg.Section) error {
		if core.HasOption("excludesFile") {
			v := core.Option("excludesFile")
			excl = &v
		}
		if core.HasOption("ignoreCase") {
			v := core.Option("ignoreCase")
			if strings.TrimSpace(v) == "" {
				// A bare key is true to Git, "ignoreCase =" false: the
				// decoder gives both as "".
				return &needGitError{fmt.Sprintf("the Git config %s sets core.ignoreCase without a value", file)}
			}
			c.IgnoreCase = parseBool(v)
		}
		return nil
	})
	if err != nil {
		return c, err
	}
	if excl == nil {
		c.ExcludesFile = defaultExcludesFile()
		return c, nil
	}
	p, err := expandUser(*excl)
	if err != nil {
		return c, err
	}
	c.ExcludesFile = absFrom(top, p)
	return c, nil
}

// eachConfig calls fn with the [core] section of each config file Git
// reads for the Git directory gitDir, in Git's order (the last value
// wins): system, global, repository, worktree. What the native reader
// cannot apply (GIT_CONFIG_PARAMETERS or GIT_CONFIG_COUNT, an include,
// an escape the decoder does not know) is a needGitError.
func eachConfig(gitDir string, fn func(file string, core *formatcfg.Section) error) error {
	for _, k := range []string{"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
		if os.Getenv(k) != "" {
			return &needGitError{k + " is set"}
		}
	}
	var files []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		if s := os.Getenv("GIT_CONFIG_SYSTEM"); s != "" {
			files = append(files, s)
		} else {
			files = append(files, "/etc/gitconfig")
		}
	}
	if g, ok := os.LookupEnv("GIT_CONFIG_GLOBAL"); ok {
		files = append(files, g)
	} else {
		if x := os.Getenv("XDG_CONFIG_HOME"); x != "" {
			files = append(files, filepath.Join(x, "git", "config"))
		} else if h := os.Getenv("HOME"); h != "" {
			files = append(files, filepath.Join(h, ".config", "git", "config"))
		}
		if h := os.Getenv("HOME"); h != "" {
			files = append(files, filepath.Join(h, ".gitconfig"))
		}
	}
	common := CommonDir(gitDir)
	files = append(files, filepath.Join(common, "config"))
	for i := 0; i < len(files); i++ {
		b, err := os.ReadFile(files[i])
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || files[i] == "" {
				continue
			}
			return fmt.Errorf("read Git config %s: %w", files[i], err)
		}
		cfg, err := decodeGitConfig(b)
		if errors.Is(err, errConfigEscape) {
			return &needGitError{fmt.Sprintf("the Git config %s %s", files[i], err)}
		}
		if err != nil {
			return fmt.Errorf("read Git config %s: %w (fix it; git fails on it too)", files[i], err)
		}
		for _, s := range cfg.Sections {
			if s.IsName("include") || s.IsName("includeIf") {
				return &needGitError{fmt.Sprintf("the Git config %s has an [%s] section", files[i], s.Name)}
			}
		}
		if err := fn(files[i], cfg.Section("core")); err != nil {
			return err
		}
		if i == len(files)-1 && strings.EqualFold(cfg.Section("extensions").Option("worktreeConfig"), "true") {
			files = append(files, filepath.Join(gitDir, "config.worktree"))
		}
	}
	return nil
}

// parseBool is git_config_bool for a value that is present.
func parseBool(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "on", "1":
		return true
	}
	return false
}

// expandUser is the "~" part of Git's interpolate_path.
func expandUser(p string) (string, error) {
	if !strings.HasPrefix(p, "~") {
		return p, nil
	}
	name, rest, _ := strings.Cut(p[1:], "/")
	var home string
	if name == "" {
		home = os.Getenv("HOME")
		if home == "" {
			return "", fmt.Errorf("core.excludesFile %q needs $HOME, which is not set", p)
		}
	} else {
		u, err := user.Lookup(name)
		if err != nil {
			return "", fmt.Errorf("core.excludesFile %q: %w", p, err)
		}
		home = u.HomeDir
	}
	return filepath.Join(home, rest), nil
}
