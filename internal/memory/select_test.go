package memory

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"
)

const key = "/src/app"

func user(text string) string {
	return fmt.Sprintf(`{"type":"user_preference","text":%q}`, text)
}

func fact(project, text string) string {
	return fmt.Sprintf(`{"type":"project_fact","text":%q,"project":%q}`, text, project)
}

func pref(project, text string) string {
	return fmt.Sprintf(`{"type":"project_preference","text":%q,"project":%q}`, text, project)
}

func mustSelect(t *testing.T, file string) Selection {
	t.Helper()
	sel, err := Select(strings.NewReader(file), key)
	if err != nil {
		t.Fatal(err)
	}
	return sel
}

func texts(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Text)
	}
	return out
}

func lines(n int, mk func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(mk(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// P4: exactly 20 matches are all rendered, oldest first.
func TestSelectExactly20(t *testing.T) {
	sel := mustSelect(t, lines(20, func(i int) string { return fact(key, fmt.Sprint("f", i)) }))
	if sel.Selected != 20 || len(sel.Entries) != 20 || sel.Lines != 20 || len(sel.Problems) != 0 {
		t.Fatalf("got %+v", sel)
	}
	for i, e := range sel.Entries {
		want := Entry{Line: i + 1, Type: "project_fact", Text: fmt.Sprint("f", i), Project: key}
		if e != want {
			t.Errorf("entry %d = %+v, want %+v", i, e, want)
		}
	}
}

// P4: 21 matches: the oldest is dropped, the last 20 stay in file order.
func TestSelect21(t *testing.T) {
	sel := mustSelect(t, lines(21, func(i int) string { return user(fmt.Sprint("u", i)) }))
	if sel.Selected != 21 || len(sel.Entries) != 20 {
		t.Fatalf("Selected %d, %d entries", sel.Selected, len(sel.Entries))
	}
	if sel.Entries[0].Text != "u1" || sel.Entries[0].Line != 2 || sel.Entries[19].Text != "u20" || sel.Entries[19].Line != 21 {
		t.Errorf("entries %v", texts(sel.Entries))
	}
}

// P4: many matches: the ring buffer keeps the last 20 in order.
func TestSelectManyWrapsRing(t *testing.T) {
	sel := mustSelect(t, lines(1037, func(i int) string { return user(fmt.Sprint("u", i)) }))
	if sel.Selected != 1037 || len(sel.Entries) != Keep {
		t.Fatalf("Selected %d, %d entries", sel.Selected, len(sel.Entries))
	}
	for i, e := range sel.Entries {
		if want := fmt.Sprint("u", 1017+i); e.Text != want || e.Line != 1018+i {
			t.Errorf("entry %d = %+v, want %s", i, e, want)
		}
	}
}

// P4: no matches (and an empty file) give no entries and no problems.
func TestSelectZero(t *testing.T) {
	for _, file := range []string{"", "\n\n", fact("/other", "a") + "\n" + pref("/src/app/", "b")} {
		sel := mustSelect(t, file)
		if sel.Selected != 0 || sel.Entries != nil || len(sel.Problems) != 0 {
			t.Errorf("Select(%q) = %+v", file, sel)
		}
		if Render(sel.Entries) != nil {
			t.Errorf("Render of no entries is not nil")
		}
	}
}

// P4: entries of other projects are excluded (exact match only); user
// preferences are always in, whatever project they name.
func TestSelectProjects(t *testing.T) {
	file := strings.Join([]string{
		fact(key, "mine"),
		fact("/src/other", "other"),
		pref("/src/app/", "trailing slash"),
		pref("/SRC/APP", "case"),
		fact("/src", "parent"),
		pref(key, "my pref"),
		user("always"),
		`{"type":"user_preference","text":"names another","project":"/elsewhere"}`,
		fact("", "empty project"),
		`{"type":"project_fact","text":"escaped","project":"\/src\/app"}`,
	}, "\n")
	sel := mustSelect(t, file)
	got := strings.Join(texts(sel.Entries), "|")
	if want := "mine|my pref|always|names another|escaped"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if sel.Entries[3].Project != "/elsewhere" || sel.Entries[4].Project != key {
		t.Errorf("projects %+v", sel.Entries)
	}
	// With the project key "", only the empty project matches.
	sel, _ = Select(strings.NewReader(file), "")
	if got := strings.Join(texts(sel.Entries), "|"); got != "always|names another|empty project" {
		t.Errorf("key \"\": got %s", got)
	}
}

// P4: user preferences are always in, even among thousands of other lines.
func TestSelectUserPreferencesAlwaysIn(t *testing.T) {
	sel := mustSelect(t, lines(5000, func(i int) string {
		if i%1000 == 0 {
			return user(fmt.Sprint("u", i))
		}
		return fact("/other", "x")
	}))
	if got := strings.Join(texts(sel.Entries), " "); got != "u0 u1000 u2000 u3000 u4000" {
		t.Errorf("got %s", got)
	}
}

// P4: corrupt lines are skipped and reported with their line numbers, in
// line order; they never stop the load. Blank lines are skipped silently.
func TestSelectProblems(t *testing.T) {
	file := strings.Join([]string{
		user("one"),                            // 1
		`{"type":"foo","text":"a"}`,            // 2
		"",                                     // 3 blank
		`{"type":"user_preference","text":""}`, // 4
		" \t ",                                 // 5 blank
		`{"type":"project_fact","text":"a"}`,   // 6
		`{"type":"user_preference","text":5}`,  // 7
		`{"type":"user_preference","text":"a","created_at":"now"}`, // 8
		`{"type":"user_preference","text":"trunc`,                  // 9
		"\x00\x01\x02\xff\xfe garbage",                             // 10
		user("two"),                                                // 11
	}, "\n")
	sel := mustSelect(t, file)
	if got := strings.Join(texts(sel.Entries), ","); got != "one,two" {
		t.Errorf("entries %s", got)
	}
	if sel.Lines != 11 || sel.Entries[1].Line != 11 {
		t.Errorf("Lines %d, last entry line %d", sel.Lines, sel.Entries[1].Line)
	}
	want := []Problem{
		{2, `unknown type "foo" (want user_preference, project_fact or project_preference)`},
		{4, `"text" is empty`},
		{6, `missing "project" (required for project_fact)`},
		{7, `"text" is a number, want a string`},
		{8, `"created_at" is not an RFC 3339 time such as "2006-01-02T15:04:05Z": "now"`},
		{9, `invalid JSON at column 40: unexpected end of line (truncated?)`},
		{10, `not valid UTF-8: byte 0xFF at column 4`},
	}
	if fmt.Sprint(sel.Problems) != fmt.Sprint(want) {
		t.Errorf("problems\n got  %v\n want %v", sel.Problems, want)
	}
}

// P4: a final line without a newline counts.
func TestSelectFinalLineWithoutNewline(t *testing.T) {
	sel := mustSelect(t, user("a")+"\n"+user("b"))
	if got := strings.Join(texts(sel.Entries), ","); got != "a,b" || sel.Lines != 2 {
		t.Errorf("got %s, %d lines", got, sel.Lines)
	}
	sel = mustSelect(t, user("a")+"\n"+`{"type":"user_preference"`)
	if len(sel.Problems) != 1 || sel.Problems[0].Line != 2 {
		t.Errorf("corrupt final line: %+v", sel.Problems)
	}
	sel = mustSelect(t, user("a")+"\r\n")
	if len(sel.Entries) != 1 || sel.Lines != 1 {
		t.Errorf("CRLF at the end: %+v", sel)
	}
}

// P4: CRLF line endings work; the CR is not part of the text.
func TestSelectCRLF(t *testing.T) {
	file := user("a") + "\r\n" + "\r\n" + fact(key, "b") + "\r\n" + pref(key, "c")
	sel := mustSelect(t, file)
	if got := strings.Join(texts(sel.Entries), ","); got != "a,b,c" || sel.Lines != 4 || len(sel.Problems) != 0 {
		t.Errorf("got %q, %d lines, %v", got, sel.Lines, sel.Problems)
	}
	if sel.Entries[2].Line != 4 {
		t.Errorf("line of c: %d", sel.Entries[2].Line)
	}
}

// P4, §9, §10: a 5 MiB line in the middle is reported with its line number
// and byte length, the entries after it still load, and it is never held
// whole: the whole Select allocates well under 5 MiB.
func TestSelectHugeLineInMiddle(t *testing.T) {
	for _, crlf := range []bool{false, true} {
		eol := "\n"
		if crlf {
			eol = "\r\n"
		}
		huge := `{"type":"user_preference","text":"` + strings.Repeat("x", 5<<20-36) + `"}`
		if len(huge) != 5<<20 {
			t.Fatal(len(huge))
		}
		file := []byte(user("before") + eol + huge + eol + user("after") + eol + fact(key, "last"))
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		sel, err := Select(bytes.NewReader(file), key)
		runtime.ReadMemStats(&ms1)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(texts(sel.Entries), ","); got != "before,after,last" {
			t.Errorf("entries %s", got)
		}
		want := []Problem{{2, "line is 5242880 bytes, over the 1 MiB limit"}}
		if fmt.Sprint(sel.Problems) != fmt.Sprint(want) || sel.Lines != 4 {
			t.Errorf("problems %v, %d lines", sel.Problems, sel.Lines)
		}
		if alloc := ms1.TotalAlloc - ms0.TotalAlloc; alloc > 3<<19 {
			t.Errorf("Select allocated %d bytes for a 5 MiB line", alloc)
		}
	}
}

// P4: lines longer than the reader's buffer but within 1 MiB are valid, up
// to the exact limit; one byte more is a problem. The final line too.
func TestSelectLongLines(t *testing.T) {
	mk := func(n int, text string) string {
		pre := `{"type":"user_preference","text":"` + text
		return pre + strings.Repeat("y", n-len(pre)-2) + `"}`
	}
	file := mk(200<<10, "a") + "\n" + mk(MaxLineBytes, "b") + "\r\n" + mk(MaxLineBytes+1, "c") + "\n" +
		mk(MaxLineBytes+1, "d") + "\r\n" + mk(MaxLineBytes, "e")
	sel := mustSelect(t, file)
	var first []string
	for _, e := range sel.Entries {
		first = append(first, e.Text[:1])
	}
	if got := strings.Join(first, ""); got != "abe" {
		t.Errorf("entries %s", got)
	}
	want := []Problem{{3, "line is 1048577 bytes, over the 1 MiB limit"}, {4, "line is 1048577 bytes, over the 1 MiB limit"}}
	if fmt.Sprint(sel.Problems) != fmt.Sprint(want) {
		t.Errorf("problems %v", sel.Problems)
	}
	// A huge final line without a newline.
	sel = mustSelect(t, user("a")+"\n"+strings.Repeat("z", 3<<20))
	if len(sel.Entries) != 1 || fmt.Sprint(sel.Problems) != "[{2 line is 3145728 bytes, over the 1 MiB limit}]" {
		t.Errorf("huge final line: %+v", sel)
	}
}

// P4: the long-line paths at chunk boundaries, with a small buffer and
// limit, against ParseLine line by line; also a reader that returns one
// byte at a time.
func TestSelectSmallBuffer(t *testing.T) {
	var b strings.Builder
	for n := range 60 {
		b.WriteString(`{"type":"user_preference","text":"`)
		b.WriteString(strings.Repeat("k", n))
		b.WriteString(`"}`)
		if n%3 == 0 {
			b.WriteByte('\r')
		}
		b.WriteByte('\n')
	}
	file := b.String()
	for _, limit := range []int{40, 64, 70, 80, 100} {
		want := naiveSelect([]byte(file), key, limit)
		for _, size := range []int{16, 17, 33, 64} {
			got, err := selectWith(iotest.OneByteReader(strings.NewReader(file)), key, size, limit)
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("limit %d, buffer %d:\n got  %+v\n want %+v", limit, size, got, want)
			}
		}
	}
}

// P4: at most MaxProblems problems are kept; the rest are counted.
func TestSelectMaxProblems(t *testing.T) {
	sel := mustSelect(t, lines(MaxProblems+250, func(i int) string {
		if i == MaxProblems+200 {
			return user("ok")
		}
		return "{"
	}))
	if len(sel.Problems) != MaxProblems || sel.MoreProblems != 249 || sel.Problems[MaxProblems-1].Line != MaxProblems {
		t.Errorf("%d problems, %d more", len(sel.Problems), sel.MoreProblems)
	}
	if len(sel.Entries) != 1 || sel.Entries[0].Line != MaxProblems+201 {
		t.Errorf("entries %+v", sel.Entries)
	}
}

// P4: an I/O error is returned with context; what was read stays.
func TestSelectIOError(t *testing.T) {
	boom := errors.New("boom")
	r := io.MultiReader(strings.NewReader(user("a")+"\n"+user("b")+"\n"+`{"ty`), iotest.ErrReader(boom))
	sel, err := Select(r, key)
	if !errors.Is(err, boom) || err.Error() != "memory: reading line 3: boom" {
		t.Fatalf("err = %v", err)
	}
	if len(sel.Entries) != 2 {
		t.Errorf("entries %+v", sel.Entries)
	}
}

// naiveSelect is the reference: split the whole file, ParseLine each line.
func naiveSelect(file []byte, project string, maxLine int) Selection {
	var sel Selection
	ls := bytes.Split(file, []byte("\n"))
	if len(ls[len(ls)-1]) == 0 {
		ls = ls[:len(ls)-1]
	}
	var all []Entry
	for i, l := range ls {
		sel.Lines++
		// ParseLine drops the CR itself; the limit is counted without it.
		var reason string
		if n := len(bytes.TrimSuffix(l, []byte("\r"))); n > maxLine {
			reason = fmt.Sprintf("line is %d bytes, over the 1 MiB limit", n)
		} else if len(bytes.Trim(l, " \t\r")) == 0 {
			continue
		} else if e, err := ParseLine(l); err != nil {
			reason = err.Error()
		} else if e.Type == "user_preference" || e.Project == project {
			e.Line = i + 1
			all = append(all, e)
			continue
		} else {
			continue
		}
		if len(sel.Problems) < MaxProblems {
			sel.Problems = append(sel.Problems, Problem{i + 1, reason})
		} else {
			sel.MoreProblems++
		}
	}
	sel.Selected = len(all)
	if len(all) > 0 {
		sel.Entries = all[max(0, len(all)-Keep):]
	}
	return sel
}
