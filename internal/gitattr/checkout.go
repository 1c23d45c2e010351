package gitattr

import (
	"fmt"
	"strings"
)

// Conversion is what Git's checkout does to one file, as far as the
// attributes committed with it decide (convert.c convert_attrs), without
// the machine's configuration (core.autocrlf, core.eol, filter drivers).
type Conversion struct {
	// Encoding is the working-tree-encoding a checkout writes the file in,
	// when it is not UTF-8.
	Encoding *Value
	// CRLF is the attribute that makes every checkout end lines in CRLF
	// (eol=crlf, alone or with text or text=auto), nil when none does.
	CRLF *Value
	// Auto is true when CRLF comes with text=auto: Git converts only files
	// it takes for text without CR in them.
	Auto bool
	// Filter is the filter=NAME attribute: a checkout on a machine that
	// has the driver (Git LFS, for one) holds what its smudge command
	// writes.
	Filter *Value
}

// Conversion returns what a checkout does to the file at path p.
func (c *Checker) Conversion(p string) (Conversion, error) {
	all, err := c.All(p)
	if err != nil {
		return Conversion{}, err
	}
	return conversionOf(all), nil
}

func conversionOf(all map[string]Value) Conversion {
	var cv Conversion
	if v, ok := all["working-tree-encoding"]; ok && !(v.State == String && (v.Text == "" || IsUTF8(v.Text))) {
		cv.Encoding = &v
	}
	if v, ok := all["filter"]; ok && v.State == String {
		cv.Filter = &v
	}
	// convert.c convert_attrs: text, else the old crlf attribute, decides
	// whether the file is binary or auto; eol=crlf then turns any other
	// file into one checked out with CRLF (eol=lf, or no eol, leaves it to
	// the machine's core.eol and core.autocrlf, which are not predicted).
	action := crlfAction(all, "text")
	if action == "" {
		action = crlfAction(all, "crlf")
	}
	if action == "binary" {
		return cv
	}
	if eol, ok := all["eol"]; ok && eol.State == String && eol.Text == "crlf" {
		cv.CRLF = &eol
		cv.Auto = action == "auto"
	}
	return cv
}

// crlfAction is convert.c git_path_check_crlf: "binary", "auto", "text",
// "input", or "" (undefined).
func crlfAction(all map[string]Value, name string) string {
	v, ok := all[name]
	switch {
	case !ok:
		return ""
	case v.State == Set:
		return "text"
	case v.State == Unset:
		return "binary"
	case v.State == String && (v.Text == "input" || v.Text == "auto"):
		return v.Text
	}
	return ""
}

// IsUTF8 is Git's same_encoding(enc, "UTF-8"): "UTF-8", "utf8" and other
// spellings that differ in case or the dash.
func IsUTF8(enc string) bool {
	if strings.EqualFold(enc, "UTF-8") {
		return true
	}
	if len(enc) >= 3 && strings.EqualFold(enc[:3], "utf") {
		rest := strings.TrimPrefix(enc[3:], "-")
		return strings.EqualFold(rest, "8")
	}
	return false
}

// asciiCompatible are encodings that write the 128 ASCII characters as
// the same single bytes, so a checkout of pure ASCII text in them is the
// blob itself (compared without case, dashes and underscores).
var asciiCompatible = []string{"ISO8859", "LATIN", "CP125", "WINDOWS125", "USASCII", "ASCII",
	"ANSIX3.41968", "KOI8", "EUC", "GB2312", "GBK", "GB18030", "BIG5", "CP437", "CP850", "IBM437", "IBM850"}

func isASCIICompatible(enc string) bool {
	k := strings.ToUpper(strings.NewReplacer("-", "", "_", "").Replace(enc))
	for _, p := range asciiCompatible {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// Encoded reports whether a checkout of data holds other bytes than data
// because of the working-tree-encoding: an empty file is not converted,
// and pure ASCII in an ASCII-compatible encoding stays the same bytes.
func (cv Conversion) Encoded(data []byte) bool {
	if cv.Encoding == nil || len(data) == 0 {
		return false
	}
	if cv.Encoding.State != String {
		return true // Git refuses the checkout: handled by the caller
	}
	return !(isASCII(data) && isASCIICompatible(cv.Encoding.Text))
}

// CRLFBytes returns the size of data in a checkout that ends lines in CRLF
// (convert.c crlf_to_worktree: a CR before every LF that has none), and
// whether Git converts it at all.
func (cv Conversion) CRLFBytes(data []byte) (int64, bool) {
	if cv.CRLF == nil || len(data) == 0 {
		return int64(len(data)), false
	}
	var lonelf, crlf, lonecr, nul, printable, nonprintable int
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				crlf++
				i++
			} else {
				lonecr++
			}
		case c == '\n':
			lonelf++
		case c == 127:
			nonprintable++
		case c < 32:
			switch c {
			case '\b', '\t', 033, 014:
				printable++
			case 0:
				nul++
				nonprintable++
			default:
				nonprintable++
			}
		default:
			printable++
		}
	}
	if data[len(data)-1] == 032 {
		nonprintable--
	}
	if lonelf == 0 {
		return int64(len(data)), false
	}
	if cv.Auto && (lonecr > 0 || crlf > 0 || nul > 0 || printable>>7 < nonprintable) {
		return int64(len(data)), false
	}
	return int64(len(data) + lonelf), true
}

// Describe is how a finding names an attribute: "eol=crlf, set by
// .gitattributes:3".
func Describe(name string, v *Value) string {
	var s string
	switch v.State {
	case Set:
		s = name
	case Unset:
		s = "-" + name
	default:
		s = name + "=" + v.Text
	}
	return fmt.Sprintf("%s, set by %s", s, v.From)
}
