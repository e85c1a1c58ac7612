import Foundation
import Testing
import TallyFormats
import TallyModel

/// App Store Connect exports: joins across pages, dates, states, legacy v1, located errors.
@Suite struct AppStoreConnectReaderTests {
    /// The Calmly export the CLI tests check against configs/ (26 pages).
    static let calmly = Fixtures.repo("Tests/TallyCLITests/Fixtures/app-store-connect/calmly")

    static func options(today: String? = nil, including states: Set<String> = []) -> ReadOptions {
        var options = ReadOptions()
        if let today { options.today = today }
        options.includeStates = states
        return options
    }

    @Test func theCalmlyExportJoinsEveryPage() throws {
        let catalog = try SourceLoader.load(path: Self.calmly, options: Self.options(today: "2025-06-01"))
        #expect(catalog.format == .appStoreConnect)
        #expect(catalog.file == Self.calmly)
        #expect(catalog.parts.count == 26)
        #expect(catalog.products.count == 15)
        let byID = catalog.productsByID
        let monthly = try #require(byID["com.calmly.app.plus.monthly"])
        #expect(monthly.kind == .autoRenewableSubscription)
        #expect(monthly.period == Period(iso8601: "P1M"))
        #expect(monthly.group == GroupMembership(groupID: "21000001", groupName: "Calmly Plus", level: 3))
        #expect(monthly.familyShareable == false)
        // The preserved 8.99 and the scheduled 10.99 are not in force; 9.99 is.
        #expect(monthly.price(in: .usa)?.money == Money(amount: Decimal(string: "9.99")!, currency: "USD"))
        #expect(monthly.price(in: Territory("JPN")!)?.money == Money(amount: 1500, currency: "JPY"))
        let intro = try #require(monthly.introductoryOffer)
        #expect(intro.mode == .payAsYouGo && intro.periods == 3 && intro.territory == .usa)
        #expect(intro.price == Money(amount: Decimal(string: "1.99")!, currency: "USD"))
        #expect(byID["com.calmly.app.lifetime"]?.kind == .nonConsumable)
        #expect(byID["com.calmly.app.lifetime"]?.localizations.first?.displayName == "Calmly Lifetime")
        #expect(byID["com.calmly.app.plus.annual"]?.introductoryOffer?.period == Period(iso8601: "P1W"), "the 2023 one-month trial has ended")
        #expect(catalog.groups.map(\.name) == ["Calmly Plus", "Calmly Kids"])
        #expect(catalog.knownFields.isSuperset(of: [.prices, .period, .group, .level, .introductoryOffer, .familyShareable]))
        #expect(!catalog.knownFields.contains(.promotionalOffers))
    }

    @Test func positionsNameThePageAndItsLine() throws {
        let catalog = try SourceLoader.load(path: Self.calmly)
        let weekly = try #require(catalog.productsByID["com.calmly.app.plus.weekly"])
        let location = catalog.location(weekly.position(of: .period))
        let page = try #require(location.file.split(separator: "/").last)
        #expect(page == "05-subscriptions-calmly-plus.json")
        let lines = try String(contentsOfFile: location.file, encoding: .utf8).components(separatedBy: "\n")
        let line = try #require(location.line)
        #expect(lines[line - 1].contains("\"subscriptionPeriod\": \"ONE_WEEK\""), "\(location)")
        let price = try #require(weekly.price(in: .usa))
        #expect(catalog.location(price.position).file.hasSuffix("06-subscription-prices-plus-weekly.json"))
    }

    @Test func datedPricesFollowToday() throws {
        for (today, amount) in [("2023-06-01", "11.99"), ("2024-01-01", "12.99"), ("2099-01-02", "13.99")] {
            let catalog = try SourceLoader.load(path: Self.calmly, options: Self.options(today: today))
            #expect(catalog.productsByID["com.calmly.app.sessions.50"]?.price(in: .usa)?.money.amount == Decimal(string: amount)!, "\(today)")
        }
    }

