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
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
    ],
    targets: [
        // The normalised product model: Foundation only.
        .target(name: "TallyModel"),
        // libxml2 (Debian: libxml2-dev), for App Store package metadata.xml.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // One reader per input format, all producing `Catalog`.
        .target(name: "TallyFormats", dependencies: [
            "TallyModel", "CLibXML2", .product(name: "Yams", package: "Yams"), .product(name: "SwiftCSV", package: "SwiftCSV"),
        ]),
        // Cross-source rules and single-source lint, producing `Finding`s.
        .target(name: "TallyCheck", dependencies: ["TallyModel"]),
        // Reporters: text, JSON, JUnit.
        .target(name: "TallyReport", dependencies: ["TallyModel", "TallyCheck"]),
        // The command-line tool: thin over the libraries.
        .executableTarget(
            name: "tally",
            dependencies: [
                "TallyModel", "TallyFormats", "TallyCheck", "TallyReport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzz targets for every reader (libFuzzer with -DFUZZING; a replay tool otherwise): fuzz/run.sh.
        .executableTarget(name: "TallyFuzz", dependencies: ["TallyFormats", "TallyModel"]),
        .testTarget(name: "TallyModelTests", dependencies: ["TallyModel"]),
        .testTarget(name: "TallyFormatsTests", dependencies: ["TallyFormats"], exclude: ["Fixtures"]),
        .testTarget(name: "TallyCheckTests", dependencies: ["TallyCheck", "TallyFormats"]),
        .testTarget(name: "TallyReportTests", dependencies: ["TallyReport", "TallyFormats"], exclude: ["Fixtures"]),
        .testTarget(name: "TallyCLITests", dependencies: ["tally"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
