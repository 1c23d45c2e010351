package project

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRel is §10 (PATH arguments with ".." or outside the root) and §5
// (paths relative, forward slashes): Project.Rel never panics; whatever it
// accepts is a clean slash path relative to the root, with no ".." element
// and no leading "/", naming the same file as the argument (so nothing
// outside the root is ever accepted); an argument with a ".." element is
// always refused, and so is one that lies outside the root with no link on
// the way back into it.
//
// The root holds a/b/c.md, a link ln -> a inside it, and a link out to a
// directory outside the root, which itself holds a link back into a/.
// The working directory is the root.
func FuzzRel(f *testing.F) {
	base := f.TempDir()
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, "a", "b"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			f.Fatal(err)
		}
	}
	for _, l := range [][2]string{
		{"a", filepath.Join(root, "ln")},
		{outside, filepath.Join(root, "out")},
		{filepath.Join(root, "a"), filepath.Join(outside, "back")},
	} {
		if err := os.Symlink(l[0], l[1]); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a", "b", "c.md"), []byte("x\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Chdir(root)
	p := &Project{Root: root}

	for _, s := range []string{"", ".", "a", "a/b/c.md", "./a//b/", "a/../b", "..", "../root/a", "...", "..a/b",
		"a/..", "ln/b/c.md", "out/x", "out/back/b", "/", "//", "a\\..\\b", "a\x00b", "a/./b/.", "\xff/\n"} {
		for prefix := byte(0); prefix < 4; prefix++ {
			f.Add(prefix, s)
		}
	}
	f.Fuzz(func(t *testing.T, prefix byte, s string) {
		arg := s
		switch prefix % 4 {
		case 1:
			arg = root + "/" + s
		case 2:
			arg = outside + "/" + s
		case 3:
			arg = base + "/" + s
		}
		rel, err := p.Rel(arg)
		hasDotDot := false
		for _, el := range strings.Split(filepath.ToSlash(arg), "/") {
			hasDotDot = hasDotDot || el == ".."
		}
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("Rel(%q): empty error message", arg)
			}
			return
		}
		if hasDotDot {
			t.Fatalf("Rel(%q) = %q: an argument with a \"..\" element must be refused (§10)", arg, rel)
		}
		if strings.HasPrefix(rel, "/") || filepath.IsAbs(rel) {
			t.Fatalf("Rel(%q) = %q: a leading /", arg, rel)
		}
		for _, el := range strings.Split(rel, "/") {
			if el == ".." || (rel != "" && (el == "." || el == "")) {
				t.Fatalf("Rel(%q) = %q: element %q (want a clean relative slash path, §5)", arg, rel, el)
			}
		}
		if rel != "" && path.Clean(rel) != rel {
			t.Fatalf("Rel(%q) = %q: not clean", arg, rel)
		}
		// The argument and ROOT/rel are the same entry. Lexically so when
		// no link leads out of and back into the root (then nothing outside
		// the root can be accepted); otherwise through the file system.
		abs := absOf(arg, root)
		joined := filepath.Join(root, filepath.FromSlash(rel))
		if abs == joined {
			return
		}
		ai, aerr := os.Lstat(abs)
		ji, jerr := os.Lstat(joined)
		if aerr != nil || jerr != nil {
			// Neither exists (fine only if both are missing and the
			// parent directories are the same directory).
			pa, perr := os.Stat(filepath.Dir(abs))
			pj, pjerr := os.Stat(filepath.Dir(joined))
			if aerr == nil || jerr == nil || perr != nil || pjerr != nil || !os.SameFile(pa, pj) ||
				filepath.Base(abs) != filepath.Base(joined) {
				t.Fatalf("Rel(%q) = %q: %s is not the argument %s (lstat: %v, %v)", arg, rel, joined, abs, aerr, jerr)
			}
			return
		}
		if !os.SameFile(ai, ji) {
			t.Fatalf("Rel(%q) = %q: %s is not the same file as %s", arg, rel, joined, abs)
		}
	})
}

// absOf is arg made absolute against the working directory cwd, by its
// text as filepath.Abs does on Unix. filepath.Abs on Windows asks the
// system (GetFullPathName), which refuses a NUL and turns a byte that is
// not UTF-8 into U+FFFD, so the oracle would name another path than the
// one Rel was given; only a drive-relative "C:x", whose directory the
// system keeps per drive, is asked of it.
func absOf(arg, cwd string) string {
	switch {
	case filepath.IsAbs(arg):
		return filepath.Clean(arg)
	case filepath.VolumeName(arg) != "":
		if abs, err := filepath.Abs(arg); err == nil {
			return abs
		}
		return filepath.Clean(arg)
	case arg != "" && os.IsPathSeparator(arg[0]):
		return filepath.VolumeName(cwd) + filepath.Clean(arg) // rooted, on the working directory's drive
	}
	return filepath.Join(cwd, arg)
}
