import Foundation
import Testing

/// A store snapshot folder is one source everywhere: in the policy file, in `tally init`, in `check`.
@Suite struct SnapshotSourceTests {
    /// A repository with a StoreKit file (App/), the catalogue (server/catalog/) and the shipped
    /// App Store Connect pages saved as a `tally fetch` snapshot (asc/, with its manifest).
    static func repository() throws -> URL {
        let directory = try CLIRunner.exampleCopy()
        let manager = FileManager.default
        try manager.createDirectory(at: directory.appendingPathComponent("App"), withIntermediateDirectories: true)
        try manager.createDirectory(at: directory.appendingPathComponent("server"), withIntermediateDirectories: true)
        try manager.moveItem(at: directory.appendingPathComponent("configs/ExampleApp.storekit"), to: directory.appendingPathComponent("App/App.storekit"))
        try manager.removeItem(at: directory.appendingPathComponent("configs"))
        try manager.moveItem(at: directory.appendingPathComponent("catalog"), to: directory.appendingPathComponent("server/catalog"))
        try manager.copyItem(at: CLIRunner.repository.appendingPathComponent("examples/asc-export"), to: directory.appendingPathComponent("asc"))
        let manifest = """
        {"format": "tally-snapshot/1", "store": "app-store-connect", "app": "1600000001", "fetchedAt": "2026-05-01T09:30:00Z",
         "apiHost": "https://api.appstoreconnect.apple.com", "requests": 26, "pages": 26, "counts": {"inAppPurchases": 7, "subscriptions": 8}}
        """
        try Data(manifest.utf8).write(to: directory.appendingPathComponent("asc/tally-snapshot.json"))
        return directory
    }

    /// Raises the tip's USA price in the snapshot (its price point page).
    static func raiseTipPrice(in directory: URL) throws {
        try CLIRunner.edit(directory.appendingPathComponent("asc/03-iap-prices-tip-tea.json"),
                           replacing: "\"customerPrice\": \"2.99\",\n        \"proceeds\": \"2.09\"\n      },\n      \"relationships\": {\n        \"territory\": {\n          \"data\": {\n            \"type\": \"territories\",\n            \"id\": \"USA\"",
                           with: "\"customerPrice\": \"3.49\",\n        \"proceeds\": \"2.09\"\n      },\n      \"relationships\": {\n        \"territory\": {\n          \"data\": {\n            \"type\": \"territories\",\n            \"id\": \"USA\"")
    }

