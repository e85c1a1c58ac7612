import Foundation
import Testing

/// What ships beside the binary (scripts/release, action/, plugin-binary/, .pre-commit-hooks.yaml),
/// checked without a release build; .ci/release-check.sh runs the real assets end to end.
@Suite struct ReleaseCLITests {
    static func text(_ path: String) throws -> String {
        try String(contentsOf: CLIRunner.repository.appendingPathComponent(path), encoding: .utf8)
    }

    /// TallyInfo.version, read where it is written (the release script reads it the same way).
    static func sourceVersion() throws -> String {
        let line = try #require(try text("Sources/TallyReport/TallyInfo.swift").split(separator: "\n").first { $0.contains("public static let version = ") })
        return String(try #require(line.split(separator: "\"").dropFirst().first))
    }

    @Test func versionNamesTheVersionAndTheCommitOrSaysItIsUnknown() throws {
        // When: the test build's binary, built without scripts/release (unless TALLY_BUILD_COMMIT was set).
        let output = try CLIRunner.run(["--version"])
        // Then
        #expect(output.status == 0, "\(output.stderr)")
        let version = try Self.sourceVersion()
        let line = output.stdout.trimmingCharacters(in: .newlines)
        let unknown = "\(version) (commit unknown: built from source)"
        let known = line.hasPrefix("\(version) (commit ") && line.hasSuffix(")")
            && line.dropFirst("\(version) (commit ".count).dropLast().allSatisfy { $0.isHexDigit || $0 == "-" || $0.isLetter }
        #expect(line == unknown || (known && !line.contains("unknown")), "\(line)")
    }

    @Test func theBinaryPluginRunsTheSamePluginSourceAsTheSourceBuiltOne() throws {
        #expect(try Self.text("plugin-binary/Plugins/TallyBinaryPlugin/TallyPlugin.swift") == Self.text("Plugins/TallyPlugin/TallyPlugin.swift"),
                "copy Plugins/TallyPlugin/TallyPlugin.swift to plugin-binary/Plugins/TallyBinaryPlugin/")
        let manifest = try Self.text("plugin-binary/Package.swift")
        #expect(manifest.contains(".binaryTarget(\n            name: \"TallyBinary\",\n            url: \"https://github.com/"))
        #expect(manifest.contains("/tally.artifactbundle.zip\",\n            checksum: \""))
        #expect(manifest.contains("\" // pinned-checksum"), "scripts/release --pin finds the checksum by this marker")
    }

    @Test func thePreCommitHookRunsOnCataloguesAndStoreKitFilesOnly() throws {
        let hooks = try Self.text(".pre-commit-hooks.yaml")
        #expect(hooks.contains("- id: tally-check\n"))
        #expect(hooks.contains("  entry: tally check\n  language: system\n  pass_filenames: false\n"))
        let line = try #require(hooks.split(separator: "\n").first { $0.hasPrefix("  files: '") })
        let pattern = String(line.dropFirst("  files: '".count).dropLast())
        let expression = try NSRegularExpression(pattern: pattern)
        func matches(_ path: String) -> Bool {
            expression.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
        }
        for path in ["configs/ExampleApp.storekit", "catalog/products.yaml", "server/products.json", "App/Products.plist",
                     "finance/prices.csv", ".tally.yml", "app-store/metadata.xml"] {
            #expect(matches(path), "\(path)")
        }
        for path in ["Sources/App/Store.swift", "README.md", "App/Info.xml", "notes.txt"] {
            #expect(!matches(path), "\(path)")
        }
    }

    /// The action downloads a release only on Linux x86_64 (elsewhere it builds from source).
    static let releaseRunner: Bool = {
        #if os(Linux) && arch(x86_64)
        return true
        #else
        return false
        #endif
    }()

    @Test(.enabled(if: releaseRunner, "the action downloads a binary on Linux x86_64 only"))
    func theActionRefusesAVersionItPinsNoChecksumFor() throws {
        // Given: a version the action has no checksum for, and no sha256 input.
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = CLIRunner.repository.appendingPathComponent("action/run.sh")
        // When: nothing is downloaded (the URL is never reached).
        let output = try CLIRunner.launch(URL(fileURLWithPath: "/bin/bash"), [script.path], in: directory, environment: [
            "TALLY_VERSION": "99.0.0", "TALLY_DOWNLOAD_URL": "http://127.0.0.1:9/unreachable", "TALLY_SHA256": "",
            "TALLY_CACHE_DIR": directory.appendingPathComponent("cache").path, "RUNNER_TEMP": directory.path,
            "GITHUB_OUTPUT": "", "GITHUB_STEP_SUMMARY": "",
        ])
        // Then
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("::error title=Tally::this action pins no checksum for tally-99.0.0-x86_64-unknown-linux-gnu.tar.gz"), "\(output.stdout)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("cache/99.0.0").path))
    }

    @Test func theActionPinsAVersionAndEveryPinnedChecksumIsAHash() throws {
        let action = try Self.text("action/action.yml")
        #expect(action.contains("    default: '") && action.contains("' # pinned-version\n"), "scripts/release --pin finds the version by this marker")
        #expect(action.contains("run: '\"$GITHUB_ACTION_PATH/run.sh\"'"))
        for line in try Self.text("action/checksums.txt").split(separator: "\n") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            #expect(parts.count == 2 && parts[0].count == 64 && parts[0].allSatisfy(\.isHexDigit), "\(line)")
            #expect(parts.last?.hasSuffix("-x86_64-unknown-linux-gnu.tar.gz") == true, "\(line)")
        }
    }
}
