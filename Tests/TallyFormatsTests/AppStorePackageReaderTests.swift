import Foundation
import Testing
import TallyFormats
import TallyModel

private typealias Pkg = AppStorePackageReaderTests

/// metadata.xml: what is read, what is refused, and where findings point.
@Suite struct AppStorePackageReaderTests {
    /// A 5.9 package around the given `<in_app_purchases>` content.
    static func package(_ purchases: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <package xmlns="http://apple.com/itunes/importer" version="software5.9">
            <software>
                <software_metadata>
                    <in_app_purchases>
        \(purchases)
                    </in_app_purchases>
                </software_metadata>
            </software>
        </package>
        """
    }

    static func purchase(_ id: String = "com.a.coins", type: String = "consumable", product: String = "<cleared_for_sale>true</cleared_for_sale><wholesale_price_tier>3</wholesale_price_tier>") -> String {
        "<in_app_purchase><product_id>\(id)</product_id><type>\(type)</type><products><product>\(product)</product></products></in_app_purchase>"
    }

    static func read(_ text: String, options: ReadOptions = ReadOptions(), as name: String = "metadata.xml") throws -> Catalog {
        try SourceLoader.load(bytes: Array(text.utf8), file: name, options: options)
    }

    static func error(_ text: String, options: ReadOptions = ReadOptions()) -> FormatError? {
        do {
            _ = try read(text, options: options)
            return nil
        } catch let error as FormatError {
            return error
        } catch {
            return FormatError("unexpected error \(error)", file: "?", position: .unknown)
        }
    }

    @Test(.enabled(if: Fixtures.sharedAvailable, Comment(rawValue: Fixtures.sharedMissing)))
    func theRealWorldPackageHasFourProducts() throws {
        let catalog = try SourceLoader.load(path: Fixtures.realWorld("xml/appleparty-iap_metadata.xml"))
        #expect(catalog.format == .appStorePackage)
        #expect(catalog.products.map(\.id) == ["com.app.1usd", "com.app.3usd", "every_movie_in_the_world_plus_1month", "com.app.6usd"])
        #expect(catalog.products.map(\.kind) == [.consumable, .nonConsumable, .autoRenewableSubscription, .nonRenewingSubscription])
        #expect(catalog.products.map(\.priceTier) == [3, 3, nil, 49])
        let subscription = catalog.products[2]
        #expect(subscription.period == Period(iso8601: "P1M"))
        #expect(subscription.introductoryOffer?.mode == .freeTrial)
        #expect(subscription.introductoryOffer?.period == Period(iso8601: "P1W"))
        #expect(subscription.group?.groupName == "订阅群组参考名称")
        #expect(catalog.groups.map(\.productIDs) == [["every_movie_in_the_world_plus_1month"]])
        #expect(catalog.products[0].localizations.map(\.locale) == ["en-US", "zh-Hans"])
        // Positions are the XML lines (and the column of the start tag).
        #expect(catalog.location(catalog.products[0].position(of: .id)).line == 10)
        #expect(catalog.location(catalog.products[0].position(of: .id)).column == 21)
        #expect(catalog.location(catalog.products[3].position(of: .prices)).line == 99)
        #expect(!catalog.knownFields.contains(.prices), "tiers are not amounts")
        #expect(catalog.introductoryOfferModes == [.freeTrial])
    }

    @Test func olderFamiliesGiveTheirFreeTrialToTheirMembers() throws {
        let text = Self.package("""
        <family name="Pro">
            <free_trial_duration>1 Month</free_trial_duration>
            <in_app_purchase><product_id>com.a.pro.month</product_id><duration>1 Month</duration></in_app_purchase>
            <in_app_purchase><product_id>com.a.pro.year</product_id><duration>1 Year</duration><free_trial_duration>2 Weeks</free_trial_duration></in_app_purchase>
        </family>
        """)
        let catalog = try Self.read(text)
        #expect(catalog.products.map(\.kind) == [.autoRenewableSubscription, .autoRenewableSubscription])
        #expect(catalog.products.map(\.introductoryOffer?.period) == [Period(iso8601: "P1M"), Period(iso8601: "P2W")])
        #expect(catalog.products.map(\.period) == [Period(iso8601: "P1M"), Period(iso8601: "P1Y")])
        #expect(catalog.groups == [SubscriptionGroup(id: "Pro", name: "Pro", productIDs: ["com.a.pro.month", "com.a.pro.year"], position: catalog.groups[0].position)])
    }

    @Test func theTierInForceIsTheIntervalThatHoldsToday() throws {
        let intervals = """
        <cleared_for_sale>true</cleared_for_sale><intervals>
        <interval><start_date>2022-01-01</start_date><end_date>2023-12-31</end_date><wholesale_price_tier>5</wholesale_price_tier></interval>
        <interval><start_date>2024-01-01</start_date><wholesale_price_tier>6</wholesale_price_tier></interval>
        <interval><start_date>2030-01-01</start_date><wholesale_price_tier>7</wholesale_price_tier></interval>
        </intervals>
        """
        let text = Self.package(Self.purchase(product: intervals))
        for (today, tier) in [("2021-06-01", nil), ("2023-06-01", 5), ("2024-01-01", 6), ("2031-02-03", 7)] as [(String, Int?)] {
            var options = ReadOptions()
            options.today = today
            #expect(try Self.read(text, options: options).products[0].priceTier == tier, "\(today)")
        }
    }

    @Test func aTierTableTurnsTiersIntoPricesAndNeverGuesses() throws {
        var options = ReadOptions()
        options.priceTiers = try PriceTierTable.parse(text: "tier,territory,price\n3,USA,2.99\n3,JPN,480\n", file: "tiers.csv")
        let text = Self.package(Self.purchase() + "\n" + Self.purchase("com.a.gems", product: "<wholesale_price_tier>9</wholesale_price_tier>"))
        let catalog = try Self.read(text, options: options)
        #expect(catalog.knownFields.contains(.prices))
        let coins = catalog.products[0]
        #expect(coins.price(in: .usa)?.money == Money(amount: Decimal(string: "2.99")!, currency: "USD"))
        #expect(coins.price(in: Territory("JPN")!)?.money == Money(amount: 480, currency: "JPY"))
        #expect(catalog.products[1].prices.isEmpty)
        #expect(catalog.products[1].priceTier == 9)
        #expect(catalog.issues.map(\.rule.rawValue) == ["invalid-price"])
        #expect(catalog.issues.first?.message.contains("tier 9 is not in the price-tier table tiers.csv") == true)
    }

    @Test func productsNotClearedForSaleCountOnlyWhenIncluded() throws {
        let text = Self.package(Self.purchase() + Self.purchase("com.a.hidden", product: "<cleared_for_sale>false</cleared_for_sale>"))
        #expect(try Self.read(text).products.map(\.id) == ["com.a.coins"])
        var options = ReadOptions()
        options.includeStates = [ProductStates.notClearedForSale]
        #expect(try Self.read(text, options: options).products.map(\.id) == ["com.a.coins", "com.a.hidden"])
    }

    @Test func unreadableDurationsAndTiersAreLintIssuesAtTheirLine() throws {
        let text = Self.package("""
        <subscription_group name="G">
            <in_app_purchase><product_id>com.a.s</product_id><type>auto-renewable</type>
                <duration>1 Fortnight</duration>
                <bonus_duration>soon</bonus_duration>
                <products><product><wholesale_price_tier>three</wholesale_price_tier></product></products>
            </in_app_purchase>
        </subscription_group>
        """)
        let catalog = try Self.read(text)
        #expect(catalog.issues.map(\.rule.rawValue) == ["invalid-period", "invalid-offer", "invalid-price"])
        #expect(catalog.issues.map { Int($0.position.line) } == [8, 9, 10])
    }

    @Test(arguments: [
        ("<plist version=\"1.0\"><dict/></plist>", "the root element is <plist>", 1),
        ("<package><software/></package>", "no <in_app_purchases>", 1),
        (Pkg.package("<in_app_purchase><type>consumable</type></in_app_purchase>"), "has no <product_id>", 6),
        (Pkg.package(Pkg.purchase(type: "bundle")), "unknown <type> \"bundle\"", 6),
        (Pkg.package("<in_app_purchase><product_id>x</product_id></in_app_purchase>"), "has no <type>", 6),
        (Pkg.package(Pkg.purchase(product: "<cleared_for_sale>maybe</cleared_for_sale>")), "must be true or false", 6),
        (Pkg.package(Pkg.purchase(product: "<intervals><interval><start_date>1/1/2024</start_date></interval></intervals>")), "not a date", 6),
        (Pkg.package("<subscription_group><in_app_purchase/></subscription_group>"), "has no name attribute", 6),
        ("<package>\n  <software>\n</package>", "not well-formed XML", 3),
    ] as [(String, String, Int)])
    func malformedPackagesAreLocatedErrors(_ text: String, message: String, line: Int) throws {
        let error = try #require(Self.error(text))
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == line, "\(error)")
        #expect(error.location.file == "metadata.xml")
    }

    @Test(arguments: [
        "<!DOCTYPE package [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>",
        "<!DOCTYPE package [<!ENTITY % remote SYSTEM \"http://127.0.0.1:9/evil.dtd\"> %remote;]>",
        "<!DOCTYPE package [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;\">]>",
    ])
    func entityDeclarationsAreRefusedBeforeAnyExpansion(_ doctype: String) throws {
        let text = "<?xml version=\"1.0\"?>\n\(doctype)\n" + Self.package(Self.purchase("&xxe;")).split(separator: "\n").dropFirst().joined(separator: "\n")
        let error = try #require(Self.error(text))
        #expect(error.message.contains("declares the XML entity"), "\(error)")
        #expect(error.location.line == 2)
    }

    @Test func aDoctypeWithoutEntitiesIsReadAndItsDTDIsNeverFetched() throws {
        let text = "<?xml version=\"1.0\"?>\n<!DOCTYPE package SYSTEM \"http://127.0.0.1:9/package.dtd\">\n"
            + Self.package(Self.purchase()).split(separator: "\n").dropFirst().joined(separator: "\n")
        #expect(try Self.read(text).products.map(\.id) == ["com.a.coins"])
    }

    @Test func anUndeclaredEntityReferenceIsALocatedError() throws {
        let error = try #require(Self.error(Self.package(Self.purchase("&xxe;"))))
        #expect(error.message.contains("Entity 'xxe' not defined"), "\(error)")
        #expect(error.location.line == 6)
    }

    @Test func anItmspFolderIsReadThroughItsMetadataXML() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-\(UUID().uuidString).itmsp")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.package(Self.purchase()).write(to: folder.appendingPathComponent("metadata.xml"), atomically: true, encoding: .utf8)
        let catalog = try SourceLoader.load(path: folder.path)
        #expect(catalog.format == .appStorePackage)
        #expect(catalog.file.hasSuffix(".itmsp/metadata.xml"))
        #expect(catalog.products.count == 1)
    }

    @Test(arguments: [("1 Month", "P1M"), ("6 Months", "P6M"), ("1 Year", "P1Y"), ("7 Days", "P1W"), ("3 days", "P3D"), ("2 Weeks", "P2W")])
    func packageDurations(_ text: String, _ iso: String) throws {
        let text = Self.package("<subscription_group name=\"G\"><in_app_purchase><product_id>s</product_id><duration>\(text)</duration></in_app_purchase></subscription_group>")
        #expect(try Self.read(text).products[0].period == Period(iso8601: iso))
    }
}
