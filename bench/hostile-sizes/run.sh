#!/usr/bin/env bash
# Issue 37 (items 5 and 6): sizes checked before reading, numbers parsed with bounds, git read
# through one process, RevenueCat folders read in linear time. Runs each case with BINARY:
#   bench/hostile-sizes/run.sh BINARY LABEL [CASE...]   → TSV: case label exit seconds maxRSS-KB observation
# Every run is cut by `timeout` (LIMIT seconds, default 120); peak memory is /usr/bin/time -v's
# "Maximum resident set size". Cases (default: all but the slow ones, rev-blob-1500mb and N over 5000):
#   rev-blob-1500mb rev-blob-lowered key-file-zero key-file-fifo key-file-100mb max-input-mb-2^43 max-depth-2^62 deep-100000 deep-100000-at-10000
#   policy-5mb baseline-300mb ref-dash folder-300-at-rev rc-package-N rc-check-N (N products in one package and
#   one entitlement: shown, or checked against the example StoreKit file) two-projects zip-report next-page-dotdot sweep-notapid
# Issue 47's hangs (each was over a minute): code-or-terms (init in a repository whose one Swift file holds
#   12,000 `v == "…" ||` terms), code-enum-80000 (an enum of 80,000 String cases asked through allCases),
#   suite-100000 (a StoreKit 6.3 suite of 100,000 members, shown), convert-50000-noletters (50,000 IDs
#   without ASCII letters to Swift constants), code-ids-backtrack (the policy's ids pattern (a|aa)+b
#   against a 40-character literal: refused now), code-9mb-init (init with 9.5 MB of Swift: peak memory),
#   code-parameter-fan (a parameter passed on from 64 calls over 29 levels: linear, bounded),
#   play-page-20mb (tally fetch google-play of a 20 MB subscriptions page: peak memory)
set -u
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1"); LABEL=$2; shift 2
HERE=$(cd "$(dirname "$0")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
LIMIT=${LIMIT:-120}
W=$(mktemp -d /tmp/hostile-sizes.XXXXXX)
SERVER=
trap '[ -n "$SERVER" ] && kill $SERVER 2>/dev/null; rm -rf "$W"' EXIT
CASES=${*:-rev-blob-lowered key-file-zero key-file-fifo key-file-100mb max-input-mb-2^43 max-depth-2^62 deep-100000 deep-100000-at-10000 policy-5mb baseline-300mb ref-dash folder-300-at-rev rc-package-5000 rc-check-500 two-projects zip-report next-page-dotdot sweep-notapid code-or-terms code-enum-80000 suite-100000 convert-50000-noletters code-ids-backtrack code-9mb-init code-parameter-fan play-page-20mb}
GIT="git -c user.name=bench -c user.email=bench@example.com"

# Runs BIN in folder $1 with the rest as arguments; sets EXIT, SECS, RSS, ERR (the first line of standard error that says something).
measure() {
  local dir=$1; shift
  (cd "$dir" && /usr/bin/time -v -o "$W/time" timeout -k 3 "$LIMIT" "$@" > "$W/out" 2> "$W/err")
  EXIT=$?
  SECS=$(awk -F': ' '/Elapsed/ {print $2}' "$W/time")
  RSS=$(awk -F': ' '/Maximum resident/ {print $2}' "$W/time")
  ERR=$(grep -v '^\s*$' "$W/err" | grep -v '^\*\*\*' | head -2 | tr -d '\033' | tr '\n\t' '  ' | cut -c1-220)
  [ -z "$ERR" ] && ERR=$(grep -m1 -v '^\s*$' "$W/err" | cut -c1-200)
}

row() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$LABEL" "$EXIT" "$SECS" "$RSS" "$2"; }

repo() { # a git repository in $W/$1 holding the shipped examples
  rm -rf "$W/$1"; mkdir -p "$W/$1"; cp -r "$REPO/configs" "$REPO/catalog" "$W/$1/"
  (cd "$W/$1" && git init -q && git add . && $GIT commit -qm examples)
}

start_rc() { # port record next_page
  python3 "$HERE/rc_server.py" "$1" "$2" "$3" & SERVER=$!
  for _ in $(seq 50); do (echo > /dev/tcp/127.0.0.1/$1) 2>/dev/null && return; sleep 0.1; done
}

for case in $CASES; do
  case $case in
  rev-blob-1500mb)
    repo big; head -c 1500M /dev/zero > "$W/big/big.json"; (cd "$W/big" && git add big.json && $GIT commit -qm big && rm big.json)
    measure "$W/big" "$BIN" show big.json@HEAD
    row "$case" "$ERR" ;;
  rev-blob-lowered)
    repo lowered; head -c 1153434 /dev/zero | tr '\0' ' ' > "$W/lowered/over.json"; (cd "$W/lowered" && git add . && $GIT commit -qm over)
    measure "$W/lowered" "$BIN" show over.json@HEAD --max-input-mb 1
    row "$case" "$ERR" ;;
  key-file-zero|key-file-fifo|key-file-100mb)
    key=/dev/zero; [ $case = key-file-100mb ] && { head -c 100M /dev/zero | tr '\0' k > "$W/key.txt"; key=$W/key.txt; }
    [ $case = key-file-fifo ] && { rm -f "$W/key.fifo"; mkfifo "$W/key.fifo"; key=$W/key.fifo; }
    measure "$W" env TALLY_FETCH_BACKOFF_SCALE=0.01 "$BIN" fetch revenuecat --project proj1 --api-key-file "$key" --output "$W/rc-out" --api-url http://127.0.0.1:9
    row "$case" "$ERR" ;;
  max-input-mb-2^43)
    measure "$REPO" "$BIN" show configs/ExampleApp.storekit --max-input-mb 8796093022208
    row "$case" "$ERR" ;;
  max-depth-2^62)
    python3 "$HERE/make.py" deep "$W/deep.json" 100000
    measure "$W" "$BIN" show deep.json --max-depth 4611686018427387904
    row "$case" "$ERR" ;;
  deep-100000|deep-100000-at-10000)
    python3 "$HERE/make.py" deep "$W/deep.json" 100000
    depth=200000; [ $case = deep-100000-at-10000 ] && depth=10000
    measure "$W" "$BIN" show deep.json --max-depth $depth
    row "$case" "$ERR" ;;
  policy-5mb)
    repo policy; (printf 'version: 1\nsources:\n  - configs/*.storekit\n  - catalog/*.yaml\n'; head -c 5M /dev/zero | tr '\0' '#') > "$W/policy/.tally.yml"
    measure "$W/policy" "$BIN" check --max-input-mb 1024
    row "$case" "$ERR" ;;
  baseline-300mb)
    repo baseline; truncate -s 300M "$W/baseline/baseline.json"
    measure "$W/baseline" "$BIN" check configs/ExampleApp.storekit catalog/products.yaml --baseline baseline.json --max-input-mb 1024
    row "$case" "$ERR" ;;
  ref-dash)
    repo dash; (cd "$W/dash" && git update-ref refs/heads/-x HEAD)
    measure "$W/dash" "$BIN" diff catalog/products.yaml@-x catalog/products.yaml
    row "$case" "$ERR$(head -c 60 "$W/out" | tr '\n' ' ')" ;;
  folder-300-at-rev)
    repo pages; python3 "$HERE/make.py" pages "$W/pages/rc" 300; (cd "$W/pages" && git add . && $GIT commit -qm pages)
    mkdir -p "$W/bin"; printf '#!/bin/sh\necho x >> %s\nexec /usr/bin/git "$@"\n' "$W/git-calls" > "$W/bin/git"; chmod +x "$W/bin/git"; : > "$W/git-calls"
    measure "$W/pages" env PATH="$W/bin:$PATH" "$BIN" diff rc@HEAD rc
    row "$case" "git processes: $(wc -l < "$W/git-calls"); $(head -c 80 "$W/out" | tr '\n' ' ')$ERR" ;;
  rc-package-*)
    n=${case#rc-package-}; [ -d "$W/package-$n" ] || python3 "$HERE/make.py" package "$W/package-$n" "$n"
    measure "$W" "$BIN" show "package-$n" --format json
    row "$case" "$(grep -c '"id"' "$W/out") products shown $ERR" ;;
  rc-check-*)
    n=${case#rc-check-}; [ -d "$W/package-$n" ] || python3 "$HERE/make.py" package "$W/package-$n" "$n"
    measure "$W" "$BIN" check "package-$n" "$REPO/configs/ExampleApp.storekit" --format json
    row "$case" "$(grep -o '"rule"' "$W/out" | wc -l) findings $ERR" ;;
  two-projects)
    python3 "$HERE/make.py" pages "$W/two" 1 proj1ab2c3d4; python3 "$HERE/make.py" pages "$W/other" 1 proj9zz8yy7x
    cp "$W/other/0002-products.json" "$W/two/0003-products.json"; sed -i 's/prod0/prod1/; s/com.example.p0/com.example.p1/' "$W/two/0003-products.json"
    measure "$W" "$BIN" show two
    row "$case" "$ERR$(head -c 100 "$W/out" | tr '\n' ' ')" ;;
  zip-report)
    cp "$REPO/examples/review-readiness/in-app-purchases.txt" "$W/"; (cd "$W" && zip -q report.zip in-app-purchases.txt && cp report.zip report.txt)
    measure "$W" "$BIN" show report.txt
    row "$case" "$ERR"
    measure "$W" "$BIN" show report.zip
    row "$case (.zip)" "$ERR" ;;
  next-page-dotdot)
    PORT=$((20000 + RANDOM % 20000)); : > "$W/requests"
    start_rc $PORT "$W/requests" "/v2/projects/proj1/%2e%2e/proj2/apps?limit=100"
    measure "$W" env REVENUECAT_API_KEY=sk_bench "$BIN" fetch revenuecat --project proj1 --output "$W/dotdot" --api-url http://127.0.0.1:$PORT
    kill $SERVER; SERVER=
    row "$case" "requests: $(grep -c . "$W/requests"), $(grep -c '%2e' "$W/requests") with %2e; $ERR" ;;
  sweep-notapid)
    rm -rf "$W/sweep"; mkdir -p "$W/sweep/.OUT.tally-old-notapid" "$W/sweep/.OUT.tally-partial-2147483646-DEAD0001"; echo mine > "$W/sweep/.OUT.tally-old-notapid/notes.txt"
    measure "$W/sweep" env TALLY_FETCH_BACKOFF_SCALE=0.01 REVENUECAT_API_KEY=sk_bench "$BIN" fetch revenuecat --project proj1 --output OUT --api-url http://127.0.0.1:9
    row "$case" "left: $(cd "$W/sweep" && ls -A | tr '\n' ' '); $ERR" ;;
  code-or-terms)
    rm -rf "$W/or" && mkdir -p "$W/or" && (cd "$W/or" && git init -q)
    python3 -c 'import sys; t=" ||\n    ".join(f"v == \"com.example.app.item{i}\"" for i in range(12000)); open(sys.argv[1],"w").write("import StoreKit\nfunc f(_ v: String) -> Bool {\n    "+t+"\n}\nfunc l() async throws { _ = try await Product.products(for: [\"com.example.app.pro\"]) }\n")' "$W/or/Terms.swift"
    measure "$W/or" "$BIN" init
    row "$case" "$ERR$(head -c 100 "$W/out" | tr '\n' ' ')" ;;
  code-enum-80000)
    python3 -c 'import sys; c="\n".join(f"    case c{i} = \"com.example.app.e{i}\"" for i in range(80000)); open(sys.argv[1],"w").write("import StoreKit\nenum IDs: String, CaseIterable {\n"+c+"\n}\nfunc load() async throws { _ = try await Product.products(for: IDs.allCases.map(\\.rawValue)) }\n")' "$W/enum.swift"
    measure "$W" "$BIN" show "$W/enum.swift"
    row "$case" "$ERR$(tail -1 "$W/out" | cut -c1-100)" ;;
  suite-100000)
    python3 - "$REPO/Tests/TallyCLITests/Fixtures/storekit63/Lumen-6.3.storekit" "$W/suite.storekit" <<'PY'
