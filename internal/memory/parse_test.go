package memory

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// P4: the valid forms of a line and what ParseLine returns for them.
func TestParseLineValid(t *testing.T) {
	tests := []struct {
		line string
		want Entry
	}{
		{`{"type":"user_preference","text":"Use tabs"}`,
			Entry{Type: "user_preference", Text: "Use tabs"}},
		{`{"type":"project_fact","text":"CI is GitHub","project":"/src/app"}`,
			Entry{Type: "project_fact", Text: "CI is GitHub", Project: "/src/app"}},
		{`{"type":"project_preference","text":"x","project":"p","created_at":"2025-01-02T03:04:05Z"}`,
			Entry{Type: "project_preference", Text: "x", Project: "p", CreatedAt: "2025-01-02T03:04:05Z"}},
		// project is optional for user_preference, and kept when present.
		{`{"type":"user_preference","text":"a","project":"ignored"}`,
			Entry{Type: "user_preference", Text: "a", Project: "ignored"}},
		// Unknown fields of any kind are ignored, nested ones included.
		{`{"id":7,"tags":["a",{"b":[null,true,false,-1.5e+3]}],"type":"user_preference","text":"a","Text":5}`,
			Entry{Type: "user_preference", Text: "a"}},
		// White space around and inside the object.
		{" \t{ \"type\" : \"user_preference\" ,\t\"text\" : \"a\" } \t",
			Entry{Type: "user_preference", Text: "a"}},
		// A trailing CR is dropped (CRLF files).
		{"{\"type\":\"user_preference\",\"text\":\"a\"}\r",
			Entry{Type: "user_preference", Text: "a"}},
		// Escapes are decoded, in keys too; a surrogate pair is one rune.
		{`{"t\u0079pe":"user_\u0070reference","text":"tab\there \"q\" \\ \/ \ud83d\ude00 \u00e9\nnext"}`,
			Entry{Type: "user_preference", Text: "tab\there \"q\" \\ / 😀 é\nnext"}},
		// Duplicate keys: the last occurrence gives the value (as encoding/json).
		{`{"type":"user_preference","text":"first","text":"last"}`,
			Entry{Type: "user_preference", Text: "last"}},
		{`{"type":"project_fact","text":"a","project":"old","project":"new"}`,
			Entry{Type: "project_fact", Text: "a", Project: "new"}},
		// A text of spaces is not empty; an empty project is a string.
		{`{"type":"user_preference","text":"   "}`,
			Entry{Type: "user_preference", Text: "   "}},
		{`{"type":"project_fact","text":"a","project":""}`,
			Entry{Type: "project_fact", Text: "a", Project: ""}},
		// Non-ASCII UTF-8 as is.
		{`{"type":"user_preference","text":"日本語 ünïcödé"}`,
			Entry{Type: "user_preference", Text: "日本語 ünïcödé"}},
	}
	for _, tt := range tests {
		got, err := ParseLine([]byte(tt.line))
		if err != nil {
			t.Errorf("ParseLine(%q): %v", tt.line, err)
			continue
		}
		if got != tt.want {
			t.Errorf("ParseLine(%q) = %+v, want %+v", tt.line, got, tt.want)
		}
	}
}

