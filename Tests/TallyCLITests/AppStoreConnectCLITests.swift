import Foundation
import Testing

/// App Store Connect exports through the built binary: the Calmly export (a folder of 26 pages)
/// agrees with configs/ and catalog/, and each comparable field, broken once in one page, gives
/// its rule at that page's edited line.
@Suite struct AppStoreConnectCLITests {
    static let fixture = "app-store-connect/calmly"
    static let p = "com.calmly.app."

    @Test func theCalmlyExportAgreesWithTheConfigurationAndTheCatalogue() throws {
        let export = CLIRunner.fixtures.appendingPathComponent("app-store-connect/calmly").path
        let output = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", "catalog/products.yaml", export])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("calmly: 15 products in both; compared IDs, kind (15), family-sharing (15), prices (15), period (8), introductory-offer (8), group (8), level (8); skipped promotional-offers"), "\(output.stdout)")
    }

    @Test func onePageOnItsOwnIsASource() throws {
        let page = CLIRunner.fixtures.appendingPathComponent("app-store-connect/calmly/05-subscriptions-calmly-kids.json").path
        let output = try CLIRunner.run(["show", page, "--format", "json"])
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(document["format"] as? String == "app-store-connect")
        #expect((document["products"] as? [Any])?.count == 3)
    }

    static let twins: [FormatTwin] = [
        FormatTwin(name: "kind", file: "02-inAppPurchasesV2-page2.json", anchor: "\"productId\": \"com.calmly.app.lifetime\"",
                   old: "\"inAppPurchaseType\": \"NON_CONSUMABLE\"", new: "\"inAppPurchaseType\": \"CONSUMABLE\"", expected: ["kind \(p)lifetime"]),
        FormatTwin(name: "price of a one-time purchase", file: "03-iap-prices-sessions-20.json", anchor: "\"included\"",
                   old: "\"customerPrice\": \"5.99\"", new: "\"customerPrice\": \"6.49\"", expected: ["price \(p)sessions.20"]),
        FormatTwin(name: "price of a subscription", file: "06-subscription-prices-kids-monthly.json", anchor: "\"included\"",
                   old: "\"customerPrice\": \"4.99\"", new: "\"customerPrice\": \"5.99\"", expected: ["price \(p)kids.monthly"]),
        FormatTwin(name: "period", file: "05-subscriptions-calmly-plus.json", old: "\"subscriptionPeriod\": \"THREE_MONTHS\"",
                   new: "\"subscriptionPeriod\": \"SIX_MONTHS\"", expected: ["period \(p)plus.quarterly"]),
        FormatTwin(name: "intro-offer duration", file: "07-introductory-offers-plus-annual.json", anchor: "\"endDate\": \"2023-06-30\"",
                   old: "\"duration\": \"ONE_WEEK\"", new: "\"duration\": \"ONE_MONTH\"", expected: ["intro-offer \(p)plus.annual"], lineOffset: -6),
        FormatTwin(name: "intro-offer price", file: "07-introductory-offers-plus-monthly.json", anchor: "\"included\"",
                   old: "\"customerPrice\": \"1.99\"", new: "\"customerPrice\": \"2.49\"", expected: ["intro-offer \(p)plus.monthly"], lineOffset: nil),
        FormatTwin(name: "group", file: "05-subscriptions-calmly-plus.json", anchor: "\"groupLevel\": 4",
                   old: "\"id\": \"21000001\"", new: "\"id\": \"21000002\"", expected: ["group \(p)plus.weekly"], lineOffset: nil),
        FormatTwin(name: "level", file: "05-subscriptions-calmly-plus.json", old: "\"groupLevel\": 4", new: "\"groupLevel\": 2",
                   expected: ["level \(p)plus.weekly"]),
        FormatTwin(name: "family-sharing (a warning)", file: "02-inAppPurchasesV2-page2.json", anchor: "\"productId\": \"com.calmly.app.lifetime\"",
                   old: "\"familySharable\": true", new: "\"familySharable\": false", expected: ["family-sharing \(p)lifetime"], status: 0),
        FormatTwin(name: "missing-in-catalog / missing-in-config", file: "01-inAppPurchasesV2-page1.json", old: "\"productId\": \"com.calmly.app.tip.tea\"",
                   new: "\"productId\": \"com.calmly.app.tip_tea\"", expected: ["missing-in-catalog \(p)tip.tea", "missing-in-config \(p)tip_tea"],
                   lineRule: "missing-in-config"),
        FormatTwin(name: "taken off sale", file: "01-inAppPurchasesV2-page1.json", anchor: "\"productId\": \"com.calmly.app.tip.tea\"",
                   old: "\"state\": \"APPROVED\"", new: "\"state\": \"REMOVED_FROM_SALE\"", expected: ["missing-in-catalog \(p)tip.tea"], lineOffset: nil),
        FormatTwin(name: "taken off sale, included", file: "01-inAppPurchasesV2-page1.json", anchor: "\"productId\": \"com.calmly.app.tip.tea\"",
                   old: "\"state\": \"APPROVED\"", new: "\"state\": \"REMOVED_FROM_SALE\"", expected: [], lineOffset: nil,
                   arguments: ["--include-state", "removed-from-sale"], status: 0),
        FormatTwin(name: "not for sale yet, included", expected: ["missing-in-config \(p)soundpack.ocean", "missing-in-config \(p)plus.semiannual"],
                   arguments: ["--include-state", "READY_TO_SUBMIT", "--include-state", "DEVELOPER_REMOVED_FROM_SALE"]),
        FormatTwin(name: "an unreadable price", file: "03-iap-prices-sessions-20.json", anchor: "\"included\"",
                   old: "\"customerPrice\": \"5.99\"", new: "\"customerPrice\": \"5,99\"", expected: ["invalid-price \(p)sessions.20", "price \(p)sessions.20"],
                   lineRule: "invalid-price"),
    ]

    @Test(arguments: twins)
    func brokenTwin(_ twin: FormatTwin) throws {
        try twin.verify(fixture: Self.fixture, source: "")
    }

    @Test func aBrokenPageNamesItselfAndItsLine() throws {
        let folder = try FormatTwin.copy(Self.fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("05-subscriptions-calmly-kids.json")
        let line = try FormatTwin.edit(page, after: nil, replacing: "\"subscriptionPeriod\": \"SIX_MONTHS\",", with: "\"subscriptionPeriod\": SIX_MONTHS,")
        let output = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", folder.path])
        #expect(output.status == 2)
        #expect(output.stderr.contains("05-subscriptions-calmly-kids.json:\(line):"), "\(output.stderr)")
    }

    @Test func aPageLeftOutOfTheExportIsNamed() throws {
        let folder = try FormatTwin.copy(Self.fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The intro-offer page links price points its page no longer includes.
        let page = folder.appendingPathComponent("07-introductory-offers-kids-annual.json")
        let text = try String(contentsOf: page, encoding: .utf8)
        try text.replacingOccurrences(of: "\"type\": \"subscriptionPricePoints\",\n      \"id\"", with: "\"type\": \"otherPricePoints\",\n      \"id\"")
            .write(to: page, atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["show", folder.path])
        #expect(output.status == 2)
        #expect(output.stderr.contains("07-introductory-offers-kids-annual.json:"), "\(output.stderr)")
        #expect(output.stderr.contains("include=subscriptionPricePoint,territory"), "\(output.stderr)")
    }
}
