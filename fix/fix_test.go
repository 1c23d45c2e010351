package fix

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/project"
	"github.com/rivumi/rivumi-lint/repo/gittest"
)

// X1: a file that changes between the fix's read and its write is left
// as the other writer made it: the fix is skipped with a line saying so,
// the skip counts, and no temporary file stays behind. beforeCommit is
// the window another program could write in.
func TestChangedMeanwhileSkipped(t *testing.T) {
	gittest.SetEnv(t)
	r := gittest.New(t)
	r.Write("AGENTS.md", "a\u200bb\n", "u/AGENTS.md", "\xff\xfeh\x00i\x00")
	meanwhile := []byte("someone else's text\n")
	beforeCommit = func(d *os.Root, name string) {
		if err := d.WriteFile(name, meanwhile, 0o644); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeCommit = nil }()
	var stdout, stderr bytes.Buffer
	out, err := Run(Options{Project: project.Options{Root: r.Dir}}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	if out.Changes != 0 || out.Skipped != 2 || out.WriteErrors != 0 {
		t.Errorf("outcome %+v, want 0 changes, 2 skipped", out)
	}
	for _, p := range []string{"AGENTS.md", "u/AGENTS.md"} {
		got, err := os.ReadFile(filepath.Join(r.Dir, p))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, meanwhile) {
			t.Errorf("%s = %q, want the other writer's text", p, got)
		}
		if !strings.Contains(stderr.String(), "skipped "+p+" [") {
			t.Errorf("no skip line for %s:\n%s", p, stderr.String())
		}
	}
	if !strings.Contains(stderr.String(), "changed since the fix read it") {
		t.Errorf("skip line does not say why:\n%s", stderr.String())
	}
	left, _ := filepath.Glob(filepath.Join(r.Dir, "*", ".*rivumi-fix*"))
	top, _ := filepath.Glob(filepath.Join(r.Dir, ".*rivumi-fix*"))
	if len(left)+len(top) > 0 {
		t.Errorf("temporary files left: %v %v", left, top)
	}
}

// X1, C4: the decoders refuse what is not safely their encoding and keep
// line ends.
func TestToUTF8(t *testing.T) {
	for _, tc := range []struct {
		in, want, from, err string
	}{
		{"\xff\xfea\x00\r\x00\n\x00", "a\r\n", "UTF-16LE", ""},
		{"\xfe\xff\x00a\xd8\x3d\xde\x00", "a\U0001F600", "UTF-16BE", ""},
		{"\xff\xfe\x00\xd8a\x00", "", "UTF-16LE", "unpaired surrogate"},
		{"\xff\xfe\x00\xdc", "", "UTF-16LE", "unpaired surrogate"},
		{"\x00\x00\xfe\xff\x00\x00\x00a", "a", "UTF-32BE", ""},
		{"\xff\xfe\x00\x00\x00\x00\x11\x00", "", "UTF-32LE", "not a character"},
		{"\xff\xfe\x00\x00a\x00\x00", "", "UTF-32LE", "not a multiple of 4"},
		{"\x80\x9f\xa0\xff", "\u20ac\u0178\u00a0\u00ff", "Windows-1252", ""},
		{"x\x8d", "", "Windows-1252", "0x8d, which Windows-1252 leaves undefined"},
		{"x\x8f", "", "Windows-1252", "undefined"},
		{"x\x90", "", "Windows-1252", "undefined"},
		{"x\x9d", "", "Windows-1252", "undefined"},
		{"\u00e9\xe9", "", "Windows-1252", "not Windows-1252 alone"},
	} {
		got, from, err := toUTF8([]byte(tc.in))
		if from != tc.from {
			t.Errorf("%q: from %s, want %s", tc.in, from, tc.from)
		}
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want one containing %q", tc.in, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.in, err)
		case tc.err == "" && string(got) != tc.want:
			t.Errorf("%q: got %q, want %q", tc.in, got, tc.want)
		}
	}
}

// X1, C4: a BOM-only file decodes to nothing; a UTF-8 mark does not make
// a file UTF-16 or UTF-32.
func TestToUTF8MarkOnly(t *testing.T) {
	for _, tc := range []struct{ in, from string }{
		{"\xff\xfe", "UTF-16LE"}, {"\xfe\xff", "UTF-16BE"}, {"\x00\x00\xfe\xff", "UTF-32BE"},
	} {
		got, from, err := toUTF8([]byte(tc.in))
		if err != nil || len(got) != 0 || from != tc.from {
			t.Errorf("%q: %q from %s, %v; want empty text from %s", tc.in, got, from, err, tc.from)
		}
	}
	_, from, err := toUTF8([]byte("\xef\xbb\xbfa\xe9"))
	if from == "UTF-32LE" || from == "UTF-32BE" || from == "UTF-16LE" || from == "UTF-16BE" {
		t.Errorf("UTF-8 mark: decoded as %s (%v)", from, err)
	}
}
