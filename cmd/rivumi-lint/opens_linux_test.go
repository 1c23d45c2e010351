package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestReadEachFileOnce checks R7: each chain is resolved once and each
// instruction file read at most once per run, for a whole-worktree check
// and for a changed root AGENTS.md passed as PATH (which brings in every
// directory below). Opens are counted with inotify.
func TestReadEachFileOnce(t *testing.T) {
	root := t.TempDir()
	for i := 0; i < 10; i++ {
		for _, d := range []string{fmt.Sprintf("d%d", i), fmt.Sprintf("d%d/e", i), fmt.Sprintf("d%d/e/f", i)} {
			if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, d, "AGENTS.md"), []byte("rules of "+d+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	watched := []string{"AGENTS.md", "d3/AGENTS.md", "d3/e/AGENTS.md"}
	if err := os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte("root\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--root", root, "--format", "json"},
		{"check", "--root", root, "--format", "json", filepath.Join(root, "AGENTS.md")},
	} {
		fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
		if err != nil {
			t.Fatalf("inotify: %v (needs Linux inotify)", err)
		}
		names := map[int32]string{}
		for _, w := range watched {
			// IN_CLOSE_NOWRITE too: inotify merges identical consecutive
			// events, so two opens in a row would show as one; with the
			// close in between they cannot.
			wd, err := unix.InotifyAddWatch(fd, filepath.Join(root, w), unix.IN_OPEN|unix.IN_CLOSE_NOWRITE)
			if err != nil {
				t.Fatal(err)
			}
			names[int32(wd)] = w
		}
		var stdout, stderr bytes.Buffer
		if code := run(args, env{Stdout: &stdout, Stderr: &stderr}); code != exitOK {
			t.Fatalf("%v: exit %d: %s", args, code, stderr.String())
		}
		opens := map[string]int{}
		buf := make([]byte, 1<<16)
		for {
			n, err := unix.Read(fd, buf)
			if n <= 0 || err != nil {
				break
			}
			for off := 0; off+unix.SizeofInotifyEvent <= n; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				if ev.Mask&unix.IN_OPEN != 0 {
					opens[names[ev.Wd]]++
				}
				off += unix.SizeofInotifyEvent + int(ev.Len)
			}
		}
		unix.Close(fd)
		for _, w := range watched {
			if opens[w] != 1 {
				t.Errorf("%v: %s opened %d times, want exactly once (R7)", args[len(args)-1], w, opens[w])
			}
		}
		var doc jsonReport
		if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Directories) != 31 {
			t.Errorf("%v: %d directories resolved, want 31 (R7: the root and every directory below with a candidate)", args, len(doc.Directories))
		}
	}
}

// watchOpens makes every later run fail when it opens or reads one of
// paths (files, or directories it would list): C1, "nothing behind a link
// is ever opened", observed, not inferred from the output.
func (c *cli) watchOpens(paths ...string) {
	c.t.Helper()
	if c.inotify == 0 {
		fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
		if err != nil {
			c.t.Fatalf("inotify: %v (needs Linux inotify)", err)
		}
		c.inotify, c.watched = fd, map[int32]string{}
		c.t.Cleanup(func() { unix.Close(fd) })
	}
	for _, p := range paths {
		wd, err := unix.InotifyAddWatch(c.inotify, p, unix.IN_OPEN|unix.IN_ACCESS)
		if err != nil {
			c.t.Fatalf("inotify watch %s: %v", p, err)
		}
		c.watched[int32(wd)] = p
	}
}

// opened drains the inotify events and returns the watched paths opened
// or read since the last call.
func (c *cli) opened() []string {
	if c.inotify == 0 {
		return nil
	}
	var out []string
	buf := make([]byte, 1<<16)
	for {
		n, err := unix.Read(c.inotify, buf)
		if n <= 0 || err != nil {
			return out
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			if p, ok := c.watched[ev.Wd]; ok && ev.Mask&(unix.IN_OPEN|unix.IN_ACCESS) != 0 {
				out = append(out, p)
			}
			off += unix.SizeofInotifyEvent + int(ev.Len)
		}
	}
}
