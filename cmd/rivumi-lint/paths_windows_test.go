package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// windowsTree is a worktree (no Git: the whole directory is the project)
// with a CRLF root AGENTS.md, a lower-case agents.md alone in sub (R2's
// exact names on a case-insensitive disk) and a layer in sub/deep.
func windowsTree(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range map[string]string{
		"AGENTS.md":          "Use tabs.\r\nKeep it short.\r\n",
		"sub/agents.md":      "lower case\n",
		"sub/deep/AGENTS.md": "deep rules\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// checkJSON runs check --format json with args and returns stdout; exit 0
// is expected (RL011, the one finding, is a warning).
func checkJSON(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCLI(append([]string{"check", "--format", "json"}, args...)...)
	if code != exitOK {
		t.Fatalf("check %q: exit %d, want %d\n%s", args, code, exitOK, stderr)
	}
	return stdout
}

// TestWindowsRootForms (D1, R1): the same worktree named by --root with
// backslashes, with forward slashes and in the \\?\ form prints the same
// JSON, whose paths are repository-relative slash paths; a PATH argument
// with backslashes is the same PATH as with slashes; the layers count the
// CR bytes of a CRLF file (the worktree is read as it is on disk).
func TestWindowsRootForms(t *testing.T) {
	root := windowsTree(t)
	if filepath.VolumeName(root) == "" {
		t.Fatalf("t.TempDir() = %q has no drive letter", root)
	}
	want := checkJSON(t, "--root", root)
	for _, form := range []string{filepath.ToSlash(root), `\\?\` + root, root + `\`} {
		if got := checkJSON(t, "--root", form); got != want {
			t.Errorf("--root %q prints other JSON than --root %q:\n%s\nwant\n%s", form, root, got, want)
		}
	}
	var doc struct {
		Directories []struct {
			Path   string
			Layers []struct {
				Path  string
				State string
				Bytes int
			}
		}
	}
	if err := json.Unmarshal([]byte(want), &doc); err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, d := range doc.Directories {
		dirs = append(dirs, d.Path)
		for _, l := range d.Layers {
			if strings.Contains(l.Path, `\`) {
				t.Errorf("layer path %q has a backslash, want a slash path", l.Path)
			}
		}
	}
	if strings.Join(dirs, " ") != ". sub sub/deep" {
		t.Errorf("directories %q, want . sub sub/deep", dirs)
	}
	if l := doc.Directories[0].Layers; len(l) != 1 || l[0].Path != "AGENTS.md" || l[0].Bytes != len("Use tabs.\r\nKeep it short.\r\n") {
		t.Errorf("root layers %+v, want AGENTS.md with its %d bytes, CRs counted", l, len("Use tabs.\r\nKeep it short.\r\n"))
	}

	t.Chdir(root) // PATHs are relative to the working directory
	slash := checkJSON(t, "--root", ".", "--", "sub/deep")
	if back := checkJSON(t, "--root", ".", "--", `sub\deep`); back != slash {
		t.Errorf("PATH sub\\deep prints other JSON than sub/deep:\n%s\nwant\n%s", back, slash)
	}
	if abs := checkJSON(t, "--root", root, "--", filepath.Join(root, "sub", "deep")); abs != slash {
		t.Errorf("PATH %s prints other JSON than sub/deep:\n%s\nwant\n%s", filepath.Join(root, "sub", "deep"), abs, slash)
	}
	if !strings.Contains(slash, `"path": "sub/deep"`) {
		t.Errorf("PATH sub/deep does not check sub/deep:\n%s", slash)
	}
}

// TestWindowsOutputForms (F8): --output with a drive letter, with forward
// slashes and in the \\?\ form writes what stdout would show.
func TestWindowsOutputForms(t *testing.T) {
	root := windowsTree(t)
	want := checkJSON(t, "--root", root)
	out := t.TempDir()
	for i, form := range []string{
		filepath.Join(out, "a.json"),
		filepath.ToSlash(filepath.Join(out, "b.json")),
		`\\?\` + filepath.Join(out, "c.json"),
	} {
		code, stdout, stderr := runCLI("check", "--format", "json", "--root", root, "--output", form)
		if code != exitOK || stdout != "" {
			t.Fatalf("--output %q: exit %d, stdout %q\n%s", form, code, stdout, stderr)
		}
		got, err := os.ReadFile(filepath.Join(out, string(rune('a'+i))+".json"))
		if err != nil {
			t.Fatalf("--output %q: %v", form, err)
		}
		if string(got) != want {
			t.Errorf("--output %q wrote other JSON than stdout shows:\n%s", form, got)
		}
	}
}

// TestWindowsUNCRoot (D1): --root as a UNC path to the same directory
// (\\localhost\C$\…) prints what the drive-letter form does. It needs the
// administrative share of the drive, which this machine may not offer
// (Wine has none): then it says so and skips.
func TestWindowsUNCRoot(t *testing.T) {
	root := windowsTree(t)
	vol := filepath.VolumeName(root)
	if len(vol) != 2 || vol[1] != ':' {
		t.Fatalf("t.TempDir() = %q is not on a drive letter", root)
	}
	unc := `\\localhost\` + vol[:1] + `$` + root[2:]
	if _, err := os.Stat(unc); err != nil {
		t.Skipf("the administrative share %s cannot be read here (%v): no UNC form to test", unc, err)
	}
	if got, want := checkJSON(t, "--root", unc), checkJSON(t, "--root", root); got != want {
		t.Errorf("--root %q prints other JSON than --root %q:\n%s\nwant\n%s", unc, root, got, want)
	}
}

// TestWindowsCaseInsensitiveDisk (R2, RL011): on a disk that opens
// sub\AGENTS.md as sub\agents.md, the resolution still matches names
// exactly, as on Linux: agents.md is not read as the layer, RL011 says
// which file loads where, and the chain of sub is the root's alone.
func TestWindowsCaseInsensitiveDisk(t *testing.T) {
	root := windowsTree(t)
	if _, err := os.Stat(filepath.Join(root, "sub", "AGENTS.md")); err != nil {
		t.Logf("this disk matches names case-sensitively (%v): the resolution is checked all the same", err)
	}
	out := checkJSON(t, "--root", root)
	var doc struct {
		Findings []struct {
			Rule, Path, Message string
		}
		Directories []struct {
			Path   string
			Layers []struct{ Path, State string }
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 1 || doc.Findings[0].Rule != "RL011" || doc.Findings[0].Path != "sub/agents.md" ||
		!strings.Contains(doc.Findings[0].Message, "on macOS and Windows (case-insensitive disks by default) opening AGENTS.md gets this file") {
		t.Errorf("findings %+v, want RL011 on sub/agents.md saying what loads on Windows", doc.Findings)
	}
	for _, d := range doc.Directories {
		if d.Path != "sub" {
			continue
		}
		if len(d.Layers) != 1 || d.Layers[0].Path != "AGENTS.md" || d.Layers[0].State != "active" {
			t.Errorf("sub's chain %+v, want the root AGENTS.md alone", d.Layers)
		}
	}
}
