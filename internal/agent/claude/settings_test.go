package claude

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/agent"
	"github.com/rivumi/rivumi-lint/internal/agent/agenttest"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// testResolver is a resolver over the worktree at root.
func testResolver(t testing.TB, root string, o Options) *Resolver {
	t.Helper()
	wt, err := resolve.OpenWorktree(root, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { wt.Close() })
	o.RootAbs = filepath.ToSlash(root) // as the run gives it (project.Run.rootAbs): a slash path on Windows too
	e := resolve.New(wt, resolve.Options{Overrides: []string{"RIVUMI.override.md", "AGENTS.override.md"},
		Normals: []string{"RIVUMI.md", "AGENTS.md"}, MaxFileBytes: 32768, Also: o.Also()})
	return New(e, o)
}

// loadedPaths are the root-relative paths of a view's files that
// enter its message.
func loadedPaths(v *agent.View) []string {
	var out []string
	for _, c := range v.Candidates {
		if c.State == agent.Loaded || c.State == agent.Imported {
			out = append(out, c.Path)
		}
	}
	return out
}

// The settings files whose claudeMdExcludes Claude Code 2.1.328 applies
// (#33.4): the working directory's .claude/settings.json and
// settings.local.json, the Git top's settings.local.json, the user's
// settings.json; what the binary did in each case is in the comments
// (TestClaudeExcludesSettings compares the texts byte for byte).
func TestClaudeSettingsExcludes(t *testing.T) {
	base := map[string]string{
		"CLAUDE.md":              "root\n",
		"sub/CLAUDE.md":          "sub @imp.md\n",
		"sub/imp.md":             "imp\n",
		"sub/CLAUDE.local.md":    "sublocal\n",
		"sub/.claude/CLAUDE.md":  "dotclaude\n",
		"sub/.claude/rules/r.md": "rule\n",
		"sub/deep/x.txt":         "x\n",
	}
	ex := func(ps ...string) string {
		q := make([]string, len(ps))
		for i, p := range ps {
			q[i] = strconvQuote(p)
		}
		return `{"claudeMdExcludes": [` + strings.Join(q, ", ") + `]}`
	}
	all := []string{"CLAUDE.md", "sub/CLAUDE.md", "sub/imp.md", "sub/.claude/CLAUDE.md", "sub/.claude/rules/r.md", "sub/CLAUDE.local.md"}
	noSub := []string{"CLAUDE.md", "sub/.claude/CLAUDE.md", "sub/.claude/rules/r.md", "sub/CLAUDE.local.md"}
	for _, c := range []struct {
		name    string
		files   map[string]string
		home    map[string]string
		dir     string
		noGit   bool
		want    []string
		inexact string // a part of the reason; "" for an exact view
	}{
		{name: "none", want: all},
		// The working directory's local and shared settings apply; the
		// excluded file's import goes with it.
		{name: "local", files: map[string]string{"sub/.claude/settings.local.json": ex("**/sub/CLAUDE.md")}, want: noSub},
		{name: "shared", files: map[string]string{"sub/.claude/settings.json": ex("**/sub/CLAUDE.md")}, want: noSub},
		// The Git top's local settings apply below it, its shared ones not.
		{name: "top local", files: map[string]string{".claude/settings.local.json": ex("**/sub/CLAUDE.md")}, want: noSub},
		{name: "top shared", files: map[string]string{".claude/settings.json": ex("**/sub/CLAUDE.md")}, want: all},
		{name: "no Git top", noGit: true, files: map[string]string{".claude/settings.local.json": ex("**/sub/CLAUDE.md")}, want: all},
		// A directory between the top and the working directory is not read.
		{name: "parent local", dir: "sub/deep", files: map[string]string{"sub/.claude/settings.local.json": ex("**/CLAUDE.md")},
			want: []string{"CLAUDE.md", "sub/CLAUDE.md", "sub/.claude/CLAUDE.md", "sub/.claude/rules/r.md", "sub/CLAUDE.local.md"}},
		// Every file's arrays are merged: the user's, the top's, the directory's.
		{name: "merged", files: map[string]string{".claude/settings.local.json": ex("**/.claude/rules/**"), "sub/.claude/settings.local.json": ex("**/sub/CLAUDE.md")},
			home: map[string]string{".claude/settings.json": ex("**/CLAUDE.local.md")}, want: []string{"CLAUDE.md", "sub/.claude/CLAUDE.md"}},
		// picomatch: "*" stays in its segment, a relative pattern matches
		// no absolute path, "!" negates, braces choose; a byte-order mark
		// and "$schema" are allowed, an empty file is none.
		{name: "globs", files: map[string]string{"sub/.claude/settings.local.json": "\ufeff" + `{"$schema": "x", "claudeMdExcludes": ["*/CLAUDE.md", "CLAUDE.local.md", "**/sub/{imp,none}.md", ""]}`},
			want: []string{"CLAUDE.md", "sub/CLAUDE.md", "sub/.claude/CLAUDE.md", "sub/.claude/rules/r.md", "sub/CLAUDE.local.md"}},
		{name: "negation", files: map[string]string{"sub/.claude/settings.local.json": ex("!**/sub/CLAUDE.md")}, want: []string{"sub/CLAUDE.md"}},
		{name: "empty", files: map[string]string{"sub/.claude/settings.local.json": "", "sub/.claude/settings.json": ex("**/sub/CLAUDE.md")}, want: noSub},
		{name: "no key", files: map[string]string{"sub/.claude/settings.local.json": `{"permissions": 5}`}, want: all},
		// What is not modelled says so.
		{name: "bad JSON", files: map[string]string{"sub/.claude/settings.local.json": `{"claudeMdExcludes": ["**/sub/CLAUDE.md"],}`}, want: all, inexact: "sub/.claude/settings.local.json is not valid JSON"},
		{name: "bad type", files: map[string]string{"sub/.claude/settings.local.json": `{"claudeMdExcludes": null}`}, want: all, inexact: "drops the whole file (\"Expected array\")"},
		{name: "bad entry", files: map[string]string{"sub/.claude/settings.local.json": `{"claudeMdExcludes": ["a", 3]}`}, want: all, inexact: "Expected string"},
		{name: "other keys", files: map[string]string{"sub/.claude/settings.local.json": `{"permissions": {}, "claudeMdExcludes": ["**/sub/CLAUDE.md"]}`}, inexact: `sets "permissions" beside claudeMdExcludes`},
		{name: "extglob", files: map[string]string{"sub/.claude/settings.local.json": ex("**/+(CLAUDE).local.md")}, inexact: "holds an extglob"},
		{name: "brace without comma", files: map[string]string{"sub/.claude/settings.local.json": ex("**/{CLAUDE}.md")}, inexact: "brace group without a comma"},
		{name: "bare negation", files: map[string]string{"sub/.claude/settings.local.json": ex("!")}, inexact: "bare negation"},
		{name: "range", files: map[string]string{"sub/.claude/settings.local.json": ex("**/{1..3}.md")}, inexact: "brace range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "globs" && runtime.GOOS == "windows" {
				// "*/CLAUDE.md" and a relative pattern against C:/… are not
				// what the Linux binary showed: the profile is pinned on POSIX
				// paths, and Claude Code's Windows matching is not modelled.
				t.Skip("the glob cases are POSIX absolute paths")
			}
			files := map[string]string{}
			for k, v := range base {
				files[k] = v
			}
			for k, v := range c.files {
				files[k] = v
			}
			root := agenttest.Tree(t, files)
			if c.noGit {
				if err := os.Remove(filepath.Join(root, ".git")); err != nil {
					t.Fatal(err)
				}
			}
			o := Options{}
			if c.home != nil {
				o.Home = agenttest.Tree(t, c.home)
			}
			dir := c.dir
			if dir == "" {
				dir = "sub"
			}
			v := viewOf(t, root, dir, o)
			switch {
			case c.inexact != "":
				if v.Exact() || !strings.Contains(v.Inexact, c.inexact) {
					t.Errorf("inexact %q, want …%s…", v.Inexact, c.inexact)
				}
			case !v.Exact():
				t.Errorf("not exact: %s", v.Inexact)
			}
			if c.want != nil {
				if got := loadedPaths(v); !slices.Equal(got, c.want) {
					t.Errorf("loaded %q, want %q", got, c.want)
				}
			}
		})
	}
}

