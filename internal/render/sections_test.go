package render

import "testing"

// P5, P2: the runtime and workspace sections, byte for byte; a value cannot
// start a line of its own.
func TestRuntimeAndWorkspace(t *testing.T) {
	got := string(Runtime(Machine{OS: "linux", Shell: "", WorkDir: "/src/a\nb\x1b\xff", Date: "2025-01-02"}))
	want := "<rivumi:section name=\"runtime\" version=\"1\">\nOS: linux\nShell: unknown\nWorking directory: /src/a\\x0ab\\x1b\\xff\nDate: 2025-01-02\n</rivumi:section>\n"
	if got != want {
		t.Errorf("Runtime\n%q\nwant\n%q", got, want)
	}
	got = string(Workspace("main", "dirty"))
	want = "<rivumi:section name=\"workspace\" version=\"1\">\nBranch: main\nWorktree: dirty\n</rivumi:section>\n"
	if got != want {
		t.Errorf("Workspace\n%q\nwant\n%q", got, want)
	}
}

// P4b: one line per skill, without text when there is no description; no
// skills, no section.
func TestSkillsSection(t *testing.T) {
	if Skills(nil) != nil {
		t.Error("no skills must leave the section out")
	}
	got := string(Skills([]SkillLine{{Name: "deploy", Description: "Ship it."}, {Name: "notes"}, {Name: "x", Description: "a\tb\u0085c"}}))
	want := "<rivumi:section name=\"skills\" version=\"1\">\n- deploy: Ship it.\n- notes\n- x: a\\x09b\\x85c\n</rivumi:section>\n"
	if got != want {
		t.Errorf("Skills\n%q\nwant\n%q", got, want)
	}
}

// P4: the memory section wraps memory.Render's text; none, no section.
func TestMemorySection(t *testing.T) {
	if Memory(nil) != nil {
		t.Error("no memory text must leave the section out")
	}
	got := string(Memory([]byte("Known context:\n- [user preference] x\n")))
	if want := "<rivumi:section name=\"memory\" version=\"1\">\nKnown context:\n- [user preference] x\n</rivumi:section>\n"; got != want {
		t.Errorf("Memory %q", got)
	}
}

func FuzzOneLine(f *testing.F) {
	f.Add("a\nb\r\x00\xff\u0085é")
	f.Fuzz(func(t *testing.T, s string) {
		out := oneLine(s)
		for _, r := range out {
			if isControl(r) || r == 0xFFFD && !containsRuneError(s) {
				t.Fatalf("oneLine(%q) = %q", s, out)
			}
		}
	})
}

func containsRuneError(s string) bool {
	for _, r := range s {
		if r == 0xFFFD {
			return true
		}
	}
	return false
}
