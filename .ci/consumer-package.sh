# Sourced by .ci/external-package.sh and .ci/external-diff.sh: a Swift package that depends on
# Tally by path, as a team's own would, with one library target and a test target using
# TallyTesting. Sets repo, work (a temporary folder removed on exit) and app (the package).
# Usage: . .ci/consumer-package.sh NAME-FOR-THE-TEMPORARY-FOLDER
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")"
trap 'rm -rf "$work"' EXIT
app="$work/Consumer"
# A path dependency's package identity is its folder's name (this clone's, e.g. "tally").
identity="$(basename "$repo" | tr '[:upper:]' '[:lower:]')"
mkdir -p "$app/Sources/Consumer" "$app/Tests/ConsumerTests"
cat > "$app/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Consumer",
    platforms: [.macOS(.v13)],
    dependencies: [.package(path: "$repo")],
    targets: [
        .target(name: "Consumer"),
        .testTarget(name: "ConsumerTests", dependencies: [.product(name: "TallyTesting", package: "$identity")]),
    ]
)
SWIFT
echo 'public enum Consumer {}' > "$app/Sources/Consumer/Consumer.swift"

# `swift test` in the consumer. With TALLY_CONSUMER_SCRATCH set (.ci/run sets it), both consumer
# scripts build in that one folder: their manifests are the same, so Tally and its dependencies are
# compiled once for the two, and only the consumer's own small modules again.
consumer_swift_test() {
  if [ -n "${TALLY_CONSUMER_SCRATCH:-}" ]; then swift test --scratch-path "$TALLY_CONSUMER_SCRATCH" "$@"; else swift test "$@"; fi
}