    @Test func initProposesTheSnapshotFolderAsOneSourceAndCheckReadsThreeSources() throws {
        // Given
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        // When
        let initialised = try CLIRunner.run(["init"], in: directory)
        // Then: the folder, with what it is, never a glob over its pages
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stdout.contains("asc/ (App Store Connect snapshot, 15 products)"), "\(initialised.stdout)")
        let policy = try String(contentsOf: directory.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(policy.contains("sources:\n  - App/*.storekit\n  - asc/\n  - server/catalog/*.yaml\n"), "\(policy)")
        #expect(!policy.contains("asc/*.json"))
        let checked = try CLIRunner.run(["check"], in: directory)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("✔ consistent: 15 products checked in 3 sources, 0 errors, 0 warnings"), "\(checked.stdout)")
        #expect(checked.stdout.contains("compared: App/App.storekit (storefront USA) vs asc: 15 products in both"))
        #expect(checked.stderr == "asc: note: 2 products were left out by state (1 DEVELOPER_REMOVED_FROM_SALE, 1 READY_TO_SUBMIT): only products for sale count; --include-state DEVELOPER_REMOVED_FROM_SALE --include-state READY_TO_SUBMIT shows them (--include-state ALL shows every product)\n",
                "\(checked.stderr)")

        // And a changed price in the snapshot is named, exit 1
        try Self.raiseTipPrice(in: directory)
        let changed = try CLIRunner.run(["check"], in: directory)
        #expect(changed.status == 1)
        // Two catalogues (asc, products.yaml) in the run: each side is named by its file.
        #expect(changed.stdout.contains("com.calmly.app.tip.tea costs 2.99 USD in USA in the configuration (App.storekit) but 3.49 USD in the catalogue (asc)"),
                "\(changed.stdout)")
        #expect(changed.stdout.contains("catalog: asc/03-iap-prices-tip-tea.json:78:26  3.49 USD"))
    }

    @Test("The policy names the folder as asc, asc/ or a glob asc*, with the same outcome", arguments: ["asc", "asc/", "\"asc*\""])
    func thePolicyNamesTheFolder(_ entry: String) throws {
        // Given
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("version: 1\nsources: [App/App.storekit, \(entry), server/catalog/products.yaml]\n".utf8)
            .write(to: directory.appendingPathComponent(".tally.yml"))
        // When
        let consistent = try CLIRunner.run(["check"], in: directory)
        try Self.raiseTipPrice(in: directory)
        let changed = try CLIRunner.run(["check", "--format", "json"], in: directory)
        // Then
        #expect(consistent.status == 0, "\(consistent.stdout)\(consistent.stderr)")
        #expect(consistent.stdout.contains("in 3 sources"), "\(consistent.stdout)")
        #expect(changed.status == 1, "\(changed.stderr)")
        // The snapshot disagrees with the configuration and with the server catalogue: each pair says so.
        #expect(ruleProducts(try jsonReport(changed)) == ["price com.calmly.app.tip.tea", "price com.calmly.app.tip.tea"])
    }

    @Test func googlePlayPagesAreOneSourceToo() throws {
        // Given: the Brightly example (a StoreKit file, a catalogue, Google Play pages in play/)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-play-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for item in ["Brightly.storekit", "catalog.json", "play"] {
            try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("examples/google-play/\(item)"), to: directory.appendingPathComponent(item))
        }
        // When
        let initialised = try CLIRunner.run(["init"], in: directory)
        let checked = try CLIRunner.run(["check"], in: directory)
        // Then
        #expect(initialised.stdout.contains("catalogues:     catalog.json, play/ (Google Play pages, 4 products)"), "\(initialised.stdout)")
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("compared: play (prices in every region both price) vs catalog.json: 4 products in both"), "\(checked.stdout)")
        #expect(checked.stdout.contains("in 3 sources"))
    }

    @Test func aFolderTallyDoesNotReadAsOneSourceSaysWhatItExpected() throws {
        let directory = try Self.repository()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("notes"), withIntermediateDirectories: true)
        try Data("hello\n".utf8).write(to: directory.appendingPathComponent("notes/readme.txt"))
        for (entry, message) in [
            ("notes", "the source \"notes\" is a folder that Tally does not read as one source: expected an App Store Connect export or snapshot"),
            ("\"not*\"", "the source \"not*\" matches no file, and only folders that Tally does not read as one source (notes): expected"),
        ] {
            try Data("version: 1\nsources: [App/App.storekit, \(entry)]\n".utf8).write(to: directory.appendingPathComponent(".tally.yml"))
            let output = try CLIRunner.run(["check"], in: directory)
            #expect(output.status == 2)
            #expect(output.stderr.hasPrefix(".tally.yml:2:29: error: \(message)"), "\(output.stderr)")
        }
    }
}

