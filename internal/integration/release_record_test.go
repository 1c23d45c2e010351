package integration

// SPEC §12 D3, D7 (issue #26): the release process of docs/releasing.md
// gives refs that get the verified binary. At a release commit tagged
// v0.3.0 with its archives in dist/, scripts/release-record commits the
// archives' hashes, moves v0.3.0 onto that commit and puts the Action's tag
// v1 there; the Action checked out at v1, as a runner checks it out, then
// installs the release archive it records, verified, with no Go toolchain.

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestActionAtV1GetsTheRecordedReleaseD7(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Fatal("scripts/release-record is a bash script of the release machine; run this test on a Unix host")
	}
	src, _ := sourceCopy(t)
	repo := filepath.Join(t.TempDir(), "repo")
	git(t, "", "clone", "-q", src, repo)
	if _, err := os.Stat(filepath.Join(repo, "action", "release")); err == nil {
		// The checkout is itself a record commit: start from its source.
		git(t, repo, "rm", "-r", "-q", "action/release")
		git(t, repo, "commit", "-q", "-m", "release: back to development")
	}
	git(t, repo, "tag", "-a", releaseVersion, "-m", "rivumi-lint "+releaseVersion)
	releaseCommit := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))

	rel := newRelease(t)
	dist := filepath.Join(t.TempDir(), "dist")
	if err := os.CopyFS(dist, os.DirFS(filepath.Join(rel.dir, releaseVersion))); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dist, map[string]string{
		"checksums.txt": rel.checksums(),
		"metadata.json": `{"project_name":"rivumi-lint","tag":"` + releaseVersion + `","version":"` + strings.TrimPrefix(releaseVersion, "v") + `"}`,
	})

	// A dist/ whose archive differs from its checksums.txt is refused, and
	// nothing is committed or tagged.
	name := archiveName(runtime.GOOS, runtime.GOARCH)
	good, err := os.ReadFile(filepath.Join(dist, name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dist, name), append(bytes.Clone(good), 0), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run(t, repo, env(t), nil, "scripts/release-record", releaseVersion, dist); r.code == 0 || !strings.Contains(r.stderr, "does not match checksums.txt") {
		t.Errorf("release-record with a changed archive: %s\nwant a failure naming checksums.txt", r)
	}
	if head := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD")); head != releaseCommit {
		t.Fatalf("a refused release-record committed %s", head)
	}
	if err := os.WriteFile(filepath.Join(dist, name), good, 0o644); err != nil {
		t.Fatal(err)
	}

	if r := run(t, repo, env(t), nil, "scripts/release-record", releaseVersion, dist); r.code != 0 {
		t.Fatalf("scripts/release-record %s: %s", releaseVersion, r)
	}
	record := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))
	for _, ref := range []string{releaseVersion, "v1"} {
		if got := strings.TrimSpace(git(t, repo, "rev-parse", ref+"^{commit}")); got != record {
			t.Errorf("%s names %s, want the record commit %s", ref, got, record)
		}
		if typ := strings.TrimSpace(git(t, repo, "cat-file", "-t", ref)); typ != "tag" {
			t.Errorf("%s is a %s, want an annotated tag", ref, typ)
		}
	}
	if parent := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD^")); parent != releaseCommit {
		t.Errorf("the record commit's parent is %s, want the release commit %s the archives were built from", parent, releaseCommit)
	}
	if changed := git(t, repo, "diff", "--name-only", releaseCommit, record); changed != "action/release/checksums.txt\naction/release/version\n" {
		t.Errorf("the record commit changes %q, want action/release/ only (the same source as the release commit)", changed)
	}

	// The Action as a runner fetches it for `uses: rivumi/rivumi-lint@v1`.
	act := filepath.Join(t.TempDir(), "action")
	git(t, "", "clone", "-q", "--depth", "1", "--branch", "v1", "file://"+repo, act)
	srv := serve(t, rel.dir)
	ws := newRepo(t, map[string]string{"AGENTS.md": "# rules\n"})
	r := newRunner(t, ws, "workflow_dispatch", map[string]any{}, nil)
	r.actionPath = act
	r.extraEnv = []string{"RIVUMI_LINT_DOWNLOAD_URL=" + srv.URL, pathWithoutGo(t)}
	res := r.step("Install rivumi-lint")
	if res.code != 0 || res.outputs["source"] != "false" {
		t.Fatalf("install step at v1: want the recorded release (source=false): %s", res)
	}
	linux := archiveName("linux", "amd64")
	if got := srv.requests(); len(got) != 1 || got[0] != "/"+releaseVersion+"/"+linux {
		t.Errorf("downloads at v1: %v, want /%s/%s", got, releaseVersion, linux)
	}
	got, err := os.ReadFile(filepath.Join(r.temp, "rivumi-lint"))
	if err != nil {
		t.Fatalf("no binary installed at v1: %v\n%s", err, res)
	}
	if !bytes.Equal(got, rel.binaries[linux]) {
		t.Errorf("the binary installed at v1 is not the one of %s", linux)
	}
}