// A directory below one whose settings exclude a file does not read those
// settings: its view is its own, not the parent's shared (#33.4).
func TestClaudeSettingsNotShared(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"CLAUDE.md":                   "root\n",
		"sub/CLAUDE.md":               "sub\n",
		"sub/.claude/settings.json":   `{"claudeMdExcludes": ["**/sub/CLAUDE.md"]}`,
		"sub/deep/x.txt":              "x\n",
		"sub/deep/er/x.txt":           "x\n",
		"other/.claude/settings.json": `{"claudeMdExcludes": ["**/CLAUDE.md"]}`,
	})
	wt := testResolver(t, root, Options{})
	for _, c := range []struct {
		dir  string
		want []string
	}{
		{"sub", []string{"CLAUDE.md"}},
		{"sub/deep", []string{"CLAUDE.md", "sub/CLAUDE.md"}},
		{"sub/deep/er", []string{"CLAUDE.md", "sub/CLAUDE.md"}},
		{"other", nil},
		{"", []string{"CLAUDE.md"}},
	} {
		v, err := wt.View(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := loadedPaths(v); !slices.Equal(got, c.want) || !v.Exact() {
			t.Errorf("%q: loaded %q (exact %v %s), want %q", c.dir, got, v.Exact(), v.Inexact, c.want)
		}
	}
}

