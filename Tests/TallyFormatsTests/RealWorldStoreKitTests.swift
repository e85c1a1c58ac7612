import Foundation
import Testing
import TallyFormats
import TallyModel

/// Every real StoreKit configuration in ../shared/fixtures/realworld/storekit is read, with the
/// number of products, subscriptions and groups counted independently (by Python's json/plistlib).
@Suite(.enabled(if: Fixtures.sharedAvailable, Comment(rawValue: Fixtures.sharedMissing)))
struct RealWorldStoreKitTests {
    struct Expectation: Sendable, CustomTestStringConvertible {
        var file: String
        var products: Int
        var subscriptions: Int
        var groups: Int
        var storefront: String
        var intros: Int
        var promos: Int
        var testDescription: String { file }
    }

    static let files: [Expectation] = [
        .init(file: "apple-backyardbirds-Store.storekit", products: 9, subscriptions: 3, groups: 1, storefront: "USA", intros: 3, promos: 0),
        .init(file: "apple-foodtruck-Products.storekit", products: 3, subscriptions: 2, groups: 1, storefront: "USA", intros: 2, promos: 0),
        .init(file: "chemsims-ColombiaConfig.storekit", products: 8, subscriptions: 0, groups: 0, storefront: "COL", intros: 0, promos: 0),
        .init(file: "chemsims-MexicoConfig.storekit", products: 8, subscriptions: 0, groups: 0, storefront: "USA", intros: 0, promos: 0),
        .init(file: "chemsims-USConfig.storekit", products: 12, subscriptions: 0, groups: 0, storefront: "USA", intros: 0, promos: 0),
        .init(file: "garten-Purchases-xmlplist.storekit", products: 3, subscriptions: 0, groups: 0, storefront: "USA", intros: 0, promos: 0),
        .init(file: "iapdemo-Configuration.storekit", products: 5, subscriptions: 0, groups: 0, storefront: "USA", intros: 0, promos: 0),
        .init(file: "ivpn-Store.storekit", products: 16, subscriptions: 4, groups: 1, storefront: "USA", intros: 4, promos: 0),
        .init(file: "revenuecat-v1.0-PurchaseTests.storekit", products: 3, subscriptions: 2, groups: 1, storefront: "USA", intros: 2, promos: 0),
        .init(file: "revenuecat-v1.1-UnitTests.storekit", products: 6, subscriptions: 3, groups: 2, storefront: "USA", intros: 2, promos: 2),
        .init(file: "revenuecat-v1.2-PurchaseTester.storekit", products: 10, subscriptions: 8, groups: 3, storefront: "USA", intros: 5, promos: 4),
        .init(file: "revenuecat-v2.0-PurchaseTester.storekit", products: 12, subscriptions: 10, groups: 4, storefront: "USA", intros: 6, promos: 4),
        .init(file: "revenuecat-v3.0-PurchaseTesterSwiftUI.storekit", products: 16, subscriptions: 13, groups: 6, storefront: "USA", intros: 4, promos: 5),
        .init(file: "revenuecat-v4.0-PaywallsTester.storekit", products: 6, subscriptions: 3, groups: 1, storefront: "USA", intros: 1, promos: 3),
        .init(file: "revenuecat-v5.0-UnitTests.storekit", products: 7, subscriptions: 4, groups: 2, storefront: "USA", intros: 3, promos: 4),
        .init(file: "skhelper-SampleProducts.storekit", products: 4, subscriptions: 2, groups: 1, storefront: "USA", intros: 1, promos: 0),
        .init(file: "storehelper-SampleProducts.storekit", products: 11, subscriptions: 6, groups: 2, storefront: "USA", intros: 1, promos: 2),
    ]

