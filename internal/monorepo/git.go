package monorepo

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Branches the stream creates.
const (
	BranchA = "main"     // commit A
	BranchB = "change"   // commit B, child of A
	BranchC = "rootonly" // commit C, child of A: only the root AGENTS.md changes
)

// Gitignore is the root .gitignore of commit A: Setup's ignored
// directories match it.
const Gitignore = "node_modules/\nbuild/\n*.log\n"

const committer = "committer Rivumi Bench <bench@rivumi.invalid> 1700000000 +0000\n"

// WriteFastImport writes the three commits as a `git fast-import` stream:
// A on BranchA, B and C on their branches, both children of A. Blobs are
// inline, so fast-import needs no marks table.
func (g *Repo) WriteFastImport(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 1<<20)
	data := func(b []byte) {
		fmt.Fprintf(bw, "data %d\n", len(b))
		bw.Write(b)
		bw.WriteByte('\n')
	}
	modify := func(p string, b []byte) {
		fmt.Fprintf(bw, "M 100644 inline %s\n", p)
		data(b)
	}
	fmt.Fprintf(bw, "commit refs/heads/%s\nmark :1\n%s", BranchA, committer)
	data([]byte(fmt.Sprintf("A: %s, seed %d\n", g.Size, g.Seed)))
	modify(".gitignore", []byte(Gitignore))
	for _, p := range g.order {
		modify(p, g.files[p])
	}
	bw.WriteString("\n")
	fmt.Fprintf(bw, "commit refs/heads/%s\nmark :2\n%s", BranchB, committer)
	data([]byte("B: the change\n"))
	bw.WriteString("from :1\n")
	for _, c := range g.B {
		if c.Kind == Delete {
			fmt.Fprintf(bw, "D %s\n", c.Path)
		} else {
			modify(c.Path, c.Content)
		}
	}
	bw.WriteString("\n")
	fmt.Fprintf(bw, "commit refs/heads/%s\nmark :3\n%s", BranchC, committer)
	data([]byte("C: only the root AGENTS.md\n"))
	bw.WriteString("from :1\n")
	modify(Agents, g.RootC)
	bw.WriteString("\ndone\n")
	return bw.Flush()
}

// Options choose what Create does besides importing the commits.
type Options struct {
	// Checkout writes commit A to the worktree, then applies commit B's
	// changes to it and stages them (`git add -A`): HEAD is A, the index
	// and the worktree hold B, as before `git commit` of a large change.
	Checkout bool
	// Extras, with Checkout, adds directories Git does not track: ignored
	// ones (node_modules/, build/, matched by Gitignore) and a few untracked
	// ones that are not ignored.
	Extras bool
}

// Create makes the repository in dir (which must not exist or be empty):
// `git init`, the fast-import stream, then Setup with o. It needs the git
// binary.
func Create(dir string, g *Repo, o Options) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := git(dir, nil, "init", "-q", "-b", BranchA); err != nil {
		return err
	}
	for _, kv := range [][2]string{{"gc.auto", "0"}, {"user.name", "Rivumi Bench"}, {"user.email", "bench@rivumi.invalid"}, {"core.autocrlf", "false"}} {
		if err := git(dir, nil, "config", kv[0], kv[1]); err != nil {
			return err
		}
	}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(g.WriteFastImport(pw)) }()
	if err := git(dir, pr, "fast-import", "--quiet", "--done"); err != nil {
		return fmt.Errorf("fast-import: %w", err)
	}
	// fast-import deltas each blob against the one before it in the stream
	// (delta chains of up to 50 unrelated files): repack as git gc or a
	// clone would leave the repository.
	if err := git(dir, nil, "repack", "-a", "-d", "-f", "-q", "--window=10", "--depth=50"); err != nil {
		return err
	}
	return Setup(dir, g, o)
}

// Setup prepares the worktree of a repository Create imported, as o asks.
func Setup(dir string, g *Repo, o Options) error {
	if !o.Checkout {
		return nil
	}
	if err := git(dir, nil, "reset", "-q", "--hard", BranchA); err != nil {
		return err
	}
	if err := g.ApplyB(dir); err != nil {
		return err
	}
	if err := git(dir, nil, "add", "-A"); err != nil {
		return err
	}
	if o.Extras {
		if err := g.writeExtras(dir); err != nil {
			return err
		}
	}
	return nil
}

// ApplyB writes commit B's changes into a checkout of A at dir.
func (g *Repo) ApplyB(dir string) error {
	for _, c := range g.B {
		abs := filepath.Join(dir, filepath.FromSlash(c.Path))
		if c.Kind == Delete {
			if err := os.Remove(abs); err != nil {
				return err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(abs, c.Content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Untracked are the untracked, not ignored, directories writeExtras makes
// (relative slash paths); the whole-worktree check must list them.
var Untracked = []string{"scratch", "scratch/notes", "tmp-experiment"}

// UntrackedAgents is an untracked, not ignored, instruction file
// writeExtras makes: the worktree source must see it.
const UntrackedAgents = "scratch/notes/AGENTS.md"

// writeExtras adds ignored trees (a whole-worktree check must not descend
// into them) and a few untracked directories it must list.
func (g *Repo) writeExtras(dir string) error {
	top := g.Dirs()
	for i, d := range top {
		if i%max(1, len(top)/20) != 0 {
			continue
		}
		for j := 0; j < 20; j++ {
			sub := filepath.Join(dir, filepath.FromSlash(d), "node_modules", fmt.Sprintf("pkg%d", j), "lib")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(sub, "index.js"), []byte("module.exports = 1\n"), 0o644); err != nil {
				return err
			}
			// An instruction file inside an ignored tree is not checked.
			if err := os.WriteFile(filepath.Join(sub, Agents), []byte("# vendored\n"), 0o644); err != nil {
				return err
			}
		}
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(d), "build", "out"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(d), "build", "out", "app.log"), []byte("log\n"), 0o644); err != nil {
			return err
		}
	}
	for _, u := range Untracked {
		abs := filepath.Join(dir, filepath.FromSlash(u))
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(abs, "draft.txt"), []byte("draft\n"), 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, filepath.FromSlash(UntrackedAgents)), []byte("# Notes\n\n- Scratch space; nothing here ships.\n"), 0o644)
}

func git(dir string, stdin io.Reader, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Stdin = stdin
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return nil
}