// Managed settings, which rivumi-lint never reads, make every view not
// exact; without them the same view is.
func TestClaudeManagedSettings(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{"CLAUDE.md": "root\n"})
	for _, has := range []bool{false, true} {
		v := viewOf(t, root, "", Options{ManagedSettings: func() bool { return has }})
		if v.Exact() == has || has && !strings.Contains(v.Inexact, "managed settings exist in /etc/claude-code") {
			t.Errorf("managed settings %v: exact %v (%s)", has, v.Exact(), v.Inexact)
		}
	}
}

// A pass that starts from its parent's copy keeps its own reasons: the
// parent's unreadable settings are not the child's, and the child's are
// its own.
func TestClaudeSettingsPrefixReasons(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{
		"a/CLAUDE.md":                   "a\n",
		"a/.claude/settings.local.json": "{,}",
		"a/b/CLAUDE.md":                 "b\n",
		"c/CLAUDE.md":                   "c\n",
		"c/d/CLAUDE.md":                 "d\n",
		"c/d/.claude/settings.json":     "{,}",
	})
	r := testResolver(t, root, Options{})
	for _, c := range []struct {
		dir   string
		exact bool
	}{{"a", false}, {"a/b", true}, {"c", true}, {"c/d", false}} {
		v, err := r.View(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		if v.Exact() != c.exact {
			t.Errorf("%s: exact %v (%s), want %v", c.dir, v.Exact(), v.Inexact, c.exact)
		}
	}
}

