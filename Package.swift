// swift-tools-version: 6.0
// Tally: read → normalise → check/diff → report.
import PackageDescription

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tally", targets: ["tally"]),
        .library(name: "TallyModel", targets: ["TallyModel"]),
        .library(name: "TallyFormats", targets: ["TallyFormats"]),
        .library(name: "TallyCheck", targets: ["TallyCheck"]),
        .library(name: "TallyReport", targets: ["TallyReport"]),
        .library(name: "TallyDiff", targets: ["TallyDiff"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    ],
    targets: [
        // The normalised product model: Foundation only.
        .target(name: "TallyModel"),
        // One reader per input format, all producing `Catalog`.
        .target(name: "TallyFormats", dependencies: ["TallyModel", .product(name: "Yams", package: "Yams")]),
        // Cross-source rules and single-source lint, producing `Finding`s.
        .target(name: "TallyCheck", dependencies: ["TallyModel"]),
        // What changed between two versions of a catalogue, keyed by identity.
        .target(name: "TallyDiff", dependencies: ["TallyModel"]),
        // Reporters: text, JSON, JUnit.
        .target(name: "TallyReport", dependencies: ["TallyModel", "TallyCheck", "TallyDiff"]),
        // The command-line tool: thin over the libraries.
        .executableTarget(
            name: "tally",
            dependencies: [
                "TallyModel", "TallyFormats", "TallyCheck", "TallyReport", "TallyDiff",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "TallyModelTests", dependencies: ["TallyModel"]),
        .testTarget(name: "TallyFormatsTests", dependencies: ["TallyFormats"], exclude: ["Fixtures"]),
        .testTarget(name: "TallyCheckTests", dependencies: ["TallyCheck", "TallyFormats"]),
        .testTarget(name: "TallyReportTests", dependencies: ["TallyReport", "TallyFormats", "TallyDiff"], exclude: ["Fixtures"]),
        .testTarget(name: "TallyDiffTests", dependencies: ["TallyDiff", "TallyFormats"]),
        .testTarget(name: "TallyCLITests", dependencies: ["tally"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
