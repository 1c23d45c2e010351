package integration

// The harness that runs the real Claude Code and captures the instruction
// text it sends: claude_test.go checks it on fixed trees, and the claude
// profile's tests compare rivumi-lint's text with it byte for byte.
//
// Claude Code needs no account to show what it loads: pointed at a
// loopback server that records each request and refuses it, it sends the
// whole model input (and retries a few times, each body the same) and
// exits. The run is made safe rather than trusted: an empty HOME, a minimal
// environment, hooks off (a repository's own hooks would run otherwise),
// non-essential traffic off, and the only address it is given is the
// recorder's on 127.0.0.1.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	// claudeVersion is the release the claude profile is pinned to.
	claudeVersion = "2.1.328"
	// claudeVersionOutput is what that release's `claude --version` prints
	// (then a newline).
	claudeVersionOutput = claudeVersion + " (Claude Code)"
	// claudeBinVar names the binary to run; else `claude` on PATH.
	claudeBinVar = "RIVUMI_CLAUDE"
	// claudeInstructionPrefix starts the text block that holds the
	// instruction files (CLAUDE.md and the rest), the first of the first
	// message's content.
	claudeInstructionPrefix = "<system-reminder>\nCodebase and user instructions are shown below."
	// claudeRunTimeout bounds one run: it usually takes about two seconds.
	claudeRunTimeout = 90 * time.Second
)

// claudeInstallHint is how to get the pinned release; .ci/run does the same.
const claudeInstallHint = "install Claude Code " + claudeVersion + ": " +
	"`npm install --prefix \"$HOME/.cache/rivumi-lint/agents/claude-" + claudeVersion + "\" @anthropic-ai/claude-code@" + claudeVersion + "` " +
	"and `export " + claudeBinVar + "=\"$HOME/.cache/rivumi-lint/agents/claude-" + claudeVersion + "/node_modules/.bin/claude\"` (.ci/run does both)"

var claudeChecked struct {
	sync.Mutex
	versions map[string]error
}

// claudeBinary returns the pinned Claude Code binary: $RIVUMI_CLAUDE, else
// `claude` on PATH, whose --version is the pinned one. It skips the test
// unless RIVUMI_LINT_INTEGRATION=1 and fails it, with the install hint,
// when the binary is missing or another release.
func claudeBinary(t *testing.T) string {
	t.Helper()
	return agentBinary(t, agentBin{what: "Claude Code", envVar: claudeBinVar, command: "claude", hint: claudeInstallHint,
		check: func(bin string) error {
			claudeChecked.Lock()
			defer claudeChecked.Unlock()
			if claudeChecked.versions == nil {
				claudeChecked.versions = map[string]error{}
			}
			err, ok := claudeChecked.versions[bin]
			if !ok {
				err = checkClaudeVersion(bin)
				claudeChecked.versions[bin] = err
			}
			return err
		}})
}

func checkClaudeVersion(bin string) error {
	home, err := os.MkdirTemp("", "rivumi-claude-version-")
	if err != nil {
		return fmt.Errorf("claude --version: %w", err)
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Dir = home
	cmd.Env = claudeEnv(home, home, "")
	return checkVersion(cmd, claudeVersionOutput)
}

// claudeEnv is the whole environment of a run: nothing of the test's own
// but PATH (the user's ANTHROPIC_*, CLAUDE_*, proxies and config dirs would
// change what is loaded or where requests go).
func claudeEnv(home, tmp, baseURL string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"GIT_CONFIG_NOSYSTEM=1",
		// No telemetry, error reports or feature-flag fetches: without it
		// Claude Code looks up outside hosts. What it loads is the same
		// either way (checked on every tree of the rule list).
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	if baseURL != "" {
		env = append(env, "ANTHROPIC_API_KEY=x", "ANTHROPIC_BASE_URL="+baseURL, "NO_PROXY=127.0.0.1")
	}
	return env
}

// claudeRefusal is the API's error body the recorder answers Claude Code
// with: it gives up after its retries.
const claudeRefusal = `{"type":"error","error":{"type":"invalid_request_error","message":"test server"}}`

// claudeOptions are what a run may vary besides the directory.
type claudeOptions struct {
	// settings are merged into --settings; disableAllHooks is always true.
	settings map[string]any
	// home holds files written under the run's empty HOME before it
	// starts, by slash path: ".claude/CLAUDE.md" is the user file.
	home map[string]string
	// args come before -p (--mcp-config FILE --strict-mcp-config), env
	// after the harness's own variables.
	args, env []string
}

// claudeResult is one run: what it printed and what it sent.
type claudeResult struct {
	bodies         [][]byte
	stdout, stderr string
	code           int
	home           string
}

func (r claudeResult) String() string {
	return fmt.Sprintf("exit %d, %d requests to /v1/messages\n--- stdout\n%s--- stderr\n%s", r.code, len(r.bodies), r.stdout, r.stderr)
}

// runClaude runs `claude -p hello` in dir (the working directory, as a
// session started there) against a fresh recorder, under an empty HOME.
func runClaude(t *testing.T, bin, dir string, opt claudeOptions) claudeResult {
	t.Helper()
	settings := map[string]any{}
	maps.Copy(settings, opt.settings)
	settings["disableAllHooks"] = true // a repository's own hooks would run otherwise
	js, err := json.Marshal(settings)
	if err != nil {
		t.Fatalf("claude settings %v: %v", settings, err)
	}
	home := t.TempDir()
	writeFiles(t, home, opt.home)
	tmp := t.TempDir()
	rec := newLoopRecorder(t, "claude", "/v1/messages", claudeRefusal)

	ctx, cancel := context.WithTimeout(context.Background(), claudeRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(append([]string{"--settings", string(js)}, opt.args...), "-p", "hello")...)
	cmd.Dir = dir
	cmd.Env = append(claudeEnv(home, tmp, rec.srv.URL), opt.env...)
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	res := claudeResult{stdout: stdout.String(), stderr: stderr.String(), home: home}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("claude in %s: no exit within %v\n%s", dir, claudeRunTimeout, res)
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode() // 1: the recorder refused every request
	default:
		t.Fatalf("claude in %s: %v", dir, err)
	}
	var others []string
	res.bodies, others = rec.bodies()
	if len(res.bodies) == 0 {
		t.Fatalf("claude in %s sent no request to the recorder (others: %v)\n%s", dir, others, res)
	}
	return res
}

