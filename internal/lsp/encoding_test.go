package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	unicode16 "unicode/utf16"
)

// utf16LE is s in UTF-16LE with its byte-order mark, as Windows
// PowerShell writes a file.
func utf16LE(s string) []byte {
	out := []byte{0xFF, 0xFE}
	for _, u := range unicode16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}

// openWithDisk writes data as dir/AGENTS.md, opens it with text (what the
// editor decoded) and returns the first diagnostics and the hover.
func openWithDisk(t *testing.T, data []byte, text string) (c *client, uri string, p publishDiagnosticsParams, hoverMD string) {
	t.Helper()
	dir := newRepo(t, "README.md", "readme\n")
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	c = newClient(t)
	c.initialize(dir, map[string]any{}, nil)
	uri = c.open(filepath.Join(dir, "AGENTS.md"), text)
	p = c.waitPublish(uri)
	md, errMsg := hoverText(t, c, uri)
	if errMsg != "" {
		t.Fatalf("hover: %s", errMsg)
	}
	return c, uri, p, md
}

// X4, C4, RL004: a file that is not UTF-8 on disk, opened as the editor
// decodes it (unchanged), is judged by its disk bytes, as check and the
// runtime read them: RL004 names the disk's encoding, at the bad byte's
// character, and the hover shows the layer rejected.
func TestDiskEncodingOfAnUnchangedBufferC4(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		data       []byte
		from       string
		at         Range
	}{
		{"utf-16le-bom-crlf", "# Rules\r\nUse tabs.\r\n", utf16LE("# Rules\r\nUse tabs.\r\n"), "UTF-16LE",
			Range{End: Position{Character: 1}}},
		{"windows-1252", "# R\u00e8gles\r\ncaf\u00e9 \u2026\n", []byte("# R\xe8gles\r\ncaf\xe9 \x85\n"), "Windows-1252",
			Range{Start: Position{Line: 0, Character: 3}, End: Position{Line: 0, Character: 4}}},
		{"latin-1", "line\ncaf\u00e9 \u0085\n", []byte("line\ncaf\xe9 \x85\n"), "Latin-1",
			Range{Start: Position{Line: 1, Character: 3}, End: Position{Line: 1, Character: 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, p, md := openWithDisk(t, tc.data, tc.text)
			if rules(p.Diagnostics) != "RL004" {
				t.Fatalf("diagnostics %+v, want RL004", p.Diagnostics)
			}
			d := p.Diagnostics[0]
			if !strings.Contains(d.Message, "on disk the file is "+tc.from) || d.Range != tc.at {
				t.Errorf("RL004 %q at %+v, want the disk's encoding %s named, at %+v", d.Message, d.Range, tc.from, tc.at)
			}
			if !strings.Contains(md, "`AGENTS.md` (project): rejected: RL004") {
				t.Errorf("hover, want the layer rejected:\n%s", md)
			}
			c.stop()
		})
	}
}

// X4, C4: once the user edits the decoded text, the buffer is what a save
// writes, and it is checked (UTF-8: no RL004); typing the disk's text back
// judges the disk again.
func TestEditedBufferIsCheckedC4(t *testing.T) {
	text := "# Rules\r\nUse tabs.\r\n"
	c, uri, p, _ := openWithDisk(t, utf16LE(text), text)
	if rules(p.Diagnostics) != "RL004" {
		t.Fatalf("unchanged: %q, want RL004", rules(p.Diagnostics))
	}
	c.change(uri, 2, "# Rules\r\nUse spaces.\r\n")
	if p := c.waitPublish(uri); len(p.Diagnostics) != 0 {
		t.Errorf("edited: %+v, want none", p.Diagnostics)
	}
	if md, _ := hoverText(t, c, uri); !strings.Contains(md, "`AGENTS.md` (project): active") {
		t.Errorf("hover of the edited text, want active:\n%s", md)
	}
	c.change(uri, 3, text)
	if p := c.waitPublish(uri); rules(p.Diagnostics) != "RL004" {
		t.Errorf("back to the disk's text: %q, want RL004", rules(p.Diagnostics))
	}
	c.stop()

	// Opened already edited.
	c, _, p, _ = openWithDisk(t, []byte("caf\xe9\n"), "cafe\n")
	if len(p.Diagnostics) != 0 {
		t.Errorf("opened edited: %+v, want none", p.Diagnostics)
	}
	c.stop()
}

// X4, RL010: a UTF-8 file with a byte-order mark, shown without it, is
// judged with it (the mark is not hidden text) and the finding lands on
// the character the editor shows; the quick fix edits that text.
func TestUTF8BOMOnDiskPositionsX4(t *testing.T) {
	text := "a\u200bb\n"
	c, uri, p, md := openWithDisk(t, append([]byte{0xEF, 0xBB, 0xBF}, text...), text)
	want := Range{Start: Position{Line: 0, Character: 1}, End: Position{Line: 0, Character: 2}}
	if rules(p.Diagnostics) != "RL010" || p.Diagnostics[0].Range != want {
		t.Fatalf("diagnostics %+v, want RL010 at %+v", p.Diagnostics, want)
	}
	if !strings.Contains(md, "`AGENTS.md` (project): active") {
		t.Errorf("hover:\n%s", md)
	}
	actions := codeActions(t, c, uri, want)
	if len(actions) != 1 {
		t.Fatalf("code actions %+v", actions)
	}
	if got := applyEdits(t, text, actions[0].Edit.Changes[uri], utf16); got != "ab\n" {
		t.Errorf("the fix gives %q, want %q", got, "ab\n")
	}
	c.stop()
}

