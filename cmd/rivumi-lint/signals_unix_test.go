//go:build unix

package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// stopCase is one run stopped by a signal while its temporary file exists.
type stopCase struct {
	name string
	args []string
	// midWrite: the run is rivumi-lint-midwrite, which waits once its
	// temporary file is made; otherwise rivumi-lint itself, held by its
	// standard output, a pipe the test reads only at the end, once the
	// temporary file of an earlier output exists (temp, a glob).
	midWrite bool
	temp     string
	// dirs is how many directories hold an AGENTS.md with RL010 (d0,
	// d1, …): 250 make a text report of some 100 KB, over any pipe's
	// buffer, for the cases standard output holds.
	dirs int
	// target is the file written, before its content then ("": absent).
	target, before string
}

// #38.4 (F8, R10, X1, X2): SIGTERM or SIGINT while check writes
// --format FMT=FILE, --write-baseline FILE or --output FILE, while fix
// replaces a file, init its config, or preview --output, leaves no
// temporary file beside the target (`git add -A` would commit it), the
// target as it was, and the process ends as the signal ends it (a shell
// sees 128+N). Before: the temporary file stayed.
func TestSignalRemovesTemporaryFiles(t *testing.T) {
	cases := []stopCase{
		{name: "check-format-file", args: []string{"check", "--format", "json=out.json", "--format", "text"},
			temp: ".out.json.tmp-*", dirs: 250, target: "out.json", before: "before\n"},
		{name: "check-write-baseline", args: []string{"check", "--write-baseline", "base.json", "--format", "json"},
			temp: ".base.json.tmp-*", dirs: 250, target: "base.json"},
		{name: "check-output", dirs: 1, args: []string{"check", "--output", "out.txt"}, midWrite: true,
			target: "out.txt", before: "before\n"},
		{name: "fix", dirs: 1, args: []string{"fix", "d0"}, midWrite: true, target: "d0/AGENTS.md", before: hiddenText},
		{name: "init", dirs: 1, args: []string{"init", "--force"}, midWrite: true, target: configName, before: "before\n"},
		{name: "preview-output", dirs: 1, args: []string{"preview", "--output", "p.txt", "d0"}, midWrite: true, target: "p.txt"},
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/%s", c.name, strings.ToLower(sig.String())), func(t *testing.T) {
				t.Parallel()
				stopMidWrite(t, c, sig)
			})
		}
	}
}

// hiddenText is an instruction file with a hidden character (RL010):
// a finding in text, json and a fix.
const hiddenText = "x\u200b\n"

// stopMidWrite runs c in a repository of c.dirs directories, signals it
// once its temporary file exists, and checks what it left.
func stopMidWrite(t *testing.T, c stopCase, sig syscall.Signal) {
	r := gittest.New(t)
	for i := range c.dirs {
		r.Write(fmt.Sprintf("d%d/AGENTS.md", i), hiddenText)
	}
	if c.before != "" {
		r.Write(c.target, c.before)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	prog := "rivumi-lint"
	if c.midWrite {
		prog = "rivumi-lint-midwrite"
	}
	cmd := exec.CommandContext(ctx, prog, c.args...)
	cmd.Dir, cmd.Env = r.Dir, r.Env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	// The child's ends: standard input, never written (midwrite waits
	// on it); standard output, not read until the end; fd 3, where
	// midwrite names its temporary file.
	inR, inW := pipe(t)
	outR, outW := pipe(t)
	readyR, readyW := pipe(t)
	cmd.Stdin, cmd.Stdout, cmd.ExtraFiles = inR, outW, []*os.File{readyW}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	readyW.Close()
	defer inW.Close()
	defer outR.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	var temp string
	if c.midWrite {
		// A line, or EOF when the run ended (or the deadline killed it)
		// without one.
		line, err := bufio.NewReader(readyR).ReadString('\n')
		if err != nil {
			t.Fatalf("%s made no temporary file (%v); stderr:\n%s", c.args, err, stderr.String())
		}
		temp = strings.TrimSuffix(line, "\n")
	} else {
		// check cannot finish: its standard output is full. It is waiting
		// there, or on its way, once the earlier output's file exists.
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for temp == "" {
			select {
			case err := <-exited:
				t.Fatalf("%s ended (%v) before its temporary file %s was seen; stderr:\n%s", c.args, err, c.temp, stderr.String())
			case <-tick.C:
				m, _ := filepath.Glob(filepath.Join(r.Dir, c.temp))
				if len(m) > 0 {
					temp = m[0]
				}
			}
		}
	}
	readyR.Close()
	if _, err := os.Lstat(temp); err != nil {
		t.Fatalf("the temporary file named is not there before the signal: %v", err)
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	<-exited
	if ctx.Err() != nil {
		t.Fatalf("%s: no end within 20 s of the signal", c.args)
	}
	ws := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !(ws.Signaled() && ws.Signal() == sig) && !(ws.Exited() && ws.ExitStatus() == 128+int(sig)) {
		t.Errorf("%s after %v: %v; want death by the signal or exit %d; stderr:\n%s", c.args, sig, cmd.ProcessState, 128+int(sig), stderr.String())
	}
	filepath.WalkDir(r.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if strings.Contains(d.Name(), ".tmp-") || strings.Contains(d.Name(), "rivumi-fix") {
			t.Errorf("%s after %v left %s", c.args, sig, p)
		}
		return nil
	})
	b, err := os.ReadFile(filepath.Join(r.Dir, c.target))
	switch {
	case c.before == "" && err == nil:
		t.Errorf("%s after %v: %s was written:\n%s", c.args, sig, c.target, b)
	case c.before == "" && !os.IsNotExist(err):
		t.Error(err)
	case c.before != "" && string(b) != c.before:
		t.Errorf("%s after %v: %s is %q (%v), want it as it was, %q", c.args, sig, c.target, b, err, c.before)
	}
}

func pipe(t *testing.T) (r, w *os.File) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	return r, w
}
