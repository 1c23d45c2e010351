package report

import (
	"io"
	"sort"

	"github.com/rivumi/rivumi-lint/internal/lint"
)

// Writer writes a result in one format.
type Writer func(w io.Writer, r *lint.Result, o Options) error

var writers = map[string]Writer{
	"text":     Text,
	"line":     Line,
	"json":     JSON,
	"sarif":    SARIF,
	"github":   GitHub,
	"rdjson":   RDJSON,
	"rdjsonl":  RDJSONL,
	"markdown": Markdown,
}

// Lookup returns the writer of a format name.
func Lookup(name string) (Writer, bool) {
	w, ok := writers[name]
	return w, ok
}

// Names lists the format names, sorted.
func Names() []string {
	out := make([]string, 0, len(writers))
	for n := range writers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
