package integration

// The whole-worktree mode's part of the differential test: which
// directories a check without a scope resolves (§6: every directory of the
// worktree that Git does not ignore; F4: exactly the untracked paths that
// git check-ignore skips are skipped), from what git prints.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// worktreeDirs returns the directories the check must resolve (every real
// directory on disk above a tracked path or an untracked path Git does not
// ignore) and those it must not (untracked directories git check-ignore
// says are ignored; nothing below them either), and the tops of the
// repositories inside it (R1: submodules, gitlinks as `git ls-files -s`
// shows them, and nested repositories, which `git ls-files -o` shows as
// "DIR/"), which a check never descends into, nor resolves.
func worktreeDirs(t *testing.T, dir string) (want map[string]bool, never, inner []string) {
	t.Helper()
	split := func(out string) []string {
		var ps []string
		for _, p := range strings.Split(out, "\x00") {
			if p != "" {
				ps = append(ps, p)
			}
		}
		return ps
	}
	want = map[string]bool{}
	var paths []string
	for _, rec := range split(gitCmd(t, dir, nil, nil, "ls-files", "-s", "-z")) {
		meta, p, ok := strings.Cut(rec, "\t")
		if !ok {
			t.Fatalf("git ls-files -s: unexpected record %q", rec)
		}
		paths = append(paths, p)
		if strings.HasPrefix(meta, modeGitlink+" ") {
			inner = append(inner, p)
		}
	}
	paths = append(paths, split(gitCmd(t, dir, nil, nil, "ls-files", "-z", "-o", "--exclude-standard"))...)
	for _, p := range split(gitCmd(t, dir, nil, nil, "ls-files", "-z", "-o")) {
		if d, ok := strings.CutSuffix(p, "/"); ok {
			inner = append(inner, d)
		}
	}
	for _, p := range paths {
		// A nested repository is an entry of its parent directory.
		p = strings.TrimSuffix(p, "/")
		for d := pathParent(p); ; d = pathParent(d) {
			if realDirOnDisk(dir, d) {
				want[d] = true
			}
			if d == "" {
				break
			}
		}
	}
	var candidates []byte
	for _, p := range split(gitCmd(t, dir, nil, nil, "ls-files", "-z", "-o", "-i", "--exclude-standard", "--directory")) {
		if d, ok := strings.CutSuffix(p, "/"); ok {
			candidates = append(append(candidates, d...), 0)
		}
	}
	if len(candidates) > 0 {
		r := run(t, dir, env(t), strings.NewReader(string(candidates)), "git", "check-ignore", "-z", "--stdin")
		if r.code != 0 && r.code != 1 {
			t.Fatalf("git check-ignore in %s: %s", dir, r)
		}
		never = split(r.stdout)
	}
	return want, never, inner
}

// realDirOnDisk: every component of d is a directory, none a link.
func realDirOnDisk(root, d string) bool {
	p := root
	if d == "" {
		return true
	}
	for _, c := range strings.Split(d, "/") {
		p = filepath.Join(p, c)
		fi, err := os.Lstat(p)
		if err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// compareWorktree lists the differences between the directories a
// whole-worktree check printed and want/never.
func compareWorktree(want map[string]bool, never, inner []string, stdout []byte) []string {
	var got jsonOut
	if err := json.Unmarshal(stdout, &got); err != nil {
		return []string{fmt.Sprintf("the output is not JSON: %v", err)}
	}
	have := map[string]bool{}
	var diffs []string
	for _, d := range got.Directories {
		p := exact(d.Path, d.PathBytes)
		if p == "." {
			p = ""
		}
		have[p] = true
		for _, n := range never {
			if under(p, n) {
				diffs = append(diffs, fmt.Sprintf("directory %q resolved, but git check-ignore ignores %q (F4)", displayDir(p), n))
			}
		}
		for _, n := range inner {
			if under(p, n) {
				diffs = append(diffs, fmt.Sprintf("directory %q resolved, but %q is the top of a submodule or nested repository, never descended into (R1)", displayDir(p), n))
			}
		}
	}
	for _, d := range sortedKeys(want) {
		if !have[d] {
			diffs = append(diffs, fmt.Sprintf("directory %q missing: it holds paths Git tracks or does not ignore (§6, F4)", displayDir(d)))
		}
	}
	return diffs
}
