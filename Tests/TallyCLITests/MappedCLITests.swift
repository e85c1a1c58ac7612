import Foundation
import Testing

/// A billing server's own JSON, read through the shipped mapping (examples/server): consistent
/// with the StoreKit configuration, and a broken twin for every field the mapping reads, found at
/// the server file's line.
@Suite struct MappedCLITests {
    static let server = "examples/server/products.json"
    static let mapping = "examples/server/tally-mapping.yml"
    static let config = "configs/ExampleApp.storekit"
    static var check: [String] { ["check", config, server, "--mapping", mapping] }

    @Test func theReadmeCommandJustWorks() throws {
        let output = try CLIRunner.run(Self.check)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("vs examples/server/products.json: 15 products in both; compared IDs, kind (15), family-sharing (15), prices (15), period (8), "
                                       + "introductory-offer (8), group (8), level (8); skipped promotional-offers: the mapped server file has no promotional offers"),
                "\(output.stdout)")
    }

    struct Twin: Sendable, CustomTestStringConvertible {
        var field: String
        var old: String
        var new: String
        var expected: [String]
        var status: Int32 = 1
        var testDescription: String { field }
    }

    static let twins: [Twin] = [
        Twin(field: "id", old: "\"sku\": \"com.calmly.app.tip.tea\"", new: "\"sku\": \"com.calmly.app.tip_tea\"",
             expected: ["missing-in-catalog com.calmly.app.tip.tea", "missing-in-config com.calmly.app.tip_tea"]),
        Twin(field: "kind", old: "\"sku\": \"com.calmly.app.tip.tea\",\n        \"type\": \"credits\"",
             new: "\"sku\": \"com.calmly.app.tip.tea\",\n        \"type\": \"unlock\"", expected: ["kind com.calmly.app.tip.tea"]),
        Twin(field: "price", old: "{\"country\": \"US\", \"currency\": \"USD\", \"unit_amount\": \"599\"}",
             new: "{\"country\": \"US\", \"currency\": \"USD\", \"unit_amount\": \"649\"}", expected: ["price com.calmly.app.sessions.20"]),
        Twin(field: "period", old: "\"billing_period\": \"quarterly\"", new: "\"billing_period\": \"semiannual\"",
             expected: ["period com.calmly.app.plus.quarterly"]),
        Twin(field: "introductory offer", old: "\"duration\": \"1_week\"", new: "\"duration\": \"1_month\"",
             expected: ["intro-offer com.calmly.app.plus.annual"]),
        Twin(field: "group", old: "},\n          {\n            \"sku\": \"com.calmly.app.kids.monthly\"",
             new: "}\n        ]\n      },\n      {\n        \"key\": \"kids_extra\",\n        \"title\": \"Kids Extra\",\n        \"plans\": [\n          {\n            \"sku\": \"com.calmly.app.kids.monthly\"",
             expected: ["group com.calmly.app.kids.monthly"]),
        Twin(field: "level", old: "\"rank\": 4", new: "\"rank\": 2", expected: ["level com.calmly.app.plus.weekly"]),
        Twin(field: "family sharing", old: "\"display_name\": \"Lifetime Unlock\",\n        \"active\": true,\n        \"family_sharing\": true",
             new: "\"display_name\": \"Lifetime Unlock\",\n        \"active\": true,\n        \"family_sharing\": false",
             expected: ["family-sharing com.calmly.app.lifetime"], status: 0),
    ]

    @Test(arguments: twins)
    func aBrokenTwinGivesItsRuleAtTheServerLine(_ twin: Twin) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let lines = try workspace.replace(Self.server, twin.old, twin.new)
        let output = try workspace.run(Self.check + ["--format", "json"])
        #expect(output.status == twin.status, "\(output.stderr)")
        let report = try jsonReport(output)
        #expect(ruleProducts(report) == twin.expected.sorted())
        let side = try #require(findingRecords(report).compactMap { $0["catalog"] as? [String: Any] }.first { $0["line"] is Int })
        #expect(side["file"] as? String == Self.server)
        let edited = (lines[0]...(lines[0] + twin.new.filter { $0 == "\n" }.count))
        #expect(edited.contains(side["line"] as? Int ?? 0), "the finding points into the edit: \(side), edited \(edited)")
    }

    @Test func thePriceFindingNamesTheAmountsLineAndColumn() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let line = try workspace.replace(Self.server, Self.twins[2].old, Self.twins[2].new)
        let output = try workspace.run(Self.check)
        #expect(output.stdout.contains("catalog: examples/server/products.json:\(line[0]):63  6.49 USD"), "\(output.stdout)")
    }

    @Test func aWordTheMappingDoesNotKnowIsAnInputErrorAtTheServerLine() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let line = try workspace.replace(Self.server, "\"billing_period\": \"quarterly\"", "\"billing_period\": \"every_quarter\"")
        let output = try workspace.run(Self.check)
        #expect(output.status == 1, "an unreadable period is a lint finding, like in every format")
        #expect(output.stdout.contains("invalid-period"))
        #expect(output.stdout.contains("examples/server/products.json:\(line[0]):31"), "\(output.stdout)")
        try workspace.replace(Self.server, "\"type\": \"unlock\"", "\"type\": \"perk\"", count: 2)
        let refused = try workspace.run(Self.check)
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("\"perk\" is not a product kind Tally knows: add it to values.kind in examples/server/tally-mapping.yml"), "\(refused.stderr)")
    }

    @Test func aBadMappingIsAnInputErrorWithItsLine() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let line = try workspace.replace(Self.mapping, "  level: rank", "  levl: rank")
        let output = try workspace.run(Self.check)
        #expect(output.status == 2)
        #expect(output.stderr.contains("examples/server/tally-mapping.yml:\(line[0]):"), "\(output.stderr)")
        #expect(output.stderr.contains("unknown key \"levl\" in fields; did you mean \"level\"?"))
        #expect(output.stderr.contains("the mapping file could not be read; nothing was checked"))
    }

    @Test func withoutAMappingTheServerFileGetsAClearError() throws {
        let output = try CLIRunner.run(["check", Self.config, Self.server])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--mapping"), "\(output.stderr)")
        let forced = try CLIRunner.run(["show", "--input-format", "mapped", Self.server])
        #expect(forced.status == 2)
        #expect(forced.stderr.contains("needs a tally-mapping/1 file"), "\(forced.stderr)")
        #expect(forced.stderr.contains("pass --mapping FILE"), "\(forced.stderr)")
    }

    @Test func theJSONReportListsWhatEachPairSkipped() throws {
        let output = try CLIRunner.run(Self.check + ["--format", "json"])
        let report = try jsonReport(output)
        let pair = try #require((report["pairs"] as? [[String: Any]])?.first)
        #expect(pair["catalog"] as? String == Self.server)
        #expect(pair["shared_products"] as? Int == 15)
        let skipped = try #require(pair["skipped"] as? [[String: Any]])
        #expect(skipped.map { $0["field"] as? String } == ["promotional-offers"])
        #expect(skipped.first?["reason"] as? String == "the mapped server file has no promotional offers")
        #expect(skipped.first?["missing_in"] as? [String] == [Self.server])
    }
}

/// Detection: by extension and content, --input-format to force one, and a clear error naming
/// every format Tally reads for a file it cannot place.
@Suite struct DetectionCLITests {
    @Test func anUnknownFileNamesEveryFormat() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try "just some notes\n".write(to: workspace.root.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let output = try workspace.run(["show", "notes.txt"])
        #expect(output.status == 2)
        for format in ["storekit (.storekit, .json)", "tally-catalog-yaml (.yaml, .yml)", "plist (.plist)", "csv (.csv, .tsv)", "mapped (.json, .yaml, .yml)"] {
            #expect(output.stderr.contains(format), "\(format) in \(output.stderr)")
        }
        #expect(output.stderr.contains("--input-format"))
    }

    @Test func checkWithOneSourceLintsItAndSaysThereIsNothingToCompare() throws {
        let one = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("compared: configs/ExampleApp.storekit: nothing to compare it with, the only product source"), "\(one.stdout)")
        #expect(one.stdout.contains("'tally convert configs/ExampleApp.storekit --to tally-catalog-yaml"), "\(one.stdout)")
        #expect(one.stdout.contains("in 1 source"), "\(one.stdout)")
    }
}
