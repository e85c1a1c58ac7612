import Foundation
import Testing
@testable import TallyFormats
import TallyModel

/// Google Play Developer API pages (androidpublisher v3) and the Play Console CSV: base plans as
/// products, offers as introductory offers, exact money, regions as storefronts, located errors.
@Suite struct GooglePlayReaderTests {
    /// The Brightly pages the CLI tests check against the catalogue (subscriptions, offers, one-time products).
    static let pages = Fixtures.repo("Tests/TallyCLITests/Fixtures/google-play/play-pages")
    static let gbr = Territory("GBR")!

    static func money(_ text: String, _ currency: String) -> Money {
        Money(amount: DecimalText.parse(text)!, currency: currency)
    }

    static func options(including states: Set<String> = []) -> ReadOptions {
        var options = ReadOptions()
        options.includeStates = states
        return options
    }

    /// A folder holding copies of the given fixture files, for directory sources.
    static func folder(_ files: [(from: String, name: String)]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-play-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files { try FileManager.default.copyItem(atPath: file.from, toPath: folder.appendingPathComponent(file.name).path) }
        return folder
    }

    @Test func aFolderOfPagesIsOneSourceOfBasePlansAndOneTimeProducts() throws {
        let catalog = try SourceLoader.load(path: Self.pages)
        #expect(catalog.format == .googlePlay)
        #expect(catalog.parts.count == 3)
        #expect(catalog.products.map(\.id) == ["premium:monthly", "premium:yearly", "coins_100", "premium_lifetime"],
                "the DRAFT base plan does not count")
        let byID = catalog.productsByID
        let monthly = try #require(byID["premium:monthly"])
        #expect(monthly.kind == .autoRenewableSubscription)
        #expect(monthly.period == Period(iso8601: "P1M"))
        // 4 units + 990000000 nanos is exactly 4.99.
        #expect(monthly.price(in: .usa)?.money == Self.money("4.99", "USD"))
        #expect(monthly.price(in: Self.gbr)?.money == Self.money("4.49", "GBP"))
        #expect(monthly.introductoryOffer == nil, "an upgrade offer is not an introductory offer")
        #expect(monthly.localizations.first?.displayName == "Brightly Premium")
        let yearly = try #require(byID["premium:yearly"])
        let trial = try #require(yearly.introductoryOffer)
        #expect(trial.mode == .freeTrial && trial.period == Period(iso8601: "P1W") && trial.periods == 1)
        #expect(byID["coins_100"]?.price(in: Self.gbr)?.money == Self.money("0.99", "GBP"), "nanos alone, no units")
        #expect(byID["premium_lifetime"]?.price(in: .usa)?.money == Self.money("79.99", "USD"))
        #expect(catalog.knownFields.contains(.introductoryOffer))
        #expect(!catalog.knownFields.contains(.group) && !catalog.knownFields.contains(.familyShareable))
        #expect(!catalog.distinguishesConsumables)
        #expect(catalog.issues.isEmpty)
    }

    @Test func findingsPointAtThePageAndLine() throws {
        let catalog = try SourceLoader.load(path: Self.pages)
        let yearly = try #require(catalog.productsByID["premium:yearly"])
        let price = try #require(yearly.price(in: Self.gbr))
        let location = catalog.location(price.position)
        #expect(location.file.hasSuffix("play-pages/01-subscriptions.json"))
        let text = try String(contentsOfFile: location.file, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let line = try #require(location.line)
        #expect(lines[line - 1].contains("\"price\""), "\(location)")
        let lifetime = try #require(catalog.productsByID["premium_lifetime"])
        let idLocation = catalog.location(of: lifetime, .id)
        #expect(idLocation.file.hasSuffix("03-onetimeproducts.json"))
        let onetime = try String(contentsOfFile: idLocation.file, encoding: .utf8).components(separatedBy: "\n")
        #expect(onetime[try #require(idLocation.line) - 1].contains("\"premium_lifetime\""))
    }

    @Test func statesOtherThanActiveCountOnlyWhenIncluded() throws {
        let catalog = try SourceLoader.load(path: Self.pages, options: Self.options(including: ["DRAFT"]))
        let weekly = try #require(catalog.productsByID["premium:weekly-draft"])
        #expect(weekly.period == Period(iso8601: "P1W"))
    }

    @Test func aSingleSubscriptionWithPrepaidAndInstallmentPlans() throws {
        let catalog = try SourceLoader.load(path: Fixtures.path("google-play/subscription-single.json"))
        #expect(catalog.format == .googlePlay)
        #expect(catalog.products.map(\.id) == ["family:prepaid-month", "family:installments-yearly"], "the INACTIVE plan does not count")
        let prepaid = try #require(catalog.productsByID["family:prepaid-month"])
        #expect(prepaid.kind == .nonRenewingSubscription)
        #expect(prepaid.period == nil)
        #expect(prepaid.billingPlans.map(\.type) == ["google-play-prepaid P1M"])
        #expect(prepaid.price(in: .usa)?.money == Self.money("7.5", "USD"), "units as a JSON number are read too")
        let installments = try #require(catalog.productsByID["family:installments-yearly"])
        #expect(installments.kind == .autoRenewableSubscription)
        #expect(installments.period == Period(iso8601: "P1M"))
        #expect(installments.billingPlans.map(\.type) == ["google-play-installments 12 × P1M"])
        #expect(installments.price(in: Territory("BRA")!)?.money == Self.money("19.9", "BRL"))
        #expect(prepaid.localizations.map(\.locale) == ["en_US", "de_DE"])
        #expect(!catalog.knownFields.contains(.introductoryOffer), "no offers page: offers are unknown, not absent")
    }

    @Test func offersPagesGiveTheIntroductoryOfferOfEachBasePlan() throws {
        let folder = try Self.folder([(Self.pages + "/01-subscriptions.json", "a-subscriptions.json"),
                                      (Fixtures.path("google-play/offers-wildcard.json"), "b-offers.json")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try SourceLoader.load(path: folder.path)
        let monthly = try #require(catalog.productsByID["premium:monthly"]?.introductoryOffer)
        // Three discounted months: pay as you go, 4.99 − 2.00 = 2.99 a month in the United States.
        #expect(monthly.mode == .payAsYouGo && monthly.periods == 3 && monthly.period == Period(iso8601: "P1M"))
        #expect(monthly.price == Self.money("2.99", "USD") && monthly.territory == .usa)
        // A developer-determined one-year phase once, priced in its only region: pay up front.
        let yearly = try #require(catalog.productsByID["premium:yearly"]?.introductoryOffer)
        #expect(yearly.mode == .payUpFront && yearly.period == Period(iso8601: "P1Y") && yearly.periods == 1)
        #expect(yearly.price == Self.money("19.99", "GBP") && yearly.territory == Self.gbr)
    }

    @Test func aRelativeDiscountIsExact() throws {
        let page = """
        {"subscriptions": [{"productId": "p", "basePlans": [{"basePlanId": "m", "state": "ACTIVE",
          "regionalConfigs": [{"regionCode": "GB", "price": {"currencyCode": "GBP", "units": "4", "nanos": 490000000}}],
          "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"}}]}],
         "subscriptionOffers": [{"productId": "p", "basePlanId": "m", "offerId": "o", "state": "ACTIVE",
          "phases": [{"recurrenceCount": 2, "duration": "P1M", "regionalConfigs": [{"regionCode": "GB", "relativeDiscount": 0.25}]}]}]}
        """
        let catalog = try Fixtures.load(page, as: "page.json")
        let offer = try #require(catalog.products.first?.introductoryOffer)
        #expect(offer.mode == .payAsYouGo && offer.periods == 2)
        #expect(offer.price == Self.money("3.3675", "GBP"))
    }

    @Test func theLegacyInAppProductsAPIInMicros() throws {
        let catalog = try SourceLoader.load(path: Fixtures.path("google-play/inappproducts.json"))
        #expect(catalog.products.map(\.id) == ["coins_500", "legacy_monthly"], "the inactive product does not count")
        let coins = try #require(catalog.productsByID["coins_500"])
        #expect(coins.kind == .nonConsumable)
        #expect(coins.price(in: .usa)?.money == Self.money("3.99", "USD"))
        #expect(coins.price(in: Territory("JPN")!)?.money == Self.money("600", "JPY"))
        #expect(coins.localizations.first?.locale == "en_US")
        let legacy = try #require(catalog.productsByID["legacy_monthly"])
        #expect(legacy.kind == .autoRenewableSubscription && legacy.period == Period(iso8601: "P1M"))
        #expect(legacy.introductoryOffer?.mode == .freeTrial && legacy.introductoryOffer?.period == Period(iso8601: "P3D"))
    }

    @Test func thePlayConsoleCSV() throws {
        let catalog = try SourceLoader.load(path: Fixtures.path("google-play/play-console.csv"))
        #expect(catalog.format == .googlePlay)
        #expect(catalog.products.map(\.id) == ["coins_100", "premium_lifetime"], "unpublished products do not count")
        let coins = try #require(catalog.productsByID["coins_100"])
        #expect(coins.price(in: .usa)?.money == Money(amount: DecimalText.parse("0.99")!, in: .usa))
        #expect(coins.price(in: Self.gbr)?.money.amount == DecimalText.parse("0.79"))
        #expect(coins.localizations.map(\.locale) == ["en_US", "de_DE"])
        #expect(coins.localizations.last?.displayName == "100 Münzen")
        #expect(catalog.productsByID["premium_lifetime"]?.prices.isEmpty == true, "auto-filled prices name no region")
        #expect(catalog.location(of: coins, .prices).line == 2)
    }

    @Test func theSnakeCaseHeaderIsAPlayCSVNotATallyCSV() throws {
        let text = "product_id,publish_state,purchase_type,autotranslate,locale; title; description,autofill,country; price\ncoins_100,published,managed_by_android,false,en_US; Coins; Coins,false,US; 990000\n"
        let catalog = try Fixtures.load(text, as: "play.csv")
        #expect(catalog.format == .googlePlay)
        #expect(catalog.products.first?.price(in: .usa)?.money.amount == DecimalText.parse("0.99"))
    }

    @Test func detectionByContent() throws {
        #expect(try Fixtures.load("{\"oneTimeProducts\": []}", as: "a.json").format == .googlePlay)
        #expect(try Fixtures.load("{\"inappproduct\": [], \"kind\": \"androidpublisher#inappproductsListResponse\"}", as: "a.json").format == .googlePlay)
        #expect(try Fixtures.load("{\"products\": [{\"productID\": \"x\", \"type\": \"Consumable\", \"displayPrice\": \"1\"}], \"version\": {\"major\": 3, \"minor\": 0}}",
                                  as: "a.json").format == .storeKit)
    }

    @Test func anErrorResponseSavedAsAPageSaysSo() throws {
        let error = try #require(Fixtures.error("{\"error\": {\"code\": 401, \"message\": \"Request had invalid authentication credentials.\", \"status\": \"UNAUTHENTICATED\"}}",
                                                as: "page.json"))
        #expect(error.message.contains("error response") && error.message.contains("401"))
        #expect(error.location.line == 1)
    }

    @Test func anUnknownRegionIsALocatedError() throws {
        let page = "{\"subscriptions\": [{\"productId\": \"p\", \"basePlans\": [{\"basePlanId\": \"m\",\n  \"regionalConfigs\": [{\"regionCode\": \"UK\", \"price\": {\"currencyCode\": \"GBP\", \"units\": \"1\"}}]}]}]}"
        let error = try #require(Fixtures.error(page, as: "page.json"))
        #expect(error.message.contains("\"UK\" is not a Google Play region code"))
        #expect(error.location.line == 2 && error.location.column == 38)
    }

    @Test func wrongTypesAreLocatedErrors() throws {
        let error = try #require(Fixtures.error("{\"subscriptions\": {\"productId\": \"p\", \"basePlans\": []}}", as: "page.json"))
        #expect(error.message.contains("\"subscriptions\" must be an array"))
        #expect(error.location.line == 1 && error.location.column == 19)
        let missing = try #require(Fixtures.error("{\"subscriptions\": [{\"basePlans\": []}]}", as: "page.json"))
        #expect(missing.message.contains("needs a \"productId\""))
    }

    @Test func aPriceThatIsNotUnitsAndNanosIsAnIssueOfItsProduct() throws {
        let page = "{\"oneTimeProducts\": [{\"productId\": \"c\", \"purchaseOptions\": [{\"state\": \"ACTIVE\", \"buyOption\": {},\n \"regionalPricingAndAvailabilityConfigs\": [{\"regionCode\": \"US\", \"price\": {\"currencyCode\": \"USD\", \"units\": \"4.99\"}}]}]}]}"
        let catalog = try Fixtures.load(page, as: "page.json")
        let issue = try #require(catalog.issues.first)
        #expect(issue.rule == .invalidPrice && issue.productID == "c")
        #expect(issue.position.line == 2)
    }

    @Test func aDirectoryOfOtherJSONIsNotClaimed() throws {
        #expect(!GooglePlayReader.claims(directory: Fixtures.repo("Tests/TallyCLITests/Fixtures/app-store-connect/calmly")))
        #expect(GooglePlayReader.claims(directory: Self.pages))
    }
}

