package lint_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/config"
	. "github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/lint/severity"
	"github.com/rivumi/rivumi-lint/internal/render"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// tree writes files under a temp root and resolves dirs with cfg.
func runTree(t *testing.T, cfg *config.Config, files map[string]string, dirs ...string) *Result {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		abs := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	e := resolve.New(wt, resolve.Options{Overrides: cfg.Filenames.Override, Normals: cfg.Filenames.Normal, MaxFileBytes: cfg.Limits.MaxFileBytes})
	var rs []*resolve.Resolution
	for _, d := range dirs {
		r, err := e.Chain(d)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	return Check(Inputs{Chains: rs}, cfg)
}

func rulesOf(r *Result) string {
	var ids []string
	for _, f := range r.Findings {
		ids = append(ids, f.Rule+":"+f.Severity.String())
	}
	return strings.Join(ids, " ")
}

// §5: a finding that several chains share is reported once, with every
// directory it affects.
func TestSharedFindingMerged(t *testing.T) {
	r := runTree(t, config.Default(), map[string]string{"AGENTS.md": "a\u202eb", "x/y": "", "z/y": ""}, "", "x", "z")
	if len(r.Findings) != 1 || r.Findings[0].Rule != "RL010" {
		t.Fatalf("findings %+v, want one RL010", r.Findings)
	}
	if got := strings.Join(r.Findings[0].Directories, ","); got != ".,x,z" {
		t.Errorf("directories %s, want .,x,z", got)
	}
	if f := r.Findings[0]; f.Line != 1 || f.Column != 2 {
		t.Errorf("position %d:%d, want 1:2 (columns in bytes)", f.Line, f.Column)
	}
}

// §8: per-rule severity and off; RL009's own severities without config.
func TestSeverities(t *testing.T) {
	files := map[string]string{"AGENTS.md": "", "a/AGENTS.override.md": " \n", "a/agents.md": "x"}
	r := runTree(t, config.Default(), files, "", "a")
	if got, want := rulesOf(r), "RL009:warning RL005:notice RL009:error RL011:warning"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	cfg := config.Default()
	cfg.Rules = map[string]severity.Severity{"RL009": severity.Notice, "RL011": severity.Off}
	r = runTree(t, cfg, files, "", "a")
	if got, want := rulesOf(r), "RL009:notice RL005:notice RL009:notice"; got != want {
		t.Errorf("with config: got %s, want %s", got, want)
	}
}

// P3: error above the limit, warning above warn_ratio, nothing below.
func TestBudgetTiers(t *testing.T) {
	cfg := config.Default()
	cfg.Limits.MaxDynamicBytes, cfg.Limits.ReservedBytes, cfg.Limits.WarnRatio = 1000, 100, 0.5
	small := strings.Repeat("s", 20)
	for _, tc := range []struct {
		text, want string
	}{
		{small, ""},
		{strings.Repeat("w", 350), "RL006:warning"}, // about 480 rendered + 100 > 500
		{strings.Repeat("e", 900), "RL006:error"},   // about 1030 rendered + 100 > 1000
	} {
		r := runTree(t, cfg, map[string]string{"AGENTS.md": tc.text}, "")
		if got := rulesOf(r); got != tc.want {
			t.Errorf("%d bytes: got %q, want %q", len(tc.text), got, tc.want)
		}
		if d := r.Directories[0]; d.BudgetBytes != 900 || d.RenderedBytes <= len(tc.text) {
			t.Errorf("directory figures %+v", d)
		}
	}
}

// §8 ignore: findings on ignored paths are dropped.
func TestIgnoredFindingDropped(t *testing.T) {
	cfg := config.Default()
	cfg.Ignore = []string{"vendor/**"}
	r := runTree(t, cfg, map[string]string{"vendor/AGENTS.md": "", "AGENTS.md": "ok"}, "", "vendor")
	if len(r.Findings) != 0 {
		t.Errorf("findings %+v, want none", r.Findings)
	}
}

// TestRenderedBytesMatchRender: Run sums cached layer lengths instead of
// rendering each chain; the figure must be len(render.Instructions) for
// chains with CRLF, a BOM, attribute escaping, suppressed and shadowed
// layers, and no active layer at all.
func TestRenderedBytesMatchRender(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"AGENTS.md":                "\ufeffroot\r\nline two  \n\n",
		"a&b/AGENTS.md":            "amp <dir>\n",
		"a&b/RIVUMI.md":            "shadowing\n",
		"a&b/c/AGENTS.override.md": "override\n",
		"a&b/c/d/e/AGENTS.md":      "deep\t\n",
		"q/AGENTS.override.md":     "",
		"q/r/x.txt":                "",
		"plain/sub/x.txt":          "",
	}
	for p, c := range files {
		abs := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer wt.Close()
	cfg := config.Default()
	e := resolve.New(wt, resolve.Options{Overrides: cfg.Filenames.Override, Normals: cfg.Filenames.Normal, MaxFileBytes: cfg.Limits.MaxFileBytes})
	var rs []*resolve.Resolution
	for _, d := range []string{"", "a&b", "a&b/c", "a&b/c/d", "a&b/c/d/e", "q", "q/r", "plain", "plain/sub"} {
		r, err := e.Chain(d)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	res := Check(Inputs{Chains: rs, Skills: []byte("skills")}, cfg)
	for i, r := range rs {
		want := len(render.Instructions(r)) + len("skills")
		if got := res.Directories[i].RenderedBytes; got != want {
			t.Errorf("%q: rendered_bytes %d, want %d", r.Dir, got, want)
		}
	}
}
