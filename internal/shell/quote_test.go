package shell

import (
	"os/exec"
	"runtime"
	"testing"
)

// TestQuoteRoundTrip has a real shell read each quoted word back.
func TestQuoteRoundTrip(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX shells only")
	}
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal("no sh on PATH: install a POSIX shell (dash or bash)")
	}
	for _, s := range []string{"plain", "a b", "it's", "$HOME", "`x`", "-n", "", "a\"b", "*", "~x", "a;b", "\\", "é"} {
		out, err := exec.Command(sh, "-c", "printf %s "+Quote(s)).Output()
		if err != nil {
			t.Fatalf("sh for %q: %v", s, err)
		}
		if string(out) != s {
			t.Errorf("Quote(%q) = %s; the shell read %q", s, Quote(s), out)
		}
	}
}

func TestArgsLeadWithDashDash(t *testing.T) {
	if got, want := Args([]string{"a", "-x"}), "-- a -x"; got != want {
		t.Errorf("Args = %q, want %q", got, want)
	}
	if got, want := Args([]string{"a b", "c"}), "'a b' c"; got != want {
		t.Errorf("Args = %q, want %q", got, want)
	}
}

func TestPathNeverAnOption(t *testing.T) {
	for p, want := range map[string]string{"-x/AGENTS.md": "./-x/AGENTS.md", "a b/AGENTS.md": "'a b/AGENTS.md'", "a/AGENTS.md": "a/AGENTS.md"} {
		if got := Path(p); got != want {
			t.Errorf("Path(%q) = %q, want %q", p, got, want)
		}
	}
}
