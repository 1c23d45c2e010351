package resolve

import "strings"

// NearMissOf reports whether name resembles one of the candidate names
// closely enough that its author meant it to be one (RL011): the same name in
// another case (loaded on a case-insensitive disk, not here), the singular
// AGENT, "-override"/"_override"/".overrides" spellings, or another Markdown
// extension. It returns the candidate it resembles.
func NearMissOf(name string, candidates []string) (string, bool) {
	return nearMissKeyed(name, candidates, candidateKeys(candidates))
}

// candidateKeys are the nameKeys of the candidates ("" for a name without
// one), computed once per engine.
func candidateKeys(candidates []string) []string {
	keys := make([]string, len(candidates))
	for i, c := range candidates {
		keys[i], _ = nameKey(c)
	}
	return keys
}

func nearMissKeyed(name string, candidates, keys []string) (string, bool) {
	if !hasNoteExt(name) {
		return "", false // most names: no lower-casing, no allocation
	}
	key, ok := nameKey(name)
	if !ok {
		return "", false
	}
	for _, c := range candidates {
		if c == name {
			return "", false
		}
	}
	for i, c := range candidates {
		if keys[i] != "" && keys[i] == key {
			return c, true
		}
	}
	return "", false
}

// noteExts are the extensions nameKey keys (see there).
var noteExts = []string{".md", ".markdown", ".mdx", ".txt"}

// hasNoteExt reports, without allocating, whether name ends in one of
// noteExts in any case and has a stem. A name with non-ASCII bytes is
// always passed on to nameKey: lower-casing may change its length (the
// Kelvin sign becomes "k").
func hasNoteExt(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return true
		}
	}
	for _, e := range noteExts {
		if len(name) > len(e) && strings.EqualFold(name[len(name)-len(e):], e) {
			return true
		}
	}
	return false
}

var separators = strings.NewReplacer("-", ".", "_", ".", " ", ".")

// nameKey folds the differences NearMissOf forgives. Names without one of
// the extensions below are not keyed, so a directory or file called "agents"
// is not a near miss.
func nameKey(name string) (string, bool) {
	s := strings.ToLower(name)
	ext := ""
	for _, e := range noteExts {
		if strings.HasSuffix(s, e) {
			ext = e
			break
		}
	}
	if ext == "" || len(s) == len(ext) {
		return "", false
	}
	stem := s[:len(s)-len(ext)]
	stem = separators.Replace(stem)
	parts := strings.Split(stem, ".")
	for i, p := range parts {
		switch p {
		case "agent":
			parts[i] = "agents"
		case "overrides", "overide", "overwrite":
			parts[i] = "override"
		}
	}
	return strings.Join(parts, "."), true
}
