#!/usr/bin/env bash
# The release assets, checked the way users get them (docs/install.md, docs/release.md):
#  1. scripts/release builds dist/ (TALLY_RELEASE_SCRATCH: its --scratch-path, default .build);
#  2. the binary: no libswift* in ldd, no RUNPATH/RPATH into the toolchain, --version names the commit;
#  3. the tarball, unpacked outside the repository and verified with its .sha256, checks copies of
#     configs/ + catalog/ (exit 0) and a copy with a changed price (exit 1, the finding named);
#  4. the artifact bundle: plugin-binary/ (its binaryTarget pointed at the built zip by path) used by
#     an external package: `swift package tally` fails on a broken catalogue, and no Tally source
#     is compiled;
#  5. the GitHub Action (action/run.sh) against the tarball served from 127.0.0.1: annotations,
#     step summary, SARIF at the output path, exit 0 / 1, the cache reused, a tampered tarball refused;
#  6. pre-commit (PyPI's pre-commit, installed when missing): `pre-commit try-repo` refuses a commit
#     that breaks a price, naming the finding, and lets a good one through.
# Nothing comes from the internet except pre-commit itself when it is not installed. Run alone:
#   bash .ci/release-check.sh
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
work="$(mktemp -d "${TMPDIR:-/tmp}/tally-release-check.XXXXXX")"
server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "release check: $*" >&2; exit 1; }
ok() { echo "ok   $*"; }

