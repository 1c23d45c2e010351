package project

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/lint"
	"github.com/rivumi/rivumi-lint/internal/repo"
	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

func runDiff(t *testing.T, root string, d repo.Range) (*lint.Result, []string) {
	t.Helper()
	res, notes, err := tryDiff(root, d)
	if err != nil {
		t.Fatal(err)
	}
	return res, notes
}

func tryDiff(root string, d repo.Range) (*lint.Result, []string, error) {
	res, notes, err := Check(Options{Root: root}, Scope{Diff: d})
	return res, noteTexts(notes), err
}

// noteTexts are notes as the command line shows them, warnings marked.
func noteTexts(notes []Note) []string {
	var out []string
	for _, n := range notes {
		out = append(out, n.String())
	}
	return out
}

func dirs(r *lint.Result) string {
	var out []string
	for _, d := range r.Directories {
		out = append(out, d.Path)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func findings(r *lint.Result, rule string) []lint.Finding {
	var out []lint.Finding
	for _, f := range r.Findings {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

func driftText(r *lint.Result) string {
	var b strings.Builder
	for _, d := range r.Drift {
		b.WriteString("[" + strings.Join(d.Directories, " ") + "]")
		for _, c := range d.Changes {
			b.WriteString(" " + c.Change + " " + c.Path + ";")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestStagedContentWins is §6 --staged: content comes from the index, not
// the worktree, in both directions.
func TestStagedContentWins(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "clean\n", "docs/AGENTS.md", "docs\n")
	g.Commit("one")
	g.Write("docs/AGENTS.md", "staged <rivumi:layer> marker\n")
	g.Git("add", "docs/AGENTS.md")
	g.Write("docs/AGENTS.md", "the worktree copy is clean\n")
	g.Write("AGENTS.md", "worktree only <rivumi:x>\n") // not staged
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeStaged})
	if dirs(res) != "docs" {
		t.Fatalf("directories %q, want docs (R7)", dirs(res))
	}
	rl8 := findings(res, "RL008")
	if len(rl8) != 1 || rl8[0].Path != "docs/AGENTS.md" {
		t.Fatalf("RL008 findings %+v, want the staged marker in docs/AGENTS.md", rl8)
	}
	if got := driftText(res); got != "[docs] modified docs/AGENTS.md;\n" {
		t.Errorf("drift %q", got)
	}
}

// TestStagedUnbornHead: before the first commit, --staged compares the
// index with the empty tree.
func TestStagedUnbornHead(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "first\n", "a/b/AGENTS.md", "\xff\n")
	g.Git("add", "-A")
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeStaged})
	if dirs(res) != ".,a/b" {
		t.Fatalf("directories %q", dirs(res))
	}
	if len(findings(res, "RL004")) != 1 {
		t.Errorf("findings %+v", res.Findings)
	}
	if got := driftText(res); !strings.Contains(got, "[.] added AGENTS.md;") || !strings.Contains(got, "[a/b] added AGENTS.md; added a/b/AGENTS.md;") {
		t.Errorf("drift %q", got)
	}
}

// TestStagedDeletionAndRename: a deleted override un-suppresses the layers
// above it below its directory (R7, R9); a rename checks both sides.
func TestStagedDeletionAndRename(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "svc/AGENTS.override.md", "override\n", "svc/api/AGENTS.md", "api\n",
		"svc/api/x.go", "x\n", "docs/AGENTS.md", "docs\n", "docs/keep.txt", "k\n")
	g.Commit("one")
	g.Git("rm", "-q", "svc/AGENTS.override.md")
	if err := os.MkdirAll(filepath.Join(g.Dir, "guide"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.Git("mv", "docs/AGENTS.md", "guide/AGENTS.md")
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeStaged})
	if got := dirs(res); got != "docs,guide,svc,svc/api" {
		t.Fatalf("directories %q", got)
	}
	got := driftText(res)
	for _, want := range []string{
		"[docs] removed docs/AGENTS.md;",
		"[guide] added guide/AGENTS.md;",
		"[svc svc/api] unsuppressed AGENTS.md; removed svc/AGENTS.override.md;",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("drift lacks %q:\n%s", want, got)
		}
	}
	if len(findings(res, "RL005")) != 0 {
		t.Errorf("RL005 after the override is gone: %+v", findings(res, "RL005"))
	}
}

