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
