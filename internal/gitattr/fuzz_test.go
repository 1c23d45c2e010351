package gitattr

import (
	"strings"
	"testing"
)

// FuzzParse (§10: every parser is fuzzed): any .gitattributes text, in the
// root or a subdirectory, parses and is looked up without a panic or a
// hang, and every value found names a line that exists in the file.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"AGENTS.md working-tree-encoding=UTF-16\n",
		"*.md text eol=crlf\n[attr]lfs filter=lfs diff=lfs merge=lfs -text\n*.bin lfs\n",
		"\xef\xbb\xbf\"a b/*.md\" -text\n!neg x\n# comment\n  \t\n",
		"docs/ binary\n**/AGENTS.md ident\n\"\\141\\n\" x=y\n",
		"a/**/b -diff !text\n[attr]binary x\n",
	} {
		f.Add(s, "AGENTS.md", "")
		f.Add(s, "a/x/b/AGENTS.md", "a")
	}
	f.Fuzz(func(t *testing.T, text, path, dir string) {
		if strings.ContainsRune(dir, 0) || strings.ContainsRune(path, 0) || len(text) > MaxFileBytes {
			return
		}
		dir = strings.Trim(dir, "/")
		name := FileName
		if dir != "" {
			name = dir + "/" + FileName
		}
		file := Parse(name, dir, []byte(text), dir == "")
		c := NewChecker(func(d string) ([]byte, bool, error) {
			if d == dir {
				return []byte(text), true, nil
			}
			return nil, false, nil
		}, nil)
		_ = file
		vals, err := c.All(strings.Trim(path, "/"))
		if err != nil {
			return
		}
		lines := strings.Count(text, "\n") + 1
		for k, v := range vals {
			if v.From.File == "[builtin]" {
				continue
			}
			if v.From.Line < 1 || v.From.Line > lines {
				t.Fatalf("attribute %s=%v from line %d of a %d-line file", k, v, v.From.Line, lines)
			}
		}
		if _, err := c.Conversion(strings.Trim(path, "/")); err != nil {
			t.Fatalf("Conversion after All succeeded: %v", err)
		}
	})
}