import sys
s = open(sys.argv[1]).read()
old = '"com.lumen.app.plus.monthly",\n            "com.lumen.notes.pro.monthly"'
assert old in s
s = s.replace(old, ",\n".join(f'"com.lumen.member.{i}"' for i in range(100000)))
open(sys.argv[2], "w").write(s)
PY
    measure "$W" "$BIN" show "$W/suite.storekit"
    row "$case" "$ERR$(tail -1 "$W/out" | cut -c1-100)" ;;
  convert-50000-noletters)
    python3 -c 'import sys; p="\n".join("  - id: \""+"".join(chr(0x4e00+int(d)) for d in str(i))+"\"\n    kind: consumable" for i in range(50000)); open(sys.argv[1],"w").write("format: tally-catalog/1\nproducts:\n"+p+"\n")' "$W/cjk.yaml"
    rm -f "$W/cjk.swift"; measure "$W" "$BIN" convert "$W/cjk.yaml" --to swift -o "$W/cjk.swift"
    row "$case" "$ERR" ;;
  code-ids-backtrack)
    printf 'let x = "%s"\nimport StoreKit\nfunc l() async throws { _ = try await Product.products(for: ["com.calmly.app.lifetime"]) }\n' "$(printf 'a%.0s' $(seq 40))" > "$W/bt.swift"
    printf 'version: 1\ncode:\n  paths: [bt.swift]\n  ids: "(a|aa)+b"\n' > "$W/bt.yml"
    cp "$REPO/configs/ExampleApp.storekit" "$W/"
    measure "$W" "$BIN" check --config bt.yml ExampleApp.storekit bt.swift
    row "$case" "$ERR" ;;
  code-9mb-init)
    rm -rf "$W/big" && mkdir -p "$W/big/App" && (cd "$W/big" && git init -q)
    python3 - "$W/big/App" <<'PY'
