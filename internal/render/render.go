// Package render writes the dynamic prompt sections exactly as the Rivumi
// runtime does (format v1, P2), so that budgets (P3) and previews (P5) are
// measured on the same bytes the model sees.
package render

import (
	"strings"

	"github.com/rivumi/rivumi-lint/internal/content"
	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// Version is the section format version.
const Version = "1"

// Section wraps body as one dynamic section. body, when non-empty, ends in a
// newline; the section does too.
func Section(name string, body []byte) []byte {
	var b strings.Builder
	b.WriteString(`<rivumi:section name="`)
	b.WriteString(attr(name))
	b.WriteString(`" version="` + Version + `">` + "\n")
	b.Write(body)
	b.WriteString("</rivumi:section>\n")
	return []byte(b.String())
}

// Layer renders one active layer: its normalised text inside a layer element.
func Layer(scope, source string, raw []byte) []byte {
	var b strings.Builder
	b.WriteString(`<rivumi:layer scope="`)
	b.WriteString(attr(scope))
	b.WriteString(`" source="`)
	b.WriteString(attr(source))
	b.WriteString(`">` + "\n")
	b.Write(content.Normalize(raw))
	b.WriteString("</rivumi:layer>\n")
	return []byte(b.String())
}

// LayerLen is len(Layer(scope, source, raw)) for a layer whose normalised
// text (content.Normalize(raw)) is norm bytes long: the budget (P3) takes
// every layer's length, and a caller that normalised the text once need
// not build the element to measure it.
func LayerLen(scope, source string, norm int) int {
	return len(`<rivumi:layer scope="`) + attrLen(scope) + len(`" source="`) + attrLen(source) +
		len(`">`+"\n") + norm + len("</rivumi:layer>\n")
}

// attrLen is len(attr(s)), without building it for the common value that
// needs no escape.
func attrLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80, c < 0x20, c == 0x7f, c == '&', c == '<', c == '>', c == '"':
			return len(attr(s))
		}
	}
	return len(s)
}

// Instructions renders the instructions section of a chain: every active
// layer in chain order. A chain with no active layer has no section (nil),
// as the runtime leaves out an empty section.
func Instructions(r *resolve.Resolution) []byte {
	var body []byte
	for _, l := range r.Layers {
		if l.State == resolve.Active {
			body = append(body, Layer(l.Scope, l.Path, l.Content)...)
		}
	}
	if body == nil {
		return nil
	}
	return Section("instructions", body)
}

// attr escapes an attribute value so that no file name can end the
// attribute or the element: & < > " and control characters become
// character references.
func attr(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"':
			b.WriteString("&quot;")
		case r < 0x20 || r == 0x7f:
			b.WriteString("&#")
			b.WriteString(itoa(int(r)))
			b.WriteString(";")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
