import Foundation
import Testing

/// `tally diff` through the built binary: real files, git revisions, exit codes, formats.
@Suite struct DiffCommandTests {
    static let storeKit = CLIRunner.shared.appendingPathComponent("fixtures/realworld/storekit")
    static func real(_ name: String) -> String { storeKit.appendingPathComponent(name).path }

    @Test(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent"))
    func chemsimsColombiaListsRemovedProductsAndEveryPriceWithBothCurrencies() throws {
        let output = try CLIRunner.run(["diff", Self.real("chemsims-USConfig.storekit"), Self.real("chemsims-ColombiaConfig.storekit")])
        #expect(output.status == 0, "\(output.stderr)")
        let text = output.stdout
        #expect(text.contains("0 added, 4 removed, 8 changed, 0 unchanged products · 8 price changes (0 up, 0 down, 8 between currencies) in 1 territory"))
        for removed in ["tip_5", "tip_6", "tip_with_badge_5", "tip_with_badge_6"] { #expect(text.contains("\(removed)  removed")) }
        #expect(text.contains("~ prices › USA → COL: 0.99 USD → 4900.00 COP (currency USD → COP)"))
        #expect(text.contains("~ prices › USA → COL: 3.99 USD → 29900.00 COP (currency USD → COP)"))
        #expect(text.contains("~ storefront: USA → COL"))
        #expect(text.contains("chemsims-ColombiaConfig.storekit:68:24"), "both locations are given")
    }

    @Test(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent"))
    func chemsimsMexicoMarksPesoPricesAsSuspicious() throws {
        let output = try CLIRunner.run(["diff", Self.real("chemsims-USConfig.storekit"), Self.real("chemsims-MexicoConfig.storekit")])
        #expect(output.status == 0)
        #expect(output.stdout.contains("12 need attention"))
        #expect(output.stdout.components(separatedBy: "! price changed by more than a factor of 3 in the same currency").count - 1 == 8)
        #expect(output.stdout.contains("0.99 USD → 19.00 USD (+18.01 USD, +1819.2%)"))
    }

    @Test func exitCodesFollowGitDiff() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent("catalog/products.yaml")
        let copy = directory.appendingPathComponent("catalog/copy.yaml")
        try FileManager.default.copyItem(at: catalog, to: copy)
        // Identical: 0, also with --exit-code
        let same = try CLIRunner.run(["diff", "catalog/products.yaml", "catalog/copy.yaml", "--exit-code"], in: directory)
        #expect(same.status == 0)
        #expect(same.stdout.contains("no changes: 15 products identical"), "\(same.stdout)")
        // Changed: 0 without --exit-code, 1 with it
        try CLIRunner.edit(copy, replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        #expect(try CLIRunner.run(["diff", "catalog/products.yaml", "catalog/copy.yaml"], in: directory).status == 0)
        let changed = try CLIRunner.run(["diff", "catalog/products.yaml", "catalog/copy.yaml", "--exit-code"], in: directory)
        #expect(changed.status == 1)
        #expect(changed.stdout.contains("com.calmly.app.sessions.20 (Session Pack 20)  changed"), "the reference name beside the ID")
        #expect(changed.stdout.contains("~ prices › USA: 5.99 USD → 6.49 USD (+0.50 USD, +8.3%)"))
    }

    @Test func aStoreKitConfigurationAndACatalogueCanBeDiffed() throws {
        let output = try CLIRunner.run(["diff", "configs/ExampleApp.storekit", "catalog/products.yaml", "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let diffs = try #require(report["diffs"] as? [[String: Any]])
        #expect((diffs.first?["old"] as? [String: Any])?["format"] as? String == "storekit")
        #expect((diffs.first?["new"] as? [String: Any])?["format"] as? String == "tally-catalog-yaml")
    }

    @Test func unreadableSidesExitTwoAndAreAllListed() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("{\"products\": [ {\"productID\": }".utf8).write(to: directory.appendingPathComponent("broken.storekit"))
        let output = try CLIRunner.run(["diff", "broken.storekit", "missing.yaml"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("broken.storekit:1:"), "\(output.stderr)")
        #expect(output.stderr.contains("missing.yaml: error: no such file"))
        #expect(output.stderr.contains("2 sources could not be read"))
        #expect(output.stdout.isEmpty)
    }

    @Test func usageErrorsExitTwo() throws {
        let one = try CLIRunner.run(["diff", "catalog/products.yaml"])
        #expect(one.status == 2)
        #expect(one.stderr.contains("tally diff needs OLD and NEW"))
        #expect(try CLIRunner.run(["diff", "a", "b", "--format", "xml"]).status == 2)
        let badSide = try CLIRunner.run(["diff", "@HEAD", "catalog/products.yaml"])
        #expect(badSide.status == 2)
        #expect(badSide.stderr.contains("FILE@REV"))
    }

    @Test func helpTeachesWithExamples() throws {
        let output = try CLIRunner.run(["diff", "--help"])
        #expect(output.status == 0)
        for text in ["Examples:", "FILE@REV", "--since", "--exit-code", "--verbose", "markdown", "html", "Exit codes"] {
            #expect(output.stdout.contains(text), "\(text)")
        }
    }

    @Test func markdownAndOutputFile() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("catalog/copy.yaml")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("catalog/products.yaml"), to: copy)
        try CLIRunner.edit(copy, replacing: "period: P3M\n", with: "period: P6M\n")
        let output = try CLIRunner.run(["diff", "catalog/products.yaml", "catalog/copy.yaml", "--format", "markdown", "--output", "diff.md"], in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.isEmpty)
        let written = try String(contentsOf: directory.appendingPathComponent("diff.md"), encoding: .utf8)
        #expect(written.contains("| ✏️ ⚠️ | `com.calmly.app.plus.quarterly › period` (Calmly Plus Quarterly) | renews every 3 months → 6 months (P3M → P6M)"))
        #expect(written.hasSuffix("\n"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".tally-") }
        #expect(leftovers.isEmpty, "the temporary file is renamed into place")
        // A folder that cannot be made (a file stands in its place) is an error, exit 2.
        let unwritable = try CLIRunner.run(["diff", "catalog/products.yaml", "catalog/copy.yaml", "--output", "catalog/copy.yaml/sub/diff.md"], in: directory)
        #expect(unwritable.status == 2)
        #expect(unwritable.stderr.contains("catalog/copy.yaml/sub/diff.md: error: cannot write the report"), "\(unwritable.stderr)")
    }
}

/// `FILE@REV` and `--since REV`, in a throw-away git repository holding the shipped examples.
@Suite(.enabled(if: GitRepository.gitAvailable, "git is not installed"))
struct DiffRevisionTests {
    @Test func fileAtRevisionIsReadThroughGit() throws {
        let repository = try GitRepository()
        defer { repository.remove() }
        try CLIRunner.edit(repository.url.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        let output = try CLIRunner.run(["diff", "catalog/products.yaml@HEAD", "catalog/products.yaml", "--exit-code"], in: repository.url)
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout.contains("old: catalog/products.yaml@HEAD (tally-catalog-yaml"))
        #expect(output.stdout.contains("old: catalog/products.yaml@HEAD:36:19"), "\(output.stdout)")
        #expect(output.stdout.contains("~ prices › USA: 5.99 USD → 6.49 USD"))
    }

    @Test func revisionErrorsAreClear() throws {
        let repository = try GitRepository()
        defer { repository.remove() }
        let badRevision = try CLIRunner.run(["diff", "catalog/products.yaml@v9.9", "catalog/products.yaml"], in: repository.url)
        #expect(badRevision.status == 2)
        #expect(badRevision.stderr.contains("catalog/products.yaml@v9.9: error: 'v9.9' is not a commit, branch or tag in this repository"), "\(badRevision.stderr)")
        try FileManager.default.copyItem(at: repository.url.appendingPathComponent("catalog/products.yaml"),
                                         to: repository.url.appendingPathComponent("catalog/new.yaml"))
        let notThere = try CLIRunner.run(["diff", "catalog/new.yaml@HEAD", "catalog/new.yaml"], in: repository.url)
        #expect(notThere.status == 2)
        #expect(notThere.stderr.contains("catalog/new.yaml@HEAD: error: the file does not exist at HEAD"), "\(notThere.stderr)")
        let since = try CLIRunner.run(["diff", "--since", "nope"], in: repository.url)
        #expect(since.status == 2)
        #expect(since.stderr.contains("'nope' is not a commit, branch or tag in this repository"))
    }

    @Test func sinceComparesEverySourceIncludingAddedAndDeletedFiles() throws {
        // Given: a price changed, a configuration added, nothing else
        let repository = try GitRepository()
        defer { repository.remove() }
        let url = repository.url
        try CLIRunner.edit(url.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        try FileManager.default.copyItem(at: url.appendingPathComponent("configs/ExampleApp.storekit"), to: url.appendingPathComponent("configs/Second.storekit"))
        // When
        let output = try CLIRunner.run(["diff", "--since", "HEAD"], in: url)
        // Then
        #expect(output.status == 0, "\(output.stderr)")
        let text = output.stdout
        #expect(text.contains("old: catalog/products.yaml@HEAD (tally-catalog-yaml"))
        #expect(text.contains("~ prices › USA: 5.99 USD → 6.49 USD"))
        #expect(text.contains("old: configs/ExampleApp.storekit@HEAD (storekit"))
        #expect(text.contains("no changes: 15 products identical"))
        #expect(text.contains("old: configs/Second.storekit@HEAD (absent)"))
        #expect(text.contains("15 added, 0 removed, 0 changed"))
        #expect(text.contains("total over 3 files: 15 added, 0 removed, 1 changed, 29 unchanged products"), "\(text)")

        // And a deleted file lists every product as removed
        try FileManager.default.removeItem(at: url.appendingPathComponent("catalog/products.yaml"))
        let deleted = try CLIRunner.run(["diff", "--since", "HEAD", "--format", "json"], in: url)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(deleted.stdout.utf8)) as? [String: Any])
        let diffs = try #require(report["diffs"] as? [[String: Any]])
        let catalog = try #require(diffs.first { ($0["old"] as? [String: Any])?["file"] as? String == "catalog/products.yaml@HEAD" })
        #expect((catalog["new"] as? [String: Any])?["absent"] as? Bool == true)
        #expect((catalog["summary"] as? [String: Any])?["removed"] as? Int == 15)
    }

    @Test func sinceWithNamedFilesAndExitCode() throws {
        let repository = try GitRepository()
        defer { repository.remove() }
        let unchanged = try CLIRunner.run(["diff", "--since", "HEAD", "configs/ExampleApp.storekit", "--exit-code"], in: repository.url)
        #expect(unchanged.status == 0, "\(unchanged.stderr)")
        #expect(!unchanged.stdout.contains("catalog/products.yaml"))
        try CLIRunner.edit(repository.url.appendingPathComponent("configs/ExampleApp.storekit"), replacing: "\"displayPrice\" : \"5.99\"", with: "\"displayPrice\" : \"6.99\"")
        let changed = try CLIRunner.run(["diff", "--since", "HEAD", "configs/ExampleApp.storekit", "--exit-code"], in: repository.url)
        #expect(changed.status == 1)
    }
}

/// A temporary git repository with the shipped examples committed.
struct GitRepository {
    let url: URL
    static let gitAvailable = (try? run(["--version"], in: FileManager.default.temporaryDirectory)) == 0

    init() throws {
        url = try CLIRunner.exampleCopy()
        for arguments in [["init", "-q"], ["add", "."], ["-c", "user.name=Tally Tests", "-c", "user.email=tests@example.com", "commit", "-q", "-m", "examples"]] {
            let status = try Self.run(arguments, in: url)
            guard status == 0 else { throw CLIRunner.EditError(message: "git \(arguments.joined(separator: " ")) failed with \(status)") }
        }
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    @discardableResult
    static func run(_ arguments: [String], in directory: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = directory
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