    @Test func onlyProductsForSaleCountUnlessTheirStateIsIncluded() throws {
        let ids = { (options: ReadOptions) in Set(try SourceLoader.load(path: Self.calmly, options: options).products.map(\.id)) }
        #expect(try !ids(Self.options()).contains("com.calmly.app.soundpack.ocean"))
        #expect(try ids(Self.options(including: ["READY_TO_SUBMIT"])).contains("com.calmly.app.soundpack.ocean"))
        #expect(try !ids(Self.options(including: ["READY_TO_SUBMIT"])).contains("com.calmly.app.plus.semiannual"))
        #expect(try ids(Self.options(including: ["ALL"])).count == 17)
    }

    @Test func legacyV1PurchasesAndTheirTypes() throws {
        let catalog = try SourceLoader.load(path: Fixtures.path("app-store-connect/legacy-v1-inAppPurchases.json"))
        #expect(catalog.format == .appStoreConnect, "detected from the content")
        #expect(catalog.products.map(\.id) == ["com.example.legacy.coins100", "com.example.legacy.noads", "com.example.legacy.pro.monthly", "com.example.legacy.magazine"])
        #expect(catalog.products.map(\.kind) == [.consumable, .nonConsumable, .autoRenewableSubscription, .nonRenewingSubscription])
        #expect(catalog.products[0].referenceName == "Coins 100")
        #expect(!catalog.knownFields.contains(.prices) && !catalog.knownFields.contains(.group) && !catalog.knownFields.contains(.familyShareable))
    }

    @Test func aLegacyAutoRenewablePurchaseGivesWayToItsSubscription() throws {
        let page = """
        {"data": [
          {"type": "inAppPurchases", "id": "1", "attributes": {"referenceName": "Pro", "productId": "com.a.pro", "inAppPurchaseType": "AUTOMATICALLY_RENEWABLE_SUBSCRIPTION", "state": "APPROVED"}},
          {"type": "subscriptions", "id": "1", "attributes": {"name": "Pro", "productId": "com.a.pro", "subscriptionPeriod": "ONE_MONTH", "groupLevel": 1, "state": "APPROVED"},
           "relationships": {"group": {"data": {"type": "subscriptionGroups", "id": "9"}}}}
        ], "included": [{"type": "subscriptionGroups", "id": "9", "attributes": {"referenceName": "Pro"}}], "links": {"self": "x"}}
        """
        let catalog = try Fixtures.load(page, as: "page.json")
        #expect(catalog.products.map(\.id) == ["com.a.pro"])
        #expect(catalog.products[0].period == Period(iso8601: "P1M"))
        #expect(catalog.groups.map(\.productIDs) == [["com.a.pro"]])
    }

