package integration

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// issue #26: the zsh and fish completion scripts load in the real shells
// and complete a flag (bash is covered by testdata/script/completion.txtar).
func TestCompletionZshFish(t *testing.T) {
	if !integrationEnabled() {
		t.Skip("the real shells run with " + integrationVar + "=1 (.ci/run sets it)")
	}
	bin := rivumiLint(t)
	for _, sh := range []string{"zsh", "fish"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Fatalf("%s is not installed: apt-get install -y %s (.ci/run installs it)", sh, sh)
		}
	}
	dir := t.TempDir()
	script := func(shell string) string {
		out, err := exec.Command(bin, "completion", shell).Output()
		if err != nil {
			t.Fatalf("completion %s: %v", shell, err)
		}
		p := filepath.Join(dir, "rl."+shell)
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	home := t.TempDir()
	// zsh runs the bash function through bashcompinit, with ksharrays as
	// its bridge sets it; the bridge's compadd then filters the words by
	// what is typed, so the function's answer need only hold the flag.
	zsh := exec.Command("zsh", "-f", "-c", `source `+script("zsh")+`; setopt ksharrays; COMP_WORDS=(rivumi-lint check --fo); COMP_CWORD=2; _rivumi_lint; print -r -- "${COMPREPLY[*]}"`)
	zsh.Env = append(os.Environ(), "HOME="+home)
	out, err := zsh.CombinedOutput()
	if err != nil || !strings.Contains(" "+strings.TrimSpace(string(out))+" ", " --format ") {
		t.Errorf("zsh: %v\n%s", err, out)
	}
	fish := exec.Command("fish", "--no-config", "-c", `source `+script("fish")+`; complete -C "rivumi-lint check --fo"; complete -C "rivumi-lint check --agent="`)
	fish.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_DATA_HOME="+home)
	out, err = fish.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--format") || !strings.Contains(string(out), "--agent=codex") {
		t.Errorf("fish: %v\n%s", err, out)
	}
}