/// `tally init` then `tally check` in an app repository laid out as apps are, with unrelated YAML.
@Suite struct FirstRunTests {
    @Test func initWritesOnlyWhatItReadAndCheckNamesExactlyThePlantedMismatches() throws {
        // Given: an Xcode project with a nested .storekit, a backend catalogue beside deploy.yaml,
        // a workflow, other YAML; three mismatches planted in the catalogue
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-app-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files: [String: String] = [
            "MyApp/MyApp.xcodeproj/project.pbxproj": "// !$*UTF8*$!\n{ archiveVersion = 1; }\n",
            "backend/config/deploy.yaml": "name: billing-api\nreplicas: 3\nimage: registry.example.com/billing:1.4\n",
            "backend/openapi.yaml": "openapi: 3.0.0\ninfo: {title: Billing, version: \"1\"}\n",
            ".github/workflows/ci.yml": "name: CI\non: [push]\njobs:\n  test:\n    runs-on: macos-14\n    steps:\n      - uses: actions/checkout@v4\n",
            "docker-compose.yml": "services:\n  db:\n    image: postgres:16\n",
            // A JSON Schema that names the catalogue format, and a unit test's fixture catalogue.
            "docs/schemas/catalog.schema.json": #"{"$schema": "https://json-schema.org/draft-07/schema#", "title": "tally-catalog/1", "type": "object"}"#,
            "MyAppTests/Fixtures/old-catalog.yaml": "format: tally-catalog/1\nproducts:\n  - {id: com.example.legacy, kind: consumable, prices: {USA: \"0.99\"}}\n",
        ]
        for (path, text) in files {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("MyApp/MyApp/StoreKit"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("configs/ExampleApp.storekit"),
                                         to: directory.appendingPathComponent("MyApp/MyApp/StoreKit/Products.storekit"))
        var catalog = try String(contentsOf: CLIRunner.repository.appendingPathComponent("catalog/products.yaml"), encoding: .utf8)
        for (old, new) in [("prices: {USA: \"5.99\"", "prices: {USA: \"6.49\""),
                           ("introductory_offer: {type: free-trial, period: P1W}", "introductory_offer: {type: free-trial, period: P2W}")] {
            #expect(catalog.components(separatedBy: old).count == 2)
            catalog = catalog.replacingOccurrences(of: old, with: new)
        }
        let start = try #require(catalog.range(of: "  - id: com.calmly.app.soundpack.rainforest\n"))
        let end = try #require(catalog.range(of: "  # A course pass", range: start.upperBound..<catalog.endIndex))
        catalog.removeSubrange(start.lowerBound..<end.lowerBound)
        try catalog.write(to: directory.appendingPathComponent("backend/config/iap.yaml"), atomically: true, encoding: .utf8)
        // When
        let initialised = try CLIRunner.run(["init"], in: directory)
        let checked = try CLIRunner.run(["check"], in: directory)
        let report = try CLIRunner.run(["check", "--format", "json"], in: directory)
        // Then: init names what it read, and the file it left out
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stdout.contains("configurations: MyApp/MyApp/StoreKit/Products.storekit\n"), "\(initialised.stdout)")
        #expect(initialised.stdout.contains("catalogues:     backend/config/iap.yaml\n"))
        #expect(initialised.stdout.contains("not sources:    backend/config/deploy.yaml (a YAML file without catalogue keys"))
        #expect(initialised.stdout.contains("left out:       1 source under test folders (MyAppTests/Fixtures/old-catalog.yaml)"), "\(initialised.stdout)")
        #expect(initialised.stdout.contains("unreadable:     docs/schemas/catalog.schema.json: line 1, column 1: missing \"format\": \"tally-catalog/1\" at the top of the catalogue; it holds \"$schema\", \"title\", \"type\""), "\(initialised.stdout)")
        let policy = try String(contentsOf: directory.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(policy.contains("sources:\n  - MyApp/MyApp/StoreKit/*.storekit\n  - backend/config/iap.yaml\n"), "\(policy)")
        // And check fails on the planted mismatches only
        #expect(checked.status == 1, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stderr.isEmpty, "\(checked.stderr)")
        #expect(checked.stdout.contains("✘ 3 errors, 0 warnings in 2 sources"), "\(checked.stdout)")
        #expect(checked.stdout.contains("com.calmly.app.sessions.20 costs 5.99 USD in USA in the configuration but 6.49 USD in the catalogue"))
        #expect(checked.stdout.contains("period 1 week in the configuration vs 2 weeks in the catalogue"))
        #expect(checked.stdout.contains("com.calmly.app.soundpack.rainforest is in the configuration but not in the catalogue"))
        #expect(ruleProducts(try jsonReport(report)) == [
            "intro-offer com.calmly.app.plus.annual", "missing-in-catalog com.calmly.app.soundpack.rainforest", "price com.calmly.app.sessions.20",
        ])