// TestOverrideSilencesDirectories: RL005 names every directory the new
// override silences, found by R7 below it.
func TestOverrideSilencesDirectories(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "svc/a/AGENTS.md", "a\n", "svc/b/c/AGENTS.md", "c\n", "other/AGENTS.md", "o\n")
	g.Commit("one")
	g.Write("svc/AGENTS.override.md", "only this\n")
	g.Commit("override")
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"})
	rl5 := findings(res, "RL005")
	if len(rl5) != 1 || strings.Join(rl5[0].Directories, ",") != "svc,svc/a,svc/b/c" {
		t.Fatalf("RL005 %+v, want one notice for svc, svc/a, svc/b/c", rl5)
	}
	if !strings.Contains(driftText(res), "[svc svc/a svc/b/c] suppressed AGENTS.md; added svc/AGENTS.override.md;") {
		t.Errorf("drift %s", driftText(res))
	}
}

// TestRootChangeBreaksDeepBudget is R7: only the root AGENTS.md grows, and
// the budget breaks three levels down; the deep directory is checked.
func TestRootChangeBreaksDeepBudget(t *testing.T) {
	g := gittest.New(t)
	g.Write(ConfigName, "version: 1\nlimits:\n  max_dynamic_bytes: 1000\n  reserved_bytes: 400\n  warn_ratio: 0.999\n",
		"AGENTS.md", strings.Repeat("r", 50)+"\n",
		"a/b/c/AGENTS.md", strings.Repeat("c", 250)+"\n",
		"a/b/c/main.go", "package c\n", "z/AGENTS.md", "z\n")
	g.Commit("fits")
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD", Head: "HEAD"})
	if len(res.Directories) != 0 {
		t.Fatalf("no change, directories %q", dirs(res))
	}
	g.Write("AGENTS.md", strings.Repeat("r", 220)+"\n")
	g.Commit("root grows")
	res, _ = runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"})
	if got := dirs(res); got != ".,a/b/c,z" {
		t.Fatalf("directories %q, want the root and every directory below with a candidate", got)
	}
	rl6 := findings(res, "RL006")
	if len(rl6) != 1 || rl6[0].Path != "a/b/c/AGENTS.md" || rl6[0].Severity != lint.Error || strings.Join(rl6[0].Directories, ",") != "a/b/c" {
		t.Fatalf("RL006 %+v, want one error on a/b/c/AGENTS.md for a/b/c", rl6)
	}
}

// TestSymlinkedDirectoryAdded is C1 in diff mode: a new link to a
// directory is resolved itself, and the candidates behind it are RL001.
func TestSymlinkedDirectoryAdded(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "guide/AGENTS.md", "guide\n")
	g.Commit("one")
	g.Symlink("guide", "docs")
	g.Commit("link")
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"})
	if dirs(res) != ".,docs" {
		t.Fatalf("directories %q, want the link's directory and the link", dirs(res))
	}
	rl1 := findings(res, "RL001")
	if len(rl1) != 1 || rl1[0].Path != "docs/AGENTS.md" || !strings.Contains(rl1[0].Message, "docs") {
		t.Fatalf("RL001 %+v", rl1)
	}
}

