package integration

// The harness that runs the real GitHub Copilot CLI and captures the
// instruction span it sends: copilot_test.go checks it on fixed trees (the
// evidence of the copilot rules in docs/agent-profiles.md, #35).
//
// Copilot's loader is closed source (inside the package's native
// runtime.node), so running it is the only way to know what it loads. With
// a custom provider it needs no GitHub login: pointed at a loopback server
// that records the request and refuses it, it posts one
// /v1/chat/completions request whose system message holds the instruction
// blocks, and exits 1. The run is made safe rather than trusted: an empty
// HOME, a minimal environment, offline mode and no auto-update, and the
// only address it is given is the recorder's on 127.0.0.1.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	// copilotVersion is the release the copilot profile is pinned to.
	copilotVersion = "1.0.102"
	// copilotVersionLine is the first line that release's `copilot
	// --version` prints.
	copilotVersionLine = "GitHub Copilot CLI " + copilotVersion + "."
	// copilotBinVar names the binary to run; else `copilot` on PATH.
	copilotBinVar = "RIVUMI_COPILOT"
	// The instruction span is the system message's text between these two.
	copilotSpanStart = "</tools>\n\n"
	copilotSpanEnd   = "\n<system_notifications>"
	// copilotRunTimeout bounds one run: it usually takes about five seconds
	// (the first, which unpacks the package, up to a minute on a busy
	// machine).
	copilotRunTimeout = 3 * time.Minute
)

// copilotInstallHint is how to get the pinned release; .ci/run does the same.
const copilotInstallHint = "install GitHub Copilot CLI " + copilotVersion + ": " +
	"`npm install --prefix \"$HOME/.cache/rivumi-lint/agents/copilot-" + copilotVersion + "\" @github/copilot@" + copilotVersion + " @github/copilot-linux-x64@" + copilotVersion + "` " +
	"and `export " + copilotBinVar + "=\"$HOME/.cache/rivumi-lint/agents/copilot-" + copilotVersion + "/node_modules/.bin/copilot\"` (.ci/run does both)"

// copilotCache is the package cache (COPILOT_PKG_CACHE_HOME) of every run:
// in scratch, so it is kept for the whole test binary and removed with it.
func copilotCache() string { return filepath.Join(scratch, "copilot-pkg-cache") }

// copilotBinary returns the pinned Copilot CLI: $RIVUMI_COPILOT, else
// `copilot` on PATH, whose --version is the pinned one. It skips the test
// unless RIVUMI_LINT_INTEGRATION=1 and fails it, with the install hint,
// when the binary is missing or another release.
func copilotBinary(t *testing.T) string {
	t.Helper()
	return agentBinary(t, agentBin{what: "GitHub Copilot CLI", envVar: copilotBinVar, command: "copilot", hint: copilotInstallHint, check: checkCopilotVersion})
}

func checkCopilotVersion(bin string) error {
	home, err := os.MkdirTemp("", "rivumi-copilot-version-")
	if err != nil {
		return fmt.Errorf("copilot --version: %w", err)
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), copilotRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Dir = home
	cmd.Env = copilotEnv(home, home, "")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	inOwnGroup(cmd)
	cmd.Cancel = func() error { killGroup(cmd.Process.Pid); return nil }
	cmd.WaitDelay = 5 * time.Second
	if err := procs.run(nil, cmd); err != nil {
		return fmt.Errorf("%s --version: %w (stderr %q)", bin, err, stderr.String())
	}
	first, _, _ := strings.Cut(stdout.String(), "\n")
	if got := strings.TrimSpace(first); got != copilotVersionLine {
		return fmt.Errorf("%s --version prints %q, want %q", bin, got, copilotVersionLine)
	}
	return nil
}

// copilotEnv is the whole environment of a run: nothing of the test's own
// but PATH (the user's COPILOT_*, GH_*, GITHUB_* variables, proxies and
// config dirs would change what is loaded or where requests go).
func copilotEnv(home, tmp, baseURL string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"GIT_CONFIG_NOSYSTEM=1",
		"COPILOT_PKG_CACHE_HOME=" + copilotCache(),
		"COPILOT_OFFLINE=1",
		"COPILOT_AUTO_UPDATE=false",
	}
	if baseURL != "" {
		env = append(env,
			"COPILOT_PROVIDER_BASE_URL="+baseURL+"/v1",
			"COPILOT_PROVIDER_API_KEY=x",
			"COPILOT_MODEL=m",
			// The unknown model's default prompt budget refuses a 300 KB
			// file before any request ("exceed the model's usable context
			// budget"); the other trees sent the same span without it.
			"COPILOT_PROVIDER_MAX_PROMPT_TOKENS=10000000",
			"NO_PROXY=127.0.0.1")
	}
	return env
}

// copilotRefusal is the provider's error body the recorder answers
// Copilot with: it gives up and exits.
const copilotRefusal = `{"error":{"message":"test server","type":"invalid_request_error"}}`

// copilotOptions are what a run may vary besides the directory.
type copilotOptions struct {
	// home is the run's HOME, prepared by the test (user files under
	// .copilot); "" is a fresh empty one.
	home string
	// env comes after the harness's own variables.
	env []string
}

// copilotResult is one run: what it printed and what it sent.
type copilotResult struct {
	bodies         [][]byte
	others         []string
	stdout, stderr string
	code           int
}

