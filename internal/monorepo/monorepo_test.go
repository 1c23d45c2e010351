package monorepo

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// TestGenerateShape checks the promises of Size on the small and full sizes:
// exact counts, depth bound, commit B's counts, determinism.
func TestGenerateShape(t *testing.T) {
	sizes := []Size{Small}
	if os.Getenv("MONOREPO_FULL") != "" {
		sizes = append(sizes, Full)
	}
	for _, s := range sizes {
		g := Generate(s, 1)
		if len(g.Paths()) != s.Files {
			t.Errorf("%d files, want %d", len(g.Paths()), s.Files)
		}
		dirs := map[string]bool{}
		instr := 0
		for _, p := range g.Paths() {
			for d := resolve.ParentDir(p); ; d = resolve.ParentDir(d) {
				dirs[d] = true
				if d == "" {
					break
				}
			}
			if IsInstruction(p) {
				instr++
			}
		}
		if len(dirs) != s.Dirs {
			t.Errorf("%d directories hold files, want %d", len(dirs), s.Dirs)
		}
		if instr != s.Instructions {
			t.Errorf("%d instruction files, want %d", instr, s.Instructions)
		}
		h := g.DepthHistogram()
		if h[s.MaxDepth] == 0 {
			t.Errorf("no directory at depth %d: %v", s.MaxDepth, h)
		}
		t.Logf("%s: depth histogram %v", s, h)
		bdirs := map[string]bool{}
		binstr := 0
		for _, c := range g.B {
			bdirs[path.Dir(c.Path)] = true
			if IsInstruction(c.Path) {
				binstr++
			}
		}
		if len(g.B) != s.ChangedFiles || len(bdirs) != s.ChangedDirs || binstr != s.ChangedInstructions {
			t.Errorf("B touches %d files in %d directories, %d instruction files; want %d, %d, %d",
				len(g.B), len(bdirs), binstr, s.ChangedFiles, s.ChangedDirs, s.ChangedInstructions)
		}
		var a, b bytes.Buffer
		if err := g.WriteFastImport(&a); err != nil {
			t.Fatal(err)
		}
		if err := Generate(s, 1).WriteFastImport(&b); err != nil {
			t.Fatal(err)
		}
		if sha256.Sum256(a.Bytes()) != sha256.Sum256(b.Bytes()) {
			t.Error("the same seed gave two different streams")
		}
		if os.Getenv("MONOREPO_DUMP") != "" {
			os.WriteFile(os.Getenv("MONOREPO_DUMP"), a.Bytes(), 0o644)
		}
	}
}

// The rename a reference breaks (issue #25's bench row): commit A's
// AGENTS.md names the file, commit B moves it with the same content and
// leaves the AGENTS.md alone.
func TestGenerateRename(t *testing.T) {
	g := Generate(Small, 1)
	rn := g.Renamed
	if rn.From == "" {
		t.Fatal("no rename planned")
	}
	by, ok := g.Content(rn.By)
	if !ok || !bytes.Contains(by, []byte("`"+rn.From+"`")) {
		t.Fatalf("%s does not name `%s`:\n%s", rn.By, rn.From, by)
	}
	from, ok := g.Content(rn.From)
	if !ok {
		t.Fatalf("%s is not in commit A", rn.From)
	}
	var deleted, added bool
	for _, c := range g.B {
		switch {
		case c.Path == rn.By:
			t.Errorf("B changes %s, which must stay as it was", rn.By)
		case c.Path == rn.From:
			deleted = c.Kind == Delete
		case c.Path == rn.To:
			added = c.Kind == Add && bytes.Equal(c.Content, from)
		}
	}
	if !deleted || !added {
		t.Errorf("B: %s deleted %v, %s added with the same content %v", rn.From, deleted, rn.To, added)
	}
}

// #33.2's bench row: a second AGENTS.md, outside the renamed file's chain
// and in a directory B leaves alone (nor any below it), names the file by
// a relative path; only the whole head snapshot's references see it.
func TestGenerateFarReference(t *testing.T) {
	for _, size := range []Size{Small, Full} {
		g := Generate(size, 1)
		rn := g.Renamed
		if rn.Far == "" {
			t.Fatalf("%v: no far reference planned", size)
		}
		e := path.Dir(rn.Far)
		rel := strings.Repeat("../", strings.Count(e, "/")+1) + rn.From
		if far, ok := g.Content(rn.Far); !ok || !bytes.Contains(far, []byte("`"+rel+"`")) {
			t.Fatalf("%s does not name `%s`:\n%s", rn.Far, rel, far)
		}
		if strings.HasPrefix(path.Dir(rn.From)+"/", e+"/") || strings.HasPrefix(e+"/", path.Dir(rn.From)+"/") {
			t.Fatalf("%s is on the chain of %s", rn.Far, rn.From)
		}
		for _, c := range g.B {
			if d := path.Dir(c.Path); d == e || strings.HasPrefix(d+"/", e+"/") {
				t.Errorf("%v: B changes %s, in or below %s", size, c.Path, e)
			}
		}
	}
}