// TestConfigFromBase is F7 (it replaces TestConfigFromHead, which held the
// old rule): every diff mode checks with the base side's config, the
// head's is parsed (a broken one is an error) and RL014 lists each key it
// changes, with RL014's own severity from the base.
func TestConfigFromBase(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "s/AGENTS.md", "a\n", "s/RIVUMI.md", "r\n")
	g.Commit("one")
	g.Write(ConfigName, "version: 1\nrules:\n  RL007: off\n", "s/AGENTS.md", "a2\n")
	g.Commit("config")
	g.Write(ConfigName, "version: 1\nbogus: key\n") // the worktree copy is never read
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"})
	if len(findings(res, "RL007")) != 1 {
		t.Errorf("RL007 %+v: the base has no config, so the defaults apply (F7)", findings(res, "RL007"))
	}
	rl14 := findings(res, "RL014")
	if len(rl14) != 1 || rl14[0].Path != ConfigName || rl14[0].Severity != lint.Notice ||
		!strings.Contains(rl14[0].Message, "lint config changed in this change") || !strings.Contains(rl14[0].Message, "was added") ||
		!strings.Contains(rl14[0].Message, "this run used the defaults, as the base (HEAD~1 (") ||
		!strings.Contains(rl14[0].Message, "loosens rules.RL007 (warning → off)") {
		t.Fatalf("RL014 %+v", rl14)
	}
	// Once the config is on the base, it applies.
	g.Write("s/AGENTS.md", "a3\n")
	g.Git("add", "s/AGENTS.md")
	g.Git("commit", "-q", "-m", "three")
	res, _ = runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"})
	if len(findings(res, "RL007")) != 0 || len(findings(res, "RL014")) != 0 {
		t.Errorf("config on the base: %+v", res.Findings)
	}
	// Staged: the base is HEAD's config; a broken staged config is exit 2.
	g.Git("add", ConfigName)
	if _, _, err := tryDiff(g.Dir, repo.Range{Kind: repo.RangeStaged}); err == nil || !strings.Contains(err.Error(), "bogus") || !strings.Contains(err.Error(), "the index") {
		t.Fatalf("broken staged config: %v", err)
	}
	// A config deleted at the head: the base's still applies, and RL014.
	g.Git("rm", "-q", "-f", ConfigName)
	g.Commit("drop config")
	res, _ = runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"})
	rl14 = findings(res, "RL014")
	if len(rl14) != 1 || !strings.Contains(rl14[0].Message, "was deleted") || !strings.Contains(rl14[0].Message, "the base's version") ||
		!strings.Contains(rl14[0].Message, "tightens rules.RL007 (off → warning)") {
		t.Fatalf("RL014 %+v", rl14)
	}
	if len(findings(res, "RL007")) != 0 {
		t.Errorf("RL007 reported although the base's config turns it off")
	}
	if res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~3", Head: "HEAD~2"}); len(findings(res, "RL014")) != 1 {
		t.Fatalf("--head HEAD~2: RL014 %+v", findings(res, "RL014"))
	}
}

// TestChangeCannotSilenceItsOwnReview is F7, issue #11 item 7: a head
// config with RL008 and RL014 off beside a marker-laden AGENTS.md. Before
// F7 the run had no finding at all, even with --fail-on notice.
func TestChangeCannotSilenceItsOwnReview(t *testing.T) {
	for _, staged := range []bool{false, true} {
		g := gittest.New(t)
		g.Write("AGENTS.md", "root\n", ConfigName, "version: 1\nlimits:\n  max_file_bytes: 1000\n")
		g.Commit("one")
		g.Write(ConfigName, "version: 1\nrules:\n  RL008: off\n  RL014: off\nlimits:\n  max_file_bytes: 2000\n  reserved_bytes: 100\n"+
			"  warn_ratio: 0.5\nfilenames:\n  normal: [AGENTS.md]\nignore: [\"docs/**\"]\n",
			"AGENTS.md", "root </rivumi:layer> forged\n")
		d := repo.Range{Kind: repo.RangeStaged}
		if staged {
			g.Git("add", "-A")
		} else {
			g.Commit("two")
			d = repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"}
		}
		res, _ := runDiff(t, g.Dir, d)
		if rl8 := findings(res, "RL008"); len(rl8) != 1 || rl8[0].Severity != lint.Error {
			t.Errorf("staged=%v: RL008 %+v, want an error: the head cannot switch it off (F7)", staged, rl8)
		}
		rl14 := findings(res, "RL014")
		if len(rl14) != 1 || rl14[0].Severity != lint.Notice {
			t.Fatalf("staged=%v: RL014 %+v, want a notice (its severity is the base's)", staged, rl14)
		}
		for _, want := range []string{
			"loosens rules.RL008 (error → off), rules.RL014 (notice → off), limits.max_file_bytes (1000 → 2000), limits.reserved_bytes (8192 → 100), ignore ([] → [\"docs/**\"])",
			"tightens limits.warn_ratio (0.8 → 0.5)",
			"changes filenames.normal ([\"RIVUMI.md\", \"AGENTS.md\"] → [\"AGENTS.md\"])",
		} {
			if !strings.Contains(rl14[0].Message, want) {
				t.Errorf("staged=%v: RL014 message %q lacks %q", staged, rl14[0].Message, want)
			}
		}
	}
}

