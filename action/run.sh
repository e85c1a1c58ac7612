#!/usr/bin/env bash
# The Tally GitHub Action (action.yml runs this; it runs the same way anywhere with bash):
#  1. installs tally: on Linux x86_64 the release tarball, downloaded from TALLY_DOWNLOAD_URL,
#     refused unless its SHA-256 is the one pinned in checksums.txt beside this script (or
#     TALLY_SHA256), kept in the cache folder; on any other runner (macOS), built from source
#     with `swift build -c release` from the action's own checkout, and it says so;
#  2. runs `tally check` with GitHub annotations on standard output, a Markdown report appended to
#     $GITHUB_STEP_SUMMARY and SARIF written to a file whose path is the output `sarif`;
#  3. exits with tally's status: 0 consistent, 1 mismatches, 2 usage or input error (a download
#     refused by its checksum is 2 too).
# Inputs (environment): TALLY_VERSION, TALLY_SOURCES, TALLY_CONFIG, TALLY_REPORTS, TALLY_STRICT,
# TALLY_DOWNLOAD_URL, TALLY_SHA256, TALLY_CACHE_DIR; GitHub's GITHUB_STEP_SUMMARY, GITHUB_OUTPUT,
# RUNNER_TOOL_CACHE, RUNNER_TEMP when set. TALLY_FROM_SOURCE=1 builds from source anywhere.
set -euo pipefail
action_dir="$(cd "$(dirname "$0")" && pwd)"

note() { echo "::notice title=Tally::$*"; }
fail() { echo "::error title=Tally::$*"; exit 2; }

version="${TALLY_VERSION:-}"
[ -n "$version" ] || version="$(sed -n "s/^    default: '\([^']*\)' # pinned-version$/\1/p" "$action_dir/action.yml")"
[ -n "$version" ] || fail "no Tally version given and none pinned in action.yml"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"

# The release asset for this runner, or nothing (then Tally is built from source).
asset=""
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) asset="tally-$version-x86_64-unknown-linux-gnu" ;;
esac
[ "${TALLY_FROM_SOURCE:-}" = 1 ] && asset=""

install_release() {
  local url="${TALLY_DOWNLOAD_URL:-}"
  if [ -z "$url" ]; then
    local repository="${TALLY_ACTION_REPOSITORY:-}"
    if [ -z "$repository" ]; then
      # $GITHUB_ACTION_PATH is .../_actions/OWNER/REPO/REF/action for `uses: OWNER/REPO/action@REF`.
      repository="$(printf '%s\n' "${GITHUB_ACTION_PATH:-$action_dir}" | sed -n 's#.*/_actions/\([^/]*\)/\([^/]*\)/[^/]*/action/*$#\1/\2#p')"
    fi
    [ -n "$repository" ] || fail "cannot tell which repository's releases to download from; give the input download-url"
    url="${TALLY_SERVER_URL:-https://github.com}/$repository/releases/download"
  fi
  local tarball="$asset.tar.gz"
  local expected="${TALLY_SHA256:-}"
  if [ -z "$expected" ] && [ -f "$action_dir/checksums.txt" ]; then
    expected="$(awk -v name="$tarball" '$2 == name { print $1 }' "$action_dir/checksums.txt")"
  fi
  [ -n "$expected" ] || fail "this action pins no checksum for $tarball (action/checksums.txt); use the action's release of Tally $version (uses: .../action@v$version) or give the input sha256"

  local cache="${TALLY_CACHE_DIR:-${RUNNER_TOOL_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}}/tally}/$version/x64"
  tally="$cache/$asset/tally"
  if [ -x "$tally" ] && [ -f "$cache/$tarball" ] && echo "$expected  $cache/$tarball" | sha256sum --check --status; then
    echo "tally $version: cached in $cache, checksum $expected"
    return
  fi
  mkdir -p "$cache"
  local download
  download="$(mktemp "$temp/tally-download.XXXXXX")"
  echo "downloading $url/v$version/$tarball"
  if ! curl --fail --silent --show-error --location --retry 3 --connect-timeout 20 --max-time 300 \
      --output "$download" "$url/v$version/$tarball"; then
    rm -f "$download"
    fail "could not download $url/v$version/$tarball"
  fi
  local actual
  actual="$(sha256sum "$download" | cut -d' ' -f1)"
  if [ "$actual" != "$expected" ]; then
    rm -f "$download"
    fail "refused $tarball: its SHA-256 is $actual, the checksum pinned for Tally $version is $expected"
  fi
  rm -rf "${cache:?}/$asset"
  tar -xzf "$download" -C "$cache"
  mv "$download" "$cache/$tarball"
  [ -x "$tally" ] || fail "$tarball holds no $asset/tally"
  echo "tally $version: downloaded, checksum verified ($expected), kept in $cache"
}

build_from_source() {
  note "no Tally release binary for $(uname -s) $(uname -m): building Tally from source (swift build -c release), which takes a few minutes"
  command -v swift >/dev/null || fail "building Tally from source needs a Swift 6 toolchain (swift) on PATH"
  local package
  package="$(cd "$action_dir/.." && pwd)"
  [ -f "$package/Package.swift" ] || fail "no Tally sources beside the action ($package)"
  (cd "$package" && swift build -c release --product tally >&2)
  tally="$(cd "$package" && swift build -c release --product tally --show-bin-path)/tally"
}

tally=""
if [ -n "$asset" ]; then install_release; else build_from_source; fi
echo "$("$tally" --version | sed 's/^/tally /')"

# The check: annotations on standard output; the summary, SARIF and extra reports in files.
results="$(mktemp -d "$temp/tally-results.XXXXXX")"
sarif="$results/tally.sarif"
arguments=(check --report github --report "markdown:$results/summary.md" --report "sarif:$sarif")
[ -n "${TALLY_CONFIG:-}" ] && arguments+=(--config "$TALLY_CONFIG")
case "${TALLY_STRICT:-false}" in
  true|True|TRUE|1|yes) arguments+=(--strict) ;;
  false|False|FALSE|0|no|"") ;;
  *) fail "strict must be true or false, not ${TALLY_STRICT}" ;;
esac
set -f   # reports as written
for report in ${TALLY_REPORTS:-}; do arguments+=(--report "$report"); done
set +f
# Sources split at white space, globs expanded by bash here (a glob matching nothing stays as
# written, and tally says that file does not exist).
for source in ${TALLY_SOURCES:-}; do arguments+=("$source"); done

echo "tally ${arguments[*]}"
set +e
GITHUB_ACTIONS="${GITHUB_ACTIONS:-true}" "$tally" "${arguments[@]}"
status=$?
set -e

if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -s "$results/summary.md" ]; then
  cat "$results/summary.md" >> "$GITHUB_STEP_SUMMARY"
fi
if [ -n "${GITHUB_OUTPUT:-}" ]; then
  { echo "sarif=$sarif"; echo "tally=$tally"; echo "exit-code=$status"; } >> "$GITHUB_OUTPUT"
fi
case $status in
  0) echo "tally check: consistent" ;;
  1) echo "tally check: mismatches found (exit 1); SARIF in $sarif" ;;
  *) echo "tally check: usage or input error (exit $status)" ;;
esac
exit $status
