#!/usr/bin/env bash
# A Swift package that depends on Tally by path, as a team's own would, in a git repository with
# a tag v1 and a price rise committed after it. Its Swift Testing test says what may change since
# the tag with TallyAssert.diff(since: "v1", …), which runs the same DiffPlan and DiffRun as
# `tally diff --since v1`:
#   1. forbid: [.priceRises]: the test must fail, naming the rise (product, territory, both prices);
#   2. allow: [.priceRises(of: PRODUCT)]: the same rise, allowed, must pass.
# The rise must also be the one change `tally diff --since v1 --format json` lists.
# Usage: .ci/external-diff.sh PATH-TO-TALLY-BINARY
set -euo pipefail
tally="$1"
. "$(dirname "$0")/consumer-package.sh" tally-diff-consumer
cp -R "$repo/configs" "$repo/catalog" "$app/"
printf 'version: 1\nsources: [configs/*.storekit, catalog/*.yaml]\n' > "$app/.tally.yml"
printf '.build/\n' > "$app/.gitignore"
test_file="$app/Tests/ConsumerTests/ReleaseTests.swift"
write_test() {
    cat > "$test_file" <<SWIFT
import Testing
import TallyTesting

@Test func whatChangedSinceTheLastRelease() throws {
    try TallyAssert.diff(since: "v1", $1)
}
SWIFT
}
write_test 'forbid: [.priceRises]'

cd "$app"
git init -q -b main .
git -c user.name=CI -c user.email=ci@example.com add -A
git -c user.name=CI -c user.email=ci@example.com commit -q -m "v1"
git tag v1
sed -i 's/prices: {USA: "5.99", GBR/prices: {USA: "6.49", GBR/' catalog/products.yaml
grep -q 'USA: "6.49"' catalog/products.yaml || { echo "external diff: the price edit did not apply"; exit 1; }
git -c user.name=CI -c user.email=ci@example.com commit -q -am "Session Pack 20 costs more in the USA"

"$tally" diff --since v1 --format json > "$work/diff.json"
python3 - "$work/diff.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
changes = [(c.get("product"), c["aspect"], c.get("territory")) for d in report["diffs"] for c in d["changes"]]
print("tally diff --since v1:", changes)
if changes != [("com.calmly.app.sessions.20", "price", "USA")]:
    sys.exit("external diff: tally diff --since v1 should list exactly the USA price rise of com.calmly.app.sessions.20")
PY

set +e
consumer_swift_test 2>&1 | tee "$work/forbid.log" | tail -n 20
forbid_status=${PIPESTATUS[0]}
set -e
[ "$forbid_status" -ne 0 ] || { echo "external diff: TallyAssert.diff(since: \"v1\", forbid: [.priceRises]) passed; it must fail on the rise"; exit 1; }
grep -q '\[diff\] com.calmly.app.sessions.20 › prices › USA: 5.99 USD → 6.49 USD' "$work/forbid.log" \
    || { echo "external diff: the failure does not name the rise (product, territory, both prices)"; exit 1; }
echo "ok   TallyAssert.diff(since: \"v1\", forbid: [.priceRises]) fails, naming the rise"

write_test 'allow: [.priceRises(of: "com.calmly.app.sessions.20")]'
consumer_swift_test 2>&1 | tee "$work/allow.log" | tail -n 5
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "external diff: the allowed rise still fails"; exit 1; }
echo "ok   TallyAssert.diff(since: \"v1\", allow: [.priceRises(of: …)]) passes when the rise is allowed"
