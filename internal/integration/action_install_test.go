package integration

// The Action's install step (SPEC §12 D3), offline: a local HTTP server on
// 127.0.0.1 stands in for GitHub's release downloads and serves archives
// this test builds the way .goreleaser.yaml names them. For each
// RUNNER_OS/RUNNER_ARCH the step installs the right archive, verified
// against the SHA-256 recorded in action/release/ of the Action's commit;
// it refuses a tampered archive naming it; and at a commit that records no
// release it leaves the source build to the setup-go and build steps.

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
)

const releaseVersion = "v0.3.0"

// release is a set of release archives as goreleaser names them, with the
// binary each holds.
type release struct {
	dir      string            // served at /VERSION/NAME
	binaries map[string][]byte // archive name → binary inside
	sums     map[string]string // archive name → SHA-256
}

// archiveName is .goreleaser.yaml's name_template for a target.
func archiveName(goos, goarch string) string {
	ext := "tar.gz"
	if goos == "windows" {
		ext = "zip"
	}
	return fmt.Sprintf("rivumi-lint_%s_%s_%s.%s", strings.TrimPrefix(releaseVersion, "v"), goos, goarch, ext)
}

// stampedBin is the CLI built as a release is: static, -trimpath, the
// version stamped by the linker.
var stampedBin = built{name: "rivumi-lint-" + releaseVersion, args: []string{
	"build", "-trimpath", "-ldflags=-X github.com/rivumi/rivumi-lint/internal/version.stamped=" + releaseVersion,
	"./cmd/rivumi-lint"}}

func stampedRivumiLint(t *testing.T) string { return stampedBin.get(t) }

