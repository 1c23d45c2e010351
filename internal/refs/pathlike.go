package refs

import "strings"

// maxPath bounds a path token; longer code spans are prose or data.
const maxPath = 512

// pathToken reports whether t, a code span's only token, names a path,
// and how many of its leading bytes do: a "::symbol", ":line[:col]" or
// "#anchor" suffix is cut. The rules keep what the scan of public
// repositories found noisy out: URLs and hosts, flags, globs, templates
// and shell, owner/repo slugs and branch names (no extension), and the
// "path/to/…" placeholders (docs/references.md).
func pathToken(t string) (int, bool) {
	if len(t) > maxPath || strings.Contains(t, "://") {
		return 0, false
	}
	p := t
	if i := strings.IndexByte(p, '#'); i >= 0 {
		p = p[:i]
	}
	if i := strings.Index(p, "::"); i >= 0 {
		p = p[:i]
	}
	if i := strings.IndexByte(p, ':'); i >= 0 {
		if !lineSuffix(p[i+1:]) {
			return 0, false
		}
		p = p[:i]
	}
	if len(p) < 2 || !strings.Contains(p, "/") {
		return 0, false
	}
	switch p[0] {
	case '-', '~', '$', '/', '\\', '@', '.':
		if p[0] != '.' {
			return 0, false
		}
	}
	if strings.Contains(p, "//") || strings.Contains(p, "...") || strings.Contains(p, "path/to/") {
		return 0, false
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		for j := 0; j < len(s); j++ {
			c := s[j]
			if c < ' ' || c == 0x7f || strings.IndexByte("*?[]{}$<>|;&()`'\"!=,\\%^~", c) >= 0 {
				return 0, false
			}
			if c == '@' && j > 0 {
				return 0, false // pkg@version, user@host
			}
		}
		if s == "" && i != len(segs)-1 {
			return 0, false
		}
	}
	first := 0
	for first < len(segs)-1 && (segs[first] == "." || segs[first] == "..") {
		first++
	}
	if first == len(segs)-1 && segs[first] == "" {
		return 0, false // only "./" or "../"
	}
	if isHost(segs[first]) {
		return 0, false
	}
	last := segs[len(segs)-1]
	if last != "" && !hasExtension(last) {
		return 0, false
	}
	return len(p), true
}

// lineSuffix reports a position suffix: "12", "12:3", "L12-L20", "12,14".
func lineSuffix(s string) bool {
	if s == "" {
		return false
	}
	digits := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			digits = true
		case c == 'L' && (i == 0 || strings.IndexByte("-:,", s[i-1]) >= 0):
		case (c == '-' || c == ':' || c == ',') && i > 0 && s[i-1] >= '0' && s[i-1] <= '9':
		default:
			return false
		}
	}
	return digits
}

// hasExtension reports a file name with an extension ("main.go",
// "app.config.ts") or a dot file (".env"); an extension has a letter, so
// "v1.2" is a version, not a file.
func hasExtension(name string) bool {
	i := strings.LastIndexByte(name, '.')
	if i < 0 || i == len(name)-1 {
		return false
	}
	ext := name[i+1:]
	if len(ext) > 16 {
		return false
	}
	letter := false
	for j := 0; j < len(ext); j++ {
		c := ext[j]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		case c >= '0' && c <= '9' || c == '_' || c == '-':
		default:
			return false
		}
	}
	return letter
}

// topLevelDomains are the suffixes that make a first segment a host
// ("github.com/owner/repo", "golang.org/x/tools", "docs.rs/serde/").
var topLevelDomains = words(`
	com org net io dev rs sh ai app co gov edu me info xyz cloud run page site tech us uk de
	fr jp cn in ly gg so to tv fm eu ca au nl ch se no es it ru br pl be at dk fi cz kr tw
	hk sg nz za id vc build works link website systems software tools`)

func isHost(seg string) bool {
	if seg == "localhost" {
		return true
	}
	i := strings.LastIndexByte(seg, '.')
	if i <= 0 {
		return false
	}
	for j := 0; j < len(seg); j++ {
		c := seg[j]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return topLevelDomains[seg[i+1:]]
}
