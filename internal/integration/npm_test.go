package integration

// SPEC §12 D5: the npm packages of a release. scripts/release-snapshot
// builds the eight archives and, from them, the npm tarballs
// (scripts/npm-packages); this test installs the tarballs into a scratch
// project with the real npm, offline (a loopback "registry" that must see
// no request), and runs the command through npx: the platform package npm
// picked by os/cpu carries the very binary of the archive whose SHA-256
// checksums.txt lists, and the launcher passes arguments, exit statuses
// and signals through.

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// npmTargets are the D1 targets by Node's names (process.platform-arch).
var npmTargets = []string{
	"darwin-arm64", "darwin-x64", "freebsd-arm64", "freebsd-x64",
	"linux-arm64", "linux-x64", "win32-arm64", "win32-x64",
}

// npmTarget is Node's name for GOOS/GOARCH.
func npmTarget(goos, goarch string) string {
	if goos == "windows" {
		goos = "win32"
	}
	if goarch == "amd64" {
		goarch = "x64"
	}
	return goos + "-" + goarch
}

// needNpm fails the test when npm (and the node it runs) is missing.
func needNpm(t *testing.T) string {
	t.Helper()
	needIntegration(t, "the npm package test")
	for _, name := range []string{"node", "npm"} {
		if _, err := exec.LookPath(name); err != nil {
			t.Fatalf("%s is not installed: `apt-get install -y nodejs npm` (Debian's packages; .ci/run installs them)", name)
		}
	}
	p, _ := exec.LookPath("npm")
	return p
}

var releaseSnapshot struct {
	once sync.Once
	dist string
	err  error
}

// snapshotDist is dist/ of `scripts/release-snapshot --keep` run in a copy
// of this checkout (sourceCopy), so the checkout itself gets no dist/: the
// archives, checksums.txt, the Homebrew cask and the npm tarballs.
func snapshotDist(t *testing.T) string {
	t.Helper()
	src, _ := sourceCopy(t)
	releaseSnapshot.once.Do(func() {
		r := run(t, src, env(t), nil, "scripts/release-snapshot", "--keep")
		if r.code != 0 {
			releaseSnapshot.err = errors.New("scripts/release-snapshot --keep in a copy of the checkout: " + r.String())
			return
		}
		releaseSnapshot.dist = filepath.Join(src, "dist")
	})
	if releaseSnapshot.err != nil {
		t.Fatal(releaseSnapshot.err)
	}
	return releaseSnapshot.dist
}

// tgzFiles reads the regular files of a .tar.gz (or .tgz) archive.
func tgzFiles(t *testing.T, p string) map[string][]byte {
	t.Helper()
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", p, err)
	}
	tr := tar.NewReader(zr)
	files := map[string][]byte{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return files
		}
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatalf("%s: %s: %v", p, h.Name, err)
		}
		files[h.Name] = b
	}
}

