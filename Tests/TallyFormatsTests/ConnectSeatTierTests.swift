import Foundation
import Testing
import TallyFormats
import TallyModel

/// API 4.5's `multiSeatStatus`/`marketSettings` and 4.6.1's volume tiers in a snapshot, read as
/// `ConnectCatalogBuilder.readMultiSeat` says (the docs give no JSON for a tier: prices that state
/// `minimumSeats`/`maximumSeats`), and tolerantly: what is not documented is named.
@Suite struct ConnectSeatTierTests {
    static func read(status: String = "ENABLED", markets: String = #"["APP_STORE"]"#,
                     tiers: [(min: Int, max: Int?, price: String)]) throws -> Catalog {
        let api = "https://api.appstoreconnect.apple.com"
        var prices: [String] = [#"{"type": "subscriptionPrices", "id": "base", "attributes": {"startDate": null, "preserved": false}, "relationships": {"territory": {"data": {"type": "territories", "id": "USA"}}, "subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": "p-base"}}}}"#]
        var points: [String] = [#"{"type": "subscriptionPricePoints", "id": "p-base", "attributes": {"customerPrice": "9.99"}}"#]
        for (index, tier) in tiers.enumerated() {
            let maximum = tier.max.map(String.init) ?? "null"
            prices.append(#"{"type": "subscriptionPrices", "id": "t\#(index)", "attributes": {"startDate": null, "preserved": false, "minimumSeats": \#(tier.min), "maximumSeats": \#(maximum)}, "relationships": {"territory": {"data": {"type": "territories", "id": "USA"}}, "subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": "p\#(index)"}}}}"#)
            points.append(#"{"type": "subscriptionPricePoints", "id": "p\#(index)", "attributes": {"customerPrice": "\#(tier.price)"}}"#)
        }
        let pages = [
            "a-subscriptions.json": """
            {"data": [{"type": "subscriptions", "id": "7", "attributes": {"productId": "com.a.teams", "state": "APPROVED", "subscriptionPeriod": "ONE_MONTH",
                       "familySharable": false, "multiSeatStatus": "\(status)", "marketSettings": \(markets)}}],
             "links": {"self": "\(api)/v1/subscriptionGroups/3/subscriptions"}}
            """,
            "b-prices.json": """
            {"data": [\(prices.joined(separator: ", "))],
             "included": [\(points.joined(separator: ", ")), {"type": "territories", "id": "USA", "attributes": {"currency": "USD"}}],
             "links": {"self": "\(api)/v1/subscriptions/7/prices?include=subscriptionPricePoint,territory"}}
            """,
        ]
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-seats-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, text) in pages { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return try SourceLoader.load(path: directory.path)
    }

    @Test func statusMarketsAndTiersAreRead() throws {
        let catalog = try Self.read(markets: #"["APP_STORE", "APPLE_SCHOOL"]"#, tiers: [(1, 5, "9.99"), (6, 20, "7.99"), (21, nil, "5.99")])
        #expect(catalog.issues.isEmpty, "\(catalog.issues)")
        let product = try #require(catalog.products.first)
        #expect(product.multiSeatStatus == .enabled)
        #expect(product.marketSettings == [.appStore, .appleSchool])
        #expect(product.seatTiers.map(\.label) == ["1-5 seats", "6-20 seats", "21+ seats"])
        #expect(product.seatTiers.map { $0.price(in: .usa)?.money.amount } == ["9.99", "7.99", "5.99"].map { Decimal(string: $0) })
        // The ordinary price stays the subscription's price.
        #expect(product.price(in: .usa)?.money.amount == Decimal(string: "9.99"))
        #expect(catalog.knownFields.isSuperset(of: [.seatTiers, .multiSeat]))
    }

    @Test func tiersThatAreNotContiguousAreNamedAndKept() throws {
        let catalog = try Self.read(tiers: [(1, 5, "9.99"), (8, nil, "7.99")])
        #expect(catalog.issues.map(\.rule) == [.invalidPrice], "\(catalog.issues)")
        #expect(catalog.issues.first?.message.contains("must start at 6") == true, "\(catalog.issues)")
        #expect(catalog.products.first?.seatTiers.count == 2)
    }

    @Test func anUndocumentedStatusOrMarketIsNamed() throws {
        let catalog = try Self.read(status: "SOMETIMES", markets: #"["APPLE_HOME"]"#, tiers: [])
        #expect(catalog.issues.map(\.rule) == [.unknownContent, .unknownContent], "\(catalog.issues)")
        let product = try #require(catalog.products.first)
        #expect(product.multiSeatStatus == nil && product.marketSettings == [])
        #expect(product.seatTiers.isEmpty && !catalog.knownFields.contains(.seatTiers))
    }
}
