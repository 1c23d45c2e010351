package repo

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/rivumi/rivumi-lint/internal/repo/internal/odb"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// catFile is the fall-back object store: one long-running
// `git cat-file --batch-command` (Git 2.36+) per repository. It is used only
// where the native readers cannot read the repository (SHA-256 ids,
// unknown extensions); Repo.Notes says so. Sizes come from "info" before any
// "contents" is asked for, so a large blob is never transferred.
type catFile struct {
	repo *Repo
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	errb bytes.Buffer
	err  error
}

func (c *catFile) start() error {
	if c.cmd != nil || c.err != nil {
		return c.err
	}
	cmd := c.repo.gitCommand("cat-file", "--batch-command")
	cmd.Stderr = &c.errb
	in, err := cmd.StdinPipe()
	if err != nil {
		c.err = err
		return err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		c.err = err
		return err
	}
	if err := cmd.Start(); err != nil {
		c.err = fmt.Errorf("start git cat-file: %w", err)
		return c.err
	}
	c.cmd, c.in, c.out = cmd, in, bufio.NewReaderSize(out, 64<<10)
	return nil
}

// broken records a protocol failure; the process is of no further use.
// It is ended first, so that its standard error is complete.
func (c *catFile) broken(err error) error {
	c.stop()
	msg := strings.TrimSpace(c.errb.String())
	what := "git cat-file --batch-command"
	if strings.Contains(msg, "batch-command") {
		// An older Git does not know the option.
		what += " (Git 2.36 or later is needed to read this repository)"
	}
	if msg != "" {
		err = fmt.Errorf("%w: %s", err, msg)
	}
	c.err = fmt.Errorf("%s: %w", what, err)
	return c.err
}

// stop ends the process and waits for it.
func (c *catFile) stop() {
	if c.cmd == nil {
		return
	}
	c.in.Close()
	c.cmd.Process.Kill()
	c.cmd.Wait()
	c.cmd = nil
}

// missing recognises the death of the process on an object of a partial
// clone that it may not fetch (GIT_NO_LAZY_FETCH=1: "could not fetch ID
// from promisor remote", whatever the locale, names the id). The object is
// missing, as for the native reader; the next request starts a new
// process.
func (c *catFile) missing(h Hash, err error) error {
	c.stop()
	msg := c.errb.String()
	if c.repo.promisor == "" || !strings.Contains(msg, h.String()) {
		return c.broken(err)
	}
	c.errb.Reset()
	return &MissingObjectError{Hash: h}
}

// header sends "CMD ID" and parses the reply "ID TYPE SIZE".
func (c *catFile) header(cmd string, h Hash) (typ string, size int64, err error) {
	if err := c.start(); err != nil {
		return "", 0, err
	}
	if _, err := fmt.Fprintf(c.in, "%s %s\n", cmd, h); err != nil {
		return "", 0, c.missing(h, err)
	}
	line, err := c.out.ReadString('\n')
	if err != nil {
		return "", 0, c.missing(h, err)
	}
	f := strings.Fields(line)
	if len(f) == 2 && f[1] == "missing" {
		return "", 0, &MissingObjectError{Hash: h}
	}
	if len(f) != 3 || f[0] != h.String() {
		return "", 0, c.broken(fmt.Errorf("unexpected reply %q", line))
	}
	size, err = strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return "", 0, c.broken(fmt.Errorf("unexpected reply %q", line))
	}
	return f[1], size, nil
}

func (c *catFile) Size(h Hash) (int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, n, err := c.header("info", h)
	return n, err
}

func (c *catFile) Read(h Hash, typ odb.Type, limit int64) ([]byte, int64, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, size, err := c.header("contents", h)
	if err != nil {
		return nil, 0, err
	}
	keep := min(size, limit+1)
	buf := make([]byte, keep)
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return nil, 0, c.broken(err)
	}
	// The rest of a long object (a commit read for its first line) and the
	// newline after the content are skipped, never held.
	if _, err := io.CopyN(io.Discard, c.out, size-keep+1); err != nil {
		return nil, 0, c.broken(err)
	}
	if t != typ.String() {
		return nil, 0, fmt.Errorf("object %s is a %s, not a %s", h.Short(), t, typ)
	}
	return buf, size, nil
}

func (c *catFile) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cmd == nil {
		return nil
	}
	c.in.Close()
	err := c.cmd.Wait()
	c.cmd = nil
	if err != nil && c.err == nil {
		return fmt.Errorf("git cat-file: %w", err)
	}
	return nil
}

// lsFilesIndex reads the index file name with
// `git ls-files --stage --debug -z`: the fall-back for an index this
// package cannot decode (a required extension it does not know). --stage
// alone cannot tell an intent-to-add entry (`git add -N`, never staged)
// from a staged empty file; --debug prints each entry's flags, and the
// in-memory flags Git prints hold the extended flags shifted left by 16
// (F3: the fall-back sees what the native reader sees). It has no
// cache-tree, so the comparison with HEAD loads every tree of HEAD.
func (r *Repo) lsFilesIndex(name string) ([]IndexEntry, error) {
	out, err := r.run(gitCommandIndex(r.Root, r.GitDir, name, "ls-files", "--stage", "--debug", "-z"), nil)
	if err != nil {
		return nil, err
	}
	return parseLsFilesDebug(out)
}

// parseLsFilesDebug parses `git ls-files --stage --debug -z`: per entry
// "MODE ID STAGE\tPATH\0" and five lines of stat data, the last
// "  size: N\tflags: HEX\n".
func parseLsFilesDebug(out []byte) ([]IndexEntry, error) {
	const (
		ceIntentToAdd  = 1 << 29
		ceSkipWorktree = 1 << 30
	)
	var ents []IndexEntry
	for len(out) > 0 {
		rec, rest, ok := bytes.Cut(out, []byte{0})
		if !ok {
			return nil, fmt.Errorf("git ls-files: unterminated record %q", rec)
		}
		meta, name, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != 3 {
			return nil, fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		mode, err1 := strconv.ParseUint(f[0], 8, 32)
		h, ok := ParseHash(f[1])
		stage, err2 := strconv.Atoi(f[2])
		if err1 != nil || err2 != nil || !ok || stage < 0 || stage > 3 {
			return nil, fmt.Errorf("git ls-files: unexpected record %q", rec)
		}
		var flags uint64
		for i, want := range []string{"  ctime: ", "  mtime: ", "  dev: ", "  uid: ", "  size: "} {
			line, after, ok := bytes.Cut(rest, []byte{'\n'})
			if !ok || !bytes.HasPrefix(line, []byte(want)) {
				return nil, fmt.Errorf("git ls-files --debug: unexpected line %q after %q", line, name)
			}
			rest = after
			if i == 4 {
				_, hexFlags, ok := bytes.Cut(line, []byte("flags: "))
				v, err := strconv.ParseUint(string(hexFlags), 16, 32)
				if !ok || err != nil {
					return nil, fmt.Errorf("git ls-files --debug: unexpected line %q after %q", line, name)
				}
				flags = v
			}
		}
		out = rest
		ents = append(ents, IndexEntry{Path: string(name), Mode: CanonMode(uint32(mode)), Hash: h, Stage: uint8(stage),
			IntentToAdd: flags&ceIntentToAdd != 0, SkipWorktree: flags&ceSkipWorktree != 0})
	}
	return ents, nil
}
