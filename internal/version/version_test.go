package version

import (
	"runtime/debug"
	"testing"
)

// D2: a release (linker stamp) and `go install …@vX` (module version) never
// report devel; a checkout build without VCS data does.
func TestFromD2(t *testing.T) {
	withVCS := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"},
		{Key: "vcs.modified", Value: "true"},
	}}
	cases := []struct {
		name  string
		stamp string
		bi    *debug.BuildInfo
		want  string
	}{
		{"release stamp wins over everything", "v0.3.0", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}, "v0.3.0"},
		{"release stamp without build info", "v0.3.0", nil, "v0.3.0"},
		{"go install @v0.3.0", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, "v0.3.0"},
		{"checkout build with VCS", "", withVCS, "devel-0123456789ab-dirty"},
		{"source tarball build", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "devel"},
		{"no build info", "", nil, "devel"},
		{"blank stamp ignored", "  ", &debug.BuildInfo{Main: debug.Module{Version: "v1.0.0"}}, "v1.0.0"},
	}
	for _, c := range cases {
		if got := from(c.stamp, c.bi); got != c.want {
			t.Errorf("%s: from(%q, …) = %q, want %q", c.name, c.stamp, got, c.want)
		}
	}
}
