package memory

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

var fuzzSeeds = []string{
	`{"type":"user_preference","text":"Use tabs"}`,
	`{"type":"project_fact","text":"a","project":"/src/app","created_at":"2025-01-02T03:04:05.5+01:00"}`,
	`{"type":"project_preference","text":"x\ny","project":"/src/app","extra":[1,{"b":null}]}`,
	`{"t\u0079pe":"user_preference","text":"\ud83d\ude00","text":"last"}`,
	`{"type":"user_preference","text":1,"text":"a"}`,
	`{"type":"user_preference","text":"a\ud800"}`,
	`{"type":"foo","text":""}`,
	`{"type":"project_fact","text":"a"}`,
	`{"type":null,"text":"a","created_at":"2025-13-01T00:00:00Z"}`,
	`{"type":"user_preference","text":"a`,
	`[1,2,3]`, `"s"`, `-0.5e+7`, `{"a":01}`, `{"a":1.}`, ` `, ``,
	"\ufeff{}", "\x00\xff garbage", "{\"type\":\"user_preference\",\"text\":\"a\"}\r",
	`{"type":"user_preference","text":"a"} x`,
}

// P4, §10: ParseLine never panics; a success has a known Type and a
// non-empty Text; a reason is short, printable text. And the parser agrees
// with encoding/json on every line that is valid UTF-8: the same lines are
// valid JSON, and the same fields, values and rule violations are found.
func FuzzParseLine(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		e, err := ParseLine(b)
		if err == nil {
			if e.Text == "" || lookupType(e.Type) < 0 {
				t.Fatalf("ParseLine(%q) = %+v", b, e)
			}
			if e.Type != "user_preference" && !bytes.Contains(b, []byte("project")) && !bytes.Contains(b, []byte(`\u`)) {
				t.Fatalf("project entry without project: %q", b)
			}
		} else {
			r := err.Error()
			if r == "" || len(r) > 300 || !utf8.ValidString(r) {
				t.Fatalf("bad reason %q", r)
			}
			for _, c := range []byte(r) {
				if c < 0x20 || c == 0x7F {
					t.Fatalf("control byte in reason %q", r)
				}
			}
		}
		differential(t, b)
	})
}

// differential checks the parser against encoding/json on one line.
func differential(t *testing.T, b []byte) {
	line := bytes.TrimSuffix(b, []byte("\r"))
	if len(line) > MaxLineBytes || !utf8.Valid(line) {
		return
	}
	var p parser
	typ := p.parse(line)
	got := p.r.code
	if typ >= 0 {
		got = okLine
	}
	syntaxOK := got != errBlank && (got < errEOF || got > errAfter)
	if json.Valid(line) != syntaxOK {
		t.Fatalf("%q: json.Valid = %v, parser says %v", line, json.Valid(line), p.r.format(line))
	}
	if !syntaxOK {
		return
	}
	if hasUnpairedSurrogate(line) != (got == errSurrogate) && got != errNotObject {
		t.Fatalf("%q: unpaired surrogate %v, parser says %d", line, hasUnpairedSurrogate(line), got)
	}
	if got == errSurrogate {
		return
	}
	want, wantKind, wantEntry := oracle(t, line)
	if got != want {
		t.Fatalf("%q: oracle says code %d, parser says %q", line, want, p.r.format(line))
	}
	if got == errWrongType && p.r.kind != wantKind {
		t.Fatalf("%q: wrong kind %c, want %c", line, p.r.kind, wantKind)
	}
	if got == okLine {
		e, err := ParseLine(line)
		if err != nil || e != wantEntry {
			t.Fatalf("%q: ParseLine = %+v, %v; oracle %+v", line, e, err, wantEntry)
		}
	}
}