echo "== scripts/release (linking SwiftNIO's zlib needs zlib1g-dev; installed when missing)"
if command -v dpkg >/dev/null 2>&1 && ! dpkg -s zlib1g-dev >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq zlib1g-dev
fi
scratch=()
[ -n "${TALLY_RELEASE_SCRATCH:-}" ] && scratch=(--scratch-path "$TALLY_RELEASE_SCRATCH")
timeout 3600 scripts/release "${scratch[@]}"
version="$(sed -n 's/^ *public static let version = "\([^"]*\)".*/\1/p' Sources/TallyReport/TallyInfo.swift)"
name="tally-$version-x86_64-unknown-linux-gnu"
for asset in "$name.tar.gz" "$name.tar.gz.sha256" tally.artifactbundle.zip tally.artifactbundle.zip.sha256; do
  [ -s "dist/$asset" ] || fail "dist/$asset is missing"
done
ok "dist/ holds $name.tar.gz, tally.artifactbundle.zip and their .sha256"

echo "== the tarball, from a folder with nothing else in it"
clean="$work/clean"
mkdir -p "$clean"
cp "dist/$name.tar.gz" "dist/$name.tar.gz.sha256" "$clean/"
(cd "$clean" && sha256sum --check "$name.tar.gz.sha256" && tar -xzf "$name.tar.gz")
tally="$clean/$name/tally"
[ -x "$tally" ] || fail "the tarball holds no $name/tally"
tar -tzf "dist/$name.tar.gz" | sed 's/^/     /'

echo "== what the binary needs at run time"
ldd "$tally" | sed 's/^/     /'
if ldd "$tally" | grep -q "libswift"; then fail "ldd lists Swift runtime libraries"; fi
if ldd "$tally" | grep -q "not found"; then fail "ldd finds a library missing"; fi
ok "no libswift* in ldd"
if readelf -d "$tally" | grep -q "libcurl"; then fail "the binary needs libcurl (tally fetch runs on AsyncHTTPClient, not URLSession)"; fi
ok "no libcurl (tally fetch is AsyncHTTPClient's)"
if readelf -d "$tally" | grep -E "RUNPATH|RPATH"; then fail "the binary has a run path"; fi
ok "no RUNPATH or RPATH"
# The release binary is built with the trait Fetch: its fetch reaches the network (here a closed
# port on this machine: a connection error, exit 2), not the default build's "built without".
set +e
REVENUECAT_API_KEY=sk_release_check TALLY_FETCH_BACKOFF_SCALE=0 "$tally" fetch revenuecat --project proj1ab2c3d4 \
  --output "$work/fetched" --api-url http://127.0.0.1:9 --timeout 20 2> "$work/fetch.err"
status=$?
set -e
if [ $status -ne 2 ] || ! grep -q "fetch failed" "$work/fetch.err"; then cat "$work/fetch.err"; fail "the release binary did not try to fetch (exit $status)"; fi
ok "the release binary has tally fetch's network stack: $(head -1 "$work/fetch.err")"
"$tally" --version | tee "$work/version.txt"
commit="$(git rev-parse --short=12 HEAD)"
grep -q "^$version (commit $commit\(-dirty\)\?)\$" "$work/version.txt" || fail "tally --version does not say $version (commit $commit)"
ok "tally --version names version $version and commit $commit"

echo "== the shipped examples, checked outside the repository"
good="$work/good"
mkdir -p "$good"
cp -R configs catalog "$good/"
(cd "$good" && timeout 60 "$tally" check) || fail "tally check on copies of configs/ + catalog/ exited $?, expected 0"
ok "consistent pair: exit 0"
broken="$work/broken"
cp -R "$good" "$broken"
sed -i 's/prices: {USA: "5.99"/prices: {USA: "6.49"/' "$broken/catalog/products.yaml"
grep -q 'USA: "6.49"' "$broken/catalog/products.yaml" || fail "the price edit did not apply"
set +e
(cd "$broken" && timeout 60 "$tally" check) > "$work/broken.txt" 2>&1
status=$?
set -e
[ $status -eq 1 ] || { cat "$work/broken.txt"; fail "tally check on a broken copy exited $status, expected 1"; }
grep -q "error  price  com.calmly.app.sessions.20 costs 5.99 USD in USA in the configuration but 6.49 USD in the catalogue" "$work/broken.txt" \
  || { cat "$work/broken.txt"; fail "the price finding is not named"; }
ok "broken pair: exit 1, the price finding named"

echo "== the artifact bundle: plugin-binary/ in an external package, by .binaryTarget(path:)"
cmp Plugins/TallyPlugin/TallyPlugin.swift plugin-binary/Plugins/TallyBinaryPlugin/TallyPlugin.swift \
  || fail "plugin-binary's plugin source differs from Plugins/TallyPlugin/TallyPlugin.swift; copy it over"
plugins="$work/TallyPlugins"
cp -R plugin-binary "$plugins"
cp dist/tally.artifactbundle.zip "$plugins/"
python3 - "$plugins/Package.swift" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
new, count = re.subn(r'\.binaryTarget\(\s*name: "TallyBinary",\s*url: "[^"]*",\s*checksum: "[0-9a-f]*"[^\n]*\n\s*\)',
                     '.binaryTarget(name: "TallyBinary", path: "tally.artifactbundle.zip")', text)
if count != 1: sys.exit("release check: plugin-binary/Package.swift has no binaryTarget(url:checksum:) to point at the zip")
open(path, "w").write(new)
PY
consumer="$work/Consumer"
mkdir -p "$consumer/Sources/Consumer"
cat > "$consumer/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [.package(path: "$plugins")],
    targets: [.target(name: "Consumer")]
)
SWIFT
echo 'public enum Consumer {}' > "$consumer/Sources/Consumer/Consumer.swift"
cp -R "$broken/configs" "$broken/catalog" "$consumer/"
printf 'version: 1\nsources: [configs/*.storekit, catalog/*.yaml]\n' > "$consumer/.tally.yml"
set +e
(cd "$consumer" && timeout 900 swift package --disable-sandbox tally) > "$work/plugin.txt" 2>&1
status=$?
set -e
cat "$work/plugin.txt" | sed 's/^/     /'
[ $status -ne 0 ] || fail "swift package tally passed a broken catalogue"
grep -q "error  price  com.calmly.app.sessions.20" "$work/plugin.txt" || fail "swift package tally did not name the price finding"
(cd "$consumer" && timeout 300 swift package --disable-sandbox tally --version) > "$work/plugin-version.txt" 2>&1 || true
grep -q "(commit $commit" "$work/plugin-version.txt" || { cat "$work/plugin-version.txt"; fail "the plugin did not run the bundle's binary"; }
if grep -E "Compiling (Tally|tally)" "$work/plugin.txt" || find "$consumer/.build" -name "TallyCheck*" -o -name "TallyFormats*" | grep -q .; then
  fail "building the consumer compiled Tally's sources"
fi
ok "swift package tally on the bundle: fails with the price finding, runs the bundle's binary ($(cat "$work/plugin-version.txt" | tail -1)), compiles no Tally source"

echo "== the GitHub Action's steps (action/run.sh) against the tarball on 127.0.0.1"
action="$work/action"
cp -R action "$action"
cp "dist/$name.tar.gz.sha256" "$action/checksums.txt"   # the pin --pin would write for this build
served="$work/served"
mkdir -p "$served/v$version"
cp "dist/$name.tar.gz" "$served/v$version/"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$served" > "$work/http.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -fs "http://127.0.0.1:$port/" >/dev/null 2>&1 && break; sleep 0.1; done
# One run of the action: $1 the folder it checks, $2 a name for its files; prints its exit status.
run_action() {
  local folder="$1" label="$2"
  mkdir -p "$work/$label/runner-temp"
  : > "$work/$label/summary.md"
  : > "$work/$label/output"
  set +e
  (cd "$folder" && env -i PATH="$PATH" HOME="$HOME" \
    GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$work/$label/summary.md" GITHUB_OUTPUT="$work/$label/output" \
    RUNNER_TEMP="$work/$label/runner-temp" RUNNER_TOOL_CACHE="$work/toolcache" \
    TALLY_VERSION="$version" TALLY_DOWNLOAD_URL="http://127.0.0.1:$port" TALLY_CACHE_DIR="${TALLY_ACTION_CACHE:-}" \
    TALLY_STRICT=false TALLY_REPORTS="junit:build/tally.xml" TALLY_SOURCES="${TALLY_ACTION_SOURCES:-}" \
    timeout 120 "$action/run.sh") > "$work/$label/log" 2>&1
  echo $?
  set -e
}
status=$(run_action "$good" action-good)
sed 's/^/     /' "$work/action-good/log"
[ "$status" -eq 0 ] || fail "the action exited $status on a consistent pair, expected 0"
grep -q "downloaded, checksum verified" "$work/action-good/log" || fail "the action did not say it verified the download"
grep -q "consistent" "$work/action-good/summary.md" || fail "the step summary says nothing of the run"
sarif="$(sed -n 's/^sarif=//p' "$work/action-good/output")"
[ -s "$sarif" ] || fail "no SARIF at the output path ($sarif)"
[ -s "$good/build/tally.xml" ] || fail "the extra report (junit:build/tally.xml) was not written"
ok "consistent pair: exit 0, downloaded and verified, summary written, SARIF at $sarif, the extra JUnit report written"

status=$(TALLY_ACTION_SOURCES="configs/*.storekit catalog/*.yaml" run_action "$broken" action-broken)
sed 's/^/     /' "$work/action-broken/log"
[ "$status" -eq 1 ] || fail "the action exited $status on a broken pair, expected 1"
grep -q "tally $version: cached in" "$work/action-broken/log" || fail "the second run did not reuse the cached binary"
grep -q "^::error file=configs/ExampleApp.storekit,line=37,col=24,title=price (com.calmly.app.sessions.20)::" "$work/action-broken/log" \
  || fail "no GitHub annotation for the price finding"
# Markdown sets typed values in code spans: `com.calmly.app.sessions.20` costs `5.99 USD`.
grep -Eq 'com\.calmly\.app\.sessions\.20`? costs `?5\.99 USD' "$work/action-broken/summary.md" || fail "the step summary does not name the finding"
grep -q "exit-code=1" "$work/action-broken/output" || fail "the output exit-code is not 1"
sarif="$(sed -n 's/^sarif=//p' "$work/action-broken/output")"
python3 - "$sarif" <<'PY' || fail "the SARIF report does not hold the price finding"
import json, sys
results = json.load(open(sys.argv[1]))["runs"][0]["results"]
assert any(r["ruleId"] == "price" for r in results), results
PY
grep -q "^tally check .* configs/ExampleApp.storekit catalog/products.yaml\$" "$work/action-broken/log" || fail "the sources input's globs were not expanded"
ok "broken pair (sources given as globs): exit 1, the ::error annotation, the finding in the summary and the SARIF, the cached binary reused"

printf 'tampered' >> "$served/v$version/$name.tar.gz"
status=$(TALLY_ACTION_CACHE="$work/fresh-cache" run_action "$good" action-tampered)
sed 's/^/     /' "$work/action-tampered/log"
[ "$status" -eq 2 ] || fail "the action exited $status on a tampered tarball, expected 2"
grep -q "::error title=Tally::refused $name.tar.gz: its SHA-256 is" "$work/action-tampered/log" || fail "the tampered tarball was not refused by its checksum"
[ ! -e "$work/fresh-cache/$version/x64/$name/tally" ] || fail "the tampered tarball was unpacked"
ok "tampered tarball: refused by the checksum (exit 2), nothing unpacked"
kill "$server" 2>/dev/null || true
server=""

echo "== pre-commit: the tally-check hook in a temporary git repository"
if ! command -v pre-commit >/dev/null 2>&1; then
  timeout 300 python3 -m pip install --quiet pre-commit || fail "pre-commit is missing and could not be installed"
fi
pre-commit --version
hooks="$work/hooks"
mkdir -p "$hooks"
cp .pre-commit-hooks.yaml "$hooks/"
git -C "$hooks" init -q
git -C "$hooks" add .pre-commit-hooks.yaml
git -C "$hooks" -c user.name=ci -c user.email=ci@localhost commit -q -m hooks
app="$work/app"
mkdir -p "$app"
cp -R configs catalog "$app/"
git -C "$app" init -q
git -C "$app" add .
git -C "$app" -c user.name=ci -c user.email=ci@localhost commit -q -m catalogue
export PRE_COMMIT_HOME="$work/pre-commit-home"
sed -i 's/prices: {USA: "5.99"/prices: {USA: "6.49"/' "$app/catalog/products.yaml"
git -C "$app" add catalog/products.yaml
set +e
(cd "$app" && PATH="$clean/$name:$PATH" timeout 120 pre-commit try-repo "$hooks" tally-check) > "$work/pre-commit-bad.txt" 2>&1
status=$?
set -e
sed 's/^/     /' "$work/pre-commit-bad.txt"
[ $status -ne 0 ] || fail "pre-commit let a broken price through"
grep -q "error  price  com.calmly.app.sessions.20" "$work/pre-commit-bad.txt" || fail "pre-commit did not name the price finding"
git -C "$app" checkout -q HEAD -- catalog/products.yaml
echo "# checked by tally" >> "$app/catalog/products.yaml"
git -C "$app" add catalog/products.yaml
set +e
(cd "$app" && PATH="$clean/$name:$PATH" timeout 120 pre-commit try-repo "$hooks" tally-check) > "$work/pre-commit-good.txt" 2>&1
status=$?
set -e
sed 's/^/     /' "$work/pre-commit-good.txt"
[ $status -eq 0 ] || fail "pre-commit refused a consistent change (exit $status)"
ok "pre-commit try-repo: a broken price refused with the finding named, a good change let through"

echo "release check: all green"
