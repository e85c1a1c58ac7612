import Foundation
import Testing

/// Google Play exports as apps keep them, through the built binary (issue 22): Play Console CSV
/// rows with auto-filled prices, a region priced twice, rows hidden by state, gradle-play-publisher
/// product folders and single Play resources, files that are not Play pages, paid introductory
/// offers priced region by region, and two Play sources told apart by file. The fixtures in
/// `Fixtures/google-play-exports/` are written from the Play Console CSV and androidpublisher v3
/// documentation (see Fixtures/README.md).
@Suite struct PlayExportsCLITests {
    static let folder = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/google-play-exports")

    /// Runs `tally` in the fixture folder, so that files are named as written here.
    static func run(_ arguments: [String]) throws -> CLIRunner.Output {
        try CLIRunner.run(arguments, in: folder)
    }

    /// The products of `tally show --format json`, by ID.
    static func products(_ arguments: [String]) throws -> (products: [String: [String: Any]], output: CLIRunner.Output) {
        let output = try run(["show", "--format", "json"] + arguments)
        #expect(output.status == 0, "\(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        let list = try #require(document["products"] as? [[String: Any]])
        var table: [String: [String: Any]] = [:]
        for product in list { if let id = product["id"] as? String { table[id] = product } }
        return (table, output)
    }

    static func prices(_ product: [String: Any]?) -> [String: String] { product?["prices"] as? [String: String] ?? [:] }
    static func currencies(_ product: [String: Any]?) -> [String: String] { product?["currencies"] as? [String: String] ?? [:] }

    // MARK: 1. Auto Fill Prices

