import Foundation
import Testing

/// Issue 28 items 5 and 6 through the built binary, offline: App Store Connect's in-app purchases
/// catalog report as a store source, and the store's own states as findings (snapshots and reports).
@Suite struct CatalogReportCLITests {
    static let example = CLIRunner.repository.appendingPathComponent("examples/review-readiness")
    static let twoApps = CLIRunner.repository.appendingPathComponent("Tests/TallyFormatsTests/Fixtures/catalog-report/in-app-purchases.txt")

    /// A scratch copy of examples/review-readiness, so that runs and edits never touch it.
    static func copy() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-report-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: example, to: directory)
        return directory
    }

    static func findings(_ stdout: String) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
        return try #require(document["findings"] as? [[String: Any]])
    }

    static func named(_ findings: [[String: Any]]) -> [String] {
        findings.map { "\($0["severity"] as? String ?? "?") \($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
    }

    @Test func showPrintsTheReportsProductsWithTheirStatesAndNamesTheOnesWaitingOnTheTeam() throws {
        let run = try CLIRunner.run(["show", "in-app-purchases.txt"], in: Self.example)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("STATE"))
        #expect(run.stdout.contains("com.lumen.app.pro.annual  auto-renewable-subscription  —            —            P1Y                   free trial of 1 week  APPROVED"))
        #expect(run.stdout.contains("not for sale and waiting on the team (not counted; the store-state rule reports them): com.lumen.app.gems.500 (MISSING_METADATA)"))
        #expect(run.stdout.contains("format app-store-connect-report"))
        #expect(run.stderr.contains("in-app-purchases.txt: note: 1 product was left out by state (1 MISSING_METADATA)"))
        let json = try CLIRunner.run(["show", "in-app-purchases.txt", "--format", "json"], in: Self.example)
        #expect(json.status == 0)
        #expect(json.stdout.contains("\"state\" : \"APPROVED\""))
    }

    @Test func aReportThatAgreesWithTheStoreKitFileLeavesOnlyTheProductInMissingMetadata() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try CLIRunner.run(["check", "--config", "tally.yml", "--format", "json", "Lumen.storekit", "in-app-purchases.txt"], in: directory)
        #expect(run.status == 0, "\(run.stderr)\n\(run.stdout)")
        let findings = try Self.findings(run.stdout)
        #expect(Self.named(findings) == ["warning store-state com.lumen.app.gems.500"])
        #expect(findings.first?["message"] as? String == "com.lumen.app.gems.500 is in Missing Metadata (MISSING_METADATA) in the App Store Connect catalog report: "
            + "no localization in fr_FR, which the policy requires; the report does not hold prices and territories, the localizations' texts "
            + "or the review screenshot and notes: see App Store Connect")
        // --strict fails on the warning.
        let strict = try CLIRunner.run(["check", "--config", "tally.yml", "--strict", "Lumen.storekit", "in-app-purchases.txt"], in: directory)
        #expect(strict.status == 1)
    }

    @Test func aMismatchWithTheStoreKitFileExitsOne() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("in-app-purchases.txt")
        try CLIRunner.edit(report, replacing: "\t1 Year\t1 Week\t", with: "\t1 Month\t1 Week\t")
        try CLIRunner.edit(report, replacing: "\tNon-Consumable\t", with: "\tConsumable\t")
        let run = try CLIRunner.run(["check", "--format", "json", "Lumen.storekit", "in-app-purchases.txt"], in: directory)
        #expect(run.status == 1, "\(run.stderr)\n\(run.stdout)")
        #expect(Self.named(try Self.findings(run.stdout)) == [
            "error kind com.lumen.app.starter", "error period com.lumen.app.pro.annual", "warning store-state com.lumen.app.gems.500",
        ])
        let text = try CLIRunner.run(["check", "Lumen.storekit", "in-app-purchases.txt"], in: directory)
        #expect(text.stdout.contains("in-app-purchases.txt:4:"), "the finding points at the report's row: \(text.stdout)")
    }

    @Test func aReportSavedBySpreadsheetsIsReadTheSame() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let text = try String(contentsOf: directory.appendingPathComponent("in-app-purchases.txt"), encoding: .utf8)
        // Excel's "Unicode Text": UTF-16 with a byte order mark; and UTF-8 with a byte order mark and CRLF lines.
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in text.utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        try Data(utf16).write(to: directory.appendingPathComponent("unicode.txt"))
        try Data([0xEF, 0xBB, 0xBF] + Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)).write(to: directory.appendingPathComponent("crlf.tsv"))
        for name in ["unicode.txt", "crlf.tsv"] {
            let run = try CLIRunner.run(["check", "--format", "json", "Lumen.storekit", name], in: directory)
            #expect(run.status == 0, "\(name): \(run.stderr)")
            #expect(Self.named(try Self.findings(run.stdout)) == ["warning store-state com.lumen.app.gems.500"], "\(name)")
        }
    }

    @Test func aValueTheReaderCannotReadExitsTwoNamingItsLineAndColumn() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("in-app-purchases.txt"), replacing: "\t1 Year\t", with: "\tforever\t")
        let run = try CLIRunner.run(["check", "Lumen.storekit", "in-app-purchases.txt"], in: directory)
        #expect(run.status == 2)
        #expect(run.stderr.contains("in-app-purchases.txt:4:91: error: com.lumen.app.pro.annual: AUTO_RENEWABLE_DURATION \"forever\" is not a duration Tally reads"),
                "\(run.stderr)")
    }

    @Test func aReportOfSeveralAppsAsksForTheAppAndReadsTheOneNamed() throws {
        let run = try CLIRunner.run(["show", Self.twoApps.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("the report holds the in-app purchases of 2 apps (Lumen 6740000001, Calmly 6450000001)"), "\(run.stderr)")
        #expect(run.stderr.contains("--report-app"), "\(run.stderr)")
        let lumen = try CLIRunner.run(["check", "--report-app", "Lumen", "--format", "json", "examples/review-readiness/Lumen.storekit", Self.twoApps.path])
        #expect(lumen.status == 1, "\(lumen.stderr)")
        #expect(Self.named(try Self.findings(lumen.stdout)) == [
            "error store-state com.lumen.app.pro.monthly", "warning store-state com.lumen.app.gems.500",
        ])
    }

    @Test func aSnapshotProductInMissingMetadataIsAFindingNamingItsCausesNotASilentAbsence() throws {
        let directory = try Self.copy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("snapshot/01-inAppPurchasesV2.json"),
                           replacing: "\"productId\": \"com.lumen.app.gems.100\",\n        \"inAppPurchaseType\": \"CONSUMABLE\",\n        \"state\": \"APPROVED\"",
                           with: "\"productId\": \"com.lumen.app.gems.100\",\n        \"inAppPurchaseType\": \"CONSUMABLE\",\n        \"state\": \"MISSING_METADATA\"")
        try CLIRunner.edit(directory.appendingPathComponent("snapshot/10-subscriptionGroups.json"),
                           replacing: "\"state\": \"APPROVED\",\n        \"subscriptionPeriod\"", with: "\"state\": \"REJECTED\",\n        \"subscriptionPeriod\"")
        let run = try CLIRunner.run(["check", "--config", "tally.yml", "--format", "json", "Lumen.storekit", "snapshot"], in: directory)
        #expect(run.status == 1, "\(run.stderr)\n\(run.stdout)")
        let findings = try Self.findings(run.stdout)
        let states = findings.filter { $0["rule"] as? String == "store-state" }
        // The app's configuration sells both: each is named with its state and causes, an error, and
        // not as missing from the snapshot (issue 36).
        #expect(Self.named(states) == ["error store-state com.lumen.app.gems.100", "error store-state com.lumen.app.pro.annual"])
        #expect(!findings.contains { ($0["rule"] as? String ?? "").hasPrefix("missing-in") }, "\(findings)")
        let gems = try #require(states.first { $0["product"] as? String == "com.lumen.app.gems.100" }?["message"] as? String)
        #expect(gems == "com.lumen.app.gems.100 is in the configuration, but the App Store Connect snapshot holds it in Missing Metadata (MISSING_METADATA), "
            + "not for sale (left out by the state filter, not missing): no price in CAN, where it is sold; "
            + "no localization in fr_FR, which the policy requires; de-DE: description is 57 characters, 12 over the limit of 45; "
            + "the snapshot does not hold the review screenshot and notes: see App Store Connect")
        let annual = try #require(states.first { $0["product"] as? String == "com.lumen.app.pro.annual" }?["message"] as? String)
        #expect(annual.hasPrefix("com.lumen.app.pro.annual is in the configuration, but the App Store Connect snapshot holds it in Rejected (REJECTED)"))
        #expect(annual.hasSuffix("the snapshot does not hold App Review's reasons or the review screenshot and notes: see App Store Connect"))
        // Shown too: the snapshot's table names the products waiting on the team.
        let show = try CLIRunner.run(["show", "snapshot"], in: directory)
        #expect(show.stdout.contains("waiting on the team (not counted; the store-state rule reports them): com.lumen.app.gems.100 (MISSING_METADATA), com.lumen.app.pro.annual (REJECTED)"),
                "\(show.stdout)")
        let included = try CLIRunner.run(["show", "snapshot", "--include-state", "ALL"], in: directory)
        #expect(included.stdout.contains("MISSING_METADATA") && included.stdout.contains("STATE"))
    }
}