/// The catalogue's `google_play:` key: a product's Google Play identity.
@Suite struct CatalogGooglePlayKeyTests {
    @Test func theKeyIsReadInJSONAndYAML() throws {
        let catalog = try SourceLoader.load(path: Fixtures.repo("Tests/TallyCLITests/Fixtures/google-play/catalog.json"))
        #expect(catalog.productsByID["com.example.brightly.premium.yearly"]?.storeIDs[.googlePlay] == "premium:yearly")
        #expect(catalog.productsByID["com.example.brightly.coins.100"]?.storeIDs[.googlePlay] == "coins_100")
        let yaml = """
        format: tally-catalog/1
        products:
          - {id: com.example.a, kind: consumable, google_play: a_play}
          - {id: com.example.b, kind: consumable, google_play: null}
          - {id: com.example.c, kind: consumable}
        """
        let fromYAML = try Fixtures.load(yaml, as: "catalog.yaml")
        #expect(fromYAML.products.map { $0.storeIDs[.googlePlay] } == ["a_play", "", nil])
    }

    @Test func aBlankIdentityIsALocatedError() throws {
        let error = try #require(Fixtures.error("format: tally-catalog/1\nproducts:\n  - {id: a, kind: consumable, google_play: \"premium yearly\"}\n", as: "catalog.yaml"))
        #expect(error.message.contains("google_play must be"))
        #expect(error.location.line == 3)
    }

