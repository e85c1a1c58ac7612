import Foundation
import Testing
import TallyFormats
import TallyModel

@Suite struct StoreKitReaderTests {
    static func config(_ subscription: String, settings: String = "{}") -> String {
        """
        {
          "products" : [],
          "settings" : \(settings),
          "subscriptionGroups" : [
            {
              "id" : "ABCD1234",
              "name" : "Premium",
              "subscriptions" : [
                \(subscription)
              ]
            }
          ],
          "version" : { "major" : 3, "minor" : 0 }
        }
        """
    }

    static let monthly = """
    {"displayPrice": "4.99", "familyShareable": false, "groupNumber": 2, "internalID": "1",
     "introductoryOffer": null, "productID": "com.a.monthly", "recurringSubscriptionPeriod": "P1M",
     "referenceName": null, "subscriptionGroupID": "ABCD1234", "type": "RecurringSubscription"}
    """

    @Test func nullIntroductoryOfferAndReferenceName() throws {
        let catalog = try Fixtures.load(Self.config(Self.monthly), as: "A.storekit")
        let product = try #require(catalog.products.first)
        #expect(product.introductoryOffer == nil)
        #expect(product.referenceName == nil)
        #expect(product.group == GroupMembership(groupID: "ABCD1234", groupName: "Premium", level: 2, declaredGroupID: "ABCD1234"))
        #expect(product.prices == [Price(territory: .usa, money: Money(amount: Decimal(string: "4.99")!, currency: "USD"), position: product.prices[0].position)])
    }

    @Test func storefrontAfterProductsStillSetsTheCurrency() throws {
        let catalog = try Fixtures.load(Self.config(Self.monthly, settings: "{\"_storefront\": \"JPN\"}"), as: "A.storekit")
        #expect(catalog.defaultTerritory.code == "JPN")
        #expect(catalog.products[0].prices[0].territory.code == "JPN")
        #expect(catalog.products[0].prices[0].money.currency == "JPY")
    }

    @Test func offersAreNormalised() throws {
        let subscription = Self.monthly.replacingOccurrences(of: "\"introductoryOffer\": null", with: """
        "introductoryOffer": {"internalID": "2", "paymentMode": "payAsYouGo", "subscriptionPeriod": "P1M", "numberOfPeriods": 3, "displayPrice": "1.99"},
        "adHocOffers": [{"internalID": "3", "offerID": "back", "paymentMode": "free", "subscriptionPeriod": "P7D", "referenceName": "r"}]
        """)
        let product = try Fixtures.load(Self.config(subscription), as: "A.storekit").products[0]
        #expect(product.introductoryOffer?.mode == .payAsYouGo)
        #expect(product.introductoryOffer?.periods == 3)
        #expect(product.introductoryOffer?.price == Money(amount: Decimal(string: "1.99")!, currency: "USD"))
        #expect(product.promotionalOffers.first?.id == "back")
        #expect(product.promotionalOffers.first?.period == Period(iso8601: "P1W"))
        #expect(product.promotionalOffers.first?.periods == 1)
    }

