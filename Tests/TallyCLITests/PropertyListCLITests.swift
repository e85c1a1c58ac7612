import Foundation
import Testing

/// The app's Products.plist through the built binary: consistent with the shipped examples, and a
/// broken twin for every field a property list knows (IDs, kind, group, level), each located by
/// its key path.
@Suite struct PropertyListCLITests {
    static let plist = "plist/CalmlyProducts.plist"
    static let config = "configs/ExampleApp.storekit"

    @Test func theFixtureIsConsistentWithTheStoreKitConfiguration() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = try workspace.run(["check", Self.config, Self.plist])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("vs plist/CalmlyProducts.plist: 15 products in both; compared IDs, kind (15), group (8), level (8); "
                                       + "skipped family-sharing, prices, period, introductory-offer, promotional-offers: "
                                       + "the property list has no family-sharing flags, prices, periods, introductory offers or promotional offers"),
                "\(output.stdout)")
    }

    @Test func andWithTheCatalogueInOneRun() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let output = try workspace.run(["check", Self.config, Self.plist, "catalog/products.yaml"])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        // A product list prices nothing: no storefront is named for it.
        #expect(output.stdout.contains("compared: plist/CalmlyProducts.plist vs catalog/products.yaml"), "\(output.stdout)")
        #expect(output.stdout.contains("compared: configs/ExampleApp.storekit (storefront USA) vs catalog/products.yaml"))
    }

    struct Twin: Sendable, CustomTestStringConvertible {
        var field: String
        var old: String
        var new: String
        var expected: [String]
        /// A finding's rule and the key path its property-list side must name.
        var located: (rule: String, path: String)
        var testDescription: String { field }
    }

    static let twins: [Twin] = [
        Twin(field: "id", old: "<string>com.calmly.app.lifetime</string>", new: "<string>com.calmly.app.lifetime_unlock</string>",
             // Both files are copies of what the app ships: neither is "the catalogue".
             expected: ["missing-in-copy com.calmly.app.lifetime", "missing-in-copy com.calmly.app.lifetime_unlock"],
             located: ("missing-in-copy", "Products[4].ProductId")),
        Twin(field: "kind", old: "<string>Tip: Cup of Tea</string>\n\t\t\t<key>Type</key>\n\t\t\t<string>Consumable</string>",
             new: "<string>Tip: Cup of Tea</string>\n\t\t\t<key>Type</key>\n\t\t\t<string>NonConsumable</string>",
             expected: ["kind com.calmly.app.tip.tea"], located: ("kind", "Products[3].Type")),
        Twin(field: "group", old: "\t\t\t\t<string>com.calmly.app.kids.monthly</string>\n",
             new: "\t\t\t</array>\n\t\t</dict>\n\t\t<dict>\n\t\t\t<key>Group</key>\n\t\t\t<string>Kids Extra</string>\n\t\t\t<key>Products</key>\n\t\t\t<array>\n\t\t\t\t<string>com.calmly.app.kids.monthly</string>\n",
             expected: ["group com.calmly.app.kids.monthly"], located: ("group", "Subscriptions[2].Products")),
        Twin(field: "level", old: "<string>com.calmly.app.plus.annual</string>\n\t\t\t\t<string>com.calmly.app.plus.monthly</string>",
             new: "<string>com.calmly.app.plus.monthly</string>\n\t\t\t\t<string>com.calmly.app.plus.annual</string>",
             // A swap of two: either explains it; the one reported is the one whose move is blamed, once.
             expected: ["level com.calmly.app.plus.monthly"], located: ("level", "Subscriptions[0].Products[1]")),
    ]

    @Test(arguments: twins)
    func aBrokenTwinGivesItsRuleAtItsKeyPath(_ twin: Twin) throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.replace(Self.plist, twin.old, twin.new)
        let output = try workspace.run(["check", Self.config, Self.plist, "--format", "json"])
        #expect(output.status == 1, "\(output.stderr)")
        let report = try jsonReport(output)
        #expect(ruleProducts(report) == twin.expected.sorted())
        // The finding whose property-list side (the second file, under `catalog`) holds the value.
        let finding = try #require(findingRecords(report).first {
            $0["rule"] as? String == twin.located.rule && ($0["catalog"] as? [String: Any])?["path"] is String
        })
        let side = try #require(finding["catalog"] as? [String: Any])
        #expect(side["role"] as? String == "configuration", "a product list is a copy of what the app ships")
        #expect(side["file"] as? String == Self.plist)
        #expect(side["path"] as? String == twin.located.path)
        #expect(side["line"] is NSNull, "a property list has no lines")
    }

    @Test func theTextReportShowsTheKeyPath() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.replace(Self.plist, Self.twins[1].old, Self.twins[1].new)
        let output = try workspace.run(["check", Self.config, Self.plist])
        #expect(output.stdout.contains("configuration: plist/CalmlyProducts.plist (Products[3].Type)  non-consumable"), "\(output.stdout)")
    }

    @Test func anUnrecognisedShapeIsAnInputError() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        try workspace.replace(Self.plist, "<key>Products</key>", "<key>Items</key>", count: 3)
        let output = try workspace.run(["show", Self.plist])
        #expect(output.status == 2)
        #expect(output.stderr.contains("plist/CalmlyProducts.plist: error: this property list has a shape Tally does not recognise"), "\(output.stderr)")
        #expect(output.stderr.contains("Tally reads: a list of product IDs"))
    }

    @Test func showSaysWhatTheSourceKnows() throws {
        let output = try CLIRunner.run(["show", "Tests/TallyCLITests/Fixtures/\(Self.plist)"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("this source knows only: id, kind, group, level"))
    }
}

/// `tally show` on every real property list in ../shared/fixtures/realworld/plist.
@Suite(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent: the real-world property-list tests are skipped"))
struct RealWorldPropertyListCLITests {
    @Test(arguments: [
        ("iapdemo-ProductsRelease.plist", 5), ("skhelper-SampleProducts-format2.plist", 4), ("storehelper-SampleProducts.plist", 11),
    ])
    func showListsEveryProduct(_ name: String, _ count: Int) throws {
        let file = CLIRunner.shared.appendingPathComponent("fixtures/realworld/plist/\(name)").path
        let output = try CLIRunner.run(["show", "--format", "json", file])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try jsonReport(output)
        let products = (document["products"] as? [[String: Any]]) ?? []
        #expect(products.count == count)
        #expect(document["known_fields"] as? [String] == (count == 5 ? ["id"] : ["id", "group", "level"]))
        #expect(products.contains { $0["kind"] == nil }, "an ID without a type has no kind to show")
    }
}
