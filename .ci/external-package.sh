#!/usr/bin/env bash
# A Swift package that depends on Tally by path, as a team's own would, with one Swift Testing
# test calling TallyAssert.policy() on a .storekit + Products.plist + catalogue policy with one
# price mismatch. The test must fail, with exactly the findings `tally check` prints for that
# policy (rule, product and message), because both run the same TallyRun.CheckRun.
# Usage: .ci/external-package.sh PATH-TO-TALLY-BINARY
set -euo pipefail
tally="$1"
. "$(dirname "$0")/consumer-package.sh" tally-consumer
cat > "$app/Tests/ConsumerTests/CatalogueTests.swift" <<'SWIFT'
import Testing
import TallyTesting

@Test func theCataloguesAgree() throws {
    try TallyAssert.policy()
}
SWIFT
cp -R "$repo/configs" "$repo/catalog" "$app/"
mkdir -p "$app/App"
cp "$repo/Tests/TallyCLITests/Fixtures/plist/CalmlyProducts.plist" "$app/App/Products.plist"
sed -i 's/prices: {USA: "5.99", GBR/prices: {USA: "6.49", GBR/' "$app/catalog/products.yaml"
grep -q 'USA: "6.49"' "$app/catalog/products.yaml" || { echo "external package: the price edit did not apply"; exit 1; }
printf 'version: 1\nsources: [configs/*.storekit, App/Products.plist, catalog/*.yaml]\n' > "$app/.tally.yml"

cd "$app"
set +e
"$tally" check --format json > "$work/check.json"
check_status=$?
consumer_swift_test 2>&1 | tee "$work/test.log" | tail -n 30
test_status=${PIPESTATUS[0]}
set -e
[ "$check_status" -eq 1 ] || { echo "external package: tally check exited $check_status, expected 1"; exit 1; }
[ "$test_status" -ne 0 ] || { echo "external package: the TallyAssert.policy() test passed; it must fail on the price mismatch"; exit 1; }
python3 - "$work/check.json" "$work/test.log" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
log = open(sys.argv[2], encoding="utf-8", errors="replace").read()
cli = sorted(f"[{f['rule']}] {f['message']}" for f in report["findings"] if f["severity"] == "error")
# Swift Testing: '✘ Test theCataloguesAgree() recorded an issue at ExampleApp.storekit:37:24: Issue recorded'
# (placed at the finding's line in the source file), then '↳ [rule] message' and the sides.
recorded = sorted(set(m.group(1).strip() for m in re.finditer(r"↳ (\[[a-z-]+\] [^\n]+)", log)))
print(f"tally check: {len(cli)} error finding(s); TallyAssert.policy(): {len(recorded)} recorded issue(s)")
for line in cli: print("  cli :", line)
for line in recorded: print("  test:", line)
if not cli or sorted(set(cli)) != recorded:
    sys.exit("external package: TallyAssert.policy() and tally check disagree")
print("ok   TallyAssert.policy() in a package depending on Tally by path fails with the findings tally check prints")
PY
