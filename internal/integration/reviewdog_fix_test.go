package integration

// X1, §7 rdjson: the suggestion a fixable finding carries (RL010: delete
// the hidden characters) reaches reviewdog and comes out of its rdjson
// reporter intact, range and text: what github-pr-review turns into an
// "apply suggestion" comment. (-reporter=local prints no suggestions.)

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/reviewdog/reviewdog/proto/rdf"
	"google.golang.org/protobuf/encoding/protojson"
)

func TestReviewdogKeepsSuggestions(t *testing.T) {
	dir := newRepo(t, map[string]string{
		"AGENTS.md":        "# rules\n",
		"hidden/AGENTS.md": "# rules\nrun \u202etests\u200b\u200b now\n",
	})
	out := filepath.Join(t.TempDir(), "report.json")
	r := run(t, dir, env(t), nil, rivumiLint(t), "check", "--format", "rdjson", "--output", out)
	if r.code != 1 {
		t.Fatalf("check --format rdjson: %s", r)
	}
	in, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	rd := run(t, dir, env(t), in, reviewdog(t), "-f=rdjson", "-reporter=rdjson", "-filter-mode=nofilter")
	if rd.code != 0 {
		t.Fatalf("reviewdog: %s", rd)
	}
	var res rdf.DiagnosticResult
	if err := protojson.Unmarshal([]byte(rd.stdout), &res); err != nil {
		t.Fatalf("reviewdog -reporter=rdjson printed no DiagnosticResult (%v):\n%s", err, rd)
	}
	var got *rdf.Diagnostic
	for _, d := range res.GetDiagnostics() {
		if d.GetCode().GetValue() == "RL010" {
			got = d
		}
	}
	if got == nil {
		t.Fatalf("reviewdog dropped the RL010 diagnostic:\n%s", rd.stdout)
	}
	// "run \u202etests\u200b\u200b now" on line 2: U+202E at column 5
	// (3 bytes), the two U+200B at column 13 (6 bytes) as one edit.
	want := []struct{ sl, sc, el, ec int32 }{{2, 5, 2, 8}, {2, 13, 2, 19}}
	s := got.GetSuggestions()
	if len(s) != len(want) {
		t.Fatalf("reviewdog kept %d suggestions, want %d:\n%s", len(s), len(want), rd.stdout)
	}
	for i, w := range want {
		rg := s[i].GetRange()
		if rg.GetStart().GetLine() != w.sl || rg.GetStart().GetColumn() != w.sc ||
			rg.GetEnd().GetLine() != w.el || rg.GetEnd().GetColumn() != w.ec || s[i].GetText() != "" {
			t.Errorf("suggestion %d = %v, want %d:%d-%d:%d with text \"\"", i, s[i], w.sl, w.sc, w.el, w.ec)
		}
	}
}