// oracle applies P4 to the top-level pairs that encoding/json decodes.
func oracle(t *testing.T, line []byte) (code, byte, Entry) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		t.Fatalf("%q: %v", line, err)
	}
	if tok != json.Delim('{') {
		return errNotObject, 0, Entry{}
	}
	type occ struct {
		kind byte
		s    string
	}
	fields := map[string][]occ{}
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		var o occ
		switch v := v.(type) {
		case string:
			o = occ{kString, v}
		case json.Number:
			o.kind = kNumber
		case bool:
			o.kind = kBool
		case nil:
			o.kind = kNull
		case map[string]any:
			o.kind = kObject
		case []any:
			o.kind = kArray
		}
		fields[k.(string)] = append(fields[k.(string)], o)
	}
	// last returns presence, the first wrong kind, and the last value.
	last := func(name string) (bool, byte, string) {
		os := fields[name]
		for _, o := range os {
			if o.kind != kString {
				return true, o.kind, ""
			}
		}
		if len(os) == 0 {
			return false, 0, ""
		}
		return true, 0, os[len(os)-1].s
	}
	var e Entry
	ok, bad, typ := last("type")
	switch {
	case !ok:
		return errMissing, 0, e
	case bad != 0:
		return errWrongType, bad, e
	case lookupType(typ) < 0:
		return errUnknownType, 0, e
	}
	e.Type = typ
	ok, bad, e.Text = last("text")
	switch {
	case !ok:
		return errMissing, 0, e
	case bad != 0:
		return errWrongType, bad, e
	case e.Text == "":
		return errEmptyText, 0, e
	}
	ok, bad, e.Project = last("project")
	switch {
	case bad != 0:
		return errWrongType, bad, e
	case !ok && typ != "user_preference":
		return errMissingProj, 0, e
	}
	ok, bad, e.CreatedAt = last("created_at")
	switch {
	case bad != 0:
		return errWrongType, bad, e
	case ok && !validRFC3339([]byte(e.CreatedAt)):
		return errBadCreatedAt, 0, e
	}
	return okLine, 0, e
}

// hasUnpairedSurrogate scans the strings of valid JSON for a \u escape of
// a surrogate that is not a high one followed by a low one.
func hasUnpairedSurrogate(b []byte) bool {
	hex := func(i int) int {
		var r int
		_, err := fmt.Sscanf(string(b[i:i+4]), "%04x", &r)
		if err != nil {
			panic(err)
		}
		return r
	}
	in := false
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"':
			in = !in
		case in && b[i] == '\\' && b[i+1] == 'u':
			r := hex(i + 2)
			i += 5
			if r >= 0xD800 && r < 0xDC00 && i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' {
				if r2 := hex(i + 3); r2 >= 0xDC00 && r2 < 0xE000 {
					i += 6
					continue
				}
			}
			if r >= 0xD800 && r < 0xE000 {
				return true
			}
		case in && b[i] == '\\':
			i++
		}
	}
	return false
}

// P4, §10: Select never panics, keeps at most Keep entries and reports
// problems in line order; it matches ParseLine applied line by line, with
// the real limits and with a tiny buffer and limit that reach the long-line
// paths.
func FuzzSelect(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s+"\n"+s+"\r\n\n"+s), "/src/app")
	}
	f.Add([]byte(fmt.Sprintf("%s\n%s\n", fact("p", "a"), user("b"))), "p")
	f.Fuzz(func(t *testing.T, data []byte, project string) {
		sel, err := Select(bytes.NewReader(data), project)
		if err != nil {
			t.Fatal(err)
		}
		checkSelection(t, data, sel)
		if want := naiveSelect(data, project, MaxLineBytes); fmt.Sprint(sel) != fmt.Sprint(want) {
			t.Fatalf("Select(%q, %q)\n got  %+v\n want %+v", data, project, sel, want)
		}
		small, err := selectWith(iotest.HalfReader(bytes.NewReader(data)), project, 16, 48)
		if err != nil {
			t.Fatal(err)
		}
		checkSelection(t, data, small)
		if want := naiveSelect(data, project, 48); fmt.Sprint(small) != fmt.Sprint(want) {
			t.Fatalf("selectWith(%q, %q, 16, 48)\n got  %+v\n want %+v", data, project, small, want)
		}
	})
}

func checkSelection(t *testing.T, data []byte, sel Selection) {
	if len(sel.Entries) > Keep || len(sel.Entries) != min(sel.Selected, Keep) {
		t.Fatalf("%d entries of %d selected", len(sel.Entries), sel.Selected)
	}
	if len(sel.Problems) > MaxProblems || sel.MoreProblems > 0 && len(sel.Problems) != MaxProblems {
		t.Fatalf("%d problems, %d more", len(sel.Problems), sel.MoreProblems)
	}
	if sel.Lines != bytes.Count(data, []byte("\n"))+btoi(len(data) > 0 && data[len(data)-1] != '\n') {
		t.Fatalf("Lines = %d for %q", sel.Lines, data)
	}
	prev := 0
	for _, p := range sel.Problems {
		if p.Line <= prev || p.Line > sel.Lines {
			t.Fatalf("problems out of order: %+v", sel.Problems)
		}
		prev = p.Line
	}
	prev = 0
	for _, e := range sel.Entries {
		if e.Line <= prev || e.Line > sel.Lines || e.Text == "" {
			t.Fatalf("entries out of order: %+v", sel.Entries)
		}
		prev = e.Line
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
