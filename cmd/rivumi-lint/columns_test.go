package main

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/repo/gittest"
)

// C4, RL004, RL008, RL010: a finding after é, CJK or an emoji is placed
// at the same character in every format, each in its own unit: text, json
// and rdjson count bytes (Go tools; reviewdog's Position is "byte count in
// UTF-8"), SARIF counts UTF-16 code units (its default columnKind, set
// explicitly) and so do GitHub annotations.
func TestColumnsAfterMultiByte(t *testing.T) {
	gittest.SetEnv(t)
	r := gittest.New(t)
	type want struct {
		rule         string
		bytes, utf16 int
	}
	cases := map[string]want{
		"e/AGENTS.md":     {"RL010", 4, 3},  // "é " then U+200B: 3 bytes, 2 units
		"cjk/AGENTS.md":   {"RL008", 8, 4},  // "日本 " then a marker: 7 bytes, 3 units
		"emoji/AGENTS.md": {"RL004", 6, 4},  // "😀 " then 0xFF: 5 bytes, 3 units
		"all/AGENTS.md":   {"RL010", 10, 5}, // "é日😀" then U+200B: 9 bytes, 4 units
	}
	r.Write("e/AGENTS.md", "x\né \u200b\n",
		"cjk/AGENTS.md", "x\n日本 </rivumi:layer>\n",
		"emoji/AGENTS.md", "x\n😀 \xff\n",
		"all/AGENTS.md", "x\né日😀\u200bx\n")
	check := func(format string) []byte {
		var stdout, stderr bytes.Buffer
		if code := run([]string{"check", "--root", r.Dir, "--format", format}, env{Stdout: &stdout, Stderr: &stderr}); code != exitFindings {
			t.Fatalf("check --format %s: exit %d, stderr %s", format, code, stderr.String())
		}
		return stdout.Bytes()
	}
	seen := func(format string, got map[string][2]int, column func(want) int) {
		t.Helper()
		for path, w := range cases {
			g, ok := got[path+" "+w.rule]
			if !ok {
				t.Errorf("%s: no %s finding for %s", format, w.rule, path)
				continue
			}
			if g != [2]int{2, column(w)} {
				t.Errorf("%s: %s %s at %d:%d, want 2:%d", format, path, w.rule, g[0], g[1], column(w))
			}
		}
	}
	byteCol := func(w want) int { return w.bytes }
	utf16Col := func(w want) int { return w.utf16 }

	var js struct {
		Findings []struct {
			Rule, Path   string
			Line, Column int
		}
	}
	if err := json.Unmarshal(check("json"), &js); err != nil {
		t.Fatal(err)
	}
	got := map[string][2]int{}
	for _, f := range js.Findings {
		got[f.Path+" "+f.Rule] = [2]int{f.Line, f.Column}
	}
	seen("json", got, byteCol)

	var rd struct {
		Diagnostics []struct {
			Location struct {
				Path  string
				Range struct{ Start struct{ Line, Column int } }
			}
			Code struct{ Value string }
		}
	}
	if err := json.Unmarshal(check("rdjson"), &rd); err != nil {
		t.Fatal(err)
	}
	got = map[string][2]int{}
	for _, d := range rd.Diagnostics {
		got[d.Location.Path+" "+d.Code.Value] = [2]int{d.Location.Range.Start.Line, d.Location.Range.Start.Column}
	}
	seen("rdjson", got, byteCol)

	var sarif struct {
		Runs []struct {
			ColumnKind string
			Results    []struct {
				RuleID    string
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }
						Region           struct{ StartLine, StartColumn int }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(check("sarif"), &sarif); err != nil {
		t.Fatal(err)
	}
	if k := sarif.Runs[0].ColumnKind; k != "utf16CodeUnits" {
		t.Errorf("sarif: columnKind %q", k)
	}
	got = map[string][2]int{}
	for _, res := range sarif.Runs[0].Results {
		pl := res.Locations[0].PhysicalLocation
		got[pl.ArtifactLocation.URI+" "+res.RuleID] = [2]int{pl.Region.StartLine, pl.Region.StartColumn}
	}
	seen("sarif", got, utf16Col)

	got = map[string][2]int{}
	re := regexp.MustCompile(`(?m)^::\w+ col=(\d+),file=([^,]+),line=(\d+),title=(RL\d+) `)
	for _, m := range re.FindAllSubmatch(check("github"), -1) {
		col, _ := strconv.Atoi(string(m[1]))
		line, _ := strconv.Atoi(string(m[3]))
		got[string(m[2])+" "+string(m[4])] = [2]int{line, col}
	}
	seen("github", got, utf16Col)

	got = map[string][2]int{}
	re = regexp.MustCompile(`(?m)^([^:\n]+):(\d+):(\d+): \w+ (RL\d+) [a-z0-9-]+: `)
	for _, m := range re.FindAllSubmatch(check("text"), -1) {
		line, _ := strconv.Atoi(string(m[2]))
		col, _ := strconv.Atoi(string(m[3]))
		got[string(m[1])+" "+string(m[4])] = [2]int{line, col}
	}
	seen("text", got, byteCol)
}
