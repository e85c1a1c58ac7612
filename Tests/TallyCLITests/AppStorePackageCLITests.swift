import Foundation
import Testing

/// metadata.xml through the built binary: the Calmly package agrees with configs/ and catalog/,
/// and each comparable field, broken once, gives its rule at the edited line.
@Suite struct AppStorePackageCLITests {
    static let fixture = "app-store-package"
    static let tiers = ["--price-tiers", "{fixture}/price-tiers.csv"]
    static let p = "com.calmly.app."

    @Test func theCalmlyPackageAgreesWithTheConfiguration() throws {
        let package = CLIRunner.fixtures.appendingPathComponent("app-store-package/metadata.xml").path
        let tiers = CLIRunner.fixtures.appendingPathComponent("app-store-package/price-tiers.csv").path
        let plain = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", package])
        #expect(plain.status == 0, "\(plain.stdout)\(plain.stderr)")
        #expect(plain.stdout.contains("compared IDs, kind (15), period (8), introductory-offer (6 of 8: not stated by the catalogue for 2), group (8); skipped family-sharing, prices"),
                "prices are tiers: not compared without a table")
        let priced = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", "catalog/products.yaml", package, "--price-tiers", tiers])
        #expect(priced.status == 0, "\(priced.stdout)\(priced.stderr)")
        #expect(priced.stdout.contains("metadata.xml: 15 products in both; compared IDs, kind (15), prices (15), period (8), introductory-offer (6 of 8: not stated by the catalogue for 2), group (8);"), "\(priced.stdout)")
    }

    @Test func showListsTheTiersAndWithATableThePrices() throws {
        let package = CLIRunner.fixtures.appendingPathComponent("app-store-package/metadata.xml").path
        let tiers = CLIRunner.fixtures.appendingPathComponent("app-store-package/price-tiers.csv").path
        let plain = try CLIRunner.run(["show", package, "--format", "json"])
        #expect(plain.status == 0)
        let products = try #require((try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])?["products"] as? [[String: Any]])
        #expect(products.count == 15)
        let sessions50 = try #require(products.first { $0["id"] as? String == "\(Self.p)sessions.50" })
        #expect(sessions50["price_tier"] as? Int == 13, "the dated interval in force today")
        #expect((sessions50["prices"] as? [String: String])?.isEmpty == true)
        let priced = try CLIRunner.run(["show", package, "--price-tiers", tiers])
        #expect(priced.stdout.contains("12.99 USD"), "\(priced.stdout)")
    }

    @Test(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent: the real-world package is skipped"))
    func theRealWorldPackageShowsFourProducts() throws {
        let output = try CLIRunner.run(["show", "--format", "json", CLIRunner.shared.appendingPathComponent("fixtures/realworld/xml/appleparty-iap_metadata.xml").path])
        #expect(output.status == 0, "\(output.stderr)")
        let products = (try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])?["products"] as? [Any]
        #expect(products?.count == 4)
    }

    static let twins: [FormatTwin] = [
        FormatTwin(name: "kind", file: "metadata.xml", anchor: "<product_id>com.calmly.app.sessions.20</product_id>",
                   old: "<type>consumable</type>", new: "<type>non-consumable</type>", expected: ["kind \(p)sessions.20"]),
        FormatTwin(name: "period", file: "metadata.xml", old: "<duration>3 Months</duration>", new: "<duration>6 Months</duration>",
                   expected: ["period \(p)plus.quarterly"]),
        FormatTwin(name: "intro-offer: another free trial", file: "metadata.xml", old: "<bonus_duration>7 Days</bonus_duration>",
                   new: "<bonus_duration>1 Month</bonus_duration>", expected: ["intro-offer \(p)plus.annual"]),
        FormatTwin(name: "intro-offer: the free trial left out", file: "metadata.xml", anchor: "<product_id>com.calmly.app.plus.weekly</product_id>",
                   old: "<bonus_duration>3 Days</bonus_duration>", new: "", expected: ["intro-offer \(p)plus.weekly"], lineOffset: nil),
        FormatTwin(name: "group", file: "metadata.xml", anchor: "<reference_name>Calmly Kids Six Months</reference_name>",
                   old: "                    <in_app_purchase>\n",
                   new: "                </subscription_group>\n                <subscription_group name=\"Calmly Kids Extra\">\n                    <in_app_purchase>\n",
                   expected: ["group \(p)kids.monthly"], lineOffset: 2),
        FormatTwin(name: "price (through the tier table)", file: "metadata.xml", old: "<wholesale_price_tier>6</wholesale_price_tier>",
                   new: "<wholesale_price_tier>13</wholesale_price_tier>", expected: ["price \(p)sessions.20"], arguments: tiers),
        FormatTwin(name: "a tier the table lacks is never guessed", file: "metadata.xml", old: "<wholesale_price_tier>6</wholesale_price_tier>",
                   new: "<wholesale_price_tier>7</wholesale_price_tier>", expected: ["invalid-price \(p)sessions.20", "price \(p)sessions.20"],
                   lineRule: "invalid-price", arguments: tiers),
        FormatTwin(name: "missing-in-catalog / missing-in-config", file: "metadata.xml", old: "<product_id>com.calmly.app.tip.tea</product_id>",
                   new: "<product_id>com.calmly.app.tip_tea</product_id>", expected: ["missing-in-catalog \(p)tip.tea", "missing-in-config \(p)tip_tea"],
                   lineRule: "missing-in-config"),
        FormatTwin(name: "not cleared for sale", file: "metadata.xml", anchor: "<product_id>com.calmly.app.tip.tea</product_id>",
                   old: "<cleared_for_sale>true</cleared_for_sale>", new: "<cleared_for_sale>false</cleared_for_sale>",
                   expected: ["missing-in-catalog \(p)tip.tea"], lineOffset: nil),
        FormatTwin(name: "an unreadable duration", file: "metadata.xml", old: "<duration>3 Months</duration>", new: "<duration>Quarterly</duration>",
                   expected: ["invalid-period \(p)plus.quarterly"]),
        FormatTwin(name: "products not cleared for sale, included", expected: ["missing-in-config \(p)soundpack.ocean"],
                   arguments: ["--include-state", "not-cleared-for-sale"]),
    ]

    @Test(arguments: twins)
    func brokenTwin(_ twin: FormatTwin) throws {
        try twin.verify(fixture: Self.fixture, source: "metadata.xml")
    }

    @Test func anIncludedProductPointsAtItsProductID() throws {
        let package = CLIRunner.fixtures.appendingPathComponent("app-store-package/metadata.xml")
        let output = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", package.path, "--include-state", "NOT_CLEARED_FOR_SALE", "--format", "json"])
        let finding = try #require(try FormatTwin.findings(output.stdout).first)
        #expect(finding.line == (try FormatTwin.line(of: "<product_id>com.calmly.app.soundpack.ocean</product_id>", in: package)))
    }

    @Test func aBrokenTierTableIsAnInputError() throws {
        let folder = try FormatTwin.copy(Self.fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        let table = folder.appendingPathComponent("price-tiers.csv")
        _ = try FormatTwin.edit(table, after: nil, replacing: "6,USA,5.99", with: "6,USA,5.99 USD")
        let output = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", folder.appendingPathComponent("metadata.xml").path, "--price-tiers", table.path])
        #expect(output.status == 2)
        #expect(output.stderr.contains("price-tiers.csv:"), "\(output.stderr)")
        #expect(output.stderr.contains("the price \"5.99 USD\" is not a decimal number"), "\(output.stderr)")
    }

    @Test func anUnknownStateIsAUsageError() throws {
        let output = try CLIRunner.run(["show", "configs/ExampleApp.storekit", "--include-state", "FOR_SALE_MAYBE"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--include-state FOR_SALE_MAYBE is not a state Tally knows"), "\(output.stderr)")
    }

    @Test func aMalformedPackageNamesItsLineAndColumn() throws {
        let folder = try FormatTwin.copy(Self.fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("metadata.xml")
        let line = try FormatTwin.edit(file, after: nil, replacing: "<duration>3 Months</duration>", with: "<duration>3 Months</durration>")
        let output = try CLIRunner.run(["show", file.path])
        #expect(output.status == 2)
        #expect(output.stderr.contains("metadata.xml:\(line):"), "\(output.stderr)")
        #expect(output.stderr.contains("not well-formed XML"), "\(output.stderr)")
    }
}
