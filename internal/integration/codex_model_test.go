package integration

// TEMPORARY: a Go model of Codex's AGENTS.md discovery, the stand-in the
// harness compares codex with until the product's codex profile lands.
// It is deleted then: the product must be the thing compared.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// codexStandIn answers like codexProduct, from the model.
func codexStandIn(c *codexCase, p codexPaths, d string) codexAnswer {
	dir := filepath.Join(p.repo, filepath.FromSlash(d))
	text, exact := codexModel(c, p, dir, func(f string) { c.count("realized: %s", f) })
	a := codexAnswer{text: text, exact: exact, how: "the model"}
	if !exact {
		a.inexact = "a link out of the repository"
	}
	return a
}

func codexModel(c *codexCase, p codexPaths, cwd string, saw func(string)) (string, bool) {
	exact := true
	root := ""
	if m := c.rootMarkers(); len(m) > 0 {
	search:
		for d := cwd; ; d = filepath.Dir(d) {
			for _, name := range m {
				if _, err := os.Stat(filepath.Join(d, name)); err == nil {
					root = d
					break search
				}
			}
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	dirs := []string{cwd}
	switch {
	case root == "":
		saw("no marker: the working directory alone")
	case root != p.repo:
		saw("chain from a marker below the root")
	}
	if root != "" {
		dirs = nil
		for d := cwd; ; d = filepath.Dir(d) {
			dirs = append([]string{d}, dirs...)
			if d == root {
				break
			}
		}
	}
	var found []string
	drop := false
	for _, d := range dirs {
		for _, name := range c.candidates() {
			cand := filepath.Join(d, name)
			if codexLinkLeavesRoot(p.repo, cand) {
				exact = false
			}
			st, err := os.Stat(cand)
			if err == nil {
				if st.Mode().IsRegular() {
					if lst, _ := os.Lstat(cand); lst.Mode()&fs.ModeSymlink != 0 {
						saw("a link followed to a file")
					}
					if name != "AGENTS.md" && name != "AGENTS.override.md" {
						saw("a fallback name read")
					}
					found = append(found, cand)
					break
				}
				continue
			}
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			drop = true
			saw("an error drops every project file")
		}
	}
	var entries []string
	if rem := c.budget(); rem > 0 && !drop {
		for i, f := range found {
			if rem == 0 {
				saw("the budget used up exactly, later files left out")
				break
			}
			data, err := os.ReadFile(f)
			if err != nil {
				panic(err)
			}
			cut := len(data) > rem
			if cut {
				pos := 0
				for k, d := range dirs {
					if d == filepath.Dir(f) {
						pos = k
					}
				}
				saw(fmt.Sprintf("cut at chain position %d (file %d of the chain)", pos, i))
				start := rem
				for start > 0 && rem-start < 3 && data[start]&0xc0 == 0x80 {
					start--
				}
				if r, n := utf8.DecodeRune(data[start:]); (r != utf8.RuneError || n > 1) && start+n > rem {
					saw(fmt.Sprintf("cut %d bytes into a %d-byte character", rem-start, n))
				}
				data = data[:rem]
			}
			text := codexLossy(data)
			if strings.TrimFunc(text, unicode.IsSpace) != "" {
				entries = append(entries, text)
				rem -= len(data)
			} else if cut {
				saw("a cut leaving whitespace only, which costs nothing")
			} else {
				saw("a whitespace-only project file skipped")
			}
		}
	}
	user := ""
	for _, name := range []string{"AGENTS.override.md", "AGENTS.md"} {
		data, err := os.ReadFile(filepath.Join(p.home, name))
		if err != nil {
			continue
		}
		if t := strings.TrimFunc(codexLossy(data), unicode.IsSpace); t != "" {
			user = t
			break
		}
	}
	if user == "" && len(entries) == 0 {
		saw("no instructions sent")
		return "", exact
	}
	if len(entries) == 0 {
		saw("the user file alone (no cwd in the header)")
	}
	if !exact {
		saw("a link out of the repository consulted")
	}
	var b strings.Builder
	b.WriteString("# AGENTS.md instructions")
	if len(entries) > 0 {
		b.WriteString(" for " + codexLossy([]byte(cwd)))
	}
	b.WriteString("\n\n<INSTRUCTIONS>\n")
	b.WriteString(user)
	if user != "" && len(entries) > 0 {
		b.WriteString("\n\n--- project-doc ---\n\n")
	}
	b.WriteString(strings.Join(entries, "\n\n"))
	b.WriteString("\n</INSTRUCTIONS>")
	return b.String(), exact
}

// codexLossy is Rust's String::from_utf8_lossy: each maximal invalid
// subpart becomes one U+FFFD.
func codexLossy(b []byte) string {
	var sb strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r != utf8.RuneError || n > 1 {
			sb.Write(b[:n])
			b = b[n:]
			continue
		}
		sb.WriteRune(utf8.RuneError)
		b = b[codexSubpart(b):]
	}
	return sb.String()
}

func codexSubpart(b []byte) int {
	cont := func(i int, lo, hi byte) bool { return i < len(b) && b[i] >= lo && b[i] <= hi }
	lo, hi := byte(0x80), byte(0xbf)
	switch c := b[0]; {
	case c >= 0xc2 && c <= 0xdf:
		return 1
	case c >= 0xe0 && c <= 0xef:
		switch c {
		case 0xe0:
			lo = 0xa0
		case 0xed:
			hi = 0x9f
		}
		if !cont(1, lo, hi) {
			return 1
		}
		return 2
	case c >= 0xf0 && c <= 0xf4:
		switch c {
		case 0xf0:
			lo = 0x90
		case 0xf4:
			hi = 0x8f
		}
		if !cont(1, lo, hi) {
			return 1
		}
		if !cont(2, 0x80, 0xbf) {
			return 2
		}
		return 3
	default:
		return 1
	}
}