func (r copilotResult) String() string {
	return fmt.Sprintf("exit %d, %d requests to /v1/chat/completions, others %v\n--- stdout\n%s--- stderr\n%s", r.code, len(r.bodies), r.others, r.stdout, r.stderr)
}

// runCopilot runs `copilot -p hello` in dir (the working directory, as a
// session started there) against a fresh recorder, under an empty HOME, in
// a process group of its own that ends with the test.
func runCopilot(t *testing.T, bin, dir string, opt copilotOptions) copilotResult {
	t.Helper()
	home := opt.home
	if home == "" {
		home = t.TempDir()
	}
	tmp := t.TempDir()
	rec := newLoopRecorder(t, "copilot", "/v1/chat/completions", copilotRefusal)

	ctx, cancel := context.WithTimeout(context.Background(), copilotRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-p", "hello")
	cmd.Dir = dir
	cmd.Env = append(copilotEnv(home, tmp, rec.srv.URL), opt.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	inOwnGroup(cmd)
	// The loader is node starting a native binary: end the whole group.
	cmd.Cancel = func() error { killGroup(cmd.Process.Pid); return nil }
	cmd.WaitDelay = 5 * time.Second
	err := procs.run(t, cmd)
	res := copilotResult{stdout: stdout.String(), stderr: stderr.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("copilot in %s: no exit within %v\n%s", dir, copilotRunTimeout, res)
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode() // 1: the recorder refused the request
	default:
		t.Fatalf("copilot in %s: %v", dir, err)
	}
	res.bodies, res.others = rec.bodies()
	if len(res.bodies) == 0 {
		t.Fatalf("copilot in %s sent no request to the recorder\n%s", dir, res)
	}
	return res
}

// copilotInstructions runs the pinned Copilot CLI in dir and returns the
// instruction span it sent: the system message's text between
// "</tools>\n\n" and "\n<system_notifications>". Every request must carry
// the same span.
func copilotInstructions(t *testing.T, bin, dir string, opt copilotOptions) string {
	t.Helper()
	res := runCopilot(t, bin, dir, opt)
	var span string
	for i, body := range res.bodies {
		s, err := copilotBodySpan(body)
		if err != nil {
			t.Fatalf("copilot in %s: request %d: %v\n%s", dir, i, err, res)
		}
		if i > 0 && s != span {
			t.Fatalf("copilot in %s: request %d carries another span than request 0 (%q; then %q)", dir, i, span, s)
		}
		span = s
	}
	return span
}

// copilotBodySpan finds the instruction span in one chat completions body.
func copilotBodySpan(body []byte) (string, error) {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", fmt.Errorf("not a chat completions request: %w", err)
	}
	if len(req.Messages) == 0 || req.Messages[0].Role != "system" {
		return "", errors.New("the request's first message is not the system message")
	}
	if hasLoneSurrogate(req.Messages[0].Content) {
		return "", errors.New("the system message holds a lone UTF-16 surrogate, which a Go string cannot carry exactly")
	}
	var text string
	if err := json.Unmarshal(req.Messages[0].Content, &text); err != nil {
		return "", fmt.Errorf("the system message's content is not one string: %w", err)
	}
	_, after, ok := strings.Cut(text, copilotSpanStart)
	if !ok {
		return "", fmt.Errorf("no %q in the system message", copilotSpanStart)
	}
	span, _, ok := strings.Cut(after, copilotSpanEnd)
	if !ok {
		return "", fmt.Errorf("no %q after %q in the system message", copilotSpanEnd, copilotSpanStart)
	}
	return span, nil
}

// TestCopilotBodySpan checks the span's extraction on made-up bodies, so
// that a change of the harness is caught without the binary (it runs
// without RIVUMI_LINT_INTEGRATION).
func TestCopilotBodySpan(t *testing.T) {
	body := func(system string) []byte {
		js, err := json.Marshal(map[string]any{"messages": []map[string]any{{"role": "system", "content": system}, {"role": "user", "content": "hello"}}})
		if err != nil {
			t.Fatal(err)
		}
		return js
	}
	good := "intro\n<tools>x</tools>\n\n<custom_instruction>\na </tools>\n\n b\n</custom_instruction>\n<system_notifications>\nmore\n</system_notifications>\n<system_notifications>"
	if got, err := copilotBodySpan(body(good)); err != nil || got != "<custom_instruction>\na </tools>\n\n b\n</custom_instruction>" {
		t.Errorf("span %q, %v", got, err)
	}
	if got, err := copilotBodySpan(body("</tools>\n\n\n<system_notifications>")); err != nil || got != "" {
		t.Errorf("empty span: %q, %v", got, err)
	}
	for name, b := range map[string][]byte{
		"no start":       body("<custom_instruction>\n</custom_instruction>\n<system_notifications>"),
		"no end":         body("</tools>\n\n<custom_instruction>\n</custom_instruction>"),
		"not JSON":       []byte("{"),
		"no system":      []byte(`{"messages":[{"role":"user","content":"</tools>\n\n\n<system_notifications>"}]}`),
		"no messages":    []byte(`{"messages":[]}`),
		"parts":          []byte(`{"messages":[{"role":"system","content":[{"type":"text","text":"</tools>\n\n\n<system_notifications>"}]}]}`),
		"lone surrogate": []byte(`{"messages":[{"role":"system","content":"</tools>\n\n\ud800\n<system_notifications>"}]}`),
	} {
		if got, err := copilotBodySpan(b); err == nil {
			t.Errorf("%s: span %q, want an error", name, got)
		}
	}
}
