import Foundation
import Testing

/// Unity IAP's `IAPProductCatalog.json` and storeconfig's export read as built-in formats, by
/// shape, with no mapping file; a value a reader cannot take drops that value or offer (named on
/// standard error at its line), never the file. Fixtures (Fixtures/builtin) are written from the
/// formats' documentation and agree with `Lumen.storekit`.
@Suite struct BuiltinFormatsCLITests {
    static let folder = "Tests/TallyCLITests/Fixtures/builtin"
    static let storekit = "\(folder)/Lumen.storekit"
    static let storeconfig = "\(folder)/lumen-storeconfig.json"
    static let unity = "\(folder)/IAPProductCatalog.json"

    static func show(_ arguments: [String], in workspace: Workspace? = nil) throws -> (CLIRunner.Output, [String: [String: Any]], [String: Any]) {
        let output = try workspace?.run(["show", "--format", "json"] + arguments) ?? CLIRunner.run(["show", "--format", "json"] + arguments)
        let document = try jsonReport(output)
        var products: [String: [String: Any]] = [:]
        for product in document["products"] as? [[String: Any]] ?? [] {
            if let id = product["id"] as? String { products[id] = product }
        }
        return (output, products, document)
    }

    // MARK: - storeconfig

    @Test func aStoreconfigExportIsReadByItsShapeWithEveryValueExact() throws {
        let (output, products, document) = try Self.show([Self.storeconfig])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(document["format"] as? String == "storeconfig")
        #expect(products.keys.sorted() == ["com.lumen.plus.monthly", "com.lumen.plus.yearly", "com.lumen.stars.100", "com.lumen.unlock"])
        let stars = try #require(products["com.lumen.stars.100"])
        #expect(stars["kind"] as? String == "consumable")
        #expect(stars["prices"] as? [String: String] == ["USA": "0.99", "GBR": "0.99", "JPN": "160"])
        #expect(stars["currencies"] as? [String: String] == ["USA": "USD", "GBR": "GBP", "JPN": "JPY"])
        #expect(stars["family_shareable"] as? Bool == false)
        let unlock = try #require(products["com.lumen.unlock"])
        #expect(unlock["kind"] as? String == "non-consumable")
        #expect(unlock["prices"] as? [String: String] == ["USA": "4.99", "DEU": "5.49"])
        let monthly = try #require(products["com.lumen.plus.monthly"])
        #expect(monthly["period"] as? String == "P1M" && monthly["level"] as? Int == 2 && monthly["group"] as? String == "Lumen Plus")
        // PAY_AS_YOU_GO has no duration in storeconfig: its period is the subscription's.
        let intro = try #require(monthly["introductory_offer"] as? [String: Any])
        #expect(intro["mode"] as? String == "pay-as-you-go" && intro["period"] as? String == "P1M" && intro["periods"] as? Int == 3
                && intro["price"] as? String == "0.99")
        let yearly = try #require(products["com.lumen.plus.yearly"])
        #expect(yearly["prices"] as? [String: String] == ["USA": "29.99", "GBR": "27.99"])
        #expect((yearly["introductory_offer"] as? [String: Any])?["mode"] as? String == "free-trial")
        let promo = try #require((yearly["promotional_offers"] as? [[String: Any]])?.first)
        #expect(promo["id"] as? String == "plus_yearly_comeback" && promo["mode"] as? String == "pay-up-front"
                && promo["period"] as? String == "P1Y" && promo["price"] as? String == "19.99")
    }

    @Test func aStoreconfigExportAgreesWithItsStoreKitConfiguration() throws {
        let output = try CLIRunner.run(["check", "--no-config", Self.storekit, Self.storeconfig])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("4 products in both"), "\(output.stdout)")
        #expect(output.stdout.contains("introductory-offer (2)") && output.stdout.contains("promotional-offers"), "\(output.stdout)")
    }

    /// storeconfig's mid-2025 schema (same `schemaVersion` 1.0.0): `priceSchedule` on in-app
    /// purchases, a bare `prices` list on subscriptions and their offers, a free trial's type
    /// `FREE`. Every price is read, and the file agrees with the StoreKit configuration as today's
    /// shape does.
    @Test func aStoreconfigExportOfMid2025IsReadWithEveryPrice() throws {
        let file = "\(Self.folder)/lumen-storeconfig-2025.json"
        let (output, products, document) = try Self.show([file])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.isEmpty, "\(output.stderr)")
        #expect(document["format"] as? String == "storeconfig")
        #expect(products["com.lumen.stars.100"]?["prices"] as? [String: String] == ["USA": "0.99", "GBR": "0.99", "JPN": "160"])
        #expect(products["com.lumen.unlock"]?["prices"] as? [String: String] == ["USA": "4.99", "DEU": "5.49"])
        #expect(products["com.lumen.plus.yearly"]?["prices"] as? [String: String] == ["USA": "29.99", "GBR": "27.99"])
        #expect(products["com.lumen.plus.monthly"]?["prices"] as? [String: String] == ["USA": "3.99"])
        let intro = try #require(products["com.lumen.plus.monthly"]?["introductory_offer"] as? [String: Any])
        #expect(intro["mode"] as? String == "pay-as-you-go" && intro["price"] as? String == "0.99")
        let promo = try #require((products["com.lumen.plus.yearly"]?["promotional_offers"] as? [[String: Any]])?.first)
        #expect(promo["price"] as? String == "19.99")
        // Its first weeks wrote a free trial as "FREE".
        let trial = try #require(products["com.lumen.plus.yearly"]?["introductory_offer"] as? [String: Any])
        #expect(trial["mode"] as? String == "free-trial" && trial["period"] as? String == "P1W")

        let checked = try CLIRunner.run(["check", "--no-config", Self.storekit, file])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("4 products in both") && checked.stdout.contains("prices (4)"), "\(checked.stdout)")
    }

    @Test func pricesWrittenTwoWaysAreReadOnceAndTheOtherIsNamed() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let file = "builtin/lumen-storeconfig-2025.json"
        let lines = try workspace.replace(file, "\"prices\": [{\"price\": \"3.99\", \"territory\": \"USA\"}],",
                                          "\"pricing\": {\"baseTerritory\": \"USA\", \"prices\": [{\"price\": \"3.99\", \"territory\": \"USA\"}]}, \"prices\": [{\"price\": \"4.99\", \"territory\": \"USA\"}],")
        let (output, products, _) = try Self.show([file], in: workspace)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(products["com.lumen.plus.monthly"]?["prices"] as? [String: String] == ["USA": "3.99"])
        #expect(output.stderr.contains("\(file):\(lines[0]):"), "\(output.stderr)")
        #expect(output.stderr.contains("warning: com.lumen.plus.monthly: this product writes its prices twice, in pricing and in prices: only pricing is read"),
                "\(output.stderr)")
    }

    @Test func anOfferStoreconfigCannotReadDropsThatOfferNotTheFile() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let file = "builtin/lumen-storeconfig.json"
        let lines = try workspace.replace(file, "{\"type\": \"PAY_AS_YOU_GO\", \"numberOfPeriods\": 3,", "{\"type\": \"HALF_PRICE\", \"numberOfPeriods\": 3,")
        let output = try workspace.run(["check", "--no-config", "builtin/Lumen.storekit", file])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr.contains("\(file):\(lines[0]):"), "\(output.stderr)")
        #expect(output.stderr.contains("warning: com.lumen.plus.monthly: introductory offer type \"HALF_PRICE\" is not one of FREE_TRIAL, PAY_AS_YOU_GO, PAY_UP_FRONT; the offer was dropped"),
                "\(output.stderr)")
        #expect(output.stdout.contains("intro-offer") && output.stdout.contains("com.lumen.plus.monthly"), "\(output.stdout)")
        #expect(output.stdout.contains("4 products in both"), "the rest of the file was read: \(output.stdout)")
    }

    /// The case: the export read through a hand-written mapping whose pay-as-you-go offer has no
    /// `duration`. The offer is dropped and named; the file is read.
    @Test func throughAMappingAnOfferWithoutItsPeriodIsDroppedNotTheFile() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let mapping = """
            format: tally-mapping/1
            products:
              - at: inAppPurchases[*]
              - at: subscriptionGroups[*].subscriptions[*]
                kind: auto-renewable-subscription
            fields:
              id: productId
              name: referenceName
              kind: type
              period: subscriptionPeriod
              group: ^.referenceName
              level: groupLevel
              introductory_offer: {at: "introductoryOffers[0]", type: type, period: duration, count: numberOfPeriods}
            values:
              kind: {CONSUMABLE: consumable, NON_CONSUMABLE: non-consumable}
              period: {ONE_WEEK: P1W, ONE_MONTH: P1M, ONE_YEAR: P1Y}
              offer_type: {FREE_TRIAL: free-trial, PAY_AS_YOU_GO: pay-as-you-go, PAY_UP_FRONT: pay-up-front}
            """
        try mapping.write(to: workspace.root.appendingPathComponent("storeconfig-mapping.yml"), atomically: true, encoding: .utf8)
        let text = try workspace.text("builtin/lumen-storeconfig.json")
        let line = text.components(separatedBy: "\n").firstIndex { $0.contains("{\"type\": \"PAY_AS_YOU_GO\"") }.map { $0 + 1 } ?? 0
        let output = try workspace.run(["show", "--format", "json", "builtin/lumen-storeconfig.json", "--mapping", "storeconfig-mapping.yml"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains("builtin/lumen-storeconfig.json:\(line):"), "\(output.stderr)")
        #expect(output.stderr.contains("com.lumen.plus.monthly: the introductory offer (pay-as-you-go) has no period at \"duration\"; the offer was dropped"),
                "\(output.stderr)")
        let products = try #require(try jsonReport(output)["products"] as? [[String: Any]])
        #expect(products.count == 4)
        let yearly = try #require(products.first { $0["id"] as? String == "com.lumen.plus.yearly" })
        #expect((yearly["introductory_offer"] as? [String: Any])?["period"] as? String == "P1W")
    }

    // MARK: - Unity IAP

    @Test func aUnityCatalogueIsReadByItsShapeWithEveryValueExact() throws {
        let (output, products, document) = try Self.show([Self.unity])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(document["format"] as? String == "unity-iap")
        // The App Store ID is the AppleAppStore store ID, else the id; the empty-id product is skipped, and said so.
        #expect(products.keys.sorted() == ["com.lumen.plus.yearly", "com.lumen.stars.100", "com.lumen.unlock"])
        #expect(products["com.lumen.stars.100"]?["kind"] as? String == "consumable")
        #expect(products["com.lumen.stars.100"]?["price_tier"] as? Int == 1)
        #expect(products["com.lumen.unlock"]?["kind"] as? String == "non-consumable")
        #expect(products["com.lumen.unlock"]?["price_tier"] as? Int == 5)
        #expect(products["com.lumen.unlock"]?["google_play"] as? String == "lumen_unlock")
        #expect(products["com.lumen.plus.yearly"]?["kind"] as? String == "auto-renewable-subscription")
        #expect(products["com.lumen.plus.yearly"]?["price_tier"] == nil, "tier 0 is Unity's 'not set'")
        #expect(output.stderr.contains("\(Self.unity):2:"), "\(output.stderr)")
        #expect(output.stderr.contains("warning: com.lumen.stars.100: googlePrice 0.99 is the Google Play default price, in a currency the file does not name; the value was not taken (price)"),
                "\(output.stderr)")
        #expect(output.stderr.contains("warning: com.lumen.plus.yearly: googlePrice 29.99"), "\(output.stderr)")
        #expect(output.stderr.contains("\(Self.unity):5:") && output.stderr.contains("a product with an empty id: Unity IAP ignores it"), "\(output.stderr)")
    }

    /// Issue 38: a product with an empty `id` whose only store ID is Google's was lost. A product
    /// with any store ID Tally compares is read under it (and standard error says that Unity's
    /// runtime skips an empty id); one with store IDs only for other stores is skipped and named.
    @Test func aUnityProductIsReadUnderAnyStoreID() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        let file = "builtin/IAPProductCatalog-store-ids.json"
        let catalogue = """
            {"appleSKU":"lumen-ios","enableCodelessAutoInitialization":false,"products":[
            {"id":"","type":0,"storeIDs":[{"store":"GooglePlay","id":"lumen_hints"}],"applePriceTier":0},
            {"id":"","type":1,"storeIDs":[{"store":"AppleAppStore","id":"com.lumen.themes"}],"applePriceTier":3},
            {"id":"","type":0,"storeIDs":[{"store":"AmazonAppStore","id":"amzn_hints"}],"applePriceTier":0},
            {"id":"unlock","type":1,"storeIDs":[{"store":"GooglePlay","id":"lumen_unlock"}],"applePriceTier":5}
            ]}
            """
        try catalogue.write(to: workspace.root.appendingPathComponent(file), atomically: true, encoding: .utf8)
        let (output, products, _) = try Self.show([file], in: workspace)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(products.keys.sorted() == ["com.lumen.themes", "lumen_hints", "unlock"])
        #expect(products["lumen_hints"]?["kind"] as? String == "consumable")
        #expect(products["com.lumen.themes"]?["price_tier"] as? Int == 3)
        #expect(products["unlock"]?["google_play"] as? String == "lumen_unlock")
        #expect(output.stderr.contains("\(file):2:") && output.stderr.contains(
            "warning: lumen_hints: the product's id is empty; it is read under its store ID (GooglePlay lumen_hints), but Unity IAP's "
                + "ProductCatalog.allValidProducts leaves out a product with an empty id, so the app may never offer it"), "\(output.stderr)")
        #expect(output.stderr.contains(
            "\(file):4:1: warning: a product with an empty id (its only store IDs are for AmazonAppStore, stores Tally does not compare): "
                + "Unity IAP ignores it, and so does Tally"), "\(output.stderr)")

        // The Google-only product is compared with Google Play, and not missed on the App Store.
        let play = "google-play/hints.csv"
        try FileManager.default.createDirectory(at: workspace.root.appendingPathComponent("google-play"), withIntermediateDirectories: true)
        try """
            Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,Auto Fill Prices,Price,Pricing Template ID
            lumen_hints,published,managed_by_android,false,en_US; Hints; A few hints,false,US; 990000,
            lumen_unlock,published,managed_by_android,false,en_US; Unlock; Everything,false,US; 4990000,

            """.write(to: workspace.root.appendingPathComponent(play), atomically: true, encoding: .utf8)
        let checked = try workspace.run(["check", "--no-config", play, file, "--format", "json"])
        #expect(ruleProducts(try jsonReport(checked)).filter { $0.hasPrefix("missing") }.isEmpty, "\(checked.stdout)\(checked.stderr)")
    }

    @Test func aUnityCatalogueChecksItsTiersThroughATierTable() throws {
        let output = try CLIRunner.run(["check", "--no-config", Self.storekit, Self.unity, "--price-tiers", "\(Self.folder)/tiers.csv", "--format", "json"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        // Tiers 1 and 5 are 0.99 and 4.99 USD, as the configuration says; the catalogue lacks the monthly
        // plan, and the yearly one has tier 0 (not set), so no price where the configuration has 29.99.
        #expect(ruleProducts(try jsonReport(output)) == ["missing-in-catalog com.lumen.plus.monthly", "price com.lumen.plus.yearly"])
    }
}
