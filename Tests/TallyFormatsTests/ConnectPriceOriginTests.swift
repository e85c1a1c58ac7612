import Foundation
import Testing
import TallyFormats
import TallyModel

/// App Store Connect in-app purchase prices marked as set by hand or derived by Apple, and
/// price pages that price nothing refused by name.
@Suite struct ConnectPriceOriginTests {
    static func page(_ type: String, _ id: String, manual: Bool?, territory: String, price: String?, tier: String? = nil) -> (String, String) {
        let manualText = manual.map { ", \"manual\": \($0)" } ?? ""
        let data = """
        {"type": "inAppPurchasePrices", "id": "\(id)", "attributes": {"startDate": null, "endDate": null\(manualText)},
         "relationships": {"inAppPurchasePricePoint": {"data": {"type": "inAppPurchasePricePoints", "id": "P\(id)"}},
                           "territory": {"data": {"type": "territories", "id": "\(territory)"}}}}
        """
        var attributes: [String] = []
        if let price { attributes.append("\"customerPrice\": \"\(price)\"") }
        if let tier { attributes.append("\"priceTier\": \"\(tier)\"") }
        let point = "{\"type\": \"inAppPurchasePricePoints\", \"id\": \"P\(id)\", \"attributes\": {\(attributes.joined(separator: ", "))}}"
        return (data, point)
    }

    static func pricesPage(_ list: String, _ entries: [(String, String)]) -> String {
        """
        {"data": [\(entries.map(\.0).joined(separator: ",\n"))],
         "included": [\(entries.map(\.1).joined(separator: ",\n"))],
         "links": {"self": "https://api.appstoreconnect.apple.com/v1/inAppPurchasePriceSchedules/S1/\(list)?include=inAppPurchasePricePoint%2Cterritory"}}
        """
    }

    static let purchase = """
    {"data": [{"type": "inAppPurchases", "id": "S1", "attributes": {"productId": "com.example.gems", "name": "Gems",
      "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED"}}],
     "links": {"self": "https://api.appstoreconnect.apple.com/v1/apps/1/inAppPurchasesV2"}}
    """

    func read(_ pages: [String: String]) throws -> Catalog {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-origins-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in pages { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return try SourceLoader.load(path: folder.path)
    }

    @Test func manualAndAutomaticPricesAreMarkedAndTheManualOneWins() throws {
        let catalog = try read([
            "1-purchases.json": Self.purchase,
            "2-manual.json": Self.pricesPage("manualPrices", [Self.page("m", "M1", manual: true, territory: "USA", price: "1.99")]),
            // The automatic list repeats USA (the manual price wins) and derives DEU; one price has no `manual` attribute.
            "3-automatic.json": Self.pricesPage("automaticPrices", [
                Self.page("a", "A1", manual: false, territory: "USA", price: "2.49"),
                Self.page("a", "A2", manual: false, territory: "DEU", price: "1.99"),
                Self.page("a", "A3", manual: nil, territory: "JPN", price: "300"),
            ]),
        ])
        let gems = try #require(catalog.products.first)
        #expect(gems.prices.map(\.territory.code) == ["USA", "DEU", "JPN"])
        #expect(gems.prices.map { Money.plain($0.money.amount) } == ["1.99", "1.99", "300"])
        #expect(gems.prices.map(\.origin) == [.manual, .automatic, .automatic])
        #expect(gems.prices.map(\.money.currency) == ["USD", "EUR", "JPY"])
    }

    @Test func aManualPricesPageAloneIsAnErrorAtItsFirstPrice() throws {
        do {
            _ = try read(["manual.json": Self.pricesPage("manualPrices", [Self.page("m", "M1", manual: true, territory: "USA", price: nil, tier: "3")])])
            Issue.record("read a price page that prices nothing")
        } catch let error as FormatError {
            #expect(error.message.contains("this export holds 1 inAppPurchasePrices but no inAppPurchases or subscriptions they price"), "\(error)")
            #expect(error.message.contains("1 of its price points give only priceTier, no customerPrice"), "\(error)")
            #expect(error.location.file.hasSuffix("manual.json") && error.location.line == 1)
        }
    }

    @Test func aTierOnlyPointIsADroppedValue() throws {
        let catalog = try read([
            "1-purchases.json": Self.purchase,
            "2-manual.json": Self.pricesPage("manualPrices", [Self.page("m", "M1", manual: true, territory: "USA", price: nil, tier: "3")]),
        ])
        #expect(catalog.products.first?.prices.isEmpty == true)
        #expect(catalog.issues.map(\.rule) == [.invalidPrice])
        #expect(catalog.droppedValues.first?.description.contains("gives priceTier 3 but no customerPrice") == true, "\(catalog.droppedValues)")
        #expect(catalog.droppedValues.first?.location.file.hasSuffix("2-manual.json") == true)
    }
}
