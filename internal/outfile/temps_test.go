package outfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// #38.4: Clean (a signal's) removes the temporary file of a report being
// written and leaves the target as it was; nothing is made or put in
// place after it.
func TestCleanRemovesTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "report.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	var created []string
	temps := &Temps{Created: func(p string) { created = append(created, p) }}
	f, err := temps.Create(target)
	if err != nil {
		t.Fatal(err)
	}
	if len(created) != 1 || created[0] != f.Name() {
		t.Fatalf("Created saw %q, want the temporary file %s", created, f.Name())
	}
	done, err := temps.Create(filepath.Join(dir, "done.json"))
	if err != nil {
		t.Fatal(err)
	}
	done.WriteString("complete")
	if err := done.Commit(); err != nil {
		t.Fatal(err)
	}
	f.WriteString("half a rep")
	temps.Clean()
	assertNoTemp(t, dir)
	if err := f.Commit(); !errors.Is(err, ErrStopped) {
		t.Errorf("Commit after Clean: %v, want ErrStopped", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Errorf("target = %q after Clean and Commit, want the old content", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "done.json")); string(b) != "complete" {
		t.Errorf("a report committed before Clean = %q, want it kept", b)
	}
	if _, err := temps.Create(target); !errors.Is(err, ErrStopped) {
		t.Errorf("Create after Clean: %v, want ErrStopped", err)
	}
	assertNoTemp(t, dir)
	if len(created) != 2 {
		t.Errorf("Created ran %d times, want 2", len(created))
	}
}