// claudeInstructions runs the pinned Claude Code in dir with settings
// (merged into --settings, disableAllHooks always true) and returns the
// instruction block it sent, exactly the bytes of that text block: from
// "<system-reminder>\nCodebase and user instructions are shown below." to
// "\n</system-reminder>". ok is false when it sent none (no instruction
// file loaded). Every retried request must carry the same block.
func claudeInstructions(t *testing.T, bin, dir string, settings map[string]any) (text string, ok bool) {
	t.Helper()
	res := runClaude(t, bin, dir, claudeOptions{settings: settings})
	text, ok, err := claudeBlock(res.bodies)
	if err != nil {
		t.Fatalf("claude in %s: %v\n%s", dir, err, res)
	}
	return text, ok
}

// claudeBlock finds the instruction block in the recorded request bodies;
// they must all agree.
func claudeBlock(bodies [][]byte) (text string, ok bool, err error) {
	for i, body := range bodies {
		bt, bok, err := claudeBodyBlock(body)
		if err != nil {
			return "", false, fmt.Errorf("request %d: %w", i, err)
		}
		if i > 0 && (bt != text || bok != ok) {
			return "", false, fmt.Errorf("request %d carries another instruction block than request 0 (%q, %v; then %q, %v)", i, text, ok, bt, bok)
		}
		text, ok = bt, bok
	}
	return text, ok, nil
}

// hasLoneSurrogate reports whether a JSON string literal escapes half a
// UTF-16 pair without its other half: encoding/json reads that as U+FFFD,
// which is not what Claude Code sent.
func hasLoneSurrogate(lit []byte) bool {
	high := false // the previous escape was a high half
	for i := 0; i < len(lit); i++ {
		if lit[i] != '\\' {
			if high {
				return true
			}
			continue
		}
		i++
		if i >= len(lit) || lit[i] != 'u' || i+4 >= len(lit) {
			if high {
				return true
			}
			continue
		}
		v, err := strconv.ParseUint(string(lit[i+1:i+5]), 16, 16)
		if err != nil {
			return true
		}
		i += 4
		switch {
		case v >= 0xd800 && v < 0xdc00:
			if high {
				return true
			}
			high = true
		case v >= 0xdc00 && v < 0xe000:
			if !high {
				return true
			}
			high = false
		default:
			if high {
				return true
			}
		}
	}
	return high
}

func claudeBodyBlock(body []byte) (string, bool, error) {
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", false, fmt.Errorf("not a messages request: %w", err)
	}
	if len(req.Messages) == 0 {
		return "", false, errors.New("a messages request without messages")
	}
	var blocks []struct {
		Type string          `json:"type"`
		Text json.RawMessage `json:"text"`
	}
	if err := json.Unmarshal(req.Messages[0].Content, &blocks); err != nil {
		var s string
		if json.Unmarshal(req.Messages[0].Content, &s) == nil {
			return "", false, nil // a plain string: no blocks, no instructions
		}
		return "", false, fmt.Errorf("first message content: %w", err)
	}
	for _, b := range blocks {
		if b.Type != "text" {
			continue
		}
		var text string
		if err := json.Unmarshal(b.Text, &text); err != nil {
			return "", false, fmt.Errorf("text block: %w", err)
		}
		if !strings.HasPrefix(text, claudeInstructionPrefix) {
			continue
		}
		if hasLoneSurrogate(b.Text) {
			return "", false, errors.New("the instruction block holds a lone UTF-16 surrogate, which a Go string cannot carry exactly")
		}
		return text, true, nil
	}
	return "", false, nil
}

// claudeInstructionFiles are the names Claude Code 2.1.328 reads in a
// directory of the chain (and /etc/claude-code holds the managed ones).
var claudeInstructionFiles = []string{"CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md", ".claude/rules", "AGENTS.md", ".claude/AGENTS.md"}

// needClaudeCleanAbove fails the test when a directory above dir, or the
// managed-policy folder, holds an instruction file: Claude Code's chain runs
// up to the filesystem root, so such a file would join every expected text.
func needClaudeCleanAbove(t *testing.T, dir string) {
	t.Helper()
	var found []string
	// The filesystem root itself is not in the chain.
	for d := filepath.Dir(dir); d != filepath.Dir(d); d = filepath.Dir(d) {
		for _, name := range claudeInstructionFiles {
			p := filepath.Join(d, filepath.FromSlash(name))
			if _, err := os.Lstat(p); err == nil {
				found = append(found, p)
			}
		}
	}
	for _, p := range []string{"/etc/claude-code/CLAUDE.md", "/etc/claude-code/.claude/rules"} {
		if _, err := os.Lstat(p); err == nil {
			found = append(found, p)
		}
	}
	if len(found) > 0 {
		t.Fatalf("Claude Code would load these into every run under %s (its chain runs to the filesystem root): %s; move them or set TMPDIR elsewhere", dir, strings.Join(found, ", "))
	}
}
