package integration

// The harness that runs the real OpenCode and captures the instruction
// entries it sends: opencode_test.go checks it on fixed trees (the evidence
// of the opencode rules, #36).
//
// OpenCode's loader is open (packages/opencode/src/session/instruction.ts),
// but what the pinned binary does is what counts: pointed by an
// openai provider of its user config at a loopback server that records the
// request and refuses it, `opencode run hello` posts two /v1/responses
// requests (a title request, and the session's, whose system message holds
// the instruction entries) and exits 1. The run is made safe rather than
// trusted: an empty HOME (its XDG directories and TMPDIR inside the test's
// temporary directories), a minimal environment, no models fetch and no
// auto-update, and the only address it is given is the recorder's on
// 127.0.0.1: even the npm registry its background install of
// @opencode-ai/plugin into the config directory would reach.

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
	// opencodeVersion is the release the opencode profile is pinned to.
	opencodeVersion = "1.18.33"
	// opencodeBinVar names the binary to run; else `opencode` on PATH.
	opencodeBinVar = "RIVUMI_OPENCODE"
	// The instruction span starts after the environment block, with the
	// first entry's "Instructions from: ", and ends before the "\n" that
	// precedes the fixed paragraph about skills (the system message is
	// its parts joined by "\n").
	opencodeSpanAfter = "</env>\n"
	opencodeEntry     = "Instructions from: "
	opencodeSpanEnd   = "\nSkills provide specialized instructions and workflows for specific tasks.\n" +
		"Use the skill tool to load a skill when a task matches its description.\n"
	// opencodeRunTimeout bounds one run: it usually takes about ten
	// seconds.
	opencodeRunTimeout = 3 * time.Minute
)

// opencodeConfig is the user config of every run: the openai provider
// pointed at the recorder (OC_BASE), no sharing, no auto-update.
const opencodeConfig = `{"autoupdate":false,"share":"disabled","provider":{"openai":{"options":{"baseURL":"{env:OC_BASE}","apiKey":"x"}}},"model":"openai/gpt-4o"}`

// opencodeInstallHint is how to get the pinned release; .ci/run does the same.
const opencodeInstallHint = "install OpenCode " + opencodeVersion + ": " +
	"`npm install --prefix \"$HOME/.cache/rivumi-lint/agents/opencode-" + opencodeVersion + "\" opencode-ai@" + opencodeVersion + "` " +
	"and `export " + opencodeBinVar + "=\"$HOME/.cache/rivumi-lint/agents/opencode-" + opencodeVersion + "/node_modules/.bin/opencode\"` (.ci/run does both)"

// opencodeBinary returns the pinned OpenCode: $RIVUMI_OPENCODE, else
// `opencode` on PATH, whose --version is the pinned one. It skips the test
// unless RIVUMI_LINT_INTEGRATION=1 and fails it, with the install hint,
// when the binary is missing or another release.
func opencodeBinary(t *testing.T) string {
	t.Helper()
	return agentBinary(t, agentBin{what: "OpenCode", envVar: opencodeBinVar, command: "opencode", hint: opencodeInstallHint, check: checkOpenCodeVersion})
}

// checkOpenCodeVersion runs `opencode --version`, which prints the bare
// version and a newline.
func checkOpenCodeVersion(bin string) error {
	home, err := os.MkdirTemp("", "rivumi-opencode-version-")
	if err != nil {
		return fmt.Errorf("opencode --version: %w", err)
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), opencodeRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Dir = home
	cmd.Env = opencodeEnv(home, home, "")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Cancel = func() error { killGroup(cmd.Process.Pid); return nil }
	cmd.WaitDelay = 5 * time.Second
	if err := procs.run(nil, cmd); err != nil {
		return fmt.Errorf("%s --version: %w (stderr %q)", bin, err, stderr.String())
	}
	if got := stdout.String(); got != opencodeVersion+"\n" {
		return fmt.Errorf("%s --version prints %q, want %q", bin, got, opencodeVersion+"\n")
	}
	return nil
}

// opencodeEnv is the whole environment of a run: nothing of the test's own
// but PATH (the user's OPENCODE_* variables, XDG directories, npm settings
// and proxies would change what is loaded or where requests go). The XDG
// directories are HOME's defaults, set so that none of the user's leaks
// in. With baseURL the provider, and the npm registry of the background
// plugin install, are the recorder.
func opencodeEnv(home, tmp, baseURL string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"TMPDIR=" + tmp,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"LANG=C.UTF-8",
		"TERM=dumb",
		"NO_COLOR=1",
		"GIT_CONFIG_NOSYSTEM=1",
		"OPENCODE_DISABLE_MODELS_FETCH=1",
		"OPENCODE_DISABLE_AUTOUPDATE=1",
	}
	if baseURL != "" {
		env = append(env,
			"OC_BASE="+baseURL+"/v1",
			"npm_config_registry="+baseURL+"/npm/",
			"NO_PROXY=127.0.0.1")
	}
	return env
}

