#!/usr/bin/env bash
# Runs every reader's fuzz target for SECONDS each (default 60), seeded from the fixtures.
# Crashing inputs land in fuzz/artifacts/<reader>/; copy each into
# Tests/TallyCLITests/Fixtures/hostile/fuzz/ (named <reader>-<what>.<ext>) so the normal tests
# replay it for ever after.
#   usage: fuzz/run.sh [SECONDS] [READER ...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}; shift || true
readers=("$@")
# FUZZ_REPLAY_FLAGS: flags for the replay build that lists the targets, so that it reuses the build
# already in .build (CI passes --traits Fetch, the test build's; any traits list the same targets).
read -r -a replay_flags <<< "${FUZZ_REPLAY_FLAGS:-}"
if [ ${#readers[@]} -eq 0 ]; then
  # Every target TallyFuzz has (its replay build lists them): no list kept here.
  swift build --product TallyFuzz "${replay_flags[@]}" >/dev/null 2>&1 || { echo "fuzz: the replay build failed"; exit 2; }
  mapfile -t readers < <("$(swift build "${replay_flags[@]}" --show-bin-path)/TallyFuzz" --list | cut -d' ' -f1)
fi
# FUZZ_CONFIGURATION: debug (the default) or release. The instrumented build compiles swift-syntax,
# Yams and every reader with coverage and AddressSanitizer; in debug that takes a fraction of the
# release build's time (docs/performance.md, "CI's time"), and a few seconds a reader find the same
# shallow crashes either way. Fuzz longer in release: FUZZ_CONFIGURATION=release fuzz/run.sh 600.
configuration="${FUZZ_CONFIGURATION:-debug}"
scratch=.build-fuzz
swift build -c "$configuration" --product TallyFuzz --scratch-path "$scratch" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -parse-as-library >/dev/null 2>&1 \
  || { echo "fuzz: the fuzz build failed"; exit 2; }
found=0
bin="$scratch/$configuration/TallyFuzz"
shared=../shared/fixtures/realworld
for reader in "${readers[@]}"; do
  corpus=$(mktemp -d); artifacts="fuzz/artifacts/$reader"; mkdir -p "$artifacts"
  case "$reader" in
    storekit) cp configs/*.storekit "$corpus"/; [ -d "$shared/storekit" ] && cp "$shared"/storekit/*.storekit "$corpus"/ ;;
    catalog-json) cp Tests/TallyFormatsTests/Fixtures/seeds/*.json "$corpus"/ 2>/dev/null || true ;;
    catalog-yaml) cp catalog/*.yaml "$corpus"/ ;;
    plist) cp Tests/TallyCLITests/Fixtures/plist/*.plist "$corpus"/; [ -d "$shared/plist" ] && cp "$shared"/plist/*.plist "$corpus"/ ;;
    csv) cp Tests/TallyCLITests/Fixtures/csv/*.csv "$corpus"/ ;;
    app-store-package) cp Tests/TallyCLITests/Fixtures/app-store-package/metadata.xml "$corpus"/; [ -d "$shared/xml" ] && cp "$shared"/xml/*.xml "$corpus"/ ;;
    app-store-connect) cp Tests/TallyCLITests/Fixtures/app-store-connect/calmly/*.json "$corpus"/ ;;
    app-store-connect-report) cp Tests/TallyFormatsTests/Fixtures/catalog-report/*.txt "$corpus"/
                              cp examples/review-readiness/in-app-purchases.txt "$corpus"/example-in-app-purchases.txt ;;
    unity-iap) cp Tests/TallyCLITests/Fixtures/builtin/IAPProductCatalog.json "$corpus"/ ;;
    storeconfig) cp Tests/TallyCLITests/Fixtures/builtin/lumen-storeconfig*.json "$corpus"/ ;;
    google-play) cp Tests/TallyCLITests/Fixtures/google-play/play-pages/*.json Tests/TallyFormatsTests/Fixtures/google-play/*.json "$corpus"/
                 for f in Tests/TallyCLITests/Fixtures/google-play-exports/{play/products,play/subscriptions,wrapped}/*.json; do
                   cp "$f" "$corpus/gpe-$(basename "$(dirname "$f")")-$(basename "$f")"; done ;;
    google-play-csv) cp Tests/TallyFormatsTests/Fixtures/google-play/*.csv "$corpus"/ ;;
    mapped) cp examples/server/products.json "$corpus"/ ;;
    mapping) cp examples/server/tally-mapping.yml "$corpus"/ ;;
    revenuecat) cp Tests/TallyCLITests/Fixtures/paywall/revenuecat*/*.json "$corpus"/ 2>/dev/null || true ;;
    adapty) cp Tests/TallyCLITests/Fixtures/paywall/adapty/*.json "$corpus"/ 2>/dev/null || true ;;
    qonversion) cp Tests/TallyCLITests/Fixtures/paywall/qonversion*.json "$corpus"/ 2>/dev/null || true ;;
    code-*) ext=$(case "$reader" in code-swift) echo swift;; code-objc) echo m;; code-kotlin) echo kt;; code-java) echo java;;
                                    code-dart) echo dart;; code-typescript) echo ts;; code-csharp) echo cs;; esac)
            { find Tests/TallyCodeTests -name "*.$ext"; [ -d "$shared/apps" ] && find "$shared/apps" -name "*.$ext"; } 2>/dev/null \
              | head -50 | while read -r f; do cp "$f" "$corpus/$(echo "$f" | tr '/' '_')"; done
            # The tests' own snippets as seeds: every API shape the scanners know.
            printf 'import StoreKit\nlet ids = ["com.example.pro"]\nlet p = try await Product.products(for: ids)\n' > "$corpus/seed.$ext" ;;
  esac
  cp Tests/TallyCLITests/Fixtures/hostile/fuzz/"$reader"-* "$corpus"/ 2>/dev/null || true
  log="fuzz/artifacts/$reader.log"
  set +e
  LSAN_OPTIONS="suppressions=$PWD/fuzz/lsan.supp:print_suppressions=0" TALLY_FUZZ_READER="$reader" "$bin" "$corpus" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=5 \
    -max_len=65536 -artifact_prefix="$artifacts/" -print_final_stats=1 >"$log" 2>&1
  status=$?
  set -e
  runs=$(grep -E "stat::number_of_executed_units" "$log" | awk '{print $2}')
  crashes=$(ls "$artifacts" | wc -l)
  echo "$reader: ${runs:-?} executions in ${seconds}s, exit $status, $crashes crashing inputs in $artifacts"
  [ "$status" -eq 0 ] && [ "$crashes" -eq 0 ] || found=$((found + 1))
  rm -rf "$corpus"
done
[ "$found" -eq 0 ] || { echo "fuzz: $found target(s) found crashing, hanging or leaking inputs (see fuzz/artifacts/)"; exit 1; }