    // MARK: - gradle-play-publisher files, by their keys

    /// gradle-play-publisher's files are told by their keys: `{"sku"}` alone, a product whose
    /// `sku` comes after 4 KB of alphabetically earlier keys, `{packageName, productId}`, the
    /// metadata file; JSON that only holds such keys deeper down, or a purchase, is not claimed.
    @Test(arguments: [
        ("{\n    \"sku\": \"my-sku\"\n}\n", true),
        ("{\"defaultLanguage\": \"en-US\", \"defaultPrice\": {\"priceMicros\": \"990000\", \"currency\": \"USD\"}, \"listings\": {"
            + (0..<120).map { "\"x-\($0)\": {\"title\": \"A\", \"description\": \"B\"}, " }.joined() + "\"fr-FR\": {}}, \"sku\": \"late\"}", true),
        ("{\"packageName\": \"my-package\", \"productId\": \"subscription\"}", true),
        ("{\"regionsVersion\":\"\"}", true),
        ("{\"items\": [{\"sku\": \"a\", \"prices\": {}}]}", false),
        ("{\"orderId\": \"GPA.1\", \"packageName\": \"p\", \"productId\": \"coins\", \"purchaseTime\": 1}", false),
        ("{\"sku\": \"a\", \"price\": \"0.99\"}", false),
    ])
    func gradlePlayPublisherFilesAreToldByTheirKeys(_ text: String, _ isPlay: Bool) throws {
        let reader = try SourceLoader.detect(bytes: Array(text.utf8), file: "product.json")
        #expect((reader.format == .googlePlay) == isPlay, "\(text.prefix(80)) → \(reader.format)")
    }

    @Test func theKeysOfAHeadAreReadUpToWhereItIsCut() throws {
        let keys = try #require(PlayShapes.rootKeys("{\"a\": {\"b\": \"x:y\"}, \"c\": [\"d\", {\"e\": 1}], \"f\\\"g\": 2, \"h\": \"cut"))
        #expect(keys.keys == ["a", "c", "f\\\"g", "h"] && !keys.complete)
        #expect(PlayShapes.rootKeys("{\"a\": 1}")?.complete == true)
        #expect(PlayShapes.rootKeys("[{\"a\": 1}]") == nil)
    }

    @Test func aBareSubscriptionSellsNothingAndSaysSo() throws {
        let catalog = try Fixtures.load("{\"packageName\": \"my-package\", \"productId\": \"subscription\"}", as: "subscription.json")
        #expect(catalog.format == .googlePlay && catalog.products.isEmpty)
        #expect(catalog.issues.map(\.rule) == [.storeState])
        #expect(catalog.issues.first?.productID == "subscription")
    }
}