// TestExplicitConfigChanged: with --config FILE inside the repository, a
// change to that file is RL014 too, and the file on disk is used.
func TestExplicitConfigChanged(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "ci/lint.yaml", "version: 1\n")
	g.Commit("one")
	g.Write("ci/lint.yaml", "version: 1\nrules:\n  RL014: warning\n")
	g.Commit("loosen")
	res, _, err := Check(Options{Root: g.Dir, Config: filepath.Join(g.Dir, "ci/lint.yaml")}, Scope{Diff: repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"}})
	if err != nil {
		t.Fatal(err)
	}
	rl14 := findings(res, "RL014")
	if len(rl14) != 1 || rl14[0].Path != "ci/lint.yaml" || rl14[0].Severity != lint.Warning || !strings.Contains(rl14[0].Message, "--config") {
		t.Fatalf("RL014 %+v", rl14)
	}
}

// TestHeadRevision: content comes from --head, not from the worktree or
// HEAD.
func TestHeadRevision(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "one\n")
	one := g.Commit("one")
	g.Write("AGENTS.md", "two <rivumi:bad>\n")
	two := g.Commit("two")
	g.Write("AGENTS.md", "three\n")
	g.Commit("three")
	g.Write("AGENTS.md", "worktree <rivumi:bad>\n")
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: one, Head: two})
	if len(findings(res, "RL008")) != 1 {
		t.Fatalf("head two: %+v", res.Findings)
	}
	res, _ = runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: two})
	if len(findings(res, "RL008")) != 0 || dirs(res) != "." {
		t.Fatalf("head HEAD: %+v in %q", res.Findings, dirs(res))
	}
}

// TestNewBranchPush: with no base (a new branch), every directory of the
// head is checked.
func TestNewBranchPush(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "r\n", "a/AGENTS.md", "a\n", "a/b/x.go", "x\n")
	head := g.Commit("one")
	res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeWholeHead, Head: head})
	if dirs(res) != ".,a,a/b" || len(res.Drift) != 0 {
		t.Fatalf("directories %q drift %v", dirs(res), res.Drift)
	}
}

