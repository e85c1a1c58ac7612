import Foundation
import Testing
import TallyConvert
import TallyFormats
import TallyModel

/// The StoreKit configuration has the shape Xcode writes.
struct StoreKitShapeTests {
    static let catalogue = """
    format: tally-catalog/1
    default_territory: USA
    products:
      - id: com.example.coins.100
        kind: consumable
        name: 100 Coins
        prices: {USA: "10.90", JPN: "160", GBR: "0.99"}
        localizations:
          en_US: {name: "100 Coins", description: "A pile of coins."}
      - id: com.example.pass
        kind: non-renewing-subscription
        prices: {USA: "9.99"}
    subscription_groups:
      - id: premium
        name: Premium
        subscriptions:
          - id: com.example.premium.yearly
            period: P1Y
            family_shareable: true
            prices: {USA: "49.99"}
            introductory_offer: {type: free-trial, period: P1W}
            promotional_offers:
              - {id: winback, type: pay-up-front, period: P1Y, price: "24.99"}
          - id: com.example.premium.monthly
            level: 2
            period: P1M
            prices: {USA: "5.99"}
            introductory_offer: {type: pay-as-you-go, period: P1M, count: 3, price: "1.99"}
    """

    static func read() throws -> Catalog { try SourceLoader.load(bytes: Array(catalogue.utf8), file: "c.yaml") }

    @Test func topLevelKeysAreXcodes() throws {
        for (version, keys) in [(StoreKitVersion.v3, ["identifier", "nonRenewingSubscriptions", "products", "settings", "subscriptionGroups", "version"]),
                                (.v4, ["appPolicies", "identifier", "nonRenewingSubscriptions", "products", "settings", "subscriptionGroups", "version"]),
                                (.v5, ["appPolicies", "identifier", "nonRenewingSubscriptions", "products", "settings", "subscriptionGroups", "version"])] {
            let text = Converter.convert(try Self.read(), options: ConvertOptions(target: .storeKit, storeKitVersion: version)).text
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            #expect(object.map { $0.keys.sorted() } == keys)
            let versionObject = object?["version"] as? [String: Int]
            #expect(versionObject == ["major": Int(version.rawValue.prefix(1)) ?? 0, "minor": 0])
        }
    }

    @Test func xcodeFormatting() throws {
        let conversion = Converter.convert(try Self.read(), options: ConvertOptions(target: .storeKit))
        let text = conversion.text
        #expect(text.hasPrefix("{\n  \"appPolicies\" : {\n    \"eula\" : \"\","))
        #expect(text.contains("\"displayPrice\" : \"10.90\""), "the written digits are kept")
        #expect(text.contains("\"_storefront\" : \"USA\""))
        #expect(text.contains("\"codeOffers\" : [\n\n          ]"), "empty arrays as Xcode writes them")
        #expect(text.contains("\"recurringSubscriptionPeriod\" : \"P1Y\""))
        #expect(text.contains("\"groupNumber\" : 2"))
        #expect(text.contains("\"offerID\" : \"winback\""))
        // Internal IDs: eight hex digits, all different.
        let ids = text.split(separator: "\n").filter { $0.contains("\"internalID\"") }.map { $0.split(separator: "\"")[3] }
        #expect(ids.allSatisfy { $0.count == 8 && $0.allSatisfy(\.isHexDigit) })
        #expect(Set(ids).count == ids.count)
        // The prices of other storefronts are named as left out.
        #expect(conversion.notes.contains { $0.contains("com.example.coins.100") && $0.contains("other storefronts than USA") })
    }

    @Test func storefrontChoosesThePrices() throws {
        let catalog = try Self.read()
        let text = Converter.convert(catalog, options: ConvertOptions(target: .storeKit, storefront: Territory("JPN"))).text
        let back = try SourceLoader.load(bytes: Array(text.utf8), file: "Japan.storekit")
        #expect(back.defaultTerritory == Territory("JPN"))
        #expect(back.productsByID["com.example.coins.100"]?.price(in: Territory("JPN")!)?.money.amount == 160)
        #expect(back.productsByID["com.example.pass"]?.prices == [])
    }

    @Test func orderOfKeysInText() throws {
        let text = Converter.convert(try Self.read(), options: ConvertOptions(target: .storeKit)).text
        // Every object's keys, in the order written, are sorted as Xcode sorts them (by code point: _storeKitErrors before _storefront).
        var stack: [[String]] = [[]]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("\""), let end = trimmed.dropFirst().firstIndex(of: "\""), trimmed.contains("\" : ") {
                stack[stack.count - 1].append(String(trimmed[trimmed.index(after: trimmed.startIndex)..<end]))
            }
            if trimmed.hasSuffix("{") { stack.append([]) }
            if trimmed.hasPrefix("}") {
                let keys = stack.removeLast()
                #expect(keys == keys.sorted(), "\(keys)")
            }
        }
    }
}
