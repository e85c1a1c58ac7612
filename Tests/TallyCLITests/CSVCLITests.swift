import Foundation
import Testing

/// The CSV catalogue (an Excel export: byte order mark, CRLF) through the built binary: consistent
/// with the shipped examples, and a broken twin for every field it knows, found at the right line.
@Suite struct CSVCLITests {
    static let csv = "csv/calmly-prices.csv"
    static let config = "configs/ExampleApp.storekit"

    @Test func theFixtureIsConsistentWithTheStoreKitConfiguration() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = try workspace.run(["check", Self.config, Self.csv])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("compared IDs, kind (15), prices (15), period (8), introductory-offer (8), group (8), level (8); "
                                       + "skipped family-sharing, promotional-offers: the CSV catalogue has no family-sharing flags or promotional offers"),
                "\(output.stdout)")
    }

    struct Twin: Sendable, CustomTestStringConvertible {
        var field: String
        /// Replaced on every row of the product (the rows of one product must agree).
        var old: String
        var new: String
        var rows: Int
        var expected: [String]
        var testDescription: String { field }
    }

    static let twins: [Twin] = [
        Twin(field: "id", old: "com.calmly.app.soundpack.rainforest,", new: "com.calmly.app.soundpack.rain_forest,", rows: 8,
             expected: ["missing-in-catalog com.calmly.app.soundpack.rainforest", "missing-in-config com.calmly.app.soundpack.rain_forest"]),
        Twin(field: "kind", old: "com.calmly.app.tip.tea,consumable,", new: "com.calmly.app.tip.tea,non-consumable,", rows: 8,
             expected: ["kind com.calmly.app.tip.tea"]),
        Twin(field: "price", old: "com.calmly.app.sessions.20,consumable,,,,USA,5.99,", new: "com.calmly.app.sessions.20,consumable,,,,USA,6.49,", rows: 1,
             expected: ["price com.calmly.app.sessions.20"]),
        Twin(field: "period", old: "calmly_plus,3,P3M,", new: "calmly_plus,3,P6M,", rows: 8,
             expected: ["period com.calmly.app.plus.quarterly"]),
        Twin(field: "introductory offer", old: "free-trial,P1W,", new: "free-trial,P1M,", rows: 8,
             expected: ["intro-offer com.calmly.app.plus.annual"]),
        Twin(field: "group", old: "com.calmly.app.kids.monthly,auto-renewable-subscription,calmly_kids,",
             new: "com.calmly.app.kids.monthly,auto-renewable-subscription,kids_extra,", rows: 8,
             expected: ["group com.calmly.app.kids.monthly"]),
        Twin(field: "level", old: "calmly_plus,4,P1W,", new: "calmly_plus,2,P1W,", rows: 8,
             expected: ["level com.calmly.app.plus.weekly"]),
    ]

    @Test(arguments: twins)
    func aBrokenTwinGivesItsRuleAtTheEditedRow(_ twin: Twin) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let lines = try workspace.replace(Self.csv, twin.old, twin.new, count: twin.rows)
        let output = try workspace.run(["check", Self.config, Self.csv, "--format", "json"])
        #expect(output.status == 1, "\(output.stderr)")
        let report = try jsonReport(output)
        #expect(ruleProducts(report) == twin.expected.sorted())
        let side = try #require(findingRecords(report).compactMap { $0["catalog"] as? [String: Any] }.first { $0["line"] is Int })
        #expect(side["file"] as? String == Self.csv)
        #expect(lines.contains(side["line"] as? Int ?? 0), "the finding points at an edited row: \(side), edited \(lines)")
    }

    @Test func thePriceFindingNamesRowLineAndColumn() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let line = try workspace.replace(Self.csv, "sessions.20,consumable,,,,USA,5.99,", "sessions.20,consumable,,,,USA,6.49,")
        let output = try workspace.run(["check", Self.config, Self.csv])
        #expect(output.status == 1)
        #expect(output.stdout.contains("catalog: csv/calmly-prices.csv:\(line[0]):46  6.49 USD"), "\(output.stdout)")
    }

    @Test func conflictingRowsAreAnInputErrorNamingBothRows() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let line = try workspace.replace(Self.csv, "calmly_plus,4,P1W,GBR,", "calmly_plus,4,P1M,GBR,")
        let output = try workspace.run(["check", Self.config, Self.csv])
        #expect(output.status == 2)
        #expect(output.stderr.contains("csv/calmly-prices.csv:\(line[0]):"), "\(output.stderr)")
        #expect(output.stderr.contains("com.calmly.app.plus.weekly has period \"P1W\" in row \(line[0] - 1) but \"P1M\" in row \(line[0])"), "\(output.stderr)")
    }

    @Test func aForcedFormatReadsAFileWithAnotherName() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try FileManager.default.copyItem(at: workspace.root.appendingPathComponent(Self.csv), to: workspace.root.appendingPathComponent("prices.txt"))
        let unknown = try workspace.run(["show", "prices.txt"])
        #expect(unknown.status == 0, "the header is recognised without the extension: \(unknown.stderr)")
        let forced = try workspace.run(["show", "--input-format", "csv", "prices.txt"])
        #expect(forced.status == 0)
        #expect(forced.stdout.contains("15 products"))
    }
}
