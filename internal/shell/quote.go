// Package shell writes commands that a user pastes into a POSIX shell: the
// fixes that messages suggest must work as pasted.
package shell

import "strings"

// Quote is s as one word of a POSIX shell: unchanged when it holds only
// characters no shell treats specially, else in single quotes.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-/+@%=:,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Args is args quoted and joined by spaces, led by "--" when one of them
// would read as a flag.
func Args(args []string) string {
	var b strings.Builder
	for _, a := range args {
		if strings.HasPrefix(a, "-") {
			b.WriteString("--")
			break
		}
	}
	for _, a := range args {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(Quote(a))
	}
	return b.String()
}

// Path is the relative path p as one word, with "./" before a p that
// starts with "-", so that no command takes it for an option.
func Path(p string) string {
	if strings.HasPrefix(p, "-") {
		p = "./" + p
	}
	return Quote(p)
}
