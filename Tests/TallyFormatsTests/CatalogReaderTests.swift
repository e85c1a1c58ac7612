import Foundation
import Testing
import TallyFormats
import TallyModel

@Suite struct CatalogReaderTests {
    static let yaml = """
    format: tally-catalog/1
    default_territory: USA
    products:
      - id: com.example.coins.100
        kind: consumable
        name: 100 Coins
        prices: {USA: "0.99", GBR: 0.99, JPN: "160"}
        localizations: {en_US: {name: "100 Coins", description: "A pile of coins"}}
    subscription_groups:
      - id: premium
        name: Premium
        subscriptions:
          - id: com.example.premium.yearly
            level: 1
            period: P12M
            prices: {USA: "49.99"}
            family_shareable: true
            introductory_offer: {type: free-trial, period: P7D, count: 1}
            promotional_offers:
              - {id: winback, type: pay-up-front, period: P1M, count: 1, price: "4.99"}
          - id: com.example.premium.monthly
            period: P1M
            prices: {USA: "4.99"}
    """

    static let json = """
    {"format": "tally-catalog/1", "default_territory": "USA",
     "products": [{"id": "com.example.coins.100", "kind": "consumable", "name": "100 Coins",
                   "prices": {"USA": "0.99", "GBR": 0.99, "JPN": "160"},
                   "localizations": {"en_US": {"name": "100 Coins", "description": "A pile of coins"}}}],
     "subscription_groups": [{"id": "premium", "name": "Premium", "subscriptions": [
        {"id": "com.example.premium.yearly", "level": 1, "period": "P12M", "prices": {"USA": "49.99"},
         "family_shareable": true, "introductory_offer": {"type": "free-trial", "period": "P7D", "count": 1},
         "promotional_offers": [{"id": "winback", "type": "pay-up-front", "period": "P1M", "count": 1, "price": "4.99"}]},
        {"id": "com.example.premium.monthly", "period": "P1M", "prices": {"USA": "4.99"}}]}]}
    """

    @Test(arguments: [("catalog.yaml", yaml), ("catalog.json", json)])
    func readsTheSpecExample(_ name: String, _ text: String) throws {
        let catalog = try Fixtures.load(text, as: name)
        #expect(catalog.products.map(\.id) == ["com.example.coins.100", "com.example.premium.yearly", "com.example.premium.monthly"])
        let coins = catalog.products[0]
        #expect(coins.kind == .consumable)
        #expect(coins.prices.map(\.territory.code) == ["USA", "GBR", "JPN"])
        #expect(coins.prices.map { Money.plain($0.money.amount) } == ["0.99", "0.99", "160"])
        #expect(coins.prices.map(\.money.currency) == ["USD", "GBP", "JPY"])
        #expect(coins.localizations.first?.displayName == "100 Coins")
        let yearly = catalog.products[1]
        #expect(yearly.kind == .autoRenewableSubscription)
        #expect(yearly.period == Period(iso8601: "P1Y"))
        #expect(yearly.group == GroupMembership(groupID: "premium", groupName: "Premium", level: 1))
        #expect(yearly.introductoryOffer?.mode == .freeTrial)
        #expect(yearly.introductoryOffer?.period == Period(iso8601: "P1W"))
        #expect(yearly.promotionalOffers.first?.price == Money(amount: Decimal(string: "4.99")!, currency: "USD"))
        // Level defaults to the position in the list.
        #expect(catalog.products[2].group?.level == 2)
        #expect(catalog.groups.first?.productIDs == ["com.example.premium.yearly", "com.example.premium.monthly"])
    }

    @Test func positionsPointAtTheValues() throws {
        let catalog = try Fixtures.load(Self.yaml, as: "catalog.yaml")
        let usa = try #require(catalog.products[1].prices.first)
        #expect(usa.position.line == 16)
        let json = try Fixtures.load(Self.json, as: "catalog.json")
        #expect(json.products[0].prices[1].position == Position(line: 3, column: 49))
    }