// TestHardCases is §10: each layout works or fails with a message naming
// the cause and the fix.
func TestHardCases(t *testing.T) {
	gittest.SetEnv(t)
	t.Run("empty repository, --base", func(t *testing.T) {
		g := gittest.New(t)
		_, _, err := tryDiff(g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD"})
		if err == nil || !strings.Contains(err.Error(), "no commits yet") || !strings.Contains(err.Error(), "--staged") {
			t.Fatalf("err = %v", err)
		}
		res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeStaged})
		if len(res.Directories) != 0 {
			t.Fatalf("empty index: %q", dirs(res))
		}
	})
	t.Run("shallow clone without the base", func(t *testing.T) {
		src := gittest.New(t)
		src.Write("AGENTS.md", "one\n")
		first := src.Commit("one")
		src.Write("AGENTS.md", "two\n")
		src.Commit("two")
		dst := gittest.At(t, t.TempDir())
		dst.Git("clone", "-q", "--depth", "1", "file://"+src.Dir, ".")
		_, _, err := tryDiff(dst.Dir, repo.Range{Kind: repo.RangeCommits, Base: first})
		var mc *repo.MissingCommitError
		if !errors.As(err, &mc) || !strings.Contains(err.Error(), "fetch-depth: 0") || !strings.Contains(err.Error(), "git fetch --depth=1 origin "+first) {
			t.Fatalf("err = %v", err)
		}
		dst.Git("fetch", "-q", "--depth=1", "origin", first)
		res, _ := runDiff(t, dst.Dir, repo.Range{Kind: repo.RangeCommits, Base: first})
		if driftText(res) != "[.] modified AGENTS.md;\n" {
			t.Fatalf("after the fetch: %q", driftText(res))
		}
	})
	t.Run("partial clone", func(t *testing.T) {
		src := gittest.New(t)
		src.Git("config", "uploadpack.allowFilter", "true")
		src.Write("AGENTS.md", "one\n")
		first := src.Commit("one")
		src.Write("AGENTS.md", "two\n")
		src.Commit("two")
		dst := gittest.At(t, t.TempDir())
		dst.Git("clone", "-q", "--filter=blob:none", "file://"+src.Dir, ".")
		_, _, err := tryDiff(dst.Dir, repo.Range{Kind: repo.RangeCommits, Base: first})
		var me *repo.MissingObjectError
		if !errors.As(err, &me) || !strings.Contains(err.Error(), "partial clone") {
			t.Fatalf("err = %v, want the missing base blob of a partial clone", err)
		}
	})
	t.Run("linked worktree", func(t *testing.T) {
		g := gittest.New(t)
		g.Write("AGENTS.md", "main\n")
		g.Commit("one")
		wt := filepath.Join(t.TempDir(), "wt")
		g.Git("worktree", "add", "-q", "-b", "topic", wt)
		w := gittest.At(t, wt)
		w.Write("x/AGENTS.md", "topic\n")
		w.Git("add", "-A")
		res, _ := runDiff(t, wt, repo.Range{Kind: repo.RangeStaged})
		if dirs(res) != "x" {
			t.Fatalf("staged in the worktree: %q", dirs(res))
		}
		w.Commit("topic")
		res, _ = runDiff(t, wt, repo.Range{Kind: repo.RangeCommits, Base: "main"})
		if dirs(res) != "x" {
			t.Fatalf("--base main in the worktree: %q", dirs(res))
		}
	})
	t.Run("sparse checkout (extensions.worktreeConfig)", func(t *testing.T) {
		g := gittest.New(t)
		g.Write("AGENTS.md", "r\n", "in/AGENTS.md", "in\n", "out/AGENTS.md", "out\n")
		g.Commit("one")
		g.Git("sparse-checkout", "set", "in")
		g.Write("in/AGENTS.md", "in two\n")
		g.Git("add", "in/AGENTS.md")
		res, notes := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeStaged})
		if dirs(res) != "in" || len(notes) != 0 {
			t.Fatalf("directories %q notes %q", dirs(res), notes)
		}
	})
	t.Run("split index", func(t *testing.T) {
		g := gittest.New(t)
		g.Write("AGENTS.md", "r\n")
		g.Commit("one")
		g.Git("update-index", "--split-index")
		g.Write("AGENTS.md", "staged\n")
		g.Git("add", "AGENTS.md")
		res, notes := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeStaged})
		// F3: read natively (shared index and split file), no fall-back note.
		if dirs(res) != "." || len(notes) != 0 {
			t.Fatalf("directories %q notes %q", dirs(res), notes)
		}
	})
	t.Run("SHA-256", func(t *testing.T) {
		g := gittest.New(t, "--object-format=sha256")
		g.Write("AGENTS.md", "one\n")
		g.Commit("one")
		g.Write("AGENTS.md", "two\n")
		g.Commit("two")
		res, notes := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"})
		if driftText(res) != "[.] modified AGENTS.md;\n" || !strings.Contains(strings.Join(notes, "\n"), "SHA-256") {
			t.Fatalf("drift %q notes %q", driftText(res), notes)
		}
	})
	t.Run("detached HEAD", func(t *testing.T) {
		g := gittest.New(t)
		g.Write("AGENTS.md", "one\n")
		first := g.Commit("one")
		g.Write("AGENTS.md", "two\n")
		g.Commit("two")
		g.Git("checkout", "-q", "--detach", "HEAD")
		res, _ := runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: first})
		if driftText(res) != "[.] modified AGENTS.md;\n" {
			t.Fatalf("drift %q", driftText(res))
		}
	})
	t.Run("not a repository", func(t *testing.T) {
		_, _, err := tryDiff(t.TempDir(), repo.Range{Kind: repo.RangeStaged})
		if err == nil || !strings.Contains(err.Error(), "Git") {
			t.Fatalf("err = %v", err)
		}
	})
}

// TestRepositoryUnchanged is R10: a diff-mode run leaves the index and the
// refs byte-identical.
func TestRepositoryUnchanged(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "one\n", "a/AGENTS.md", "a\n")
	g.Commit("one")
	g.Write("AGENTS.md", "two\n")
	g.Git("add", "-A")
	before, _ := os.ReadFile(filepath.Join(g.Dir, ".git/index"))
	status := g.Git("status", "--porcelain")
	runDiff(t, g.Dir, repo.Range{Kind: repo.RangeStaged})
	runDiff(t, g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD"})
	after, _ := os.ReadFile(filepath.Join(g.Dir, ".git/index"))
	if string(before) != string(after) || g.Git("status", "--porcelain") != status {
		t.Fatal("the index or status changed")
	}
}