// P4: every kind of corrupt line, with its exact reason.
func TestParseLineCorrupt(t *testing.T) {
	tests := []struct{ line, reason string }{
		// Unknown types.
		{`{"type":"foo","text":"a"}`,
			`unknown type "foo" (want user_preference, project_fact or project_preference)`},
		{`{"type":"User_Preference","text":"a"}`,
			`unknown type "User_Preference" (want user_preference, project_fact or project_preference)`},
		{`{"type":"","text":"a"}`,
			`unknown type "" (want user_preference, project_fact or project_preference)`},
		{`{"type":"a\u0000\u202e","text":"a"}`,
			`unknown type "a\x00\u202e" (want user_preference, project_fact or project_preference)`},
		// Empty or missing text.
		{`{"type":"user_preference","text":""}`, `"text" is empty`},
		{`{"type":"user_preference","text":"a","text":""}`, `"text" is empty`},
		{`{"type":"user_preference"}`, `missing "text"`},
		{`{"text":"a"}`, `missing "type"`},
		{`{}`, `missing "type"`},
		// Keys are case-sensitive.
		{`{"Type":"user_preference","text":"a"}`, `missing "type"`},
		// Missing project for project types.
		{`{"type":"project_fact","text":"a"}`, `missing "project" (required for project_fact)`},
		{`{"type":"project_preference","text":"a"}`, `missing "project" (required for project_preference)`},
		// Wrong types, null included.
		{`{"type":1,"text":"a"}`, `"type" is a number, want a string`},
		{`{"type":"user_preference","text":["a"]}`, `"text" is an array, want a string`},
		{`{"type":"user_preference","text":{"a":1}}`, `"text" is an object, want a string`},
		{`{"type":"user_preference","text":true}`, `"text" is a boolean, want a string`},
		{`{"type":"user_preference","text":null}`, `"text" is null, want a string`},
		{`{"type":null,"text":"a"}`, `"type" is null, want a string`},
		{`{"type":"project_fact","text":"a","project":42}`, `"project" is a number, want a string`},
		{`{"type":"project_fact","text":"a","project":null}`, `"project" is null, want a string`},
		{`{"type":"user_preference","text":"a","project":false}`, `"project" is a boolean, want a string`},
		{`{"type":"user_preference","text":"a","created_at":1700000000}`, `"created_at" is a number, want a string`},
		{`{"type":"user_preference","text":"a","created_at":null}`, `"created_at" is null, want a string`},
		// Every occurrence of a duplicated key is checked.
		{`{"type":"user_preference","text":1,"text":"a"}`,
			`"text" is a number, want a string (the key occurs 2 times; every occurrence must be a string)`},
		// Bad created_at.
		{`{"type":"user_preference","text":"a","created_at":"yesterday"}`,
			`"created_at" is not an RFC 3339 time such as "2006-01-02T15:04:05Z": "yesterday"`},
		{`{"type":"user_preference","text":"a","created_at":"2025-02-30T00:00:00Z"}`,
			`"created_at" is not an RFC 3339 time such as "2006-01-02T15:04:05Z": "2025-02-30T00:00:00Z"`},
		{`{"type":"user_preference","text":"a","created_at":""}`,
			`"created_at" is not an RFC 3339 time such as "2006-01-02T15:04:05Z": ""`},
		// Not an object.
		{`["type","user_preference"]`, `not a JSON object: the line is an array`},
		{`"user_preference"`, `not a JSON object: the line is a string`},
		{`42`, `not a JSON object: the line is a number`},
		{`null`, `not a JSON object: the line is null`},
		// Truncated JSON.
		{`{"type":"user_preference","text":"a`, `invalid JSON at column 36: unexpected end of line (truncated?)`},
		{`{"type":"user_preference","text":"a"`, `invalid JSON at column 37: unexpected end of line (truncated?)`},
		{`{"type":"user_preference","text":`, `invalid JSON at column 34: unexpected end of line (truncated?)`},
		{`{"type":"user_preference","text":"a\`, `invalid JSON at column 37: unexpected end of line (truncated?)`},
		{`{"type":"user_preference","text":"\u00`, `invalid JSON at column 39: unexpected end of line (truncated?)`},
		{`{"type":"user_preference","text":tru`, `invalid JSON at column 37: unexpected end of line (truncated?)`},
		{`{`, `invalid JSON at column 2: unexpected end of line (truncated?)`},
		// Other syntax errors.
		{`{"type":"user_preference","text":"a",}`, `invalid JSON at column 38: unexpected character '}'`},
		{`{'type':'user_preference'}`, `invalid JSON at column 2: unexpected character '\''`},
		{`{"type":"user_preference","text":"a"} x`, `invalid JSON at column 39: unexpected character 'x' after the object`},
		{`{"type":"user_preference","text":"a"}{}`, `invalid JSON at column 38: unexpected character '{' after the object`},
		{`{"type":"user_preference","text":"a\x"}`, `invalid JSON at column 37: invalid escape in a string`},
		{`{"type":"user_preference","text":"\u12G4"}`, `invalid JSON at column 39: invalid escape in a string`},
		{`{"type":"user_preference","text":01}`, `invalid JSON at column 35: unexpected character '1'`},
		{`{"a":1.}`, `invalid JSON at column 8: unexpected character '}'`},
		{`{"a":-}`, `invalid JSON at column 7: unexpected character '}'`},
		{`{"a":nul}`, `invalid JSON at column 9: unexpected character '}'`},
		{"\ufeff{\"type\":\"user_preference\",\"text\":\"a\"}", `invalid JSON at column 1: unexpected byte-order mark U+FEFF`},
		{"{\"a\":\u00e9}", `invalid JSON at column 6: unexpected character 'é' (U+00E9)`},
		// NUL bytes and control characters.
		{"{\"type\":\"user_preference\",\"text\":\"a\x00b\"}", `invalid JSON at column 36: control character 0x00 inside a string`},
		{"\x00\x00\x00", `invalid JSON at column 1: unexpected control character 0x00`},
		{"{\"type\":\"user_preference\",\"text\":\"a\tb\"}", `invalid JSON at column 36: control character 0x09 inside a string`},
		// Binary garbage and invalid UTF-8.
		{"\x89PNG\r\n\x1a\n\x00", `not valid UTF-8: byte 0x89 at column 1`},
		{"{\"type\":\"user_preference\",\"text\":\"caf\xe9\"}", `not valid UTF-8: byte 0xE9 at column 38`},
		{"{\"type\":\"user_preference\",\"text\":\"a\",\"x\":\"\xff\"}", `not valid UTF-8: byte 0xFF at column 43`},
		// Unpaired surrogate escapes.
		{`{"type":"user_preference","text":"a\ud800b"}`,
			`unpaired UTF-16 surrogate escape \ud800 at column 36: the string is not valid Unicode`},
		{`{"type":"user_preference","text":"\uDC00"}`,
			`unpaired UTF-16 surrogate escape \uDC00 at column 35: the string is not valid Unicode`},
		{`{"type":"user_preference","text":"a","x":"\ud83d\u0041"}`,
			`unpaired UTF-16 surrogate escape \ud83d at column 43: the string is not valid Unicode`},
		// Blank.
		{"", "blank line"},
		{" \t ", "blank line"},
	}
	for _, tt := range tests {
		_, err := ParseLine([]byte(tt.line))
		if err == nil {
			t.Errorf("ParseLine(%q) succeeded, want %q", tt.line, tt.reason)
			continue
		}
		if err.Error() != tt.reason {
			t.Errorf("ParseLine(%q)\n got  %s\n want %s", tt.line, err, tt.reason)
		}
	}
}

// P4, §10: a long offending value is quoted and cut, never copied whole.
func TestReasonQuotesAreCut(t *testing.T) {
	line := `{"type":"` + strings.Repeat("é", 1000) + `","text":"a"}`
	_, err := ParseLine([]byte(line))
	want := `unknown type "` + strings.Repeat("é", 32) + `"… (want user_preference, project_fact or project_preference)`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
}

// P4: the 1 MiB limit, counted without a trailing CR.
func TestParseLineLimit(t *testing.T) {
	mk := func(n int) []byte {
		pre := `{"type":"user_preference","text":"`
		b := []byte(pre + strings.Repeat("a", n-len(pre)-2) + `"}`)
		if len(b) != n {
			t.Fatalf("built %d bytes, want %d", len(b), n)
		}
		return b
	}
	if _, err := ParseLine(mk(MaxLineBytes)); err != nil {
		t.Errorf("line of exactly MaxLineBytes: %v", err)
	}
	if _, err := ParseLine(append(mk(MaxLineBytes), '\r')); err != nil {
		t.Errorf("line of MaxLineBytes plus CR: %v", err)
	}
	_, err := ParseLine(mk(MaxLineBytes + 1))
	if err == nil || err.Error() != "line is 1048577 bytes, over the 1 MiB limit" {
		t.Errorf("line of MaxLineBytes+1: %v", err)
	}
}

// §10: nesting is limited like encoding/json (10000), and deep nesting in
// an unknown field neither crashes nor recurses without bound.
func TestParseLineDepth(t *testing.T) {
	nest := func(n int) []byte {
		return []byte(`{"type":"user_preference","text":"a","x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
	}
	if _, err := ParseLine(nest(maxDepth - 1)); err != nil {
		t.Errorf("depth %d: %v", maxDepth, err)
	}
	_, err := ParseLine(nest(maxDepth))
	if err == nil || !strings.Contains(err.Error(), "nested deeper than 10000") {
		t.Errorf("depth %d: %v", maxDepth+1, err)
	}
	_, err = ParseLine([]byte(strings.Repeat("[", MaxLineBytes)))
	if err == nil || !strings.Contains(err.Error(), "nested deeper than 10000") {
		t.Errorf("1 MiB of '[': %v", err)
	}
}

// P4: created_at is RFC 3339 and also accepted by Go's time.Parse.
func TestCreatedAt(t *testing.T) {
	good := []string{
		"2025-01-02T03:04:05Z",
		"2025-01-02T03:04:05.123Z",
		"2025-01-02T03:04:05.123456789012Z",
		"2025-01-02T03:04:05+01:00",
		"2025-01-02T03:04:05-23:59",
		"2025-01-02T03:04:05.5-00:00",
		"2024-02-29T23:59:59Z",
		"0000-01-01T00:00:00Z",
	}
	bad := []string{
		"", "yesterday", "2025-01-02", "2025-01-02T03:04:05", "2025-01-02 03:04:05Z",
		"2025-01-02t03:04:05Z", "2025-01-02T03:04:05z", // lower case: time.Parse refuses
		"2025-01-02T03:04:60Z",      // leap second: time.Parse refuses
		"2025-01-02T03:04:05+24:00", // time.Parse accepts, RFC 3339 does not
		"2025-01-02T03:04:05+01:60", // likewise
		"2025-01-02T03:04:05,5Z",    // likewise
		"2025-01-02T03:04:05.Z", "2025-01-02T03:04:05+0100", "2025-1-02T03:04:05Z",
		"2023-02-29T00:00:00Z", "2025-04-31T00:00:00Z", "2025-13-01T00:00:00Z", "2025-00-01T00:00:00Z",
		"2025-01-00T00:00:00Z", "2025-01-02T24:00:00Z", "2025-01-02T23:60:00Z", "+2025-01-02T03:04:05Z",
		"2025-01-02T03:04:05Z ", " 2025-01-02T03:04:05Z", "2025-01-02T03:04:05+01:00:00",
		"２０２５-01-02T03:04:05Z",
	}
	for _, s := range good {
		if !validRFC3339([]byte(s)) {
			t.Errorf("validRFC3339(%q) = false", s)
		}
		if _, err := time.Parse(time.RFC3339, s); err != nil {
			t.Errorf("time.Parse(%q): %v", s, err)
		}
		line := `{"type":"user_preference","text":"a","created_at":"` + s + `"}`
		if e, err := ParseLine([]byte(line)); err != nil || e.CreatedAt != s {
			t.Errorf("ParseLine(%q) = %+v, %v", line, e, err)
		}
	}
	for _, s := range bad {
		if validRFC3339([]byte(s)) {
			t.Errorf("validRFC3339(%q) = true", s)
		}
	}
}

// P4, §10: a control character, quote or backslash is found at every
// position of a long string (the scan reads eight bytes at a time).
func TestStringScanEveryPosition(t *testing.T) {
	for n := range 40 {
		for _, c := range []string{"\x00", "\x1f", "\n", "\x7f", "é", `"`, `\`, `\n`, `\u0041`} {
			text := strings.Repeat("a", n) + c + strings.Repeat("z", 40-n)
			line := `{"type":"user_preference","text":"` + text + `"}`
			e, err := ParseLine([]byte(line))
			switch c {
			case "\x00", "\x1f", "\n":
				want := fmt.Sprintf("invalid JSON at column %d: control character 0x%02X inside a string", 35+n, c[0])
				if err == nil || err.Error() != want {
					t.Errorf("%q: %v, want %s", line, err, want)
				}
			case `"`, `\`:
				if err == nil {
					t.Errorf("%q: accepted as %+v", line, e)
				}
			default:
				want := strings.Repeat("a", n) + map[string]string{"\x7f": "\x7f", "é": "é", `\n`: "\n", `\u0041`: "A"}[c] + strings.Repeat("z", 40-n)
				if err != nil || e.Text != want {
					t.Errorf("%q: %+v, %v", line, e, err)
				}
			}
		}
	}
}

// P4, §10: cutting a long escaped value never splits an escape or a pair.
func TestReasonQuotesCutEscapes(t *testing.T) {
	for pad := range 12 {
		for _, esc := range []string{`\u00e9`, `\ud83d\ude00`, `\n`, `\\`, `x`} {
			typ := strings.Repeat("a", pad) + strings.Repeat(esc, 200)
			_, err := ParseLine([]byte(`{"type":"` + typ + `","text":"a"}`))
			if err == nil || !strings.HasPrefix(err.Error(), `unknown type "`) || !strings.Contains(err.Error(), `"… (want`) || strings.ContainsRune(err.Error(), utf8.RuneError) {
				t.Errorf("pad %d, %s: %v", pad, esc, err)
			}
		}
	}
}
