package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"

	"github.com/rivumi/rivumi-lint/internal/config"
	"github.com/rivumi/rivumi-lint/internal/outfile"
	"github.com/rivumi/rivumi-lint/internal/profiles"
	"github.com/rivumi/rivumi-lint/internal/project"
)

// configName is the config file init writes at the root (§8).
const configName = ".rivumi-lint.yaml"

var (
	// releaseRe is a release tag: vX.Y.Z with an optional pre-release
	// (v1.2.0-rc.1), no build metadata.
	releaseRe = regexp.MustCompile(`^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)
	// pseudoRe is the tail of a Go pseudo-version (a commit, not a tag).
	pseudoRe = regexp.MustCompile(`\d{14}-[0-9a-f]{12}$`)
	// snapshotRe is the tail of a goreleaser snapshot's version
	// (.goreleaser.yaml: v0.3.1-snapshot-abc1234), which no tag names.
	snapshotRe = regexp.MustCompile(`-snapshot-[0-9a-f]+$`)
)

// actionTag is the Action's major tag, the one ref every snippet and doc
// gives (SPEC §12 D7): each release moves it to its tagged commit, which
// records the release's archives, so it gets the verified binary. It names
// the Action's interface (action.yml's inputs and outputs), not the
// command's version: a change that breaks a workflow starts v2.
const actionTag = "v1"

// releaseTag returns v when it names a release tag, "" for a development
// build (devel, devel-<commit>, a Go pseudo-version, a goreleaser snapshot).
func releaseTag(v string) string {
	if releaseRe.MatchString(v) && !pseudoRe.MatchString(v) && !snapshotRe.MatchString(v) {
		return v
	}
	return ""
}

// cmdInit is `rivumi-lint init` (X2): it writes .rivumi-lint.yaml at the
// root with every key at its default, never over an existing entry
// without --force and never through a link, then prints the pre-commit
// and Action snippets for this version.
// version is the version the snippets pin (env.Version).
// temps records the temporary file of the config (env.Temps; nil: none).
func cmdInit(args []string, version func() string, stdout, stderr io.Writer, temps *outfile.Temps) int {
	fs := flag.NewFlagSet("init", flag.ContinueOnError)
	force := fs.Bool("force", false, "replace an existing "+configName+" (never a symbolic link)")
	root := fs.String("root", "", "project root `DIR` (default: the Git worktree around the working directory)")
	pos, code, done := parseFlags(fs, "init", args, stdout, stderr,
		"Writes "+configName+" at the root with every key at its default and prints\nthe pre-commit and GitHub Actions snippets for this version.\n")
	if done {
		return code
	}
	if len(pos) > 0 {
		return fail(stderr, &usageError{"init takes no arguments: usage: rivumi-lint init [--force] [--root DIR]"})
	}
	p, err := project.Open(project.Options{Root: *root})
	if err != nil {
		return fail(stderr, err)
	}
	if p.GitTop == "" {
		return fail(stderr, fmt.Errorf("%s has no worktree to write %s in: run init in a checkout, or pass --root DIR", p.Root, configName))
	}
	target := filepath.Join(p.Root, configName)
	tag := releaseTag(version())
	ref := tag
	if ref == "" {
		ref = "main"
	}
	if err := writeConfig(target, config.Template(config.SchemaURL(ref), profiles.Config()...), *force, temps); err != nil {
		return fail(stderr, err)
	}
	fmt.Fprintf(stdout, "Wrote %s: every key at its default, each with a comment (docs/config.md).\n", target)
	printSnippets(stdout, version(), tag)
	return exitOK
}

// errExists is init's refusal to replace what is there. It names --force
// only where --force would help: a link or a directory is refused with
// --force too, so for those it says why and what to do instead.
func errExists(target string) error {
	fi, err := os.Lstat(target)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		to, _ := os.Readlink(target)
		return fmt.Errorf("%s already exists as a symbolic link (to %s), and init refuses a link even with --force: it never writes through a link, since that would change the link's target, wherever it is; remove the link (or replace it with a regular file) and run init again", target, safeLine(to))
	case err == nil && fi.IsDir():
		return fmt.Errorf("%s already exists as a directory, and init never replaces a directory, not even with --force; move it away and run init again", target)
	}
	return fmt.Errorf("%s already exists; init overwrites nothing: pass --force to replace it with the defaults", target)
}

// writeConfig writes data to target whole or not at all (internal/outfile:
// a temporary file beside it, never through a link, never into .git).
// Without force it never replaces anything, even an entry that appears
// while it writes: the finished file is hard-linked to the name, which
// fails when the name exists.
func writeConfig(target string, data []byte, force bool, temps *outfile.Temps) error {
	if _, err := os.Lstat(target); err == nil && !force {
		return errExists(target)
	}
	f, err := temps.Create(target)
	if err != nil {
		return fmt.Errorf("write %s: %w", configName, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", target, err)
	}
	if force {
		if err := f.Commit(); err != nil {
			return fmt.Errorf("write %s: %w", target, err)
		}
		return nil
	}
	defer f.Abort() // removes the temporary name
	tmp := f.Name()
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Link(tmp, target)
		if err != nil && !errors.Is(err, fs.ErrExist) {
			// A file system without hard links: the check above is the
			// guard, with the usual window between check and rename.
			err = os.Rename(tmp, target)
		}
	}
	switch {
	case errors.Is(err, fs.ErrExist):
		return errExists(target)
	case err != nil:
		return fmt.Errorf("write %s: %w", target, err)
	}
	return nil
}

// printSnippets prints the pre-commit entry for tag, the release tag of
// version v, and the Action step at actionTag; a development build pins no
// version of its own, so it says which to pin instead.
func printSnippets(w io.Writer, v, tag string) {
	pin := tag
	if tag == "" {
		pin = "vX.Y.Z"
		fmt.Fprintf(w, "\nThis is a development build (%s), not a release: where the snippet says vX.Y.Z, pin a\n"+
			"release tag from https://github.com/rivumi/rivumi-lint/releases (`pre-commit autoupdate` pins the\n"+
			"latest one for pre-commit), and point the first line of %s at that tag too.\n", v, configName)
	}
	fmt.Fprintf(w, "\npre-commit (.pre-commit-config.yaml):\n\n"+
		"repos:\n"+
		"  - repo: https://github.com/rivumi/rivumi-lint\n"+
		"    rev: %s\n"+
		"    hooks:\n"+
		"      - id: rivumi-lint\n", pin)
	fmt.Fprintf(w, "\nGitHub Actions (a step after actions/checkout; %s is the Action's tag, moved to each release):\n\n"+
		"      - uses: rivumi/rivumi-lint@%s\n", actionTag, actionTag)
}
