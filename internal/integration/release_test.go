package integration

// SPEC §12 D2: `go install github.com/rivumi/rivumi-lint/cmd/rivumi-lint@v0.3.0`
// prints v0.3.0, never devel. Offline: a file:// module proxy serves this
// checkout's source as v0.3.0 of the module and the module cache's own
// download directory serves its dependencies; a fresh GOMODCACHE.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGoInstallAtVersionReportsItD2(t *testing.T) {
	// `go install MOD@VERSION` builds the module anew from a proxy copy.
	needIntegration(t, "go install from a module proxy")
	const mod, version = "github.com/rivumi/rivumi-lint", "v0.3.0"
	src, _ := sourceCopy(t)
	proxy := t.TempDir()
	dir := filepath.Join(proxy, mod, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	// The module zip: the main module only (the nested modules tools/ and
	// bench/ are not part of it, as on the real proxy).
	git(t, src, "archive", "--format=zip", "--prefix="+mod+"@"+version+"/", "-o", filepath.Join(dir, version+".zip"),
		"HEAD", "--", ".", ":(exclude)tools", ":(exclude)bench", ":(exclude)testdata", ":(exclude)**/testdata/**")
	gomod, err := os.ReadFile(filepath.Join(src, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{
		version + ".mod":  string(gomod),
		version + ".info": `{"Version":"` + version + `","Time":"2026-11-30T00:00:00Z"}`,
		"list":            version + "\n",
	})
	gobin := t.TempDir()
	environ := append(env(t),
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download")),
		"GOMODCACHE="+filepath.Join(t.TempDir(), "modcache"),
		"GOSUMDB=off", "GOFLAGS=-modcacherw -trimpath", "GOWORK=off", "GOBIN="+gobin, "CGO_ENABLED=0")
	r := run(t, t.TempDir(), environ, nil, "go", "install", mod+"/cmd/rivumi-lint@"+version)
	if r.code != 0 {
		t.Fatalf("go install @%s from the local proxy: %s", version, r)
	}
	out := run(t, t.TempDir(), env(t), nil, filepath.Join(gobin, "rivumi-lint"), "version")
	if got, _, _ := strings.Cut(out.stdout, "\n"); out.code != 0 || got != "rivumi-lint "+version {
		t.Errorf("rivumi-lint version after go install @%s: %s\nwant rivumi-lint %s", version, out, version)
	}
}
