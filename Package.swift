// swift-tools-version: 6.1
// Tally: read → normalise → check/diff → report.
import PackageDescription

/// The commit a release binary is built from: `scripts/release` sets TALLY_BUILD_COMMIT for
/// `swift build`, and `tally --version` prints it (`1a2b3c4d5e6f`, or `1a2b3c4d5e6f-dirty` from a
/// tree with uncommitted changes). Only letters, digits and '-' pass, so it is safe in a C string.
let buildCommit = (Context.environment["TALLY_BUILD_COMMIT"] ?? "").filter { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" }

let package = Package(
    name: "Tally",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "tally", targets: ["tally"]),
        .library(name: "TallyModel", targets: ["TallyModel"]),
        .library(name: "TallyFormats", targets: ["TallyFormats"]),
        .library(name: "TallyCheck", targets: ["TallyCheck"]),
        .library(name: "TallyReport", targets: ["TallyReport"]),
        .library(name: "TallyConfig", targets: ["TallyConfig"]),
        .library(name: "TallyTesting", targets: ["TallyTesting"]),
        .plugin(name: "TallyPlugin", targets: ["TallyPlugin"]),
        .library(name: "TallyDiff", targets: ["TallyDiff"]),
        .library(name: "TallyFetch", targets: ["TallyFetch"]),
        .library(name: "TallyFetchHTTP", targets: ["TallyFetchHTTP"]),
        .library(name: "TallyConvert", targets: ["TallyConvert"]),
        .library(name: "TallyRun", targets: ["TallyRun"]),
        .library(name: "TallyCode", targets: ["TallyCode"]),
    ],
    // The network stack (SwiftNIO, swift-nio-ssl's BoringSSL, AsyncHTTPClient) is built only with the
    // trait Fetch: `swift run tally check`, TallyTesting and the readers never build it, and a
    // package depending on Tally does not even resolve it (every use below is guarded). Release
    // builds turn it on (`--traits Fetch`: scripts/release), and so does the test command.
    traits: [
        .trait(name: "Fetch", description: "tally fetch's HTTP transport: AsyncHTTPClient on SwiftNIO and swift-nio-ssl."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        // tally fetch's JWT signatures only (trait Fetch).
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
        // `tally fetch`'s transport (SwiftNIO, swift-nio-ssl's BoringSSL): a body streamed with
        // backpressure, so memory stays bounded by the byte cap (docs/fetch.md).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.0"),
        // The code source: Swift read with a real Swift parser (SwiftParser alone, no macros).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.0"),
        // Test-only: the stand-in App Store Connect and Google Play servers of TallyFetchTests.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.0"),
    ],
    targets: [
        // The normalised product model: Foundation only.
        .target(name: "TallyModel"),
        // libxml2 (Debian: libxml2-dev), for App Store package metadata.xml.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // The product IDs an app's code asks the store for: Swift through swift-syntax's parser,
        // Objective-C, Kotlin, Java, Dart, JavaScript/TypeScript and C# through a tokenizer.
        .target(name: "TallyCode", dependencies: [
            "TallyModel", .product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftSyntax", package: "swift-syntax"),
        ]),
        // One reader per input format, all producing `Catalog`.
        .target(name: "TallyFormats", dependencies: [
            "TallyModel", "TallyCode", "CLibXML2", .product(name: "Yams", package: "Yams"),
        ]),
        // Cross-source rules and single-source lint, producing `Finding`s.
        .target(name: "TallyCheck", dependencies: ["TallyModel"]),
        // What changed between two versions of a catalogue, keyed by identity.
        .target(name: "TallyDiff", dependencies: ["TallyModel"]),
        // Writers: any catalogue as tally-catalog/1 (YAML, JSON), a StoreKit configuration, CSV, or product-ID
        // constants in Swift, Kotlin, Dart or TypeScript that TallyCode reads back (`tally convert`).
        .target(name: "TallyConvert", dependencies: ["TallyModel", "TallyCode"]),
        // Reporters: text, JSON, JUnit, SARIF, GitHub annotations, Markdown; diff reports.
        // (SARIF fingerprints use TallyReport's own SHA-256: swift-crypto is tally fetch's alone.)
        .target(name: "TallyReport", dependencies: ["TallyModel", "TallyCheck", "TallyDiff"]),
        // The repository's settings: the .tally.yml policy file, baselines, source globs, `tally init`'s template.
        .target(name: "TallyConfig", dependencies: ["TallyModel", "TallyFormats", "TallyCheck", "TallyCode"]),
        // One run as typed stages: the source set, reading (every error), pairing, the gate (policy,
        // baseline) and the outcome with its exit status; diffs the same way (DiffPlan, DiffRun, files at a
        // revision through a RevisionStore: git behind it). The CLI and TallyTesting both run through it.
        // Each command as one call (Command/: CheckRun.perform, DiffRun.perform, ShowRun, ConvertRun,
        // FetchCommandRun) and the diagnostics stream they say things through.
        .target(name: "TallyRun", dependencies: ["TallyModel", "TallyFormats", "TallyCheck", "TallyConfig", "TallyDiff", "TallyReport",
                                                 "TallyConvert", "TallyFetch"]),
        // Consistency as a unit test: one test failure per finding, in Swift Testing or XCTest.
        .target(name: "TallyTesting", dependencies: ["TallyModel", "TallyFormats", "TallyCheck", "TallyConfig", "TallyRun", "TallyDiff", "TallyReport"]),
        // Snapshots of a store: a fetch as a run (FetchRun: cancellation, typed outcome), an HTTP
        // client with retries over a transport protocol (HTTPTransport; the network stack is
        // TallyFetchHTTP's), atomic snapshot folders, progress events, typed fetch errors; App Store
        // Connect (JWT ES256, JSON:API pages), Google Play (service-account RS256 JWT → OAuth token,
        // androidpublisher v3 pages) and RevenueCat on top.
        .target(name: "TallyFetch", dependencies: [
            // The JWT signatures (ES256, RS256): swift-crypto, whose BoringSSL is most of a clean build's C, only with
            // the trait Fetch. A default build checks the keys' shape and stops at the transport (docs/performance.md).
            "TallyFormats",
            .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Fetch"])),
            .product(name: "_CryptoExtras", package: "swift-crypto", condition: .when(traits: ["Fetch"])),
        ]),
        // The real transport, AsyncHTTPClient: compiled only with the trait Fetch.
        .target(name: "TallyFetchHTTP", dependencies: [
            "TallyFetch",
            .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["Fetch"])),
            .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["Fetch"])),
            .product(name: "NIOPosix", package: "swift-nio", condition: .when(traits: ["Fetch"])),
            .product(name: "NIOHTTP1", package: "swift-nio", condition: .when(traits: ["Fetch"])),
            .product(name: "NIOSSL", package: "swift-nio-ssl", condition: .when(traits: ["Fetch"])),
        ]),
        // `swift package tally`: runs `tally check` with the package's .tally.yml.
        .plugin(
            name: "TallyPlugin",
            capability: .command(intent: .custom(verb: "tally", description: "Check in-app-purchase catalogues with the package's .tally.yml"))
            // No `dependencies: ["tally"]`: a tool dependency makes every `swift build` and `swift test` of this
            // package compile Tally and its dependencies a second time for the host ("-tool" modules). The plugin
            // asks SwiftPM to build the product `tally` when it runs (the same build `swift run tally` uses).
        ),
        // The commit `tally --version` names (a C string defined by the build; see buildCommit above).
        .target(name: "TallyBuildInfo", cSettings: buildCommit.isEmpty ? [] : [.define("TALLY_BUILD_COMMIT", to: "\"\(buildCommit)\"")]),
        // The command-line tool: thin over the libraries.
        .executableTarget(
            name: "tally",
            dependencies: [
                "TallyModel", "TallyFormats", "TallyCheck", "TallyReport", "TallyConfig", "TallyDiff", "TallyFetch", "TallyConvert", "TallyRun", "TallyBuildInfo",
                .target(name: "TallyFetchHTTP", condition: .when(traits: ["Fetch"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Fuzz targets for every reader (libFuzzer with -DFUZZING; a replay tool otherwise): fuzz/run.sh.
        .executableTarget(name: "TallyFuzz", dependencies: ["TallyFormats", "TallyModel"]),
        .testTarget(name: "TallyModelTests", dependencies: ["TallyModel"]),
        .testTarget(name: "TallyCodeTests", dependencies: ["TallyCode"]),
        .testTarget(name: "TallyFormatsTests", dependencies: ["TallyFormats"], exclude: ["Fixtures"]),
        // Test-data factories shared by the test targets (test-only: not a product).
        .target(name: "TallyTestSupport", dependencies: ["TallyModel"], path: "Tests/TallyTestSupport"),
        .testTarget(name: "TallyCheckTests", dependencies: ["TallyCheck", "TallyFormats", "TallyReport", "TallyTestSupport"]),
        .testTarget(name: "TallyReportTests", dependencies: ["TallyReport", "TallyFormats", "TallyDiff"], exclude: ["Fixtures"]),
        .testTarget(name: "TallyDiffTests", dependencies: ["TallyDiff", "TallyFormats", "TallyReport", "TallyTestSupport"]),
        .testTarget(name: "TallyConvertTests", dependencies: ["TallyConvert", "TallyFormats", "TallyCheck", "TallyConfig", "TallyReport"]),
        .testTarget(name: "TallyCLITests", dependencies: ["tally", "TallyTesting", "TallyReport"], exclude: ["Fixtures"]),
        .testTarget(name: "TallyConfigTests", dependencies: ["TallyConfig"]),
        // Against local stand-in servers through the real transport: run with `--traits Fetch`.
        .testTarget(name: "TallyFetchTests", dependencies: [
            "TallyFetch", "tally",
            .product(name: "Crypto", package: "swift-crypto", condition: .when(traits: ["Fetch"])),
            .product(name: "_CryptoExtras", package: "swift-crypto", condition: .when(traits: ["Fetch"])),
            .target(name: "TallyFetchHTTP", condition: .when(traits: ["Fetch"])),
            .product(name: "FlyingFox", package: "FlyingFox", condition: .when(traits: ["Fetch"])),
            .product(name: "FlyingSocks", package: "FlyingFox", condition: .when(traits: ["Fetch"])),
        ], exclude: ["Fixtures"]),
        .testTarget(name: "TallyRunTests", dependencies: ["TallyRun", "TallyDiff", "TallyFormats", "TallyModel", "TallyReport"]),
        .testTarget(name: "TallyTestingTests", dependencies: ["TallyTesting", "TallyCheck", "TallyFormats", "TallyConfig", "TallyDiff", "TallyRun"]),
    ],
    swiftLanguageModes: [.v6]
)
