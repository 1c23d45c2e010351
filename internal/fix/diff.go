package fix

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rogpeppe/go-internal/diff"
)

// diff is the change as --dry-run prints it: a unified diff of the text
// for an edit, of the decoded text for a transcoding (with the encodings
// in a header line), and git's extended headers for a rename, a swap or
// a copy.
// Characters a reviewer cannot see, and control characters that could
// drive the terminal, are shown as <U+XXXX>.
func (c *change) diff() []byte {
	a, b := "a/"+visible(c.path), "b/"+visible(c.path)
	switch c.kind {
	case kindRename:
		return fmt.Appendf(nil, "diff --git %s b/%s\nrename from %s\nrename to %s\n", a, visible(c.to), visible(c.path), visible(c.to))
	case kindCopy:
		return fmt.Appendf(nil, "diff --git %s %s\nold mode 120000\nnew mode %o\n# %s is a symbolic link to %s: it becomes a regular file holding a copy of %s's text (%d bytes); %s is left as it is\n",
			a, b, c.old.mode.Perm()|0o100000, visible(c.path), visible(c.link), visible(c.to), len(c.old.data), visible(c.to))
	case kindSwap:
		return fmt.Appendf(nil, "diff --git %s %s\nold mode 120000\nnew mode %o\n# %s is a symbolic link to %s: it becomes a regular file holding its text (%d bytes)\ndiff --git a/%s b/%s\nold mode %o\nnew mode 120000\n# %s becomes a symbolic link to %s\n",
			a, b, c.old.mode.Perm()|0o100000, visible(c.path), visible(c.link), len(c.old.data),
			visible(c.to), visible(c.to), c.old.mode.Perm()|0o100000, visible(c.to), visible(c.newLink))
	}
	old := c.old.data
	if c.from != "" {
		d, _, _ := content.ToUTF8(old)
		old = d
	}
	out := diff.Diff(a, visibleText(old), b, visibleText(c.new))
	if c.from != "" {
		head := fmt.Sprintf("diff %s %s\n# re-encode from %s (%d bytes) to UTF-8 (%d bytes); the text below is the decoded text\n", a, b, c.from, len(c.old.data), len(c.new))
		if out == nil {
			return []byte(head + "# the text is unchanged\n")
		}
		_, rest, _ := bytes.Cut(out, []byte("\n"))
		return append([]byte(head), rest...)
	}
	return out
}

// visible shows a path on one line.
func visible(s string) string { return string(visibleText([]byte(s))) }

// visibleText replaces the RL010 characters and the C0 controls other
// than tab, LF and CR (and DEL) with <U+XXXX>.
func visibleText(b []byte) []byte {
	hid, n := content.HiddenChars(b, 0)
	if n == 0 && bytes.IndexByte(b, 0x7f) < 0 && !bytes.HasPrefix(b, []byte("\ufeff")) {
		return b
	}
	var out bytes.Buffer
	last := 0
	for _, h := range hid {
		out.Write(escDel(b[last:h.Offset]))
		fmt.Fprintf(&out, "<U+%04X>", h.Rune)
		_, size := utf8.DecodeRune(b[h.Offset:])
		last = h.Offset + size
	}
	out.Write(escDel(b[last:]))
	return bytes.Replace(out.Bytes(), []byte("\ufeff"), []byte("<U+FEFF>"), 1)
}

func escDel(b []byte) []byte {
	return []byte(strings.ReplaceAll(string(b), "\x7f", "<U+007F>"))
}