    @Test(arguments: files)
    func readsEveryProduct(_ expected: Expectation) throws {
        let catalog = try SourceLoader.load(path: Fixtures.realWorld("storekit/\(expected.file)"))
        #expect(catalog.format == .storeKit)
        #expect(catalog.products.count == expected.products)
        #expect(catalog.products.filter(\.kind.isAutoRenewable).count == expected.subscriptions)
        #expect(catalog.groups.count == expected.groups)
        #expect(catalog.defaultTerritory.code == expected.storefront)
        #expect(catalog.products.filter { $0.introductoryOffer != nil }.count == expected.intros)
        #expect(catalog.products.map(\.promotionalOffers.count).reduce(0, +) == expected.promos)
        for product in catalog.products where product.kind.isAutoRenewable {
            #expect(product.period != nil, "\(product.id) has no period")
            #expect(product.group?.groupID.isEmpty == false, "\(product.id) has no group")
        }
    }

    @Test func theEmptyFileIsAClearInputError() {
        #expect(throws: FormatError.self) { try SourceLoader.load(path: Fixtures.realWorld("storekit/chemsims-empty-Configuration.storekit")) }
        do {
            _ = try SourceLoader.load(path: Fixtures.realWorld("storekit/chemsims-empty-Configuration.storekit"))
        } catch let error as FormatError {
            #expect(error.description.contains("chemsims-empty-Configuration.storekit"))
            #expect(error.description.contains("empty"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test func storefrontDecidesTheCurrency() throws {
        let colombia = try SourceLoader.load(path: Fixtures.realWorld("storekit/chemsims-ColombiaConfig.storekit"))
        let price = try #require(colombia.products.first?.prices.first)
        #expect(price.territory.code == "COL")
        #expect(price.money.currency == "COP")
        let us = try SourceLoader.load(path: Fixtures.realWorld("storekit/chemsims-USConfig.storekit"))
        #expect(us.products.first?.prices.first?.money.currency == "USD")
    }

    @Test func pricesKeepTheirLiteralDecimalsAndLines() throws {
        let catalog = try SourceLoader.load(path: Fixtures.realWorld("storekit/revenuecat-v5.0-UnitTests.storekit"))
        let lifetime = try #require(catalog.products.first { $0.id == "lifetime" })
        let price = try #require(lifetime.prices.first)
        #expect(Money.plain(price.money.amount) == "199.99")
        #expect(price.position.line > 0)
        // The line really holds that displayPrice.
        let lines = try String(contentsOfFile: Fixtures.realWorld("storekit/revenuecat-v5.0-UnitTests.storekit"), encoding: .utf8)
            .components(separatedBy: "\n")
        #expect(lines[Int(price.position.line) - 1].contains("\"199.99\""))
    }

    @Test func version5IntroductoryOffersAndBillingPlans() throws {
        let catalog = try SourceLoader.load(path: Fixtures.realWorld("storekit/revenuecat-v5.0-UnitTests.storekit"))
        let monthly = try #require(catalog.products.first { $0.id == "com.revenuecat.monthly_4.99.1_week_intro" })
        let intro = try #require(monthly.introductoryOffer)
        #expect(intro.mode == .freeTrial)
        #expect(intro.period == Period(iso8601: "P3M"))
        #expect(monthly.otherIntroductoryOffers.isEmpty, "the array repeats the singular offer")
        #expect(monthly.billingPlans.first?.type == "BILLED_UPFRONT")
        #expect(monthly.promotionalOffers.map(\.id) == ["com.revenuecat.monthly_4.99.1_week_intro.year_discount",
                                                         "com.revenuecat.monthly_4.99.1_week_intro.pay_as_you_go"])
        #expect(monthly.group?.level == 1)
    }

    @Test func xmlPropertyListStoreKitFile() throws {
        let catalog = try SourceLoader.load(path: Fixtures.realWorld("storekit/garten-Purchases-xmlplist.storekit"))
        let small = try #require(catalog.products.first { $0.id == "com.gartenapp.coins.pack_small" })
        #expect(small.kind == .consumable)
        #expect(small.prices.first.map { Money.plain($0.money.amount) } == "0.99")
        #expect(small.localizations.map(\.locale).contains("de"))
        #expect(small.familyShareable == false)
    }
}