    @Test(arguments: [
        ("[1, 2]", "is a JSON object with \"data\"", 1),
        ("{\"links\": {\"self\": \"x\"}, \"meta\": {}}", "no \"data\"", 1),
        ("{\"errors\": [{\"status\": \"401\", \"code\": \"NOT_AUTHORIZED\", \"title\": \"Authentication credentials are missing or invalid.\"}]}", "error response, not data: 401 NOT_AUTHORIZED", 1),
        ("{\"data\": [{\"type\": \"subscriptions\"}]}", "needs a \"type\" and an \"id\"", 1),
        ("{\"data\": [\n{\"type\": \"inAppPurchases\", \"id\": \"1\", \"attributes\": {\"productId\": \"a\", \"inAppPurchaseType\": \"BUNDLE\"}}]}", "unknown inAppPurchaseType \"BUNDLE\"", 2),
        ("{\"data\": [\n{\"type\": \"subscriptions\", \"id\": \"1\", \"attributes\": {\"name\": \"a\"}}]}", "has attributes but no productId", 2),
        ("{\"data\": [{\"type\": \"subscriptions\", \"id\": \"1\",\n\"attributes\": {\"productId\": \"a\"}, \"relationships\": {\"prices\": {\"data\": [{\"type\": \"subscriptionPrices\", \"id\": \"p\"}]}}}]}",
         "the export has no subscriptionPrices p", 1),
        ("{\"data\": [{\"type\": \"subscriptionPrices\", \"id\": \"p\",\n\"attributes\": {\"startDate\": \"soon\"}}],\n\"included\": [{\"type\": \"subscriptions\", \"id\": \"1\", \"attributes\": {\"productId\": \"a\"}}], \"links\": {\"self\": \"/v1/subscriptions/1/prices\"}}",
         "startDate \"soon\" is not a date", 2),
    ] as [(String, String, Int)])
    func malformedPagesAreLocatedErrors(_ text: String, message: String, line: Int) throws {
        let error = try #require(Self.forced(text))
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == line, "\(error)")
    }

    /// Reads as an App Store Connect page even when the content does not say so.
    static func forced(_ text: String) -> FormatError? {
        do {
            _ = try SourceLoader.load(bytes: Array(text.utf8), file: "page.json", format: .appStoreConnect)
            return nil
        } catch let error as FormatError {
            return error
        } catch {
            return nil
        }
    }

    @Test func anErrorInOnePageNamesThatPage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-asc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "{\"data\": [], \"links\": {\"self\": \"a\"}}\n".write(to: directory.appendingPathComponent("a.json"), atomically: true, encoding: .utf8)
        try "{\"data\": [\n  {\"type\": \"x\", \"id\": 1}\n]}\n".write(to: directory.appendingPathComponent("b.json"), atomically: true, encoding: .utf8)
        do {
            _ = try SourceLoader.load(path: directory.path)
            Issue.record("a broken page must be an error")
        } catch let error as FormatError {
            #expect(error.location.file.hasSuffix("/b.json"))
            #expect(error.location.line == 2)
        }
    }

    @Test func pricePointsMayComeFromTheirOwnPage() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-asc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pages = [
            "a-subscriptions.json": """
            {"data": [{"type": "subscriptions", "id": "7", "attributes": {"productId": "com.a.pro", "state": "APPROVED", "subscriptionPeriod": "ONE_YEAR"}}],
             "links": {"self": "https://api.appstoreconnect.apple.com/v1/subscriptionGroups/3/subscriptions"}}
            """,
            "b-prices.json": """
            {"data": [{"type": "subscriptionPrices", "id": "sp1", "attributes": {"startDate": null, "preserved": false},
                       "relationships": {"subscriptionPricePoint": {"data": {"type": "subscriptionPricePoints", "id": "pp1"}}}}],
             "links": {"self": "https://api.appstoreconnect.apple.com/v1/subscriptions/7/prices"}}
            """,
            "c-price-points.json": """
            {"data": [{"type": "subscriptionPricePoints", "id": "pp1", "attributes": {"customerPrice": "54.90", "proceeds": "38.43"},
                       "relationships": {"territory": {"data": {"type": "territories", "id": "BRA"}}}}],
             "included": [{"type": "territories", "id": "BRA", "attributes": {"currency": "BRL"}}],
             "links": {"self": "https://api.appstoreconnect.apple.com/v1/subscriptions/7/pricePoints?filter%5Bterritory%5D=BRA"}}
            """,
        ]
        for (name, text) in pages { try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let catalog = try SourceLoader.load(path: directory.path)
        let product = try #require(catalog.products.first)
        #expect(product.price(in: Territory("BRA")!)?.money == Money(amount: Decimal(string: "54.90")!, currency: "BRL"))
        #expect(product.group?.groupID == "3", "the group named by the page's URL")
        #expect(catalog.location(product.prices[0].position).file.hasSuffix("c-price-points.json"))
    }

    @Test func aDirectoryWithoutPagesIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: FormatError.self) { try SourceLoader.load(path: directory.path) }
    }
}