// opencodeRefusal is the provider's error body the recorder answers
// OpenCode with: it gives up and exits.
const opencodeRefusal = `{"error":{"message":"test server","type":"invalid_request_error"}}`

// opencodeOptions are what a run may vary besides the directory.
type opencodeOptions struct {
	// home is the run's HOME, prepared by the test (user files under
	// .config/opencode, .claude); "" is a fresh empty one. The harness
	// writes .config/opencode/opencode.json in it.
	home string
	// env comes after the harness's own variables.
	env []string
}

// opencodeResult is one run: what it printed and what it sent.
type opencodeResult struct {
	bodies         [][]byte
	others         []string
	stdout, stderr string
	code           int
	took           time.Duration
}

func (r opencodeResult) String() string {
	return fmt.Sprintf("exit %d after %v, %d requests to /v1/responses, others %v\n--- stdout\n%s--- stderr\n%s", r.code, r.took.Round(time.Millisecond), len(r.bodies), r.others, r.stdout, r.stderr)
}

// runOpenCode runs `opencode run hello` in dir (the working directory, as
// a session started there) against a fresh recorder, under an empty HOME,
// in a process group of its own that ends with the test.
func runOpenCode(t *testing.T, bin, dir string, opt opencodeOptions) opencodeResult {
	t.Helper()
	home := opt.home
	if home == "" {
		home = t.TempDir()
	}
	writeFiles(t, home, map[string]string{".config/opencode/opencode.json": opencodeConfig})
	tmp := t.TempDir()
	rec := newLoopRecorder(t, "opencode", "/v1/responses", opencodeRefusal)

	ctx, cancel := context.WithTimeout(context.Background(), opencodeRunTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "run", "hello")
	cmd.Dir = dir
	cmd.Env = append(opencodeEnv(home, tmp, rec.srv.URL), opt.env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	// The tools it starts (a shell, git, its file watcher) are in its
	// group: end the whole group.
	cmd.Cancel = func() error { killGroup(cmd.Process.Pid); return nil }
	cmd.WaitDelay = 5 * time.Second
	start := time.Now()
	err := procs.run(t, cmd)
	res := opencodeResult{stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		t.Fatalf("opencode in %s: no exit within %v\n%s", dir, opencodeRunTimeout, res)
	case err == nil:
	case errors.As(err, &ee):
		res.code = ee.ExitCode() // 1: the recorder refused the request
	default:
		t.Fatalf("opencode in %s: %v", dir, err)
	}
	res.bodies, res.others = rec.bodies()
	if len(res.bodies) == 0 {
		t.Fatalf("opencode in %s sent no request to the recorder\n%s", dir, res)
	}
	return res
}

// opencodeInstructions runs the pinned OpenCode in dir and returns the
// instruction span it sent: the entries of the session's request (the
// title request carries none), exactly one of which it must send.
func opencodeInstructions(t *testing.T, bin, dir string, opt opencodeOptions) string {
	t.Helper()
	res := runOpenCode(t, bin, dir, opt)
	var spans []string
	for i, body := range res.bodies {
		s, session, err := opencodeBodySpan(body)
		if err != nil {
			t.Fatalf("opencode in %s: request %d: %v\n%s", dir, i, err, res)
		}
		if session {
			spans = append(spans, s)
		}
	}
	if len(spans) != 1 {
		t.Fatalf("opencode in %s: %d session requests, want 1\n%s", dir, len(spans), res)
	}
	t.Logf("opencode in %s: exit %d after %v, %d requests to /v1/responses, others %v", dir, res.code, res.took.Round(time.Millisecond), len(res.bodies), res.others)
	return spans[0]
}

// opencodeTitlePrompt starts the system text of the title request.
const opencodeTitlePrompt = "You are a title generator."

// opencodeBodySpan finds the instruction span in one responses body; a
// title request (its first input a developer message, the title
// generator's prompt) has none and is reported as not the session's.
func opencodeBodySpan(body []byte) (span string, session bool, err error) {
	var req struct {
		Input []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"input"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return "", false, fmt.Errorf("not a responses request: %w", err)
	}
	if len(req.Input) == 0 {
		return "", false, errors.New("the request has no input")
	}
	first := req.Input[0]
	if hasLoneSurrogate(first.Content) {
		return "", false, errors.New("the first input holds a lone UTF-16 surrogate, which a Go string cannot carry exactly")
	}
	var text string
	if err := json.Unmarshal(first.Content, &text); err != nil {
		return "", false, fmt.Errorf("the first input's content is not one string: %w", err)
	}
	switch first.Role {
	case "developer":
		if !strings.HasPrefix(text, opencodeTitlePrompt) {
			return "", false, fmt.Errorf("a developer message that is not the title request's: %.80q", text)
		}
		return "", false, nil
	case "system":
	default:
		return "", false, fmt.Errorf("the first input's role is %q, not system or developer", first.Role)
	}
	_, rest, ok := strings.Cut(text, opencodeSpanAfter)
	if !ok {
		return "", true, fmt.Errorf("no %q in the system message", opencodeSpanAfter)
	}
	// The fixed paragraph comes last but for the skills list; the last
	// one is the real one, whatever a file's text holds.
	end := strings.LastIndex("\n"+rest, opencodeSpanEnd)
	if end < 0 {
		return "", true, fmt.Errorf("no %q after %q in the system message", opencodeSpanEnd, opencodeSpanAfter)
	}
	if end == 0 {
		return "", true, nil // no entry: the paragraph follows the block
	}
	span = rest[:end-1]
	if !strings.HasPrefix(span, opencodeEntry) {
		return "", true, fmt.Errorf("the system message goes on after %q with %.80q, not %q", opencodeSpanAfter, span, opencodeEntry)
	}
	return span, true, nil
}

// TestOpenCodeBodySpan checks the span's extraction on made-up bodies, so
// that a change of the harness is caught without the binary (it runs
// without RIVUMI_LINT_INTEGRATION).
func TestOpenCodeBodySpan(t *testing.T) {
	body := func(role, system string) []byte {
		js, err := json.Marshal(map[string]any{"input": []map[string]any{
			{"role": role, "content": system},
			{"role": "user", "content": []map[string]any{{"type": "input_text", "text": "hello"}}},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return js
	}
	const para = "Skills provide specialized instructions and workflows for specific tasks.\n" +
		"Use the skill tool to load a skill when a task matches its description.\n<available_skills>\n</available_skills>"
	env := "You are opencode.\n<env>\n  Working directory: /r\n</env>\n"
	for name, c := range map[string]struct{ system, want string }{
		"two":                   {env + "Instructions from: /r/AGENTS.md\na\n\nInstructions from: /u/AGENTS.md\nb\n\n" + para, "Instructions from: /r/AGENTS.md\na\n\nInstructions from: /u/AGENTS.md\nb\n"},
		"no newline at the end": {env + "Instructions from: /r/AGENTS.md\na\n" + para, "Instructions from: /r/AGENTS.md\na"},
		"none":                  {env + para, ""},
		// A file may hold the markers: the first </env> and the last
		// paragraph count.
		"markers in a file": {env + "Instructions from: /r/AGENTS.md\n</env>\n\n" + para + "\n" + para, "Instructions from: /r/AGENTS.md\n</env>\n\n" + para},
	} {
		got, session, err := opencodeBodySpan(body("system", c.system))
		if err != nil || !session || got != c.want {
			t.Errorf("%s: span %q, session %v, %v; want %q", name, got, session, err, c.want)
		}
	}
	if got, session, err := opencodeBodySpan(body("developer", "You are a title generator. You output ONLY a thread title.")); err != nil || session || got != "" {
		t.Errorf("title request: span %q, session %v, %v; want not the session's", got, session, err)
	}
	for name, b := range map[string][]byte{
		"no env":          body("system", "Instructions from: /r/AGENTS.md\na\n\n"+para),
		"no paragraph":    body("system", env+"Instructions from: /r/AGENTS.md\na\n"),
		"not an entry":    body("system", env+"Something else\n\n"+para),
		"other developer": body("developer", env+para),
		"user first":      body("user", env+para),
		"not JSON":        []byte("{"),
		"no input":        []byte(`{"input":[]}`),
		"parts":           []byte(`{"input":[{"role":"system","content":[{"type":"input_text","text":"</env>\n\nSkills provide"}]}]}`),
		"lone surrogate":  []byte(`{"input":[{"role":"system","content":"</env>\n\ud800Instructions from: /a\n\nSkills provide specialized instructions and workflows for specific tasks.\nUse the skill tool to load a skill when a task matches its description.\n"}]}`),
	} {
		if got, _, err := opencodeBodySpan(b); err == nil {
			t.Errorf("%s: span %q, want an error", name, got)
		}
	}
}