    @Test(arguments: [
        ("format: tally-catalog/1\nproducts:\n  - id: a.b\n    kind: consumable\n    perod: P1M\n", 5, "unknown key \"perod\" in a product"),
        ("format: tally-catalog/1\nproducts:\n  - id: a.b\n    kind: consumable\n    kind: consumable\n", 5, "appears twice"),
        ("format: tally-catalog/2\n", 1, "unsupported format \"tally-catalog/2\""),
        ("products: []\n", 1, "missing \"format: tally-catalog/1\""),
        ("format: tally-catalog/1\nproducts:\n  - id: a.b\n    kind: subscription\n", 4, "unknown kind \"subscription\""),
        ("format: tally-catalog/1\nproducts:\n  - id: a.b\n    kind: consumable\n    prices: {US: \"1\"}\n", 5, "\"US\" is not an App Store storefront code"),
        ("format: tally-catalog/1\nproducts:\n  - kind: consumable\n", 3, "a product has no id"),
        ("format: tally-catalog/1\nproducts: [\n", 3, "invalid YAML"),
        ("format: tally-catalog/1\nsubscription_groups:\n  - id: g\n    subscriptions:\n      - id: a.b\n        introductory_offer: {type: trial, period: P1W}\n", 6, "unknown offer type \"trial\""),
    ])
    func malformedYAMLIsALocatedError(_ text: String, _ line: Int, _ message: String) throws {
        let error = try #require(Fixtures.error(text, as: "bad.yaml"))
        #expect(error.location.file == "bad.yaml")
        #expect(error.location.line == line, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func unknownKeySuggestsTheNearestKey() throws {
        let error = try #require(Fixtures.error("format: tally-catalog/1\nproducts:\n  - id: a.b\n    kind: consumable\n    prics: {}\n", as: "c.yaml"))
        #expect(error.message.contains("did you mean \"prices\"?"))
    }

    @Test(arguments: [
        ("{\"format\": \"tally-catalog/1\", \"products\": [{\"id\": \"a\", \"kind\": \"consumable\",}]}", 1, 77, "trailing comma"),
        ("{\"format\": \"tally-catalog/1\",\n \"products\": [{\"id\": \"a\" \"kind\": \"consumable\"}]}", 2, 26, "expected ',' or '}'"),
        ("{\"format\": \"tally-catalog/1\",\n \"products\": [", 2, 15, "unexpected end of the file"),
        ("{\"format\": \"tally-catalog/1\"} x", 1, 31, "after the end of the document"),
        ("[1, 2]", 1, 1, "a tally-catalog/1 file is an object"),
        ("{\"format\": \"tally-catalog/1\", \"products\": [{\"id\": 5}]}", 1, 51, "expected a string, found a number"),
    ])
    func malformedJSONIsALocatedError(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let error = try #require(Fixtures.error(text, as: "bad.json"))
        #expect(error.location.line == line, "\(error)")
        #expect(error.location.column == column, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func unparsablePricesAndPeriodsBecomeIssuesNotCrashes() throws {
        let catalog = try Fixtures.load("""
        format: tally-catalog/1
        products:
          - {id: a.b, kind: consumable, prices: {USA: "4,99"}}
        subscription_groups:
          - id: g
            subscriptions:
              - {id: c.d, period: monthly, prices: {USA: "1.99"}}
        """, as: "issues.yaml")
        #expect(catalog.issues.map(\.rule.rawValue) == ["invalid-price", "invalid-period"])
        #expect(catalog.issues.map(\.productID) == ["a.b", "c.d"])
        #expect(catalog.issues.map(\.position.line) == [3, 7])
    }

