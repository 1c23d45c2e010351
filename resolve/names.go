package resolve

import "strings"

// NearMissOf reports whether name resembles one of the candidate names
// closely enough that its author meant it to be one (RL011): the same name in
// another case (loaded on a case-insensitive disk, not here), the singular
// AGENT, "-override"/"_override"/".overrides" spellings, or another Markdown
// extension. It returns the candidate it resembles.
func NearMissOf(name string, candidates []string) (string, bool) {
	key, ok := nameKey(name)
	if !ok {
		return "", false
	}
	for _, c := range candidates {
		if c == name {
			return "", false
		}
	}
	for _, c := range candidates {
		if ck, ok := nameKey(c); ok && ck == key {
			return c, true
		}
	}
	return "", false
}

// nameKey folds the differences NearMissOf forgives. Names without one of
// the extensions below are not keyed, so a directory or file called "agents"
// is not a near miss.
func nameKey(name string) (string, bool) {
	s := strings.ToLower(name)
	ext := ""
	for _, e := range []string{".md", ".markdown", ".mdx", ".txt"} {
		if strings.HasSuffix(s, e) {
			ext = e
			break
		}
	}
	if ext == "" || len(s) == len(ext) {
		return "", false
	}
	stem := s[:len(s)-len(ext)]
	stem = strings.NewReplacer("-", ".", "_", ".", " ", ".").Replace(stem)
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
