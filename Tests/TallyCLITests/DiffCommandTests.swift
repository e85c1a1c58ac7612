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
        #expect(text.contains("total for configurations (2 files): 15 added, 0 removed, 0 changed, 15 unchanged products"), "\(text)")
        #expect(text.contains("total for catalogues (1 file): 0 added, 0 removed, 1 changed, 14 unchanged products"), "configurations and catalogues apart")

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

/// `--since` in a repository laid out as apps are: the policy names `App/*.storekit` and
/// `server/catalog/*.yaml`, and the command runs from the top or from a subfolder.
@Suite(.enabled(if: GitRepository.gitAvailable, "git is not installed"))
struct DiffPolicySourcesTests {
    /// The examples moved to App/ and server/catalog/, with a policy naming them, committed.
    static func appRepository() throws -> GitRepository {
        let repository = try GitRepository()
        let url = repository.url, manager = FileManager.default
        for folder in ["App", "server"] { try manager.createDirectory(at: url.appendingPathComponent(folder), withIntermediateDirectories: true) }
        try manager.moveItem(at: url.appendingPathComponent("configs/ExampleApp.storekit"), to: url.appendingPathComponent("App/App.storekit"))
        try manager.moveItem(at: url.appendingPathComponent("catalog"), to: url.appendingPathComponent("server/catalog"))
        try Data("version: 1\nsources:\n  - App/*.storekit\n  - server/catalog/*.yaml\n".utf8).write(to: url.appendingPathComponent(".tally.yml"))
        try repository.commit("app layout")
        return repository
    }

    @Test func sinceReadsThePolicySourcesFromAnyFolderAndAMovedProductIsMoved() throws {
        // Given: the tip moves from products.yaml to a new extra.yaml, and one price rises
        let repository = try Self.appRepository()
        defer { repository.remove() }
        let catalog = repository.url.appendingPathComponent("server/catalog")
        let products = catalog.appendingPathComponent("products.yaml")
        let text = try String(contentsOf: products, encoding: .utf8)
        let start = try #require(text.range(of: "  - id: com.calmly.app.tip.tea\n"))
        let end = try #require(text.range(of: "  # Permanent unlocks", range: start.upperBound..<text.endIndex))
        let block = String(text[start.lowerBound..<end.lowerBound])
        try text.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "").write(to: products, atomically: true, encoding: .utf8)
        try ("format: tally-catalog/1\ndefault_territory: USA\nproducts:\n" + block).write(to: catalog.appendingPathComponent("extra.yaml"), atomically: true, encoding: .utf8)
        try CLIRunner.edit(products, replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        for folder in [repository.url, catalog] {
            // When
            let output = try CLIRunner.run(["diff", "--since", "HEAD"], in: folder)
            // Then
            #expect(output.status == 0, "\(output.stderr)")
            let report = output.stdout
            #expect(report.contains("old: server/catalog/products.yaml@HEAD (tally-catalog-yaml"), "\(report)")
            #expect(report.contains("new: server/catalog/extra.yaml, server/catalog/products.yaml (tally-catalog-yaml"))
            #expect(report.contains("0 added, 0 removed, 2 changed (1 moved between files), 13 unchanged products"))
            #expect(report.contains("~ file: moved from server/catalog/products.yaml@HEAD to server/catalog/extra.yaml"))
            #expect(report.contains("new: server/catalog/extra.yaml:4:"), "the location names the file the product is in now")
            #expect(report.contains("~ prices › USA: 5.99 USD → 6.49 USD"))
            #expect(!report.contains("removed product"))
            #expect(report.contains("old: App/App.storekit@HEAD (storekit"))
            #expect(report.contains("no changes: 15 products identical"))
        }
        let markdown = try CLIRunner.run(["diff", "--since", "HEAD", "--format", "markdown"], in: catalog)
        #expect(markdown.stdout.contains("| ✏️ | `com.calmly.app.tip.tea › file` (Tip: Cup of Tea) | moved from"), "moved, without an attention mark")
        #expect(markdown.stdout.contains("| 49:5 | server/catalog/extra.yaml:4:5 |"), "\(markdown.stdout)")
        #expect(!markdown.stdout.contains("Needs attention"))
        #expect(try CLIRunner.run(["diff", "--since", "HEAD", "--exit-code"], in: catalog).status == 1)
    }

