#!/usr/bin/env bash
# Installs the rivumi-lint binary the Action runs (SPEC §12 D3) at
# $RUNNER_TEMP/rivumi-lint.
#
#   install.sh          the release this commit records (action/release/):
#                       download the archive for RUNNER_OS/RUNNER_ARCH,
#                       verify its SHA-256 against the recorded one, unpack.
#                       With no recorded release, writes source=true to
#                       $GITHUB_OUTPUT and installs nothing: the Action then
#                       sets up Go and runs `install.sh source`.
#   install.sh source   build from the Action's own source (Go on PATH).
#
# The recorded hashes are files of this commit, so pinning the Action by
# commit pins the binary; a checksums.txt fetched from the release would
# prove nothing. Inputs come from the environment only.
set -euo pipefail

action_path=${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/.." && pwd)}
record="$action_path/action/release"
# Where releases are downloaded from; tests point it at a local server.
base_url=${RIVUMI_LINT_DOWNLOAD_URL:-https://github.com/rivumi/rivumi-lint/releases/download}
: "${RUNNER_TEMP:?RUNNER_TEMP is not set: install.sh runs as a step of the Action}"
bin="$RUNNER_TEMP/rivumi-lint"

fail() {
  echo "::error title=rivumi-lint::$*"
  exit 1
}

output() {
  if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "$1" >>"$GITHUB_OUTPUT"
  fi
}

sha256() {
  # macOS runners have shasum, not sha256sum (D3).
  if [ "${RUNNER_OS:-}" = macOS ] || ! command -v sha256sum >/dev/null; then
    shasum -a 256 "$1" | cut -d ' ' -f 1
  else
    sha256sum "$1" | cut -d ' ' -f 1
  fi
}

build_source() {
  # A commit with no recorded release: the Action's own source, with its
  # own go.mod only (no go.work, no GOFLAGS of the caller), static as the
  # releases are. The version names the Action's ref, never a bare devel.
  local version=devel
  if [ -n "${GITHUB_ACTION_REF:-}" ]; then
    version="devel-$GITHUB_ACTION_REF"
  fi
  cd "$action_path"
  GOWORK=off GOFLAGS=-mod=readonly CGO_ENABLED=0 \
    go build -trimpath \
    -ldflags "-X github.com/rivumi/rivumi-lint/internal/version.stamped=$version" \
    -o "$bin$exe" ./cmd/rivumi-lint
  "$bin$exe" version
}

case "${RUNNER_OS:-}" in
  Linux) goos=linux exe= ;;
  macOS) goos=darwin exe= ;;
  Windows) goos=windows exe=.exe ;;
  *) fail "RUNNER_OS=${RUNNER_OS:-} is not a runner this Action supports (Linux, macOS, Windows)" ;;
esac

if [ "${1:-}" = source ]; then
  build_source
  exit 0
fi

version=
if [ -f "$record/version" ]; then
  version=$(tr -d ' \r\n' <"$record/version")
fi
if [ -z "$version" ]; then
  echo "rivumi-lint: this commit of the Action records no release (action/release/version); building from source"
  output source=true
  exit 0
fi
output source=false

case "${RUNNER_ARCH:-}" in
  X64) goarch=amd64 ;;
  ARM64) goarch=arm64 ;;
  *) fail "RUNNER_ARCH=${RUNNER_ARCH:-} has no rivumi-lint release archive (there are X64 and ARM64); use an X64 or ARM64 runner" ;;
esac
ext=tar.gz
if [ "$goos" = windows ]; then
  ext=zip
fi
archive="rivumi-lint_${version#v}_${goos}_${goarch}.$ext"

want=
if [ -f "$record/checksums.txt" ]; then
  want=$(awk -v name="$archive" '$2 == name || $2 == "*" name { print $1 }' "$record/checksums.txt")
fi
case "$want" in
  "" | *[!0-9a-f]* | *$'\n'*)
    fail "action/release/checksums.txt records no single SHA-256 for $archive of $version: the release record of this commit is incomplete; use the Action at a release tag, @v1 (docs/releasing.md)" ;;
esac
if [ "${#want}" -ne 64 ]; then
  fail "action/release/checksums.txt: the SHA-256 recorded for $archive is not 64 hex digits"
fi

dir=$(mktemp -d "$RUNNER_TEMP/rivumi-lint-download.XXXXXX")
trap 'rm -rf "$dir"' EXIT
url="$base_url/$version/$archive"
echo "rivumi-lint: downloading $url"
if ! curl -fsSL --retry 3 --proto '=https,http' -o "$dir/$archive" "$url"; then
  fail "could not download $url (rivumi-lint $version for $RUNNER_OS/$RUNNER_ARCH)"
fi
got=$(sha256 "$dir/$archive")
if [ "$got" != "$want" ]; then
  fail "$archive: SHA-256 $got does not match $want recorded in action/release/checksums.txt; refusing to run it (a changed release asset or a tampered download)"
fi
echo "rivumi-lint: $archive matches the recorded SHA-256 $want"

mkdir "$dir/x"
case "$ext" in
  zip)
    if command -v unzip >/dev/null; then
      unzip -q -o "$dir/$archive" "rivumi-lint$exe" -d "$dir/x"
    else
      # Windows runners without Git's unzip: PowerShell's Expand-Archive.
      A=$(cygpath -w "$dir/$archive") D=$(cygpath -w "$dir/x") \
        pwsh -NoProfile -Command 'Expand-Archive -LiteralPath $env:A -DestinationPath $env:D' 
    fi ;;
  *) tar -xzf "$dir/$archive" -C "$dir/x" "rivumi-lint$exe" ;;
esac
mv -f "$dir/x/rivumi-lint$exe" "$bin$exe"
chmod +x "$bin$exe"
# The first line names the version; the build details follow it.
said=$("$bin$exe" version | sed -n 1p)
if [ "$said" != "rivumi-lint $version" ]; then
  fail "$archive holds a binary that says \"$said\", not \"rivumi-lint $version\""
fi
echo "$said"