// npmManifest is what the test reads of a package.json.
type npmManifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	OS                   []string          `json:"os"`
	CPU                  []string          `json:"cpu"`
	Bin                  map[string]string `json:"bin"`
	Scripts              map[string]string `json:"scripts"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
}

// npmEnv is npm's environment for a scratch project: its own home, cache
// and config, and a registry that is a loopback server of the test's own.
func npmEnv(t *testing.T, registry string) []string {
	t.Helper()
	home := t.TempDir()
	return env(t, "HOME="+home, "npm_config_cache="+filepath.Join(home, "npm-cache"),
		"npm_config_userconfig="+filepath.Join(home, "npmrc"), "npm_config_registry="+registry,
		"npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false")
}

func TestNpmPackageRunsTheReleaseBinaryD5(t *testing.T) {
	needNpm(t)
	dist := snapshotDist(t)
	meta, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Version string }
	if err := json.Unmarshal(meta, &m); err != nil || m.Version == "" {
		t.Fatalf("dist/metadata.json: no version (%v): %s", err, meta)
	}
	version := m.Version
	host := npmTarget(runtime.GOOS, runtime.GOARCH)

	// Nine tarballs: the command and a platform package per D1 target,
	// each of the release's version and with no install script.
	tarballs := map[string]string{} // package name → tarball
	for _, target := range append([]string{""}, npmTargets...) {
		name, file := "rivumi-lint", "rivumi-lint-"+version+".tgz"
		if target != "" {
			name, file = "@rivumi-lint/"+target, "rivumi-lint-"+target+"-"+version+".tgz"
		}
		p := filepath.Join(dist, "npm", file)
		files := tgzFiles(t, p)
		var pj npmManifest
		if err := json.Unmarshal(files["package/package.json"], &pj); err != nil {
			t.Fatalf("%s: package.json: %v", file, err)
		}
		if pj.Name != name || pj.Version != version {
			t.Errorf("%s: package %s@%s, want %s@%s", file, pj.Name, pj.Version, name, version)
		}
		if len(pj.Scripts) != 0 || len(pj.Dependencies) != 0 {
			t.Errorf("%s: scripts %v, dependencies %v: want none (nothing runs or downloads at install)", file, pj.Scripts, pj.Dependencies)
		}
		if target != "" {
			goos, cpu, _ := strings.Cut(target, "-")
			if len(pj.OS) != 1 || pj.OS[0] != goos || len(pj.CPU) != 1 || pj.CPU[0] != cpu {
				t.Errorf("%s: os %v cpu %v, want [%s] [%s]", file, pj.OS, pj.CPU, goos, cpu)
			}
			exe := "package/bin/rivumi-lint"
			if goos == "win32" {
				exe += ".exe"
			}
			if _, ok := files[exe]; !ok {
				t.Errorf("%s has no %s", file, exe)
			}
		} else {
			want := map[string]string{}
			for _, tg := range npmTargets {
				want["@rivumi-lint/"+tg] = version
			}
			if !maps.Equal(pj.OptionalDependencies, want) {
				t.Errorf("%s: optionalDependencies %v, want %v", file, pj.OptionalDependencies, want)
			}
			if pj.Bin["rivumi-lint"] != "bin/rivumi-lint.js" {
				t.Errorf("%s: bin %v, want rivumi-lint: bin/rivumi-lint.js", file, pj.Bin)
			}
		}
		tarballs[name] = p
	}
	if ents, _ := filepath.Glob(filepath.Join(dist, "npm", "*.tgz")); len(ents) != len(tarballs) {
		t.Errorf("dist/npm holds %d tarballs, want %d: %v", len(ents), len(tarballs), ents)
	}
	if t.Failed() {
		t.FailNow()
	}

	// A scratch project that depends on the command's tarball, with every
	// platform package's tarball offered through overrides: npm itself
	// picks the host's by os/cpu, as it picks from the registry.
	registry := serve(t, t.TempDir())
	project := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "project")
		overrides := map[string]string{}
		for _, tg := range npmTargets {
			overrides["@rivumi-lint/"+tg] = "file:" + tarballs["@rivumi-lint/"+tg]
		}
		pj, _ := json.Marshal(map[string]any{
			"name": "scratch", "version": "1.0.0", "private": true,
			"devDependencies": map[string]string{"rivumi-lint": "file:" + tarballs["rivumi-lint"]},
			"overrides":       overrides,
		})
		writeFiles(t, dir, map[string]string{"package.json": string(pj)})
		return dir
	}
	environ := npmEnv(t, registry.URL)
	dir := project(t)
	if r := run(t, dir, environ, nil, "npm", "install", "--offline", "--no-audit", "--no-fund"); r.code != 0 {
		t.Fatalf("npm install --offline from the tarballs: %s", r)
	}
	if got := registry.requests(); len(got) != 0 {
		t.Errorf("npm install asked the registry for %v; the tarballs alone must do", got)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "node_modules", "@rivumi-lint"))
	var installed []string
	for _, e := range ents {
		installed = append(installed, e.Name())
	}
	if len(installed) != 1 || installed[0] != host {
		t.Fatalf("node_modules/@rivumi-lint holds %v, want only %s (npm installs the platform package of this os/cpu)", installed, host)
	}

	// The hash chain: checksums.txt lists the archive's SHA-256, and the
	// installed binary is byte for byte the one in that archive.
	if runtime.GOOS == "windows" {
		t.Fatal("this test reads the host's .tar.gz archive; run it on a Unix host (Windows archives are .zip)")
	}
	archive := archiveNameOf(version, runtime.GOOS, runtime.GOARCH)
	sums, err := os.ReadFile(filepath.Join(dist, "checksums.txt"))
	if err != nil {
		t.Fatal(err)
	}
	ab, err := os.ReadFile(filepath.Join(dist, archive))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(ab)
	if line := hex.EncodeToString(sum[:]) + "  " + archive; !strings.Contains(string(sums)+"\n", line+"\n") {
		t.Fatalf("checksums.txt has no line %q:\n%s", line, sums)
	}
	exe := "rivumi-lint"
	inArchive, ok := tgzFiles(t, filepath.Join(dist, archive))[exe]
	if !ok {
		t.Fatalf("%s has no %s", archive, exe)
	}
	installedBin := filepath.Join(dir, "node_modules", "@rivumi-lint", host, "bin", exe)
	got, err := os.ReadFile(installedBin)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, inArchive) {
		gs, ws := sha256.Sum256(got), sha256.Sum256(inArchive)
		t.Fatalf("the installed %s (SHA-256 %x) is not the binary of %s (SHA-256 %x)", installedBin, gs, archive, ws)
	}

	// npx runs it: the version of the release, check's findings and its
	// exit status as the binary gives them.
	if r := run(t, dir, environ, nil, "npx", "--offline", "rivumi-lint", "version"); r.code != 0 || !strings.HasPrefix(r.stdout, "rivumi-lint v"+version+"\n") {
		t.Errorf("npx rivumi-lint version: %s\nwant first line rivumi-lint v%s", r, version)
	}
	demo := filepath.Join(moduleRoot(t), "testdata", "demo")
	direct := filepath.Join(t.TempDir(), exe)
	if err := os.WriteFile(direct, inArchive, 0o755); err != nil {
		t.Fatal(err)
	}
	want := run(t, dir, env(t), nil, direct, "check", "--root", demo, "--format", "json")
	if want.code != 1 || !strings.Contains(want.stdout, `"rule": "RL`) {
		t.Fatalf("the archive's binary on the demo: want exit 1 with findings: %s", want)
	}
	npx := run(t, dir, environ, nil, "npx", "--offline", "rivumi-lint", "check", "--root", demo, "--format", "json")
	if npx.code != want.code || npx.stdout != want.stdout || npx.stderr != want.stderr {
		t.Errorf("npx rivumi-lint check on the demo differs from the archive's binary run directly:\n--- npx\n%s\n--- direct\n%s", npx, want)
	}
	if r := run(t, dir, environ, nil, "npx", "--offline", "rivumi-lint", "check", "--formt", "json"); r.code != 2 {
		t.Errorf("npx rivumi-lint check --formt: want the binary's usage exit 2: %s", r)
	}
	if registry.requests() != nil {
		t.Errorf("npx asked the registry for %v", registry.requests())
	}

	t.Run("signal", func(t *testing.T) {
		if runtime.GOOS == "windows" {
			t.Fatal("this subtest sends SIGTERM; run it on a Unix host")
		}
		// SIGTERM to the launcher alone reaches the binary: `preview
		// --watch` ends on it with exit 0 (P6), and so does the launcher.
		// A launcher that did not pass it on would die of the signal and
		// leave the binary running.
		cmd := exec.Command(filepath.Join(dir, "node_modules", ".bin", "rivumi-lint"), "preview", "--watch", "--root", demo, demo)
		cmd.Env = environ
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		first := make(chan error, 1)
		go func() {
			_, err := bufio.NewReader(stdout).ReadString('\n')
			first <- err
			io.Copy(io.Discard, stdout)
		}()
		select {
		case err := <-first:
			if err != nil {
				cmd.Process.Kill()
				cmd.Wait()
				t.Fatalf("preview --watch through the launcher printed nothing (%v): %s", err, stderr.String())
			}
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("preview --watch through the launcher printed nothing in a minute: %s", stderr.String())
		}
		if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("the launcher after SIGTERM: %v (want exit 0: the binary's own end of --watch)\n%s", err, stderr.String())
			}
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			t.Fatalf("the launcher did not end within a minute of SIGTERM: %s", stderr.String())
		}
	})

	t.Run("omit-optional", func(t *testing.T) {
		// Without the optional dependency there is no binary, and the
		// launcher says which package is missing, with exit 2.
		dir := project(t)
		environ := npmEnv(t, registry.URL)
		if r := run(t, dir, environ, nil, "npm", "install", "--offline", "--omit=optional"); r.code != 0 {
			t.Fatalf("npm install --omit=optional: %s", r)
		}
		r := run(t, dir, environ, nil, "npx", "--offline", "rivumi-lint", "version")
		if r.code != 2 || !strings.Contains(r.stderr, "@rivumi-lint/"+host+" is not installed") {
			t.Errorf("npx rivumi-lint version without the platform package: %s\nwant exit 2 naming @rivumi-lint/%s", r, host)
		}
	})
}

// archiveNameOf is .goreleaser.yaml's archive name for a version and target.
func archiveNameOf(version, goos, goarch string) string {
	ext := "tar.gz"
	if goos == "windows" {
		ext = "zip"
	}
	return "rivumi-lint_" + version + "_" + goos + "_" + goarch + "." + ext
}