    @Test func sinceWithAFolderComparesItsFilesAsOneCatalogueAndARenamedFileMovesNothing() throws {
        let repository = try Self.appRepository()
        defer { repository.remove() }
        let catalog = repository.url.appendingPathComponent("server/catalog")
        try FileManager.default.moveItem(at: catalog.appendingPathComponent("products.yaml"), to: catalog.appendingPathComponent("renamed.yaml"))
        let output = try CLIRunner.run(["diff", "--since", "HEAD", "."], in: catalog)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("new: server/catalog/renamed.yaml (tally-catalog-yaml"), "\(output.stdout)")
        #expect(output.stdout.contains("no changes: 15 products identical"), "a renamed file is the same catalogue: nothing moved")
        #expect(!output.stdout.contains("App/App.storekit"), "only the folder named")
    }

    @Test func twoFoldersAreComparedAsWholesAndANearMissIdSaysRenamed() throws {
        // Given: old/ and new/ with the catalogue, where new/ moved the tip to extra.yaml under a near-miss ID
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = FileManager.default
        for side in ["old", "new"] {
            try manager.createDirectory(at: directory.appendingPathComponent(side), withIntermediateDirectories: true)
            try manager.copyItem(at: directory.appendingPathComponent("catalog/products.yaml"), to: directory.appendingPathComponent("\(side)/products.yaml"))
        }
        let products = directory.appendingPathComponent("new/products.yaml")
        let text = try String(contentsOf: products, encoding: .utf8)
        let start = try #require(text.range(of: "  - id: com.calmly.app.tip.tea\n"))
        let end = try #require(text.range(of: "  # Permanent unlocks", range: start.upperBound..<text.endIndex))
        let block = text[start.lowerBound..<end.lowerBound].replacingOccurrences(of: "com.calmly.app.tip.tea", with: "com.calmly.app.tip_tea")
        try text.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "").write(to: products, atomically: true, encoding: .utf8)
        try ("format: tally-catalog/1\nproducts:\n" + block).write(to: directory.appendingPathComponent("new/extra.yaml"), atomically: true, encoding: .utf8)
        // When
        let output = try CLIRunner.run(["diff", "old", "new"], in: directory)
        // Then
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("old: old/ (tally-catalog-yaml"))
        // The same reference name: one product renamed, and moved to another file.
        #expect(output.stdout.contains("0 added, 0 removed, 1 changed (1 moved between files), 14 unchanged products"), "\(output.stdout)")
        #expect(output.stdout.contains("~ ID: renamed: com.calmly.app.tip.tea → com.calmly.app.tip_tea (same reference name \"Tip: Cup of Tea\")"), "\(output.stdout)")
        #expect(output.stdout.contains("~ file: moved from old/products.yaml to new/extra.yaml"), "\(output.stdout)")
        #expect(output.stdout.contains("new: new/extra.yaml:3:"))
        // Under another reference name too, the near miss is a removal and an addition with a renamed? note.
        try CLIRunner.edit(directory.appendingPathComponent("new/extra.yaml"), replacing: "name: \"Tip: Cup of Tea\"", with: "name: \"Tip: Tea\"")
        let renamed = try CLIRunner.run(["diff", "old", "new"], in: directory)
        #expect(renamed.stdout.contains("1 added, 1 removed, 0 changed, 14 unchanged products"), "\(renamed.stdout)")
        #expect(renamed.stdout.contains("removed product: its ID can never be used again in the App Store (renamed? com.calmly.app.tip.tea → com.calmly.app.tip_tea)"))
        // And a folder without sources is a one-line error, without the usage
        try manager.createDirectory(at: directory.appendingPathComponent("empty"), withIntermediateDirectories: true)
        let empty = try CLIRunner.run(["diff", "empty", "new"], in: directory)
        #expect(empty.status == 2)
        #expect(empty.stderr == "tally: 'empty' is a folder with no source files Tally reads directly in it\n", "\(empty.stderr)")
    }

    @Test func sinceReadsAPolicySourceThroughItsMapping() throws {
        // Given: the billing server's own JSON, read through its mapping, named by the policy
        let repository = try GitRepository()
        defer { repository.remove() }
        let url = repository.url, manager = FileManager.default
        try manager.createDirectory(at: url.appendingPathComponent("server"), withIntermediateDirectories: true)
        for file in ["products.json", "tally-mapping.yml"] {
            try manager.copyItem(at: CLIRunner.repository.appendingPathComponent("examples/server/\(file)"), to: url.appendingPathComponent("server/\(file)"))
        }
        try Data("version: 1\nsources:\n  - {path: \"server/*.json\", mapping: server/tally-mapping.yml}\n".utf8).write(to: url.appendingPathComponent(".tally.yml"))
        try repository.commit("server")
        try CLIRunner.edit(url.appendingPathComponent("server/products.json"), replacing: "{\"country\": \"US\", \"currency\": \"USD\", \"unit_amount\": 199}",
                           with: "{\"country\": \"US\", \"currency\": \"USD\", \"unit_amount\": 249}")
        // When
        let output = try CLIRunner.run(["diff", "--since", "HEAD"], in: url.appendingPathComponent("server"))
        // Then
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("~ prices › USA: 1.99 USD → 2.49 USD"), "\(output.stdout)")
        #expect(!output.stdout.contains("tally-mapping.yml"), "the mapping is not a source")
    }

    @Test func outsideARepositoryTheMessageIsOneClearLine() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["diff", "--since", "HEAD"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("not in a git repository"), "\(output.stderr)")
        #expect(!output.stderr.contains("fatal:"))
        let file = try CLIRunner.run(["diff", "catalog/products.yaml@HEAD", "catalog/products.yaml"], in: directory)
        #expect(file.status == 2)
        #expect(file.stderr.contains("not in a git repository") && !file.stderr.contains("fatal:"), "\(file.stderr)")
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

    /// Commits everything in the working tree.
    func commit(_ message: String) throws {
        for arguments in [["add", "-A"], ["-c", "user.name=Tally Tests", "-c", "user.email=tests@example.com", "commit", "-q", "-m", message]] {
            let status = try Self.run(arguments, in: url)
            guard status == 0 else { throw CLIRunner.EditError(message: "git \(arguments.joined(separator: " ")) failed with \(status)") }
        }
    }

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