// A pre-release gets its tag on its record commit but leaves v1 where it
// is: @v1 never runs a release candidate.
func TestReleaseRecordOfAPreReleaseLeavesV1D7(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Fatal("scripts/release-record is a bash script of the release machine; run this test on a Unix host")
	}
	src, _ := sourceCopy(t)
	repo := filepath.Join(t.TempDir(), "repo")
	git(t, "", "clone", "-q", src, repo)
	if _, err := os.Stat(filepath.Join(repo, "action", "release")); err == nil {
		git(t, repo, "rm", "-r", "-q", "action/release")
		git(t, repo, "commit", "-q", "-m", "release: back to development")
	}
	// v1 at an earlier release.
	git(t, repo, "tag", "-a", "v1", "-m", "rivumi-lint v0.3.0 (the Action's tag)")
	before := strings.TrimSpace(git(t, repo, "rev-parse", "v1^{commit}"))
	git(t, repo, "commit", "-q", "--allow-empty", "-m", "release: v0.3.1-rc.1")
	const tag, version = "v0.3.1-rc.1", "0.3.1-rc.1"
	git(t, repo, "tag", "-a", tag, "-m", "rivumi-lint "+tag)

	// release-record reads only the archives' names and bytes.
	dist := t.TempDir()
	var sums strings.Builder
	for _, goos := range []string{"darwin", "freebsd", "linux", "windows"} {
		for _, goarch := range []string{"amd64", "arm64"} {
			ext := "tar.gz"
			if goos == "windows" {
				ext = "zip"
			}
			name := fmt.Sprintf("rivumi-lint_%s_%s_%s.%s", version, goos, goarch, ext)
			data := []byte("archive " + name)
			writeFiles(t, dist, map[string]string{name: string(data)})
			fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(data), name)
		}
	}
	writeFiles(t, dist, map[string]string{"checksums.txt": sums.String(), "metadata.json": `{"version":"` + version + `"}`})
	if r := run(t, repo, env(t), nil, "scripts/release-record", tag, dist); r.code != 0 {
		t.Fatalf("scripts/release-record %s: %s", tag, r)
	}
	record := strings.TrimSpace(git(t, repo, "rev-parse", "HEAD"))
	if got := strings.TrimSpace(git(t, repo, "rev-parse", tag+"^{commit}")); got != record {
		t.Errorf("%s names %s, want the record commit %s", tag, got, record)
	}
	if got := strings.TrimSpace(git(t, repo, "rev-parse", "v1^{commit}")); got != before {
		t.Errorf("v1 moved to %s for a pre-release; want it left at %s", got, before)
	}
	if got := strings.TrimSpace(git(t, repo, "show", "HEAD:action/release/version")); got != tag {
		t.Errorf("action/release/version = %q, want %q", got, tag)
	}
}
