// Package hook installs and removes the native Git hooks of rivumi-lint
// (§6 `hook install|uninstall`): the pre-commit hook that runs
// `rivumi-lint check --staged`, and the pre-push hook that runs
// `rivumi-lint hook pre-push`, which checks each pushed range (§11's events
// table).
//
// It is the one part of rivumi-lint that writes into a repository (R10 names
// the exception), and it writes only the hook file and, with --force, a
// backup of the hook it replaces. Where the hook goes is asked of the git
// binary, since Git is what will run it:
//
//   - the hooks directory is `core.hooksPath` when set (read with
//     `git config --type=path`, so includes, `~/` and per-worktree config
//     count); a relative hooksPath is relative to the worktree root, where
//     Git runs hooks (githooks(5));
//   - otherwise it is `hooks` in the common Git directory
//     (`git rev-parse --git-common-dir`), which every linked worktree of a
//     repository shares.
//
// A hook this package wrote carries Signature on a line of its own; a file
// without it is foreign and is never replaced without Force nor removed.
package hook

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/shell"
)

// Signature marks a hook written by Install. Uninstall removes only a file
// holding this exact line.
const Signature = "# rivumi-lint-hook: v1 (written by `rivumi-lint hook install`; `rivumi-lint hook uninstall` removes it)"

// HookName is the hook file Install writes by default.
const HookName = "pre-commit"

// PrePush is the pre-push hook's name (Options.Kind).
const PrePush = "pre-push"

// BackupSuffix is appended to the hook's name for the backup --force keeps.
const BackupSuffix = ".rivumi-lint.bak"

// ErrRefused marks a refusal that the user resolves (a foreign hook without
// --force, a backup in the way, a foreign hook on uninstall); the command
// line maps it to exit 2 with the message.
var ErrRefused = errors.New("refused")

// Options say which repository and what the hook runs.
type Options struct {
	// Root is the top level of the worktree (R1).
	Root string
	// Binary is the rivumi-lint the hook runs: an absolute path, tried
	// first, or "" for `rivumi-lint` on PATH. See Script.
	Binary string
	// Force replaces a foreign hook, keeping it as pre-commit.rivumi-lint.bak.
	Force bool
	// Kind is the hook: HookName ("" too) or PrePush.
	Kind string
}

func (o Options) name() string {
	if o.Kind == "" {
		return HookName
	}
	return o.Kind
}

// Outcome says what Install or Uninstall did, for the user.
type Outcome struct {
	Hook   string // the hook file
	Backup string // the backup kept (Install --force) or restored (Uninstall); "" if none
	Action string // "installed", "updated", "replaced", "removed", "restored", "absent"
}

// Dir returns the hooks directory Git uses for the worktree at root.
func Dir(root string) (string, error) {
	hp, set, err := gitConfigPath(root, "core.hooksPath")
	if err != nil {
		return "", err
	}
	if set && hp != "" {
		if !filepath.IsAbs(hp) {
			hp = filepath.Join(root, hp)
		}
		return filepath.Clean(hp), nil
	}
	out, err := runGit(root, "rev-parse", "--git-common-dir")
	if err != nil {
		return "", err
	}
	common := strings.TrimRight(out, "\r\n")
	if common == "" {
		return "", fmt.Errorf("git rev-parse --git-common-dir in %s printed nothing", root)
	}
	if !filepath.IsAbs(common) {
		common = filepath.Join(root, common)
	}
	return filepath.Join(filepath.Clean(common), "hooks"), nil
}

// Script is the hook file's content for a binary. An absolute binary is
// used while it exists, else `rivumi-lint` on PATH (a moved or upgraded
// install keeps working); a bare name is only looked up on PATH (never
// relative to the worktree, where a checked-in file could answer to it).
// With neither, the commit stops with a message that says how to fix it.
func Script(binary string) []byte { return script(HookName, binary) }

// PrePushScript is the pre-push hook's content: Git's arguments (remote
// name and URL) and its stdin (one line per pushed ref) go to
// `rivumi-lint hook pre-push`.
func PrePushScript(binary string) []byte { return script(PrePush, binary) }

func script(kind, binary string) []byte {
	var b bytes.Buffer
	b.WriteString("#!/bin/sh\n")
	b.WriteString(Signature + "\n")
	run := `check --staged --quiet`
	if kind == PrePush {
		b.WriteString("# Checks the instruction files of each pushed range of commits.\n")
		b.WriteString("# Skip once with `git push --no-verify`.\n")
		run = `hook pre-push "$@"`
	} else {
		b.WriteString("# Checks the instruction files of the commit being made (the Git index).\n")
		b.WriteString("# Skip once with `git commit --no-verify`.\n")
	}
	if filepath.IsAbs(binary) {
		fmt.Fprintf(&b, "rivumi_lint=%s\n", shell.Quote(binary))
		b.WriteString("if [ ! -x \"$rivumi_lint\" ]; then\n  rivumi_lint=''\nfi\n")
	} else {
		b.WriteString("rivumi_lint=''\n")
	}
	uninstall := "rivumi-lint hook uninstall"
	if kind == PrePush {
		uninstall += " --pre-push"
	}
	fmt.Fprintf(&b, `if [ -z "$rivumi_lint" ]; then
  rivumi_lint=$(command -v rivumi-lint) || {
    echo "rivumi-lint %s hook: rivumi-lint is neither at the installed path nor on PATH;" >&2
    echo "install it again, or remove this hook with '%s'." >&2
    exit 2
  }
fi
exec "$rivumi_lint" %s
`, kind, uninstall, run)
	return b.Bytes()
}

