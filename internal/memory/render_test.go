package memory

import "testing"

// P4: Render golden strings, exact bytes.
func TestRenderGolden(t *testing.T) {
	tests := []struct {
		entries []Entry
		want    string
	}{
		{nil, ""},
		{[]Entry{}, ""},
		{[]Entry{{Type: "user_preference", Text: "Use tabs"}},
			"Known context:\n- [user preference] Use tabs\n"},
		{[]Entry{
			{Type: "user_preference", Text: "Answer in French"},
			{Type: "project_fact", Text: "CI runs on Go 1.26", Project: "/src/app"},
			{Type: "project_preference", Text: "Prefer table tests", Project: "/src/app"},
		}, "Known context:\n" +
			"- [user preference] Answer in French\n" +
			"- [project fact] CI runs on Go 1.26\n" +
			"- [project preference] Prefer table tests\n"},
		// Every newline (LF, CR, CRLF) inside TEXT is one space; tabs,
		// other white space and trailing spaces stay as they are.
		{[]Entry{{Type: "project_fact", Text: "a\nb\r\nc\rd\n\ne\r\r\nf\tg \n"}},
			"Known context:\n- [project fact] a b c d  e  f\tg  \n"},
		{[]Entry{{Type: "user_preference", Text: "\r\n"}, {Type: "user_preference", Text: "\n\r"}},
			"Known context:\n- [user preference]  \n- [user preference]   \n"},
		// Non-ASCII text is copied byte for byte.
		{[]Entry{{Type: "user_preference", Text: "naïve — 日本 😀"}},
			"Known context:\n- [user preference] naïve — 日本 😀\n"},
	}
	for _, tt := range tests {
		got := Render(tt.entries)
		if string(got) != tt.want {
			t.Errorf("Render(%+v)\n got  %q\n want %q", tt.entries, got, tt.want)
		}
		if len(tt.entries) == 0 && got != nil {
			t.Errorf("Render(%v) = %q, want nil", tt.entries, got)
		}
	}
}

// P4: from file to section: the last 20 selected, oldest first.
func TestSelectRender(t *testing.T) {
	file := user("keep\r\nthis") + "\n" + fact("/other", "no") + "\n" + pref(key, "yes") + "\n"
	sel := mustSelect(t, file)
	want := "Known context:\n- [user preference] keep this\n- [project preference] yes\n"
	if got := string(Render(sel.Entries)); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
