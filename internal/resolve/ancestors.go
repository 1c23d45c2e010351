package resolve

// WithAncestors returns dirs and every directory above them up to the root
// (""), once each, in first-met order: the directories whose listings and
// layer files the chains of dirs need (R2).
func WithAncestors(dirs []string) []string {
	seen := make(map[string]bool, 2*len(dirs))
	var out []string
	for _, d := range dirs {
		for !seen[d] {
			seen[d] = true
			out = append(out, d)
			if d == "" {
				break
			}
			d = ParentDir(d)
		}
	}
	return out
}
