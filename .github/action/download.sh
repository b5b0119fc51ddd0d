#!/usr/bin/env bash
# The action's download step: the release binary of $VERSION for this runner, checked against the
# SHA-256 published beside it (release.yml makes both). Writes `binary=PATH` to $GITHUB_OUTPUT
# when it installed one; writes nothing, and exits 0, when there is no such release (a branch, a
# commit), so the action builds from source. A checksum that does not match fails the step.
#
# Environment: VERSION, ACTION_REPOSITORY, RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_OUTPUT;
# IPS_DOCTOR_RELEASES, the base URL of the releases (GitHub's by default; the tests use a folder).
set -euo pipefail

# Release tags only (v1.2.3 and the like): anything else names no release, and nothing else
# reaches a path or a URL.
if ! [[ "${VERSION:-}" =~ ^v[0-9][A-Za-z0-9._-]*$ ]]; then
  echo "no release binary for this version: building from source"
  exit 0
fi
case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
  macOS/*) platform=macos-universal ;;
  Linux/X64) platform=linux-x86_64 ;;
  *) echo "no release binary for ${RUNNER_OS:-?} ${RUNNER_ARCH:-?}: building from source"; exit 0 ;;
esac

asset="ips-doctor-$VERSION-$platform.tar.gz"
base="${IPS_DOCTOR_RELEASES:-${GITHUB_SERVER_URL:-https://github.com}/$ACTION_REPOSITORY/releases/download}"
folder="$RUNNER_TEMP/ips-doctor-release"
rm -rf "$folder"
mkdir -p "$folder"
fetch() {
  case "$base" in
    /*) cp "$base/$VERSION/$1" "$folder/$1" 2>/dev/null ;;
    *) curl --fail --silent --show-error --location --retry 3 --output "$folder/$1" "$base/$VERSION/$1" 2>/dev/null ;;
  esac
}
if ! fetch "$asset" || ! fetch "$asset.sha256"; then
  echo "no release asset $asset: building from source"
  exit 0
fi

expected="$(awk '{ print $1; exit }' "$folder/$asset.sha256")"
if command -v sha256sum >/dev/null; then
  actual="$(sha256sum "$folder/$asset" | awk '{ print $1 }')"
else
  actual="$(shasum -a 256 "$folder/$asset" | awk '{ print $1 }')"
fi
if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
  echo "::error::the SHA-256 of $asset is $actual, not the published $expected" >&2
  exit 1
fi
tar -xzf "$folder/$asset" -C "$folder" ips-doctor
chmod 755 "$folder/ips-doctor"
echo "binary=$folder/ips-doctor" >>"$GITHUB_OUTPUT"
echo "downloaded $asset (SHA-256 $actual)"
