package lsp

import (
	"bytes"
	"os"
	"path/filepath"
	"unicode/utf8"

	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// An editor decodes a file that is not UTF-8 (UTF-16 with a BOM as Windows
// PowerShell writes it, Latin-1) and sends Unicode text, so the overlay
// alone would hide C4's failure. While the text is what decoding the disk
// bytes gives, saving it unchanged writes those bytes again: the check
// reads them (the runtime will), and positions are mapped back to the text.

// diskView is a document whose text is its disk bytes decoded: the check
// read data, not the text.
type diskView struct {
	data []byte // the bytes on disk
	from string // their encoding, as a diagnostic names it
	mark int    // the byte-order mark's length
	// replaced, for a file the editor decoded as UTF-8 with U+FFFD for
	// what is invalid, is that decoding, else nil.
	replaced func([]byte) []byte
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// judgeDisk is the view of the file at path when text is its decoded
// bytes, else nil: the disk holds text itself, or the user edited it (the
// text is then what a save writes, and it is checked).
func judgeDisk(path string, text []byte) *diskView {
	// UTF-32 takes at most four bytes for each byte of UTF-8, plus a mark.
	limit := int64(4*len(text) + 4)
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() || fi.Size() > limit || fi.Size() == 0 {
		return nil
	}
	data, kind, _, err := resolve.ReadFile(path, limit)
	if err != nil || kind != resolve.Regular || int64(len(data)) > limit || bytes.Equal(data, text) {
		return nil
	}
	if utf8.Valid(data) {
		if bytes.HasPrefix(data, utf8BOM) && bytes.Equal(data[len(utf8BOM):], text) {
			return &diskView{data: data, from: "UTF-8 with a byte-order mark", mark: len(utf8BOM)}
		}
		return nil
	}
	if dec, from, err := content.ToUTF8(data); err == nil && bytes.Equal(dec, text) {
		_, n := content.BOM(data)
		if n == 0 {
			from = "Windows-1252 (Latin-1)"
		}
		return &diskView{data: data, from: from, mark: n}
	}
	if _, n := content.BOM(data); n == 0 && bytes.Equal(latin1(data), text) {
		return &diskView{data: data, from: "Latin-1 (ISO-8859-1)"}
	}
	return replacedView(data, text)
}

// replacedView is the view of data (not UTF-8) when text is it decoded as
// UTF-8 with U+FFFD for what is invalid, else nil. An editor opening the
// file as UTF-8 (VS Code's default, no guessing) decodes it so, one U+FFFD
// per maximal invalid subpart (content.Lossy: the Unicode standard's
// practice, which the WHATWG decoder behind VS Code's TextDecoder
// follows), after taking a UTF-8 mark as the encoding. A client that sends
// the raw bytes (Neovim's buffer read with ++enc=utf-8 ++bad=keep) reaches
// the server as one U+FFFD per invalid byte, since encoding/json replaces
// them so (perByte). Either way the buffer is the file unchanged.
func replacedView(data, text []byte) *diskView {
	if !bytes.Contains(text, replacement) {
		return nil
	}
	marks := []int{0}
	if bytes.HasPrefix(data, utf8BOM) {
		// Taken as the encoding, or (raw bytes) kept as U+FEFF.
		marks = []int{len(utf8BOM), 0}
	}
	for _, mark := range marks {
		for _, dec := range []func([]byte) []byte{content.Lossy, perByte} {
			if bytes.Equal(dec(data[mark:]), text) {
				return &diskView{data: data, from: "not UTF-8", mark: mark, replaced: dec}
			}
		}
	}
	return nil
}

var replacement = []byte("\uFFFD")

// perByte is b as encoding/json reads invalid UTF-8 in a string: one
// U+FFFD for each byte that does not start a valid sequence.
func perByte(b []byte) []byte {
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = append(out, replacement...)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}

// latin1 decodes b as ISO-8859-1, where 0x80–0x9F are the C1 controls (as
// Vim's latin1 and VS Code's ISO 8859-1 read them), not Windows-1252's.
func latin1(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/2)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

// decoded is the length of the text the first off bytes of data decode
// to; ok is false inside UTF-16 or UTF-32, which RL004 rejects whole (its
// finding points at the mark, every other one is about the whole file).
func (v *diskView) decoded(off int) (int, bool) {
	switch {
	case off <= v.mark:
		return 0, true
	case v.replaced != nil:
		// A finding is at the start of an invalid subpart, where the
		// prefix decodes to what the text holds before it.
		return len(v.replaced(v.data[v.mark:off])), true
	case v.from == "UTF-8 with a byte-order mark":
		return off - v.mark, true
	case v.mark > 0:
		return 0, false
	case v.from == "Latin-1 (ISO-8859-1)":
		return len(latin1(v.data[:off])), true
	}
	text, _, err := content.ToUTF8(v.data[:off])
	return len(text), err == nil
}

// read is the bytes the check read for the document: its text, or the
// disk's bytes.
func (d *document) read() []byte {
	if d.disk != nil {
		return d.disk.data
	}
	return d.text
}

// textOffset maps an offset in the bytes the check read to the document's
// text; ok is false for one outside them or with no place in the text.
func (d *document) textOffset(off int) (int, bool) {
	if off < 0 || off > len(d.read()) {
		return 0, false
	}
	if d.disk == nil {
		return off, true
	}
	return d.disk.decoded(off)
}

// overlay is the open documents' texts for a run at root, and for each
// document (in order) the disk view the run judges instead, or nil.
func overlay(root string, docs []*document) (map[string][]byte, []*diskView) {
	out := make(map[string][]byte, len(docs))
	views := make([]*diskView, len(docs))
	for i, d := range docs {
		views[i] = judgeDisk(filepath.Join(root, filepath.FromSlash(d.rel)), d.text)
		out[d.rel] = d.text
		if views[i] != nil {
			out[d.rel] = views[i].data
		}
	}
	return out, views
}