        // And a glob written by hand over the folder skips deploy.yaml with a note instead of failing the run
        try Data("version: 1\nsources: [\"MyApp/**/*.storekit\", \"backend/config/*.yaml\"]\n".utf8).write(to: directory.appendingPathComponent(".tally.yml"))
        let globbed = try CLIRunner.run(["check"], in: directory)
        #expect(globbed.status == 1, "\(globbed.stderr)")
        #expect(globbed.stderr == ".tally.yml:2:34: warning: backend/config/deploy.yaml matches the source \"backend/config/*.yaml\" but is not a product source (a YAML file without catalogue keys ('format: tally-catalog/1')); skipped\n",
                "\(globbed.stderr)")
        #expect(globbed.stdout.contains("✘ 3 errors, 0 warnings in 2 sources"))
    }

    @Test(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent"))
    func initOnRealFilesLeavesOutAnEmptyConfigurationAndCheckEndsOnFindings() throws {
        // Given: the shared real-world StoreKit files, property lists and package (one .storekit is 0 bytes)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-real-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: CLIRunner.shared.appendingPathComponent("fixtures/realworld"), to: directory)
        // When
        let initialised = try CLIRunner.run(["init"], in: directory)
        let checked = try CLIRunner.run(["check"], in: directory)
        // Then: the empty file is named and left out; the check ends on findings (exit 1), not on input errors
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stdout.contains("storekit/chemsims-empty-Configuration.storekit (an empty file (0 bytes))"), "\(initialised.stdout)")
        let policy = try String(contentsOf: directory.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(!policy.contains("  - storekit/*.storekit") && !policy.contains("chemsims-empty"), "\(policy)")
        // No Info.plist, entitlements or scheme list of the app layouts is proposed.
        for name in ["Info.plist", ".entitlements", "xcschememanagement.plist", "GoogleService-Info.plist", "AppFrameworkInfo.plist", "IDEWorkspaceChecks.plist"] {
            #expect(!policy.contains(name), "\(name) in \(policy)")
        }
        #expect(checked.status == 1, "\(checked.stderr)")
        #expect(!checked.stderr.contains("error:"), "\(checked.stderr)")
    }

    @Test func aMappingOnTheCommandLineReadsWhatAPolicyGlobMatches() throws {
        // Given: the server's own JSON under a policy glob, its mapping given with --mapping
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: CLIRunner.repository.appendingPathComponent("examples/server"), to: directory.appendingPathComponent("server"))
        try Data("version: 1\nsources: [configs/ExampleApp.storekit, \"server/*.json\"]\n".utf8).write(to: directory.appendingPathComponent(".tally.yml"))
        // When
        let mapped = try CLIRunner.run(["check", "--mapping", "server/tally-mapping.yml"], in: directory)
        let unmapped = try CLIRunner.run(["check"], in: directory)
        // Then: read through the mapping, not skipped; without it, skipped with a note (and nothing left to compare with)
        #expect(mapped.status == 0 || mapped.status == 1, "\(mapped.stderr)")
        #expect(mapped.stdout.contains("vs server/products.json"), "\(mapped.stdout)")
        #expect(!mapped.stderr.contains("skipped"), "\(mapped.stderr)")
        #expect(unmapped.status == 2)
        #expect(unmapped.stderr.contains("the source \"server/*.json\" matches no product source: server/products.json is not one"), "\(unmapped.stderr)")
    }
}