// Install writes the pre-commit hook. An existing hook of ours is rewritten
// in place (the binary path may have changed); a foreign one is refused
// unless o.Force, which first renames it to the backup name and refuses if
// that name is taken.
func Install(o Options) (Outcome, error) {
	dir, err := Dir(o.Root)
	if err != nil {
		return Outcome{}, err
	}
	name := o.name()
	out := Outcome{Hook: filepath.Join(dir, name), Action: "installed"}
	state, err := inspect(out.Hook)
	if err != nil {
		return out, err
	}
	switch state {
	case ours:
		out.Action = "updated"
	case foreign:
		if !o.Force {
			return out, fmt.Errorf("%w: %s exists and was not installed by rivumi-lint; "+
				"run `rivumi-lint hook install --force` to replace it (it is kept as %s), "+
				"or call rivumi-lint from it yourself", ErrRefused, out.Hook, name+BackupSuffix)
		}
		backup := out.Hook + BackupSuffix
		if _, err := os.Lstat(backup); err == nil {
			return out, fmt.Errorf("%w: %s is foreign and the backup %s already exists; "+
				"move one of them away first", ErrRefused, out.Hook, backup)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return out, err
		}
		if err := os.Rename(out.Hook, backup); err != nil {
			return out, fmt.Errorf("keep the existing hook: %w", err)
		}
		out.Backup, out.Action = backup, "replaced"
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return out, fmt.Errorf("create hooks directory: %w", err)
	}
	if err := writeAtomic(out.Hook, script(name, o.Binary)); err != nil {
		return out, err
	}
	return out, nil
}

// Uninstall removes the hook if it carries Signature and puts back a
// backup Install --force kept. No hook at all is not an error; a foreign
// hook is refused and left alone.
func Uninstall(o Options) (Outcome, error) {
	dir, err := Dir(o.Root)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Hook: filepath.Join(dir, o.name())}
	state, err := inspect(out.Hook)
	if err != nil {
		return out, err
	}
	switch state {
	case absent:
		out.Action = "absent"
		return out, nil
	case foreign:
		return out, fmt.Errorf("%w: %s was not installed by rivumi-lint; left it alone", ErrRefused, out.Hook)
	}
	if err := os.Remove(out.Hook); err != nil {
		return out, fmt.Errorf("remove hook: %w", err)
	}
	out.Action = "removed"
	backup := out.Hook + BackupSuffix
	if _, err := os.Lstat(backup); err == nil {
		if err := os.Rename(backup, out.Hook); err != nil {
			return out, fmt.Errorf("restore %s: %w", backup, err)
		}
		out.Backup, out.Action = backup, "restored"
	} else if !errors.Is(err, fs.ErrNotExist) {
		return out, err
	}
	return out, nil
}

type hookState int

const (
	absent hookState = iota
	ours
	foreign
)

// maxHookRead bounds how much of an existing hook is read to look for the
// signature; ours is a few hundred bytes.
const maxHookRead = 64 << 10

// inspect classifies the file at path without following a symbolic link:
// a link, a directory or anything but a regular file is foreign.
func inspect(path string) (hookState, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return absent, nil
	}
	if err != nil {
		return 0, err
	}
	if !fi.Mode().IsRegular() {
		return foreign, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(io.LimitReader(f, maxHookRead))
	sc.Buffer(make([]byte, 0, 4096), maxHookRead)
	for sc.Scan() {
		if strings.TrimRight(sc.Text(), "\r") == Signature {
			return ours, nil
		}
	}
	// A read error or a line too long to be ours: not ours.
	return foreign, nil
}

// writeAtomic writes an executable file next to path and renames it over
// path, so a commit running at the same time sees the old hook or the new.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write hook: %w", err)
	}
	name := tmp.Name()
	_, werr := tmp.Write(data)
	if werr == nil {
		werr = tmp.Chmod(0o755)
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(name, path)
	}
	if werr != nil {
		os.Remove(name)
		return fmt.Errorf("write hook: %w", werr)
	}
	return nil
}

// gitConfigPath reads a path-typed config value (repo.DiscoverConfigPath);
// set is false when the key is not set.
func gitConfigPath(root, key string) (value string, set bool, err error) {
	value, set, stderr, err := repo.DiscoverConfigPath(root, key)
	if err != nil {
		return "", false, gitError([]string{"config", "--get", key}, err, stderr)
	}
	return value, set, nil
}

// runGit runs git in root through repo's one git helper, which drops the
// variables that would point it at another repository than root's (set
// when rivumi-lint itself runs inside a Git hook).
func runGit(root string, args ...string) (string, error) {
	cmd := repo.DiscoverCommand(root, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", gitError(args, err, stderr.Bytes())
	}
	return string(out), nil
}

func gitError(args []string, err error, stderr []byte) error {
	msg := strings.TrimSpace(string(stderr))
	if errors.Is(err, exec.ErrNotFound) {
		return fmt.Errorf("git %s: the git binary is needed to find the hooks directory: %w", strings.Join(args, " "), err)
	}
	if msg != "" {
		return fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return fmt.Errorf("git %s: %w", strings.Join(args, " "), err)
}
