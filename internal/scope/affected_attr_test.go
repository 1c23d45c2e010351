package scope

import (
	"strings"
	"testing"

	"github.com/rivumi/rivumi-lint/internal/resolve"
)

// F5 and R7: a change to a .gitattributes file alone (added, modified or
// deleted) reaches its directory and every directory below it that holds
// an instruction candidate, since its lines may convert their checkouts;
// a directory named .gitattributes does not count.
func TestF5AttributesChangeReachesBelow(t *testing.T) {
	for _, tc := range []struct{ changed, want string }{
		{"a/.gitattributes", "a,a/b/c"},
		{".gitattributes", ",a/b/c,q,q/r"},
		{"q/r/.gitattributes", "q/r"},
		{"x/.gitattributes/y", "x/.gitattributes"},
	} {
		src := head()
		calls := 0
		got, err := Affected(resolve.New(src, opts), src.snap(&calls), []string{tc.changed})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, ",") != tc.want {
			t.Errorf("Affected(%q) = %q, want %q", tc.changed, strings.Join(got, ","), tc.want)
		}
	}
}
