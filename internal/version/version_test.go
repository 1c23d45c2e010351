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

func TestBuildFrom(t *testing.T) {
	bi := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef"}, {Key: "vcs.modified", Value: "true"}}}
	if b := buildFrom("", bi); b.Commit != "0123456789abcdef" || !b.Modified {
		t.Errorf("from VCS settings: %+v", b)
	}
	// A release's stamp wins over what Go recorded.
	if b := buildFrom("fedcba", bi); b.Commit != "fedcba" {
		t.Errorf("stamped: %+v", b)
	}
	if b := buildFrom("", nil); b.Commit != "" || b.Modified {
		t.Errorf("no build info: %+v", b)
	}
}
