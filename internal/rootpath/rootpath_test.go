package rootpath

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestWithin is the inside-the-root test of both variants (R1: the root
// and a directory below it; F10: a user-level file's location in the
// repository): a path as written, and one reached through a link, which
// only WithinResolved finds inside.
func TestWithin(t *testing.T) {
	t.Parallel()
	tmp := t.TempDir()
	root := filepath.Join(tmp, "a", "b")
	for _, d := range []string{filepath.Join(root, "x", "y"), filepath.Join(tmp, "a", "bc"), filepath.Join(tmp, "out")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := runtime.GOOS != "windows" // creating one there needs a privilege
	if links {
		// toInside, outside the root, leads into it; toRoot is the root
		// under another name; toOut, inside the root, leads out of it.
		for link, target := range map[string]string{
			filepath.Join(tmp, "toInside"): filepath.Join(root, "x"),
			filepath.Join(tmp, "toRoot"):   root,
			filepath.Join(root, "toOut"):   filepath.Join(tmp, "out"),
		} {
			if err := os.Symlink(target, link); err != nil {
				t.Fatal(err)
			}
		}
	}
	type want struct {
		rel string
		ok  bool
	}
	type row struct {
		name       string
		root, p    string
		link       bool // needs the links
		plain, res want // Within, WithinResolved
	}
	cases := []row{
		{name: "inside", root: root, p: filepath.Join(root, "x", "y"), plain: want{"x/y", true}, res: want{"x/y", true}},
		{name: "the root itself", root: root, p: root, plain: want{"", true}, res: want{"", true}},
		{name: "the root, written unclean", root: root + string(filepath.Separator), p: filepath.Join(root, "x") + string(filepath.Separator) + "..", plain: want{"", true}, res: want{"", true}},
		{name: "..", root: root, p: filepath.Join(root, ".."), plain: want{}, res: want{}},
		{name: "../ and on", root: root, p: filepath.Join(tmp, "out"), plain: want{}, res: want{}},
		{name: "inside, then out by ..", root: root, p: root + string(filepath.Separator) + filepath.Join("x", "..", "..", "bc"), plain: want{}, res: want{}},
		{name: "sibling with a common prefix", root: root, p: filepath.Join(tmp, "a", "bc"), plain: want{}, res: want{}},
		{name: "below a sibling with a common prefix", root: root, p: filepath.Join(tmp, "a", "bc", "x"), plain: want{}, res: want{}},
		{name: "a name starting with ..", root: filepath.Join(tmp, "a"), p: filepath.Join(tmp, "a", "..b"), plain: want{"..b", true}, res: want{"..b", true}},
		{name: "missing, below", root: root, p: filepath.Join(root, "nope"), plain: want{"nope", true}, res: want{"nope", true}},
		{name: "missing, outside", root: root, p: filepath.Join(tmp, "nope"), plain: want{}, res: want{}},
		{name: "a link to inside", link: true, root: root, p: filepath.Join(tmp, "toInside"), plain: want{}, res: want{"x", true}},
		{name: "below a link to inside", link: true, root: root, p: filepath.Join(tmp, "toInside", "y"), plain: want{}, res: want{"x/y", true}},
		{name: "the root named through a link", link: true, root: filepath.Join(tmp, "toRoot"), p: filepath.Join(root, "x"), plain: want{}, res: want{"x", true}},
		{name: "a link inside leading out, as written", link: true, root: root, p: filepath.Join(root, "toOut"), plain: want{"toOut", true}, res: want{"toOut", true}},
	}
	if runtime.GOOS == "windows" {
		cases = append(cases,
			row{name: "same volume", root: `C:\a`, p: `C:\a\b`, plain: want{"b", true}, res: want{"b", true}},
			row{name: "another volume", root: `C:\a`, p: `D:\a\b`, plain: want{}, res: want{}},
			row{name: "a volume's sibling with a common prefix", root: `C:\a`, p: `C:\ab`, plain: want{}, res: want{}},
		)
	}
	for _, c := range cases {
		if c.link && !links {
			continue
		}
		if rel, ok := Within(c.root, c.p); rel != c.plain.rel || ok != c.plain.ok {
			t.Errorf("%s: Within(%q, %q) = %q, %v; want %q, %v", c.name, c.root, c.p, rel, ok, c.plain.rel, c.plain.ok)
		}
		if rel, ok := WithinResolved(c.root, c.p); rel != c.res.rel || ok != c.res.ok {
			t.Errorf("%s: WithinResolved(%q, %q) = %q, %v; want %q, %v", c.name, c.root, c.p, rel, ok, c.res.rel, c.res.ok)
		}
	}
}

// TestGetwdPhysical: a working directory entered through a link, with
// $PWD naming the link, is the linked-to directory (#33.6), as getcwd
// answers Codex and Claude Code; Abs resolves against it.
func TestGetwdPhysical(t *testing.T) {
	if runtime.GOOS == "windows" {
		// GetCurrentDirectory keeps the directory as entered, links and
		// all, and so do the agents there: nothing to resolve.
		t.Skip("Windows keeps the working directory as entered")
	}
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(tmp, "real")
	via := filepath.Join(tmp, "via")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", via); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	t.Chdir(via)
	t.Setenv("PWD", via)
	if got, _ := os.Getwd(); runtime.GOOS != "windows" && got != via {
		t.Logf("os.Getwd ignores $PWD here (%s): the test shows less", got)
	}
	got, err := Getwd()
	if err != nil || got != real {
		t.Errorf("Getwd() = %q, %v; want %q", got, err, real)
	}
	abs, err := Abs("x")
	if want := filepath.Join(real, "x"); err != nil || abs != want {
		t.Errorf("Abs(x) = %q, %v; want %q", abs, err, want)
	}
}
