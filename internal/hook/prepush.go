package hook

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Push is one line of what Git gives a pre-push hook on stdin (githooks(5)):
// `<local ref> SP <local sha> SP <remote ref> SP <remote sha> LF`.
type Push struct {
	LocalRef, LocalSHA, RemoteRef, RemoteSHA string
}

// Deletion reports whether the push deletes the remote ref (local sha all
// zeros): nothing to check.
func (p Push) Deletion() bool { return zeros(p.LocalSHA) }

// NewBranch reports whether the remote ref does not exist yet (remote sha
// all zeros): the base is the merge base with the remote's default branch
// (§11's events table).
func (p Push) NewBranch() bool { return zeros(p.RemoteSHA) }

// Kind names what the push updates, from the remote ref: "branch"
// (refs/heads/), "tag" (refs/tags/), else "ref" (refs/notes/, Gerrit's
// refs/for/, …).
func (p Push) Kind() string {
	switch {
	case strings.HasPrefix(p.RemoteRef, "refs/heads/"):
		return "branch"
	case strings.HasPrefix(p.RemoteRef, "refs/tags/"):
		return "tag"
	}
	return "ref"
}

func zeros(s string) bool { return strings.Trim(s, "0") == "" }

// maxPushLines bounds the lines read: one per pushed ref.
const maxPushLines = 100000

// ReadPushes parses a pre-push hook's stdin.
func ReadPushes(r io.Reader) ([]Push, error) {
	var out []Push
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimRight(sc.Text(), "\r")
		if line == "" {
			continue
		}
		f := strings.Split(line, " ")
		if len(f) != 4 || !hexID(f[1]) || !hexID(f[3]) {
			return nil, fmt.Errorf("pre-push input line %d is not `<local ref> <local sha> <remote ref> <remote sha>`: %q", n, line)
		}
		if len(out) == maxPushLines {
			return nil, fmt.Errorf("pre-push input: more than %d refs", maxPushLines)
		}
		out = append(out, Push{LocalRef: f[0], LocalSHA: f[1], RemoteRef: f[2], RemoteSHA: f[3]})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the pre-push input: %w", err)
	}
	return out, nil
}

func hexID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	return strings.Trim(s, "0123456789abcdef") == ""
}

// RemoteDefault returns the default branch of remote as this clone knows
// it: the branch refs/remotes/REMOTE/HEAD points to (set by git clone and
// `git remote set-head`), else main or master where the clone tracks one;
// "" when none is known (a remote given as a URL has no tracking refs).
func RemoteDefault(root, remote string) string {
	if remote == "" || strings.ContainsAny(remote, ":/\\") {
		return ""
	}
	if out, err := runGit(root, "symbolic-ref", "--quiet", "refs/remotes/"+remote+"/HEAD"); err == nil {
		if b, ok := strings.CutPrefix(strings.TrimSpace(out), "refs/remotes/"+remote+"/"); ok && b != "" {
			return b
		}
	}
	for _, b := range []string{"main", "master"} {
		if _, err := runGit(root, "rev-parse", "--verify", "--quiet", "refs/remotes/"+remote+"/"+b); err == nil {
			return b
		}
	}
	return ""
}

// NoDefault says why RemoteDefault found no default branch of remote, from
// what this clone holds, and what would record one (repo.Range.NoDefault):
// `git remote set-head REMOTE --auto` asks the remote, so it is suggested
// only where the remote has branches here; a remote this clone holds no
// branch of is empty (this push makes its first branch) or never fetched,
// and has no default branch to record yet. Whether the remote itself has a
// HEAD cannot be asked offline, so that is all that is decided.
func NoDefault(root, remote string) string {
	if remote == "" || strings.ContainsAny(remote, ":/\\") {
		return "no default branch is known for a remote given as a URL (it has no remote-tracking branches): push to a named remote (`git remote add NAME URL`) for a merge base"
	}
	out, err := runGit(root, "for-each-ref", "--count=1", "--format=%(refname)", "refs/remotes/"+remote+"/")
	if err == nil && strings.TrimSpace(out) == "" {
		return remote + " has no default branch this clone knows of (it holds no branch of " + remote +
			": the remote is empty, and this push makes its first branch, or it was never fetched)"
	}
	return "no default branch of " + remote + " is known (no " + remote + "/HEAD, main or master: `git remote set-head " + remote +
		" --auto` asks the remote for it, `git remote set-head " + remote + " BRANCH` names it) to find a merge base with"
}

// PeelCommit returns the commit an object of the repository at root names:
// an annotated tag (what a pushed tag's sha is) is peeled to its commit,
// as Git does for a revision. ok is false when the object is here but
// names no commit (a tag of a tree or a blob); what is then its type.
// An object that is not here is an error.
func PeelCommit(root, id string) (commit string, ok bool, what string, err error) {
	if out, err := runGit(root, "rev-parse", "--verify", "--quiet", "--end-of-options", id+"^{commit}"); err == nil {
		return strings.TrimSpace(out), true, "commit", nil
	}
	out, err := runGit(root, "cat-file", "-t", id)
	if err != nil {
		return "", false, "", fmt.Errorf("object %s: %w", id, err)
	}
	return "", false, strings.TrimSpace(out), nil
}
