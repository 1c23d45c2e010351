package integration

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// §7 text (issue #26): in a real terminal 100 columns wide (a tmux window), the demo's
// text output is what docs/text-output.md shows, every line as written:
// the terminal wraps none, because the tool wrapped them between words to
// the width it asked the terminal for.
func TestTextInTmux(t *testing.T) {
	needIntegration(t, "the tmux terminal test")
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is not installed: apt-get install -y tmux (.ci/run installs it)")
	}
	bin := rivumiLint(t)
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	home := filepath.Join(tmp, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	done := filepath.Join(tmp, "done")
	sock := filepath.Join(tmp, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("tmux", append([]string{"-S", sock, "-f", "/dev/null"}, args...)...)
		cmd.Env = append(os.Environ(), "HOME="+home, "TERM=xterm-256color")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	// COLUMNS is unset: the width must come from the terminal itself.
	script := "unset COLUMNS; cd " + shellQuote(root) + " && HOME=" + shellQuote(home) + " " + shellQuote(bin) +
		" check --root testdata/demo --color=never; touch " + shellQuote(done) + "; sleep 60"
	tmux("new-session", "-d", "-x", "100", "-y", "300", "-s", "rl", "sh", "-c", script)
	defer exec.Command("tmux", "-S", sock, "kill-server").Run()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(done); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the check did not finish in the tmux window within 30 s")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if w := strings.TrimSpace(tmux("display-message", "-p", "-t", "rl", "#{window_width}")); w != "100" {
		t.Fatalf("tmux window is %s columns wide, want 100", w)
	}
	// Lines as the screen shows them (no -J: a line the terminal wrapped
	// would come out as two).
	screen := strings.TrimRight(tmux("capture-pane", "-p", "-t", "rl", "-S", "0", "-E", "-"), "\n") + "\n"
	doc, err := os.ReadFile(filepath.Join(root, "docs", "text-output.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := bytes.Cut(doc, []byte("$ rivumi-lint check --root testdata/demo\n"))
	if !ok {
		t.Fatal("docs/text-output.md lacks the demo block")
	}
	block, _, _ = bytes.Cut(block, []byte("```\n<!-- end demo -->"))
	if screen != string(block) {
		t.Errorf("the tmux screen (100 columns) differs from docs/text-output.md's block:\n%s", screen)
	}
	// Wrapped by the terminal would show as a line of exactly 100 columns
	// continued on the next; the tool's own lines stay below that.
	for i, l := range strings.Split(screen, "\n") {
		if len([]rune(l)) >= 100 {
			t.Errorf("screen line %d fills the 100 columns (the terminal may have wrapped it): %q", i+1, l)
		}
	}
}

// shellQuote quotes s for sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