import sys
for f in range(40):
    body = "\n".join(f'    func f{f}_{i}(_ v: Int) -> Int {{ let s = "value {i} of file {f}"; return v + {i} + s.count }}' for i in range(2400))
    open(f"{sys.argv[1]}/File{f}.swift", "w").write(f"import StoreKit\nstruct S{f} {{\n{body}\n}}\nfunc load{f}() async throws {{ _ = try await Product.products(for: [\"com.example.big.{f}\"]) }}\n")
PY
    measure "$W/big" "$BIN" init
    row "$case" "$(du -sh "$W/big/App" | cut -f1) of Swift; $ERR$(head -c 80 "$W/out" | tr '\n' ' ')" ;;
  code-parameter-fan)
    # Issue 49: a parameter passed on from 64 call sites over 29 levels, and 300 files declaring
    # the same name: followed once per parameter (memo), equal values kept once, bounded.
    rm -rf "$W/fan" && mkdir -p "$W/fan"
    python3 - "$W/fan" <<'PY'
import sys
d = sys.argv[1]
lines = ["import com.android.billingclient.api.*", "fun f0(x: String) = QueryProductDetailsParams.Product.newBuilder().setProductId(x).build()"]
for k in range(1, 30):
    lines.append(f"fun f{k}(x: String) {{ " + "; ".join(f"f{k-1}(x)" for _ in range(64)) + " }")
