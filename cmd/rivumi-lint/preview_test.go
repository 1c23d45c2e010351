package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rivumi/rivumi-lint/internal/preview"
	"github.com/rivumi/rivumi-lint/internal/preview/previewtest"
)

// The goldens belong to package preview (go test ./internal/preview -update rewrites
// them); here they check that the command line prints the same bytes.
const previewGoldens = "../../testdata/preview/golden"

func previewEnv(t *testing.T) {
	t.Helper()
	for k, v := range previewtest.Env {
		t.Setenv(k, v)
	}
	t.Setenv("NO_COLOR", "")
}

func runPreview(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"preview"}, args...), env{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

func readGolden(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(previewGoldens, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// P1–P5: every format and every section through the command line, byte
// for byte as the goldens; machine values injected by RIVUMI_LINT_NOW,
// RIVUMI_LINT_OS, RIVUMI_LINT_WORKDIR and SHELL; user layer and memory
// from ~/.rivumi by default, project key from the config.
func TestPreviewCLIGoldens(t *testing.T) {
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	previewEnv(t)
	dir := filepath.Join(f.Root, "docs", "api")
	for _, tc := range []struct {
		golden string
		args   []string
	}{
		{"chain.txt", nil},
		{"chain.txt", []string{"--format", "text", "--no-color"}},
		{"chain.json", []string{"--format", "json"}},
		{"chain.md", []string{"--format", "markdown"}},
		{"section_runtime.golden", []string{"--section", "runtime"}},
		{"section_instructions.golden", []string{"--section", "instructions"}},
		{"section_skills.golden", []string{"--section", "skills"}},
		{"section_workspace.golden", []string{"--section", "workspace"}},
		{"section_memory.golden", []string{"--section", "memory"}},
	} {
		t.Run(strings.Join(append([]string{tc.golden}, tc.args...), " "), func(t *testing.T) {
			// Flags after DIR work too (parseInterleaved).
			code, out, errOut := runPreview(t, append([]string{"--root", f.Root, dir}, tc.args...)...)
			if code != exitOK || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			if want := readGolden(t, tc.golden); out != want {
				t.Errorf("output differs from %s:\n%s", tc.golden, out)
			}
		})
	}
}

// P5 --section: exactly the section's bytes, the same as the JSON text and
// as the section inside the text output, nothing on stderr; a section left
// out prints nothing and exits 0; stable sections, the task and unknown
// names are usage errors (exit 2).
func TestPreviewSectionExact(t *testing.T) {
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	previewEnv(t)
	_, js, _ := runPreview(t, "--root", f.Root, "--format", "json", f.Root)
	var doc struct {
		Sections []struct{ Name, Text string }
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	_, text, _ := runPreview(t, "--root", f.Root, f.Root)
	for _, s := range doc.Sections {
		code, out, errOut := runPreview(t, "--root", f.Root, "--section", s.Name, f.Root)
		switch s.Name {
		case "core", "tools", "interaction", "task":
			if code != exitError || out != "" || !strings.Contains(errOut, "belongs to the runtime") {
				t.Errorf("--section %s: exit %d, out %q, err %q", s.Name, code, out, errOut)
			}
			continue
		}
		if code != exitOK || errOut != "" || out != s.Text || out == "" {
			t.Errorf("--section %s: exit %d, stderr %q, output\n%q\nwant\n%q", s.Name, code, errOut, out, s.Text)
		}
		if !strings.HasPrefix(out, `<rivumi:section name="`+s.Name+`" version="1">`+"\n") || !strings.HasSuffix(out, "</rivumi:section>\n") {
			t.Errorf("--section %s is not one format-v1 section: %q", s.Name, out)
		}
		if !strings.Contains(text, out) {
			t.Errorf("--section %s bytes are not in the text output", s.Name)
		}
	}
	code, out, errOut := runPreview(t, "--root", f.Root, "--section", "nope", f.Root)
	if code != exitError || out != "" || !strings.Contains(errOut, `unknown --section "nope"`) {
		t.Errorf("unknown section: exit %d, out %q, err %q", code, out, errOut)
	}

	bare := previewtest.Extract(t, []byte("-- repo/AGENTS.md --\nx\n"))
	for _, name := range []string{"skills", "memory"} {
		code, out, errOut := runPreview(t, "--root", bare.Root, "--section", name, bare.Root)
		if code != exitOK || out != "" || errOut != "" {
			t.Errorf("left-out --section %s: exit %d, out %q, err %q", name, code, out, errOut)
		}
	}
}

// §6: usage, config and input errors are exit 2 with a message; nothing on
// stdout. A FIFO memory file is refused without hanging (§10).
func TestPreviewErrors(t *testing.T) {
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	previewEnv(t)
	fifo := filepath.Join(t.TempDir(), "fifo.jsonl")
	if err := makeFIFO(fifo); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		env  map[string]string
		want string
	}{
		{[]string{f.Root, f.Root}, nil, "preview takes one DIR"},
		{[]string{"--format", "sarif", f.Root}, nil, `unknown --format "sarif"`},
		{[]string{"--no-user", "--user-instructions", "x.md", f.Root}, nil, "exclude each other"},
		{[]string{"--no-memory", "--memory", "x.jsonl", f.Root}, nil, "exclude each other"},
		{[]string{"--user-instructions", filepath.Join(f.Home, "nope.md"), f.Root}, nil, "user instructions"},
		{[]string{"--memory", filepath.Join(f.Home, "nope.jsonl"), f.Root}, nil, "memory file"},
		{[]string{"--memory", fifo, f.Root}, nil, "is a FIFO, not a regular file"},
		{[]string{"--section", "skills", "--watch", f.Root}, nil, "exclude each other"},
		{[]string{"--interval", "0", "--watch", f.Root}, nil, "out of range"},
		{[]string{"--interval", "soon", "--watch", f.Root}, nil, "want a duration"},
		{[]string{f.Root + "/docs/../docs"}, nil, `".." is not allowed`},
		{[]string{t.TempDir()}, nil, "outside the project root"},
		{[]string{filepath.Join(f.Root, "missing")}, nil, "no such directory"},
		{[]string{f.Root}, map[string]string{preview.EnvNow: "tomorrow"}, "RIVUMI_LINT_NOW"},
		{[]string{"--config", filepath.Join(f.Home, "nope.yaml"), f.Root}, nil, "nope.yaml"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			done := make(chan struct{})
			var code int
			var out, errOut string
			go func() {
				defer close(done)
				code, out, errOut = runPreview(t, append([]string{"--root", f.Root}, tc.args...)...)
			}()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("preview hangs")
			}
			if code != exitError || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
		})
	}
}

// §6 --output FILE, and the project key and memory flags.
func TestPreviewOutputAndFlags(t *testing.T) {
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	previewEnv(t)
	outFile := filepath.Join(t.TempDir(), "preview.md")
	code, out, errOut := runPreview(t, "--root", f.Root, "--format", "markdown", "--output", outFile, filepath.Join(f.Root, "docs", "api"))
	if code != exitOK || out != "" || errOut != "" {
		t.Fatalf("exit %d, out %q, err %q", code, out, errOut)
	}
	if got, _ := os.ReadFile(outFile); string(got) != readGolden(t, "chain.md") {
		t.Errorf("--output content differs from chain.md:\n%s", got)
	}

	mem := filepath.Join(f.Root, "mem.jsonl")
	previewtest.WriteFile(t, mem, `{"type":"project_fact","text":"for key k","project":"k"}`+"\n{oops\n")
	_, out, _ = runPreview(t, "--root", f.Root, "--memory", mem, "--project", "k", "--no-user", "--section", "memory", f.Root)
	if out != "<rivumi:section name=\"memory\" version=\"1\">\nKnown context:\n- [project fact] for key k\n</rivumi:section>\n" {
		t.Errorf("--memory/--project: %q", out)
	}
	_, out, _ = runPreview(t, "--root", f.Root, "--memory", mem, "--project", "k", "--format", "json", f.Root)
	if !strings.Contains(out, `"path": "mem.jsonl"`) || !strings.Contains(out, `"rule": "RL013"`) {
		t.Errorf("a memory file inside the root is shown relative to it, with RL013:\n%s", out)
	}
	_, out, _ = runPreview(t, "--root", f.Root, "--no-user", "--section", "instructions", f.Root)
	if strings.Contains(out, `scope="user"`) {
		t.Errorf("--no-user: %q", out)
	}
	t.Setenv(preview.EnvHome, t.TempDir())
	_, out, _ = runPreview(t, "--root", f.Root, "--section", "instructions", f.Root)
	if strings.Contains(out, `scope="user"`) {
		t.Errorf("RIVUMI_HOME without RIVUMI.md still has a user layer: %q", out)
	}
}

// §7: colour on a terminal only, and never with --no-color or NO_COLOR.
func TestPreviewColor(t *testing.T) {
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	previewEnv(t)
	for _, tc := range []struct {
		name    string
		args    []string
		noColor string
		color   bool
	}{
		{"tty", nil, "", true},
		{"no-color flag", []string{"--no-color"}, "", false},
		{"NO_COLOR", nil, "1", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NO_COLOR", tc.noColor)
			master, slave := previewPTY(t)
			var errb bytes.Buffer
			done := make(chan string)
			go func() { done <- drainPTY(master) }()
			code := run(append([]string{"preview", "--root", f.Root, f.Root}, tc.args...), env{Stdout: slave, Stderr: &errb})
			slave.Close()
			out := <-done
			if code != exitOK {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if !strings.Contains(out, "Prompt preview of") {
				t.Fatalf("no preview on the terminal: %q", out)
			}
			if has := strings.Contains(out, "\x1b["); has != tc.color {
				t.Errorf("escape codes = %v, want %v", has, tc.color)
			}
		})
	}
}

// drainPTY reads the master side until the slave is closed (EIO).
func drainPTY(m *os.File) string {
	m.SetReadDeadline(time.Now().Add(20 * time.Second))
	var out []byte
	buf := make([]byte, 4096)
	for {
		n, err := m.Read(buf)
		out = append(out, buf[:n]...)
		if err != nil {
			return string(out)
		}
	}
}

// P6: `preview --watch` renders, and SIGINT (Ctrl-C) ends it with exit 0.
// The real signal.NotifyContext is used; the signal is sent once it is
// registered, so it cannot kill the test binary.
func TestPreviewWatchSIGINT(t *testing.T) {
	f := previewtest.Load(t, "../../testdata/preview/chain.txtar")
	previewEnv(t)
	watch := func() (context.Context, context.CancelFunc) {
		ctx, stop := signalContext()
		if err := interruptSelf(); err != nil {
			t.Error(err)
		}
		return ctx, stop
	}
	done := make(chan int, 1)
	var out, errb bytes.Buffer
	go func() {
		done <- run([]string{"preview", "--watch", "--interval", "20ms", "--root", f.Root, filepath.Join(f.Root, "docs", "api")}, env{Stdout: &out, Stderr: &errb, WatchContext: watch})
	}()
	select {
	case code := <-done:
		if code != exitOK {
			t.Fatalf("exit %d after SIGINT, want 0; stderr %s", code, errb.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("preview --watch did not end on SIGINT")
	}
	if out.String() != readGolden(t, "chain.txt") {
		t.Errorf("the first render of --watch differs from chain.txt:\n%s", out.String())
	}
}
