package lint

import (
	"encoding/json"
	"strings"
	"testing"
)

// §7 json, §10 (file names with invalid UTF-8), docs/json.md: "path_bytes" carries the exact bytes of a path that is not
// valid UTF-8, and only then; the rest of the object is what encoding/json
// would write for the plain struct, without HTML escaping.
func TestPathBytes(t *testing.T) {
	bad := "caf\xe9/AGENTS.md"
	for _, tc := range []struct {
		name string
		v    any
		path string
	}{
		{"finding", Finding{Rule: "RL008", Path: bad, Message: "ends with </rivumi:layer> & more"}, bad},
		{"finding, valid path", Finding{Rule: "RL008", Path: "docs/AGENTS.md", Message: "<x>"}, "docs/AGENTS.md"},
		{"directory", Directory{Path: "caf\xe9", Layers: []Layer{{Path: bad}}}, "caf\xe9"},
		{"layer", Layer{Path: bad, Reason: "RL004"}, bad},
		{"layer change", LayerChange{Path: bad, Change: "added"}, bad},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// As the report writers encode: HTML escaping off.
			b, err := marshalNoHTML(tc.v)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(string(b), `\u003c`) || strings.Contains(string(b), `\u0026`) {
				t.Errorf("HTML-escaped: %s", b)
			}
			var got struct {
				Path      string `json:"path"`
				PathBytes []byte `json:"path_bytes"`
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			valid := !strings.Contains(tc.path, "\xe9")
			switch {
			case valid && (got.PathBytes != nil || got.Path != tc.path):
				t.Errorf("valid path: %s", b)
			case !valid && string(got.PathBytes) != tc.path:
				t.Errorf("path_bytes %q, want %q: %s", got.PathBytes, tc.path, b)
			case !valid && got.Path != strings.ToValidUTF8(tc.path, "\uFFFD"):
				t.Errorf("path %q: %s", got.Path, b)
			}
		})
	}
}