// A .git file inside the root (a submodule) hides its canonical Git root;
// an absolute pattern whose directory is a link gains a resolved twin in
// Claude Code: neither is modelled, and the view says so.
func TestClaudeSettingsUnmodelled(t *testing.T) {
	root := agenttest.Tree(t, map[string]string{"mod/.git": "gitdir: ../.git/modules/mod\n", "mod/CLAUDE.md": "mod\n"})
	if v := viewOf(t, root, "mod", Options{}); v.Exact() || !strings.Contains(v.Inexact, "mod/.git is a file (a submodule or a linked worktree)") {
		t.Errorf("submodule: exact %v (%s)", v.Exact(), v.Inexact)
	}
	o := Options{Excludes: []string{"/elsewhere/link/CLAUDE.md"}, RealDir: func(abs string) string {
		if abs == "/elsewhere/link" {
			return root
		}
		return abs
	}}
	if v := viewOf(t, root, "", o); v.Exact() || !strings.Contains(v.Inexact, "names its directory through a symbolic link") {
		t.Errorf("linked pattern directory: exact %v (%s)", v.Exact(), v.Inexact)
	}
	o.Excludes = []string{"/elsewhere/other/CLAUDE.md", root + "/CLAUDE.md"}
	if v := viewOf(t, root, "", o); !v.Exact() {
		t.Errorf("physical pattern directories: %s", v.Inexact)
	}
	// RootGit: the root is the Git top even where its .git is not listed.
	top := agenttest.Tree(t, map[string]string{".claude/settings.local.json": `{"claudeMdExcludes": ["**/a/CLAUDE.md"]}`, "a/CLAUDE.md": "a\n"})
	if err := os.Remove(filepath.Join(top, ".git")); err != nil {
		t.Fatal(err)
	}
	for _, rootGit := range []bool{false, true} {
		v := viewOf(t, top, "a", Options{RootGit: rootGit})
		if c := candidateOf(v, "a/CLAUDE.md"); c == nil || (c.State == agent.Excluded) != rootGit {
			t.Errorf("RootGit %v: %+v", rootGit, c)
		}
	}
	// LocalAbove answers where no Git top is inside the root.
	v := viewOf(t, top, "a", Options{LocalAbove: func() string { return "the main worktree's" }})
	if v.Exact() || v.Inexact != "the main worktree's" {
		t.Errorf("LocalAbove: exact %v (%s)", v.Exact(), v.Inexact)
	}
}

// A settings file reached through a link is not read: the view says so.
func TestClaudeSettingsLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	root := agenttest.Tree(t, map[string]string{"sub/CLAUDE.md": "sub\n", "x.json": `{"claudeMdExcludes": ["**/sub/CLAUDE.md"]}`, "sub/.claude/": ""})
	if err := os.Symlink("../../x.json", filepath.Join(root, "sub", ".claude", "settings.local.json")); err != nil {
		t.Fatal(err)
	}
	v := viewOf(t, root, "sub", Options{})
	if v.Exact() || !strings.Contains(v.Inexact, "sub/.claude/settings.local.json is reached through a symbolic link") {
		t.Errorf("inexact %q", v.Inexact)
	}
}

func TestClaudeSettingsParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
		why  string
	}{
		{"", nil, ""},
		{"\ufeff", nil, ""},
		{`{}`, nil, ""},
		{`{"claudeMdExcludes": []}`, nil, ""},
		{`{"claudeMdExcludes": ["/a/**", "b"]}`, []string{"/a/**", "b"}, ""},
		{`{"claudeMdExcludes": ["a\\b"]}`, []string{`a\b`}, ""},
		{`null`, nil, "not a JSON object"},
		{`[]`, nil, "not valid JSON"},
		{`{"claudeMdExcludes": "a"}`, nil, "Expected array"},
		{`{"claudeMdExcludes": [null]}`, nil, "Expected string"},
		{"{\"claudeMdExcludes\": [\"\xff\"]}", nil, "not UTF-8"},
		{`{"claudeMdExcludes": ["a"], "model": "x"}`, nil, `sets "model"`},
	} {
		got, why := settingsExcludes([]byte(c.in))
		if !slices.Equal(got, c.want) || c.why == "" && why != "" || c.why != "" && !strings.Contains(why, c.why) {
			t.Errorf("%q: %q, %q; want %q, …%s…", c.in, got, why, c.want, c.why)
		}
	}
}

// FuzzClaudeSettings: the settings reader and the glob check never panic,
// and what they keep is what the file lists.
func FuzzClaudeSettings(f *testing.F) {
	for _, s := range []string{"", `{"claudeMdExcludes": ["**/a/{b,c}.md", "!x"]}`, `{"claudeMdExcludes": null}`, "\ufeff{}", `{"a": 1}`, `{"claudeMdExcludes": ["{a..b}", "+(a)", "[[:alpha:]]"]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		globs, why := settingsExcludes(data)
		if why != "" && globs != nil {
			t.Fatalf("globs %q with a reason %q", globs, why)
		}
		r := checkGlobs("f", globs)
		x := &excludeSet{globs: r.globs}
		_, _ = x.match("/r/CLAUDE.md")
		for _, g := range r.globs {
			if g.glob == "" || strings.Contains(g.glob, `\`) || g.from != "f" {
				t.Fatalf("kept %+v", g)
			}
		}
	})
}