    @Test func anAutoFilledPriceWithoutADefaultTerritoryIsNamedOnStandardError() throws {
        let (products, output) = try Self.products(["console-autofill.csv"])
        #expect(Self.prices(products["gems_small"]).isEmpty)
        #expect(Self.prices(products["gems_large"]) == ["USA": "9.99", "GBR": "8.49"])
        #expect(output.stderr.contains(
            "console-autofill.csv:2:96: warning: gems_small: Auto Fill Prices is true: the price 1990000 (1.99 in the developer's default currency) "
                + "is the app's default price, for no region in particular; the value was not taken (invalid-price); "
                + "name it with --play-default-territory (and --play-default-currency)"), "\(output.stderr)")
    }

    @Test func anAutoFilledPriceIsReadInTheDefaultTerritory() throws {
        let (usa, quiet) = try Self.products(["console-autofill.csv", "--play-default-territory", "USA"])
        #expect(Self.prices(usa["gems_small"]) == ["USA": "1.99"])
        #expect(Self.currencies(usa["gems_small"]) == ["USA": "USD"])
        #expect(!quiet.stderr.contains("warning"), "\(quiet.stderr)")

        let (germany, _) = try Self.products(["console-autofill.csv", "--play-default-territory", "DE", "--play-default-currency", "EUR"])
        #expect(Self.prices(germany["gems_small"]) == ["DEU": "1.99"])
        #expect(Self.currencies(germany["gems_small"]) == ["DEU": "EUR"])
        #expect(Self.prices(germany["gems_large"]) == ["USA": "9.99", "GBR": "8.49"])
    }

    @Test func aDefaultCurrencyWithoutATerritoryIsAUsageError() throws {
        let output = try Self.run(["show", "console-autofill.csv", "--play-default-currency", "EUR"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("--play-default-currency needs --play-default-territory"), "\(output.stderr)")
        let wrong = try Self.run(["show", "console-autofill.csv", "--play-default-territory", "Atlantis"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--play-default-territory Atlantis is not a territory"), "\(wrong.stderr)")
    }

    // MARK: 2. The same region twice in one row

    @Test(arguments: [
        ["show", "console-twice.csv"], ["show", "--format", "json", "console-twice.csv"],
        ["convert", "console-twice.csv", "--to", "tally-catalog-json"], ["lint", "console-twice.csv"],
        ["check", "--no-config", "console-autofill.csv", "console-twice.csv"],
    ])
    func aRegionPricedTwiceIsOneLocatedErrorEverywhere(_ arguments: [String]) throws {
        let output = try Self.run(arguments)
        #expect(output.status == 2, "\(output.stdout)\(output.stderr)")
        #expect(output.stderr.hasPrefix(
            "console-twice.csv:2:123: error: premium_pack: region US is priced twice in one row on line 2: US; 10000000 (10.00 USD) at console-twice.csv:2:96 "
                + "and US; 9990000 (9.99 USD) at console-twice.csv:2:123; keep one of them\n"), "\(output.stderr)")
    }

    @Test func aRegionConfiguredTwiceInAnAPIPageIsALocatedError() throws {
        let output = try Self.run(["show", "subscriptions-twice.json"])
        #expect(output.status == 2, "\(output.stdout)")
        #expect(output.stderr.hasPrefix(
            "subscriptions-twice.json:15:13: error: premium:monthly: region US is configured twice in regionalConfigs: 4.99 USD at subscriptions-twice.json:12:13 "
                + "and 5.00 USD at subscriptions-twice.json:15:13; keep one of them\n"), "\(output.stderr)")
    }

    // MARK: 3. Products hidden by state

    @Test func unpublishedRowsAreCountedAndTheFlagThatShowsThemIsNamed() throws {
        let (hidden, output) = try Self.products(["console-unpublished.csv"])
        #expect(hidden.isEmpty)
        #expect(output.stderr.contains(
            "console-unpublished.csv: note: 3 products were left out by state (3 INACTIVE): only products for sale count; "
                + "--include-state INACTIVE shows them (--include-state ALL shows every product)"), "\(output.stderr)")

        let (shown, quiet) = try Self.products(["console-unpublished.csv", "--include-state", "INACTIVE"])
        #expect(Self.prices(shown["hint_pack"]) == ["USA": "0.99"])
        #expect(Self.prices(shown["skip_pack"]) == ["USA": "1.99"])
        #expect(Self.prices(shown["undo_pack"]) == ["USA": "2.99"])
        #expect(!quiet.stderr.contains("left out"), "\(quiet.stderr)")
    }

    @Test func appStoreConnectStatesAreCountedToo() throws {
        let file = "../store-states/asc-in-app-purchases.json"
        let (products, output) = try Self.products([file])
        #expect(Array(products.keys) == ["com.example.gemquest.gems"])
        #expect(output.stderr.contains(
            "\(file): note: 3 products were left out by state (1 READY_TO_SUBMIT, 2 WAITING_FOR_SCREENSHOT): only products for sale count; "
                + "--include-state READY_TO_SUBMIT --include-state WAITING_FOR_SCREENSHOT shows them (--include-state ALL shows every product)"),
                "\(output.stderr)")
        let (all, _) = try Self.products([file, "--include-state", "WAITING_FOR_SCREENSHOT"])
        #expect(Set(all.keys) == ["com.example.gemquest.gems", "com.example.gemquest.hints", "com.example.gemquest.skips"])
    }

    @Test func appStorePackageProductsNotClearedForSaleAreCountedToo() throws {
        let file = "../app-store-package/metadata.xml"
        let output = try Self.run(["show", file])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stderr.contains(
            "\(file): note: 1 product was left out by state (1 NOT_CLEARED_FOR_SALE): only products for sale count; "
                + "--include-state NOT_CLEARED_FOR_SALE shows them"), "\(output.stderr)")
    }

    // MARK: 4. gradle-play-publisher products and single Play resources

    @Test func aGradlePlayPublisherProductFileIsReadAsAnInAppProduct() throws {
        let (products, output) = try Self.products(["play/products/gems_small.json"])
        #expect(Self.prices(products["gems_small"]) == ["USA": "1.99", "GBR": "1.79"])
        #expect(Self.currencies(products["gems_small"]) == ["USA": "USD", "GBR": "GBP"])
        #expect(products["gems_small"]?["kind"] as? String == "non-consumable")
        #expect(!output.stderr.contains("unknown key"), "\(output.stderr)")
    }

    @Test(arguments: [[String](), ["--input-format", "google-play"]])
    func aGradlePlayPublisherFolderIsOneSource(_ extra: [String]) throws {
        let (products, output) = try Self.products(["play/products"] + extra)
        #expect(Set(products.keys) == ["gems_small", "remove_ads"])
        #expect(Self.prices(products["gems_small"]) == ["USA": "1.99", "GBR": "1.79"])
        // remove_ads has only a defaultPrice: not placed without a default territory, and said so.
        #expect(Self.prices(products["remove_ads"]).isEmpty)
        #expect(output.stderr.contains(
            "play/products/remove_ads.json:6:19: warning: remove_ads: defaultPrice 2990000 with no prices per region (2.99 USD) "
                + "is the app's default price, for no region in particular; the value was not taken (invalid-price)"), "\(output.stderr)")
        #expect(output.stderr.contains("play/products: note: 1 product was left out by state (1 INACTIVE)"), "\(output.stderr)")

        let (placed, _) = try Self.products(["play/products", "--play-default-territory", "US"] + extra)
        #expect(Self.prices(placed["remove_ads"]) == ["USA": "2.99"])
        #expect(Self.currencies(placed["remove_ads"]) == ["USA": "USD"])
    }

    @Test func aFolderOfSinglePlayResourcesIsOneSource() throws {
        let (products, _) = try Self.products(["resources"])
        #expect(Set(products.keys) == ["premium:monthly", "lifetime", "hint_pack"])
        #expect(Self.prices(products["premium:monthly"]) == ["USA": "4.99", "DEU": "5.49"])
        #expect(products["premium:monthly"]?["period"] as? String == "P1M")
        #expect(Self.prices(products["lifetime"]) == ["USA": "39.99", "DEU": "42.99"])
        #expect(Self.prices(products["hint_pack"]) == ["USA": "0.99", "DEU": "1.09"])
        #expect(Self.currencies(products["hint_pack"]) == ["USA": "USD", "DEU": "EUR"])
    }

    /// gradle-play-publisher's whole `play/` folder is one source: `products/` and `subscriptions/`
    /// read by shape, each subscription's `NAME.metadata.json` passed by, listings and text files
    /// left alone; a subscription without a base plan sells nothing, and standard error says so.
    @Test(arguments: [[String](), ["--input-format", "google-play"]])
    func aWholePlayFolderIsOneSource(_ extra: [String]) throws {
        let (products, output) = try Self.products(["play"] + extra)
        #expect(Set(products.keys) == ["gems_small", "remove_ads", "premium:monthly"])
        #expect(Self.prices(products["premium:monthly"]) == ["USA": "4.99", "GBR": "4.49"])
        #expect(products["premium:monthly"]?["period"] as? String == "P1M")
        #expect(output.stderr.contains(
            "play/subscriptions/draft.json:3:18: warning: draft: this subscription has no base plans, so it sells nothing and no product is read from it "
                + "(a customer buys a base plan; Tally reads each as PRODUCT_ID:BASE_PLAN_ID); the value was not taken (store-state)"), "\(output.stderr)")
        #expect(!output.stderr.contains("metadata"), "\(output.stderr)")
        let (subscriptions, _) = try Self.products(["play/subscriptions"] + extra)
        #expect(Set(subscriptions.keys) == ["premium:monthly"])
    }

    @Test func aSubscriptionsMetadataFileOnItsOwnIsRefusedByName() throws {
        let output = try Self.run(["show", "play/subscriptions/premium.metadata.json"])
        #expect(output.status == 2, "\(output.stdout)")
        #expect(output.stderr.hasPrefix(
            "play/subscriptions/premium.metadata.json:1:1: error: this is gradle-play-publisher's subscription metadata ({\"regionsVersion\": ...}), "
                + "not a product: it goes with the subscription file of the same name beside it"), "\(output.stderr)")
    }

    /// The smallest files gradle-play-publisher reads (its own test fixtures have them): an
    /// in-app product that is only its `sku`, a subscription that is only `packageName` and `productId`.
    @Test func theSmallestGradlePlayPublisherFilesAreReadByTheirShape() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-gpp-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("play/products"), withIntermediateDirectories: true)
        try manager.createDirectory(at: root.appendingPathComponent("play/subscriptions"), withIntermediateDirectories: true)
        try "{\n    \"sku\": \"sku1\"\n}\n".write(to: root.appendingPathComponent("play/products/1.json"), atomically: true, encoding: .utf8)
        try "{\n    \"sku\": \"sku2\"\n}\n".write(to: root.appendingPathComponent("play/products/2.json"), atomically: true, encoding: .utf8)
        try "".write(to: root.appendingPathComponent("play/products/sku.txt"), atomically: true, encoding: .utf8)
        try "{\n    \"packageName\": \"my-package\",\n    \"productId\": \"subscription1\"\n}\n"
            .write(to: root.appendingPathComponent("play/subscriptions/subscription1.json"), atomically: true, encoding: .utf8)
        try "{\"regionsVersion\":\"\"}".write(to: root.appendingPathComponent("play/subscriptions/subscription1.metadata.json"), atomically: true, encoding: .utf8)
        for path in ["play/products/1.json", "play/products", "play"] {
            let output = try CLIRunner.run(["show", "--format", "json", path], in: root)
            #expect(output.status == 0, "\(path): \(output.stderr)")
            let ids = try #require(try jsonReport(output)["products"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(ids == (path == "play/products/1.json" ? ["sku1"] : ["sku1", "sku2"]), "\(path)")
            #expect(try jsonReport(output)["format"] as? String == "google-play")
        }
        let subscription = try CLIRunner.run(["show", "play/subscriptions/subscription1.json"], in: root)
        #expect(subscription.status == 0, "\(subscription.stderr)")
        #expect(subscription.stderr.contains("warning: subscription1: this subscription has no base plans"), "\(subscription.stderr)")
    }

    @Test func initNamesAPlayFolderAsOneSourceAndCheckReadsIt() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-play-init-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let manager = FileManager.default
        try manager.createDirectory(at: root.appendingPathComponent("app/src/main"), withIntermediateDirectories: true)
        try manager.createDirectory(at: root.appendingPathComponent("server"), withIntermediateDirectories: true)
        try manager.copyItem(at: Self.folder.appendingPathComponent("play"), to: root.appendingPathComponent("app/src/main/play"))
        try manager.copyItem(at: Self.folder.appendingPathComponent("play-a.csv"), to: root.appendingPathComponent("server/play-a.csv"))
        let initialised = try CLIRunner.run(["init"], in: root)
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stdout.contains("catalogues:     app/src/main/play/ (Google Play pages, "), "\(initialised.stdout)")
        #expect(initialised.stdout.contains("), server/play-a.csv\n"), "\(initialised.stdout)")
        let policy = try String(contentsOf: root.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(policy.contains("\n  - app/src/main/play/\n"), "\(policy)")
        let checked = try CLIRunner.run(["check"], in: root)
        #expect(checked.stdout.contains("compared: app/src/main/play (prices in every region both price) vs server/play-a.csv"),
                "\(checked.stdout)\(checked.stderr)")
    }

    // MARK: 5. A JSON that is not a Play page

    @Test(arguments: [
        (["show", "wrapper-object.json"], "a Google Play API response, wrapped in an object with the keys productId, status, response"),
        (["lint", "wrapper-object.json"], "a Google Play API response, wrapped in an object with the keys productId, status, response"),
        (["show", "--input-format", "google-play", "wrapper-listings.json"], "a Google Play API response, wrapped in an object with the keys productId, status, listings, response"),
        (["lint", "--input-format", "google-play", "wrapper-listings.json"], "a Google Play API response, wrapped in an object with the keys productId, status, listings, response"),
        (["show", "wrapper.json"], "a Google Play API response in one array, wrapped in an object with the keys productId, status, response"),
    ])
    func aWrapperIsRefusedSayingWhatItHolds(_ arguments: [String], _ found: String) throws {
        let output = try Self.run(arguments)
        #expect(output.status == 2, "\(output.stdout)")
        #expect(output.stderr.contains("error: not a Google Play API page: this file holds \(found)"), "\(output.stderr)")
        #expect(output.stderr.contains("it is a purchase (androidpublisher#"), "\(output.stderr)")
    }

    /// Issue 38: nine responses saved in one file, wrapped or keyed by the call that gave them, were
    /// read as a Play source with no products (exit 0). Each is refused with what the file holds.
    @Test(arguments: [
        ("subscriptions-wrapped.json", "this file holds 9 Google Play API responses in its \"subscriptions\" list, each wrapped in an object "
            + "(the first with the keys productId, status, response; the response under \"response\"), not one response as the API sent it: "
            + "Tally reads each response saved as the API sent it, one per .json file (a folder of them is one source)"),
        ("responses-by-call.json", "this file holds 9 Google Play API responses in one object, under \"monetization.subscriptions.list\", "),
        ("purchases-array.json", "this file holds 9 Google Play API responses in one array, each wrapped in an object (the first with the keys "
            + "productId, token, response; the response under \"response\"), not one response as the API sent it; they are purchases "
            + "(androidpublisher#productPurchase), not products"),
    ])
    func severalResponsesInOneFileAreRefusedByWhatTheyAre(_ name: String, _ sentence: String) throws {
        for command in [["show"], ["show", "--format", "json"], ["lint"], ["check", "--no-config", "resources"]] {
            let output = try Self.run(command + ["wrapped/\(name)"])
            #expect(output.status == 2, "\(command) \(output.stdout)")
            #expect(output.stderr.contains("wrapped/\(name):1:1: error: not a Google Play API page: \(sentence)"), "\(command) \(output.stderr)")
        }
    }

    // MARK: 8. Paid introductory offers keep every region's price

    @Test func aPaidIntroductoryOfferKeepsEveryRegionsPrice() throws {
        let (products, _) = try Self.products(["offers"])
        let offer = try #require(products["premium:monthly"]?["introductory_offer"] as? [String: Any])
        #expect(offer["mode"] as? String == "pay-as-you-go")
        #expect(offer["periods"] as? Int == 3)
        #expect(offer["price"] as? String == "1.99")
        // DE is the base plan's 4.99 EUR less an absolute discount of 3 EUR.
        #expect(offer["prices"] as? [String: String] == ["USA": "1.99", "GBR": "1.49", "DEU": "1.99"])
        #expect(offer["currencies"] as? [String: String] == ["USA": "USD", "GBR": "GBP", "DEU": "EUR"])
    }

    @Test func aRegionsOfferPriceIsCompared() throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("tally-play-offers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: copy) }
        try FileManager.default.copyItem(at: Self.folder.appendingPathComponent("offers"), to: copy)
        let page = copy.appendingPathComponent("02-offers.json")
        let text = try String(contentsOf: page, encoding: .utf8)
        let old = "\"currencyCode\": \"GBP\", \"units\": \"1\", \"nanos\": 490000000"
        #expect(text.components(separatedBy: old).count == 2)
        try text.replacingOccurrences(of: old, with: "\"currencyCode\": \"GBP\", \"units\": \"1\", \"nanos\": 290000000")
            .write(to: page, atomically: true, encoding: .utf8)
        let output = try Self.run(["check", "--no-config", "offers", copy.path])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("premium:monthly introductory offer differs: price in GBR 1.49 GBP vs 1.29 GBP"), "\(output.stdout)")
        let diff = try Self.run(["diff", "offers", copy.path])
        #expect(diff.stdout.contains("(price in GBR 1.49 GBP → 1.29 GBP)"), "\(diff.stdout)\(diff.stderr)")
        let same = try Self.run(["check", "--no-config", "offers", "offers"])
        #expect(same.status == 0, "\(same.stdout)\(same.stderr)")
    }

    // MARK: 10. Two sources of one kind are named by file

    @Test func twoPlaySourcesAreNamedByTheirFiles() throws {
        let output = try Self.run(["check", "--no-config", "play-a.csv", "play-b.csv"])
        #expect(output.status == 1, "\(output.stderr)")
        #expect(output.stdout.contains("coins_100 costs 0.89 GBP in GBR in Google Play (play-a.csv) but 0.79 GBP in Google Play (play-b.csv)"),
                "\(output.stdout)")
    }

    /// Issue 38: with two Play Console files and a catalogue in one run, "Google Play" tells no
    /// file: every finding names both of its files.
    @Test func inARunOfTwoPlayFilesAndACatalogueEveryFindingNamesBothFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-play-three-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        for name in ["play-a.csv", "play-b.csv"] {
            try FileManager.default.copyItem(at: Self.folder.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
        try """
            format: tally-catalog/1
            products:
              - id: coins_100
                kind: consumable
                prices: {USA: "0.99", GBR: "0.99"}

            """.write(to: root.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
        let output = try CLIRunner.run(["check", "--no-config", "play-a.csv", "play-b.csv", "catalog.yaml", "--format", "json"], in: root)
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let messages = findingRecords(try jsonReport(output)).compactMap { $0["message"] as? String }
        #expect(messages.contains("coins_100 costs 0.89 GBP in GBR in Google Play (play-a.csv) but 0.99 GBP in the catalogue (catalog.yaml)"), "\(messages)")
        #expect(messages.contains("coins_100 costs 0.79 GBP in GBR in Google Play (play-b.csv) but 0.99 GBP in the catalogue (catalog.yaml)"), "\(messages)")
        for message in messages { #expect(message.contains("(play-") && message.contains("(catalog.yaml)"), "\(message)") }
    }
}