// newRelease builds the archives of the eight D1 targets. The host's holds
// the real CLI; the others a stand-in script that can run here and says
// which target it is, so a test sees which archive was installed.
func newRelease(t *testing.T) *release {
	t.Helper()
	// The stamped build is a -trimpath build: on a cold build cache it
	// compiles the module and its dependencies once more (over a minute on
	// two cores), so the default `go test ./...` leaves it out (#33.15).
	needIntegration(t, "a release build of the CLI")
	real, err := os.ReadFile(stampedRivumiLint(t))
	if err != nil {
		t.Fatal(err)
	}
	rel := &release{dir: t.TempDir(), binaries: map[string][]byte{}, sums: map[string]string{}}
	if err := os.MkdirAll(filepath.Join(rel.dir, releaseVersion), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, goos := range []string{"linux", "darwin", "windows", "freebsd"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			name := archiveName(goos, goarch)
			bin := []byte(fmt.Sprintf("#!/bin/sh\n# stand-in for %s/%s\necho 'rivumi-lint %s'\n", goos, goarch, releaseVersion))
			if goos == runtime.GOOS && goarch == runtime.GOARCH {
				bin = real
			}
			rel.binaries[name] = bin
			b := makeArchive(t, goos, bin)
			if err := os.WriteFile(filepath.Join(rel.dir, releaseVersion, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
			sum := sha256.Sum256(b)
			rel.sums[name] = hex.EncodeToString(sum[:])
		}
	}
	return rel
}

// makeArchive is one release archive: the binary at the top level beside
// the files .goreleaser.yaml adds.
func makeArchive(t *testing.T, goos string, bin []byte) []byte {
	t.Helper()
	files := []struct {
		name string
		mode int64
		data []byte
	}{
		{"rivumi-lint", 0o755, bin},
		{"README.md", 0o644, []byte("# rivumi-lint\n")},
		{"LICENSE", 0o644, []byte("MIT\n")},
	}
	var buf bytes.Buffer
	if goos == "windows" {
		zw := zip.NewWriter(&buf)
		for _, f := range files {
			name := f.name
			if name == "rivumi-lint" {
				name += ".exe"
			}
			h := &zip.FileHeader{Name: name, Method: zip.Deflate}
			h.SetMode(os.FileMode(f.mode))
			w, err := zw.CreateHeader(h)
			if err != nil {
				t.Fatal(err)
			}
			w.Write(f.data)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, f := range files {
		if err := tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(f.data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// checksums is the checksums.txt goreleaser writes: "SHA256  NAME" lines,
// sorted by name.
func (rel *release) checksums() string {
	var names []string
	for n := range rel.sums {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", rel.sums[n], n)
	}
	return b.String()
}

// server serves dir as GitHub serves release assets
// (/download/VERSION/NAME) and records the paths asked for.
type server struct {
	*httptest.Server
	mu    sync.Mutex
	asked []string
}

func serve(t *testing.T, dir string) *server {
	t.Helper()
	s := &server{}
	files := http.FileServer(http.Dir(dir))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.asked = append(s.asked, r.URL.Path)
		s.mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.asked...)
}

// actionCopy is the Action at a commit of its own: this checkout's source
// (as committed by sourceCopy) with action/release/ holding version and
// checksums when version is not empty, else recording no release.
func actionCopy(t *testing.T, version, checksums string) string {
	t.Helper()
	src, _ := sourceCopy(t)
	dst := filepath.Join(t.TempDir(), "action")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := exec.Command("git", "archive", "--format=tar", "HEAD")
	archive.Dir = src
	extract := exec.Command("tar", "-xf", "-", "-C", dst)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	extract.Stdin = pipe
	if err := archive.Start(); err != nil {
		t.Fatal(err)
	}
	if out, err := extract.CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	if err := archive.Wait(); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dst, "action", "release")
	if err := os.RemoveAll(rec); err != nil {
		t.Fatal(err)
	}
	if version != "" {
		writeFiles(t, rec, map[string]string{"version": version + "\n", "checksums.txt": checksums})
	}
	return dst
}

// pathWithoutGo is PATH less every directory holding a go command: a
// runner where no Go toolchain was set up.
func pathWithoutGo(t *testing.T) string {
	t.Helper()
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		_, err := os.Stat(filepath.Join(d, "go"))
		_, errExe := os.Stat(filepath.Join(d, "go.exe"))
		if err == nil || errExe == nil {
			continue
		}
		keep = append(keep, d)
	}
	return "PATH=" + strings.Join(keep, string(os.PathListSeparator))
}

func TestActionInstallsTheRecordedReleaseForEachRunnerD3(t *testing.T) {
	rel := newRelease(t)
	srv := serve(t, rel.dir)
	act := actionCopy(t, releaseVersion, rel.checksums())
	ws := newRepo(t, map[string]string{"AGENTS.md": "# rules\n"})
	for _, c := range []struct{ runnerOS, runnerArch, goos, goarch, exe string }{
		{"Linux", "X64", "linux", "amd64", ""},
		{"Linux", "ARM64", "linux", "arm64", ""},
		{"macOS", "X64", "darwin", "amd64", ""},
		{"macOS", "ARM64", "darwin", "arm64", ""},
		{"Windows", "X64", "windows", "amd64", ".exe"},
		{"Windows", "ARM64", "windows", "arm64", ".exe"},
	} {
		t.Run(c.runnerOS+"_"+c.runnerArch, func(t *testing.T) {
			before := len(srv.requests())
			r := newRunner(t, ws, "workflow_dispatch", map[string]any{}, nil)
			r.actionPath, r.runnerOS, r.runnerArch = act, c.runnerOS, c.runnerArch
			// A release binary needs no Go toolchain (D3).
			r.extraEnv = []string{"RIVUMI_LINT_DOWNLOAD_URL=" + srv.URL, pathWithoutGo(t)}
			res := r.step("Install rivumi-lint")
			if res.code != 0 {
				t.Fatalf("install step: %s", res)
			}
			if res.outputs["source"] != "false" {
				t.Errorf("install step output source=%q, want false (a recorded release: no setup-go, no build)", res.outputs["source"])
			}
			name := archiveName(c.goos, c.goarch)
			if got, want := srv.requests()[before:], []string{"/" + releaseVersion + "/" + name}; fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("downloads %v, want %v", got, want)
			}
			got, err := os.ReadFile(filepath.Join(r.temp, "rivumi-lint"+c.exe))
			if err != nil {
				t.Fatalf("no binary installed: %v\n%s", err, res)
			}
			if !bytes.Equal(got, rel.binaries[name]) {
				t.Errorf("installed binary is not the one of %s", name)
			}
			if !strings.Contains(res.stdout, "rivumi-lint "+releaseVersion) {
				t.Errorf("install step does not show the installed version:\n%s", res)
			}
		})
	}
}

func TestActionReleaseBinaryReportsItsVersionD2D3(t *testing.T) {
	// D2: the installed release binary reports the release version in
	// `version` and in SARIF's tool.driver.version.
	runnerOS, ok := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[runtime.GOOS]
	runnerArch, ok2 := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	if !ok || !ok2 {
		t.Fatalf("this test runs the host's release archive as a GitHub runner would; %s/%s is no GitHub runner (Linux, macOS, Windows on X64, ARM64)", runtime.GOOS, runtime.GOARCH)
	}
	rel := newRelease(t)
	srv := serve(t, rel.dir)
	ws := newRepo(t, map[string]string{"AGENTS.md": "# rules\nx\xffy\n"})
	sarif := filepath.Join(t.TempDir(), "out.sarif")
	r := newRunner(t, ws, "workflow_dispatch", map[string]any{}, map[string]string{"sarif-file": sarif})
	r.actionPath = actionCopy(t, releaseVersion, rel.checksums())
	r.runnerOS, r.runnerArch = runnerOS, runnerArch
	r.extraEnv = []string{"RIVUMI_LINT_DOWNLOAD_URL=" + srv.URL}
	if res := r.install(); res.code != 0 {
		t.Fatalf("install: %s", res)
	}
	if res := r.step("Check"); res.code != 1 {
		t.Fatalf("check: want exit 1 (RL004)\n%s", res)
	}
	b, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Runs []struct {
			Tool struct{ Driver struct{ Version string } }
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Runs) != 1 {
		t.Fatalf("SARIF: %v: %.200s", err, b)
	}
	if v := doc.Runs[0].Tool.Driver.Version; v != releaseVersion {
		t.Errorf("SARIF tool.driver.version = %q, want %q", v, releaseVersion)
	}
}

func TestActionRefusesATamperedArchiveD3(t *testing.T) {
	rel := newRelease(t)
	name := archiveName("linux", "amd64")
	// The server's archive differs from the one whose hash the commit
	// recorded: a replaced release asset or an altered download.
	p := filepath.Join(rel.dir, releaseVersion, name)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	evil := makeArchive(t, "linux", []byte("#!/bin/sh\necho 'rivumi-lint "+releaseVersion+"'\n"))
	if bytes.Equal(b, evil) {
		t.Fatal("the tampered archive equals the recorded one; the test would prove nothing")
	}
	if err := os.WriteFile(p, evil, 0o644); err != nil {
		t.Fatal(err)
	}
	srv := serve(t, rel.dir)
	ws := newRepo(t, map[string]string{"AGENTS.md": "# rules\n"})
	r := newRunner(t, ws, "workflow_dispatch", map[string]any{}, nil)
	r.actionPath = actionCopy(t, releaseVersion, rel.checksums())
	r.extraEnv = []string{"RIVUMI_LINT_DOWNLOAD_URL=" + srv.URL}
	res := r.step("Install rivumi-lint")
	if res.code == 0 {
		t.Fatalf("install step accepted a tampered archive:\n%s", res)
	}
	anns := parseAnnotations(res.stdout)
	if len(anns) != 1 || anns[0].level != "error" || !strings.Contains(anns[0].message, name) ||
		!strings.Contains(anns[0].message, rel.sums[name]) || !strings.Contains(anns[0].message, "does not match") {
		t.Errorf("want one error annotation naming %s and its recorded SHA-256:\n%s", name, res)
	}
	if _, err := os.Stat(filepath.Join(r.temp, "rivumi-lint")); err == nil {
		t.Error("the tampered binary was installed")
	}

	// A record without this runner's archive is refused too, naming it.
	r = newRunner(t, ws, "workflow_dispatch", map[string]any{}, nil)
	r.actionPath = actionCopy(t, releaseVersion, strings.ReplaceAll(rel.checksums(), name, name+".old"))
	r.extraEnv = []string{"RIVUMI_LINT_DOWNLOAD_URL=" + srv.URL}
	res = r.step("Install rivumi-lint")
	if res.code == 0 || !strings.Contains(res.stdout, "records no single SHA-256 for "+name) {
		t.Errorf("install step with no recorded hash for %s: want failure naming it\n%s", name, res)
	}
	// A runner architecture with no archive: fails with the fix.
	r = newRunner(t, ws, "workflow_dispatch", map[string]any{}, nil)
	r.actionPath, r.runnerArch = actionCopy(t, releaseVersion, rel.checksums()), "X86"
	r.extraEnv = []string{"RIVUMI_LINT_DOWNLOAD_URL=" + srv.URL}
	res = r.step("Install rivumi-lint")
	if res.code == 0 || !strings.Contains(res.stdout, "RUNNER_ARCH=X86") {
		t.Errorf("install step on X86: want failure naming RUNNER_ARCH=X86\n%s", res)
	}
}

func TestActionBuildsFromSourceWithoutARecordedReleaseD3(t *testing.T) {
	// The install step's `go build` compiles the CLI anew in a copy.
	needIntegration(t, "the Action's build from source")
	srv := serve(t, t.TempDir())
	ws := newRepo(t, map[string]string{"AGENTS.md": "# rules\n"})
	r := newRunner(t, ws, "workflow_dispatch", map[string]any{}, nil)
	r.actionPath = actionCopy(t, "", "")
	ref := "0123456789abcdef0123456789abcdef01234567"
	r.extraEnv = []string{"RIVUMI_LINT_DOWNLOAD_URL=" + srv.URL, "GITHUB_ACTION_REF=" + ref}
	res := r.step("Install rivumi-lint")
	if res.code != 0 || res.outputs["source"] != "true" {
		t.Fatalf("install step at a commit with no release: want exit 0 and source=true\n%s", res)
	}
	if got := srv.requests(); len(got) != 0 {
		t.Errorf("no release recorded, yet the step downloaded %v", got)
	}
	if _, err := os.Stat(filepath.Join(r.temp, "rivumi-lint")); err == nil {
		t.Fatal("the install step installed a binary although no release is recorded")
	}
	build := r.step("Build rivumi-lint from source")
	if build.code != 0 {
		t.Fatalf("source build: %s", build)
	}
	// The source build's version names the Action's ref, never a bare devel.
	out := run(t, ws, env(t), nil, filepath.Join(r.temp, "rivumi-lint"), "version")
	if want := "rivumi-lint devel-" + ref + "\n"; out.code != 0 || !strings.HasPrefix(out.stdout, want) {
		t.Errorf("version of the source build: %s\nwant %q", out, want)
	}
}

func TestActionInstallStepsD3(t *testing.T) {
	// The setup-go and build steps run only when the install step finds no
	// recorded release; every uses: is pinned by a full commit SHA with the
	// tag in a comment; setup-go's cache is off (the Action's go.sum lies
	// outside GITHUB_WORKSPACE, where setup-go's cache cannot see it).
	b, err := os.ReadFile(filepath.Join(moduleRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(b), "\n") {
		l := strings.TrimSpace(line)
		if !strings.HasPrefix(l, "uses:") && !strings.HasPrefix(l, "- uses:") {
			continue
		}
		ref, comment, _ := strings.Cut(l[strings.Index(l, "uses:")+len("uses:"):], "#")
		_, sha, _ := strings.Cut(strings.TrimSpace(ref), "@")
		if len(sha) != 40 || strings.Trim(sha, "0123456789abcdef") != "" || !strings.HasPrefix(strings.TrimSpace(comment), "v") {
			t.Errorf("action.yml:%d: %q is not pinned by a full commit SHA with the tag in a comment", i+1, l)
		}
	}
	a := loadAction(t)
	var sourceSteps int
	for _, s := range a.Runs.Steps {
		switch {
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			if s.With["cache"] != "false" {
				t.Errorf("setup-go step: cache %q, want false", s.With["cache"])
			}
			fallthrough
		case s.Name == "Build rivumi-lint from source":
			sourceSteps++
			if s.If != "steps.install.outputs.source == 'true'" {
				t.Errorf("step %q runs if %q, want only at a commit with no recorded release", s.Name, s.If)
			}
		}
	}
	if sourceSteps != 2 {
		t.Errorf("%d setup-go and source-build steps, want 2", sourceSteps)
	}
}

func TestActionWorkingDirectoryD3(t *testing.T) {
	// actions/checkout with path: puts the repository below the workspace;
	// the working-directory input points the fetch and check steps there.
	o := newOrigin(t)
	parent := t.TempDir()
	git(t, "", "clone", "-q", "--depth", "1", "--no-tags", "--branch", "feature", "file://"+o.dir, filepath.Join(parent, "src", "app"))
	r := newRunner(t, parent, "pull_request", pullRequestPayload(o), map[string]string{"working-directory": "src/app"})
	if res := r.install(); res.code != 0 {
		t.Fatalf("install: %s", res)
	}
	if res := r.step("Fetch the commits to compare"); res.code != 0 || !hasCommit(t, filepath.Join(parent, "src", "app"), o.base) {
		t.Fatalf("fetch step in working-directory src/app: %s", res)
	}
	check := r.step("Check")
	if check.code != 1 || !hasAnnotation(parseAnnotations(check.stdout), "error", "file=app/AGENTS.md", "line=2") {
		t.Fatalf("check step in working-directory src/app: want exit 1 and the RL004 annotation\n%s", check)
	}
	r = newRunner(t, parent, "pull_request", pullRequestPayload(o), map[string]string{"working-directory": "nope"})
	if res := r.step("Check"); res.code == 0 || !strings.Contains(res.stdout, "working-directory nope") {
		t.Errorf("a working-directory that does not exist: want failure naming it\n%s", res)
	}
}