// X4, C4, RL004 (#33.1): an editor that opens a file that is not UTF-8 as
// UTF-8 (VS Code's default, `files.encoding: utf8` with no guessing) sends
// the bytes decoded with one U+FFFD for each maximal invalid subpart (the
// Unicode standard §3.9 "U+FFFD Substitution of Maximal Subparts", the
// WHATWG UTF-8 decoder VS Code's TextDecoder runs). That text is the
// unchanged file: the disk's bytes are judged, and RL004 points at the
// first replacement. A client that sends the raw bytes (Neovim with
// `++enc=utf-8 ++bad=keep`) reaches the server as one U+FFFD per byte,
// which is how encoding/json replaces them: the same file.
func TestReplacementDecodedBufferJudgesTheDiskC4(t *testing.T) {
	const fffd = "\uFFFD"
	for _, tc := range []struct {
		name, text string
		data       []byte
		at         Position
	}{
		{"latin-1", "# R" + fffd + "gles\ncaf" + fffd + "\n", []byte("# R\xe8gles\ncaf\xe9\n"), Position{Line: 0, Character: 3}},
		// A three-byte sequence cut short: one replacement for E2 82.
		{"truncated-3", "ok\na" + fffd + "b\n", []byte("ok\na\xe2\x82b\n"), Position{Line: 1, Character: 1}},
		// A four-byte sequence cut short at the end of the file.
		{"truncated-4-at-eof", "ok " + fffd, []byte("ok \xf0\x9f\x98"), Position{Line: 0, Character: 3}},
		// A surrogate (ED A0 80: ED may not be followed by A0), an
		// overlong NUL (C0 starts nothing), F5 and FF (never in UTF-8):
		// one replacement for each byte, seven.
		{"surrogate-overlong-f5-ff", "x\n" + strings.Repeat(fffd, 7) + "\n", []byte("x\n\xed\xa0\x80\xc0\x80\xf5\xff\n"), Position{Line: 1, Character: 0}},
		// Table 3-8 of the standard: F1 80 80 is one subpart, E1 80 one, C2 one.
		{"table-3-8", "a" + fffd + fffd + fffd + "b" + fffd + "c" + fffd + fffd + "d\n",
			[]byte("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64\n"), Position{Line: 0, Character: 1}},
		// VS Code reads a UTF-8 byte-order mark as the encoding and shows
		// the rest, so the mark is not in the text.
		{"utf-8-bom", "caf" + fffd + "\n", []byte("\xef\xbb\xbfcaf\xe9\n"), Position{Line: 0, Character: 3}},
		// Raw bytes through encoding/json: one replacement per byte.
		{"per-byte", "ok\na" + fffd + fffd + "b\n", []byte("ok\na\xe2\x82b\n"), Position{Line: 1, Character: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, _, p, md := openWithDisk(t, tc.data, tc.text)
			defer c.stop()
			if rules(p.Diagnostics) != "RL004" {
				t.Fatalf("diagnostics %+v, want RL004", p.Diagnostics)
			}
			d := p.Diagnostics[0]
			want := Range{Start: tc.at, End: Position{Line: tc.at.Line, Character: tc.at.Character + 1}}
			if d.Range != want {
				t.Errorf("RL004 at %+v, want the first replacement character, %+v", d.Range, want)
			}
			if !strings.Contains(d.Message, "on disk the file is not UTF-8: the editor shows each invalid byte sequence as U+FFFD") {
				t.Errorf("RL004 %q, want it to say the editor shows the bytes replaced", d.Message)
			}
			if !strings.Contains(md, "`AGENTS.md` (project): rejected: RL004") {
				t.Errorf("hover, want the layer rejected:\n%s", md)
			}
		})
	}
}

// X4, C4 (#33.1): a buffer with replacement characters that is not what
// decoding the disk gives (another count, another place, an edit) is what
// a save writes, valid UTF-8, and it is checked as typed; typing the
// decoded text back judges the disk again.
func TestEditedReplacementBufferIsCheckedC4(t *testing.T) {
	const fffd = "\uFFFD"
	data := []byte("# Rules\na\xe2\x82b\n")
	for _, text := range []string{
		"# Rules\na" + fffd + fffd + fffd + "b\n", // one too many
		"# Rules\na" + fffd + "c\n",               // an edit beside it
		"# Rules\n" + fffd + "ab\n",               // moved
	} {
		c, _, p, _ := openWithDisk(t, data, text)
		if len(p.Diagnostics) != 0 {
			t.Errorf("opened as %q: %+v, want none", text, p.Diagnostics)
		}
		c.stop()
	}
	decoded := "# Rules\na" + fffd + "b\n"
	c, uri, p, _ := openWithDisk(t, data, decoded)
	defer c.stop()
	if rules(p.Diagnostics) != "RL004" {
		t.Fatalf("unchanged: %q, want RL004", rules(p.Diagnostics))
	}
	c.change(uri, 2, "# Rules\nab\n")
	if p := c.waitPublish(uri); len(p.Diagnostics) != 0 {
		t.Errorf("edited: %+v, want none", p.Diagnostics)
	}
	c.change(uri, 3, decoded)
	if p := c.waitPublish(uri); rules(p.Diagnostics) != "RL004" {
		t.Errorf("back to the decoded text: %q, want RL004", rules(p.Diagnostics))
	}
}