func TestGitHubScope(t *testing.T) {
	const a, b = "1111111111111111111111111111111111111111", "2222222222222222222222222222222222222222"
	const zero = "0000000000000000000000000000000000000000"
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	pr := write("pr.json", `{"pull_request":{"base":{"sha":"`+a+`"},"head":{"sha":"`+b+`"}}}`)
	push := write("push.json", `{"before":"`+a+`","after":"`+b+`"}`)
	newBranch := write("new.json", `{"before":"`+zero+`","after":"`+b+`"}`)
	deleted := write("del.json", `{"before":"`+a+`","after":"`+zero+`"}`)
	bad := write("bad.json", `{"pull_request":`)
	for _, tc := range []struct {
		name           string
		env            map[string]string
		want           repo.Range
		ok, wantErr    bool
		errContains    string
		sourceContains string
	}{
		{name: "not in Actions", env: map[string]string{"GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": push}},
		{name: "pull_request", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": pr},
			want: repo.Range{Kind: repo.RangeCommits, Base: a, Head: b}, ok: true},
		{name: "pull_request_target", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request_target", "GITHUB_EVENT_PATH": pr},
			want: repo.Range{Kind: repo.RangeCommits, Base: a, Head: b}, ok: true},
		{name: "push", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": push},
			want: repo.Range{Kind: repo.RangeCommits, Base: a, Head: b}, ok: true},
		{name: "push of a new branch", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": newBranch},
			want: repo.Range{Kind: repo.RangeNewBranch, Head: b}, ok: true},
		{name: "push deleting a branch", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": deleted},
			want: repo.Range{Kind: repo.RangeDeleted}, ok: true},
		{name: "other event", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "workflow_dispatch", "GITHUB_EVENT_PATH": push},
			want: repo.Range{NoChange: "no change to compare"}, ok: true},
		{name: "no payload path", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push"}, wantErr: true, errContains: "GITHUB_EVENT_PATH"},
		{name: "corrupt payload", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": bad}, wantErr: true, errContains: "bad.json"},
		{name: "push payload on a pull_request event", env: map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": push}, wantErr: true, errContains: "pull_request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok, err := GitHubScope(func(k string) string { return tc.env[k] })
			if (err != nil) != tc.wantErr || (err != nil && !strings.Contains(err.Error(), tc.errContains)) {
				t.Fatalf("err = %v", err)
			}
			got.Source = ""
			if ok != tc.ok || got != tc.want {
				t.Fatalf("got %+v %v, want %+v %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestGitHubPullRequest runs a pull-request scope end to end on a real
// repository.
func TestGitHubPullRequest(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "base\n")
	base := g.Commit("base")
	g.Write("AGENTS.md", "head\n", "new/AGENTS.override.md", "o\n")
	head := g.Commit("head")
	g.Write("AGENTS.md", "later\n")
	g.Commit("later")
	ev := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(ev, []byte(`{"pull_request":{"base":{"sha":"`+base+`"},"head":{"sha":"`+head+`"}}}`), 0o644)
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": ev}
	d, ok, err := GitHubScope(func(k string) string { return env[k] })
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	res, _ := runDiff(t, g.Dir, d)
	if got := driftText(res); got != "[.] modified AGENTS.md;\n[new] modified AGENTS.md; suppressed AGENTS.md; added new/AGENTS.override.md;\n" &&
		got != "[.] modified AGENTS.md;\n[new] suppressed AGENTS.md; modified AGENTS.md; added new/AGENTS.override.md;\n" {
		t.Fatalf("drift %q", got)
	}
}

// TestGitHubPullRequestMovedBase is §6 for a pull request whose base branch
// moved after it branched: GitHub checks out GITHUB_SHA, the test merge of
// the head into the base branch, and the check compares that merge with
// its first parent. Only what the pull request adds is in scope; the base
// branch's own later change to docs/AGENTS.md is not (base.sha..head.sha
// would show it, reversed, as drift in docs).
func TestGitHubPullRequestMovedBase(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", "docs/AGENTS.md", "docs one\n")
	g.Commit("base")
	g.Git("branch", "-M", "main")
	g.Git("checkout", "-q", "-b", "pr")
	g.Write("new/AGENTS.override.md", "o\n")
	head := g.Commit("pull request")
	g.Git("checkout", "-q", "main")
	g.Write("docs/AGENTS.md", "docs two\n")
	baseTip := g.Commit("base moved")
	g.Git("merge", "-q", "--no-ff", "-m", "merge", "pr")
	merge := g.Rev("HEAD")

	ev := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(ev, []byte(`{"pull_request":{"base":{"sha":"`+baseTip+`"},"head":{"sha":"`+head+`"}}}`), 0o644)
	env := map[string]string{"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": ev, "GITHUB_SHA": merge}
	scope := func() repo.Range {
		d, ok, err := GitHubScope(func(k string) string { return env[k] })
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		return d
	}

	res, notes := runDiff(t, g.Dir, scope())
	if got := driftText(res); got != "[new] suppressed AGENTS.md; added new/AGENTS.override.md;\n" {
		t.Errorf("with the merge commit: drift %q, want only new/ (notes %q)", got, notes)
	}
	if !strings.Contains(strings.Join(notes, "\n"), "checking instead the merge commit "+merge[:12]) {
		t.Errorf("notes %q: want the merge commit named", notes)
	}

	// pull_request_target checks out the base branch: no merge commit, the
	// base commit is compared directly, and a note says what that costs.
	env["GITHUB_EVENT_NAME"] = "pull_request_target"
	res, _ = runDiff(t, g.Dir, scope())
	if got := driftText(res); !strings.Contains(got, "[docs]") {
		t.Errorf("base.sha..head.sha: drift %q, want the base branch's docs change too", got)
	}

	// A GITHUB_SHA that is not a merge of the head (actions/checkout with
	// ref: head.sha leaves it as the event's merge commit, absent here).
	env["GITHUB_EVENT_NAME"] = "pull_request"
	env["GITHUB_SHA"] = baseTip
	_, notes = runDiff(t, g.Dir, scope())
	if !strings.Contains(strings.Join(notes, "\n"), "is not a merge of the head commit here") {
		t.Errorf("notes %q: want the fallback explained", notes)
	}
}

// TestCandidateDirEmptiedUnderChangedRoot is R7, issue #11 item 9: x/AGENTS.md
// is a directory (x's layer, rejected RL002) whose last file is deleted
// together with an edit of the root AGENTS.md. x still exists at the head
// and its chain changed; the root's expansion does not find it (no
// candidate left there), so x must be added itself, and its drift shown.
func TestCandidateDirEmptiedUnderChangedRoot(t *testing.T) {
	for _, staged := range []bool{false, true} {
		g := gittest.New(t)
		g.Write("AGENTS.md", "root\n", "x/AGENTS.md/notes.txt", "n\n", "x/main.go", "package x\n")
		g.Commit("one")
		g.Write("AGENTS.md", "root two\n")
		g.Remove("x/AGENTS.md")
		g.Git("add", "-A")
		d := repo.Range{Kind: repo.RangeStaged}
		if !staged {
			g.Commit("two")
			d = repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"}
		}
		res, _ := runDiff(t, g.Dir, d)
		if dirs(res) != ".,x" {
			t.Errorf("staged=%v: directories %q, want the root and x (R7)", staged, dirs(res))
		}
		if dt := driftText(res); !strings.Contains(dt, "[x]") || !strings.Contains(dt, "x/AGENTS.md") {
			t.Errorf("staged=%v: drift %q lacks x's lost layer x/AGENTS.md", staged, dt)
		}
	}
}

// TestBrokenBaseConfig is F7: the base's config is the one used, so a
// broken one is an error that says to fix it on the base or pass
// --config; with --config the run goes on and RL014 says why it cannot
// list the keys.
func TestBrokenBaseConfig(t *testing.T) {
	g := gittest.New(t)
	g.Write("AGENTS.md", "root\n", ConfigName, "version: 1\nbogus: key\n")
	g.Commit("one")
	g.Write("AGENTS.md", "root two\n", ConfigName, "version: 1\n")
	g.Commit("two")
	_, _, err := tryDiff(g.Dir, repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"})
	if err == nil || !strings.Contains(err.Error(), "bogus") || !strings.Contains(err.Error(), "fix it on the base branch, or pass --config FILE") {
		t.Fatalf("broken base config: %v", err)
	}
	cfg := filepath.Join(t.TempDir(), "lint.yaml")
	if err := os.WriteFile(cfg, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _, err := Check(Options{Root: g.Dir, Config: cfg}, Scope{Diff: repo.Range{Kind: repo.RangeCommits, Base: "HEAD~1"}})
	if err != nil {
		t.Fatal(err)
	}
	if rl14 := findings(res, "RL014"); len(rl14) != 1 || !strings.Contains(rl14[0].Message, "--config") || !strings.Contains(rl14[0].Message, "cannot be compared") {
		t.Fatalf("RL014 %+v", rl14)
	}
}
