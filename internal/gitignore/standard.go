package gitignore

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

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// MaxFileBytes bounds an ignore file. Git reads any size; a larger file is
// an error here rather than a different answer.
const MaxFileBytes = 16 << 20

// ReadDirFile reads the .gitignore of dir (a slash path relative to the
// worktree top) the way Git 2.32+ does: never through a symbolic link. A
// missing, unreadable or non-regular file has no patterns, as in Git (which
// warns about an unreadable one): the walk then checks more, never less.
func ReadDirFile(top, dir string) (*List, error) {
	name := filepath.Join(top, filepath.FromSlash(dir), ".gitignore")
	data, kind, size, err := resolve.ReadFile(name, MaxFileBytes)
	if err != nil || kind != resolve.Regular {
		return nil, nil
	}
	if size > MaxFileBytes || len(data) > MaxFileBytes {
		return nil, tooLarge(name)
	}
	return Parse(data, name, dir), nil
}

func tooLarge(name string) error {
	return fmt.Errorf("ignore file %s is larger than %d MiB, more than rivumi-lint reads: shrink it", name, MaxFileBytes>>20)
}

// readOuterFile reads info/exclude or core.excludesFile: Git follows a
// symbolic link there (only in-tree .gitignore files are read without).
func readOuterFile(name string) (*List, error) {
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, nil // missing, unreadable or not a file: Git reads no pattern
	}
	if fi.Size() > MaxFileBytes {
		return nil, tooLarge(name)
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, nil
	}
	if len(data) > MaxFileBytes {
		return nil, tooLarge(name)
	}
	return Parse(data, name, ""), nil
}

// Config is what the Git configuration says about ignore rules.
type Config struct {
	// ExcludesFile is core.excludesFile, "~" expanded and absolute; when
	// unset, Git's default ($XDG_CONFIG_HOME/git/ignore, else
	// ~/.config/git/ignore); "" for none.
	ExcludesFile string
	// IgnoreCase is core.ignoreCase.
	IgnoreCase bool
}

// ReadConfig reads core.excludesFile and core.ignoreCase for the worktree
// top with Git directory gitDir, as `git status` sees them: the system,
// global, repository and worktree config files, read natively in Git's
// order. Only what the native reader cannot apply — an include or
// includeIf section, `-c` settings passed down in GIT_CONFIG_PARAMETERS or
// GIT_CONFIG_COUNT, a bare `ignoreCase` key — is asked of `git config`
// (through repo.GitCommand); without the git binary that is an error.
// Starting git costs milliseconds on every run, so it is the fall-back,
// never the rule.
func ReadConfig(top, gitDir string) (Config, error) {
	c, err := readConfigNative(top, gitDir)
	var ng *needGitError
	if !errors.As(err, &ng) {
		return c, err
	}
	if _, lerr := exec.LookPath("git"); lerr != nil {
		return Config{}, fmt.Errorf("%s, which only the git binary can apply to core.excludesFile: install git", ng.why)
	}
	return readConfigGit(top, gitDir)
}

// readConfigGit asks `git config` for both settings.
func readConfigGit(top, gitDir string) (Config, error) {
	var c Config
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

// needGitError is a configuration the native reader cannot apply.
type needGitError struct{ why string }

func (e *needGitError) Error() string { return e.why + ": the git binary is needed to read it" }

// gitConfig runs `git config -z TYPE --get KEY`; set is false when the key
// is not set (exit status 1).
func gitConfig(top, gitDir, typ, key string) (value string, set bool, err error) {
	cmd := repo.GitCommand(top, gitDir, "config", "-z", typ, "--get", key)
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

// readConfigNative reads the config files Git reads, in Git's order (the
// last value wins): system, global, repository, worktree.
func readConfigNative(top, gitDir string) (Config, error) {
	var c Config
	for _, k := range []string{"GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
		if os.Getenv(k) != "" {
			return c, &needGitError{k + " is set"}
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
	common := repo.CommonDir(gitDir)
	files = append(files, filepath.Join(common, "config"))
	var excl *string
	for i := 0; i < len(files); i++ {
		b, err := os.ReadFile(files[i])
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || files[i] == "" {
				continue
			}
			return c, fmt.Errorf("read Git config %s: %w", files[i], err)
		}
		cfg := formatcfg.New()
		if err := formatcfg.NewDecoder(bytes.NewReader(b)).Decode(cfg); err != nil {
			return c, fmt.Errorf("read Git config %s: %w (fix it; git fails on it too)", files[i], err)
		}
		for _, s := range cfg.Sections {
			if s.IsName("include") || s.IsName("includeIf") {
				return c, &needGitError{fmt.Sprintf("the Git config %s has an [%s] section", files[i], s.Name)}
			}
		}
		core := cfg.Section("core")
		if core.HasOption("excludesFile") {
			v := core.Option("excludesFile")
			excl = &v
		}
		if core.HasOption("ignoreCase") {
			v := core.Option("ignoreCase")
			if strings.TrimSpace(v) == "" {
				// A bare key is true to Git, "ignoreCase =" false: the
				// decoder gives both as "".
				return c, &needGitError{fmt.Sprintf("the Git config %s sets core.ignoreCase without a value", files[i])}
			}
			c.IgnoreCase = parseBool(v)
		}
		if i == len(files)-1 && strings.EqualFold(cfg.Section("extensions").Option("worktreeConfig"), "true") {
			files = append(files, filepath.Join(gitDir, "config.worktree"))
		}
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

// Standard returns the rules from outside the tree for the worktree top
// with Git directory gitDir: core.excludesFile, then info/exclude of the
// common Git directory (a linked worktree shares its main worktree's).
func Standard(top, gitDir string) (*Rules, error) {
	cfg, err := ReadConfig(top, gitDir)
	if err != nil {
		return nil, err
	}
	var lists []*List
	if cfg.ExcludesFile != "" {
		l, err := readOuterFile(cfg.ExcludesFile)
		if err != nil {
			return nil, err
		}
		lists = append(lists, l)
	}
	l, err := readOuterFile(filepath.Join(repo.CommonDir(gitDir), "info", "exclude"))
	if err != nil {
		return nil, err
	}
	return NewRules(cfg.IgnoreCase, append(lists, l)...), nil
}