    @Test func jsonNumbersStayExact() throws {
        let catalog = try Fixtures.load("{\"format\": \"tally-catalog/1\", \"products\": [{\"id\": \"a\", \"kind\": \"consumable\", \"prices\": {\"USA\": 0.1, \"GBR\": 1234567.89}}]}", as: "n.json")
        #expect(catalog.products[0].prices.map { Money.plain($0.money.amount) } == ["0.1", "1234567.89"])
    }
}

@Suite struct PriceTableTests {
    @Test func aTerritoryPricedTwiceIsAnErrorAtTheSecondOne() throws {
        let text = "{\"format\": \"tally-catalog/1\", \"products\": [{\"id\": \"a\", \"kind\": \"consumable\", \"prices\": {\n  \"USA\": \"1\",\n  \"GBR\": \"2\",\n  \"USA\": \"3\"}}]}"
        let error = try #require(Fixtures.error(text, as: "twice.json"))
        #expect(error.message == "USA is priced twice")
        #expect(error.location.line == 4)
        // The set is reset between products: the same territories in the next product are fine.
        let ok = "{\"format\": \"tally-catalog/1\", \"products\": [{\"id\": \"a\", \"kind\": \"consumable\", \"prices\": {\"USA\": \"1\", \"GBR\": \"2\"}}, {\"id\": \"b\", \"kind\": \"consumable\", \"prices\": {\"USA\": \"1\", \"GBR\": \"2\"}}]}"
        #expect(try Fixtures.load(ok, as: "ok.json").products.map(\.prices.count) == [2, 2])
    }

    @Test func pricesAcrossChunkBoundariesReadTheSameAsInMemory() throws {
        // A streamed read with a tiny window must give exactly what the in-memory read gives.
        var text = "{\"format\": \"tally-catalog/1\", \"products\": ["
        for index in 0..<50 {
            text += "\n  {\"id\": \"com.example.item\(index)\", \"kind\": \"consumable\", \"name\": \"Caf\u{00E9} \\u00e9 \\ud83d\\ude00 \(index)\", \"prices\": {\"USA\": \"\(index).99\", \"JPN\": \(index * 100), \"DEU\": \"0.\(index)\"}}" + (index < 49 ? "," : "")
        }
        text += "\n]}"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tally-chunks-\(UUID().uuidString).json")
        try text.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let inMemory = try Fixtures.load(text, as: file.path)
        for chunk in [1, 2, 3, 7, 64] {
            var reader = try JSONReader(path: file.path, chunkSize: chunk)
            let streamed = try TallyCatalogReader.decodeForTesting(&reader)
            #expect(streamed.products == inMemory.products, "chunk size \(chunk)")
        }
        #expect(inMemory.products[3].referenceName == "Café é 😀 3")
        #expect(inMemory.products[49].prices.map { Money.plain($0.money.amount) } == ["49.99", "4900", "0.49"])
    }
}

@Suite struct CachedDecimalTests {
    @Test func pricesReadThroughTheCacheEqualTheExactParse() throws {
        let texts = ["0.99", "12.00", "12", "0.5", "160", "4.99", "4.990", "99999999999999999", "0.0000000000000001",
                     "1234567.89", "7", "0.99", "12.00", "100000000000000000"]
        var json = "{\"format\": \"tally-catalog/1\", \"products\": ["
        json += texts.enumerated().map { "{\"id\": \"p\($0.offset)\", \"kind\": \"consumable\", \"prices\": {\"USA\": \"\($0.element)\", \"GBR\": \($0.element)}}" }
            .joined(separator: ",")
        json += "]}"
        let catalog = try Fixtures.load(json, as: "cache.json")
        for (product, text) in zip(catalog.products, texts) {
            let expected = try #require(DecimalText.parse(text))
            #expect(product.prices[0].money.amount == expected, "\(text)")
            #expect(product.prices[1].money.amount == expected, "\(text) as a number")
            #expect(Money.plain(product.prices[0].money.amount) == Money.plain(expected), "\(text)")
        }
    }
}