lines.append('fun main() { f29("leaf_id") }')
open(f"{d}/Fan.kt", "w").write("\n".join(lines) + "\n")
for n in range(300):
    open(f"{d}/C{n}.kt", "w").write(f"object C{n} {{ val SKUS = listOf(\"a{n}\", \"b{n}\") }}\nfun g{n}(ids: List<String>) = g{(n+1)%300}(ids)\n")
PY
    measure "$W" "$BIN" show "$W/fan/"
    row "$case" "$ERR$(tail -1 "$W/out" | cut -c1-100)" ;;
  play-page-20mb)
    # Issue 47 (LOW): a fetched Play page cost about 60 times its size, and a list's pages were
    # all kept until it ended. 20,000 subscriptions of three regions each, one page.
    rm -rf "$W/play" && mkdir -p "$W/play"
    python3 - "$W/play" <<'PY'
import json, sys
d = sys.argv[1]
regions = [{"regionCode": r, "price": {"currencyCode": c, "units": "4", "nanos": 990000000}} for r, c in [("US", "USD"), ("GB", "GBP"), ("DE", "EUR")]]
subs = [{"productId": f"sub_{i}", "listings": [{"languageCode": "en-US", "title": f"Sub {i}"}],
         "basePlans": [{"basePlanId": "monthly", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}, "regionalConfigs": regions}]}
        for i in range(20000)]
open(f"{d}/page.json", "w").write(json.dumps({"subscriptions": subs}, indent=2))
PY
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$W/play/key.pem" 2>/dev/null
    python3 -c 'import json,sys; print(json.dumps({"type": "service_account", "client_email": "bench@example.iam.gserviceaccount.com", "private_key_id": "k1", "private_key": open(sys.argv[1]).read(), "token_uri": "http://127.0.0.1:8977/token"}))' "$W/play/key.pem" > "$W/play/account.json"
    python3 "$HERE/play_server.py" 8977 "$W/play/page.json" & SERVER=$!
    for _ in $(seq 50); do (echo > /dev/tcp/127.0.0.1/8977) 2>/dev/null && break; sleep 0.1; done
    measure "$W/play" "$BIN" fetch google-play --package com.example.bench --service-account account.json --output snap --api-url http://127.0.0.1:8977 --allow-http
    kill $SERVER 2>/dev/null; SERVER=
    row "$case" "$(du -h "$W/play/page.json" | cut -f1) page; $ERR$(tail -1 "$W/out" | cut -c1-100)" ;;
  *) echo "unknown case $case" >&2 ;;
  esac
done