    @Test(arguments: [
        ("{\"products\": [{\"type\": \"Consumable\"}], \"version\": {\"major\": 1, \"minor\": 0}}", 1, "a product has no productID"),
        ("{\n  \"products\" : [\n    {\"productID\": \"a\", \"type\": \"Consumable\"\n  ]\n}", 4, "expected ',' or '}'"),
        ("{\"settings\": {\"_storefront\": \"US\"}, \"version\": {\"major\": 1, \"minor\": 0}}", 1, "not an App Store storefront code"),
        ("{\"identifier\": \"X\"}", 1, "not a StoreKit configuration"),
        ("\u{FEFF}{\"products\": 5, \"version\": {}}", 1, "expected an array, found a number"),
        ("<?xml version=\"1.0\"?><plist><dict><key>products</key>", 0, "not a valid property list"),
    ])
    func malformedFilesAreLocatedErrors(_ text: String, _ line: Int, _ message: String) throws {
        let error = try #require(Fixtures.error(text, as: "Bad.storekit"))
        #expect(error.location.file == "Bad.storekit")
        #expect((error.location.line ?? 0) == line, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    /// A type a newer Xcode may write is not a refusal of the whole file: the product is named
    /// (an `unknown-content` issue, a warning) and left out, and the other products are read.
    @Test func anUnknownProductTypeIsNamedAndTheRestIsRead() throws {
        let catalog = try StoreKitReader.read(bytes: Array("""
            {"products": [{"productID": "a", "type": "Subscription"}, {"productID": "b", "type": "Consumable"}], "version": {"major": 1, "minor": 0}}
            """.utf8), file: "New.storekit")
        #expect(catalog.products.map(\.id) == ["b"])
        #expect(catalog.issues.map(\.rule) == [.unknownContent])
        #expect(catalog.issues.first?.message.contains("product a has the type \"Subscription\", which Tally does not know") == true)
    }

    @Test func unparsableValuesAreIssues() throws {
        let subscription = Self.monthly
            .replacingOccurrences(of: "\"4.99\"", with: "\"4,99\"")
            .replacingOccurrences(of: "\"P1M\"", with: "\"1 month\"")
        let catalog = try Fixtures.load(Self.config(subscription), as: "A.storekit")
        #expect(catalog.issues.map(\.rule.rawValue).sorted() == ["invalid-period", "invalid-price"])
        #expect(catalog.products[0].prices.isEmpty)
        #expect(catalog.products[0].period == nil)
    }

    @Test func theOffersKeyPairIsNeverKept() throws {
        let text = "{\"subscriptionOffersKeyPair\": {\"id\": \"K\", \"privateKey\": \"SECRET-KEY-MATERIAL\"}, \"products\": [], \"version\": {\"major\": 1, \"minor\": 1}}"
        let catalog = try Fixtures.load(text, as: "A.storekit")
        let encoded = String(decoding: try JSONEncoder().encode(catalog), as: UTF8.self)
        #expect(!encoded.contains("SECRET"))
    }

    @Test func binaryPropertyListStoreKitFile() throws {
        let object: [String: Any] = [
            "version": ["major": 1, "minor": 1],
            "products": [["productID": "com.b.coins", "type": "Consumable", "displayPrice": "0.99", "familyShareable": true]],
            "settings": ["_storefront": "GBR"],
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        let catalog = try SourceLoader.load(bytes: [UInt8](data), file: "Binary.storekit")
        #expect(catalog.products.first?.id == "com.b.coins")
        #expect(catalog.products.first?.familyShareable == true)
        #expect(catalog.products.first?.prices.first?.money == Money(amount: Decimal(string: "0.99")!, currency: "GBP"))
    }
}

@Suite struct DetectionTests {
    @Test func formatsAreDetectedByExtensionAndContent() throws {
        let storeKitJSON = "{\"products\": [{\"productID\": \"a\", \"type\": \"Consumable\"}], \"version\": {\"major\": 1, \"minor\": 0}}"
        #expect(try Fixtures.load(storeKitJSON, as: "Products.json").format == .storeKit)
        #expect(try Fixtures.load("{\"format\": \"tally-catalog/1\"}", as: "catalog.json").format == .tallyCatalogJSON)
        #expect(try Fixtures.load("format: tally-catalog/1\n", as: "catalog.yml").format == .tallyCatalogYAML)
        #expect(try Fixtures.load(storeKitJSON, as: "App.storekit").format == .storeKit)
    }

    @Test func anUnknownFormatNamesTheFormatsTallyReads() throws {
        let error = try #require(Fixtures.error("hello", as: "notes.txt"))
        #expect(error.message.contains("Tally reads"))
        #expect(error.message.contains("storekit"))
        // A .json file that is neither says what is missing.
        #expect(Fixtures.error("{\"products\": []}", as: "x.json")?.message.contains(#"missing "format": "tally-catalog/1" at the top"#) == true)
    }
}
