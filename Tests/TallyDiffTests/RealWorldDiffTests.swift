import TallyDiff
import TallyReport
import TallyModel
import Testing

/// Diffs of real StoreKit files, with expectations checked by hand and against an independent
/// Python reading of the same files (json.load, products by productID).
@Suite(.enabled(if: Shared.available, Comment(rawValue: Shared.missing)))
struct RealWorldDiffTests {
    static let tips = ["tip_1", "tip_2", "tip_3", "tip_4", "tip_with_badge_1", "tip_with_badge_2", "tip_with_badge_3", "tip_with_badge_4"]
    static let removedTips = ["tip_5", "tip_6", "tip_with_badge_5", "tip_with_badge_6"]

    @Test("chemsims US → Colombia: four products only in the US file, every price changed from USD to COP")
    func chemsimsColombia() throws {
        // When
        let result = CatalogDiffer().diff(old: try Shared.storeKit("chemsims-USConfig.storekit"), new: try Shared.storeKit("chemsims-ColombiaConfig.storekit"))
        // Then
        #expect(result.products.filter { $0.status == .removed }.map(\.productID) == Self.removedTips)
        #expect(result.products.filter { $0.status == .added }.isEmpty)
        let prices = result.allChanges.filter { $0.aspect == .price }
        #expect(prices.map { $0.productID ?? "" }.sorted() == Self.tips)
        #expect(prices.allSatisfy { $0.key == "USA → COL" && $0.priceDirection == .otherCurrency && $0.attention.isEmpty })
        let summaries = Dictionary(uniqueKeysWithValues: prices.map { ($0.productID ?? "", $0.summary) })
        #expect(summaries["tip_1"] == "0.99 USD → 4900.00 COP (currency USD → COP)")
        #expect(summaries["tip_with_badge_2"] == "1.99 USD → 13900.00 COP (currency USD → COP)")
        #expect(summaries["tip_4"] == "3.99 USD → 29900.00 COP (currency USD → COP)")
        #expect(result.sourceChanges.map(\.path) == ["(catalogue) › storefront"])
        #expect(result.summary.priceCurrencyChanges == 8 && result.summary.attention == 4)
    }

    @Test("chemsims US → Mexico: the Mexico file declares the USA storefront but holds peso prices, and every price is suspicious")
    func chemsimsMexico() throws {
        let result = CatalogDiffer().diff(old: try Shared.storeKit("chemsims-USConfig.storekit"), new: try Shared.storeKit("chemsims-MexicoConfig.storekit"))
        let prices = result.allChanges.filter { $0.aspect == .price }
        #expect(prices.map { $0.productID ?? "" }.sorted() == Self.tips)
        #expect(prices.allSatisfy { $0.territory == .usa && $0.attention == [.suspiciousPrice] && $0.priceDirection == .up })
        #expect(prices.first { $0.productID == "tip_1" }?.summary == "0.99 USD → 19.00 USD (+18.01 USD, +1819.2%)")
        #expect(result.sourceChanges.isEmpty)
        #expect(result.summary.attention == 12)
        #expect(result.summary.attentionReasons == [.suspiciousPrice: 8, .productRemoved: 4])
    }

    @Test("RevenueCat PurchaseTester v2.0 → v3.0: no product ID survives; lifetime renamed (same reference name), 11 removed, 15 added")
    func revenueCat() throws {
        let result = CatalogDiffer().diff(old: try Shared.storeKit("revenuecat-v2.0-PurchaseTester.storekit"),
                                          new: try Shared.storeKit("revenuecat-v3.0-PurchaseTesterSwiftUI.storekit"))
        #expect(result.products.filter { $0.status == .removed }.map(\.productID) == [
            "com.revenuecat.annual.10.99.1_free_week", "com.revenuecat.annual_39.99.2_week_intro", "com.revenuecat.loadShedder.monthly",
            "com.revenuecat.monthly.1.99.1_free_week", "com.revenuecat.monthly.1.99.no_intro", "com.revenuecat.monthly_4.99.1_week_intro",
            "com.revenuecat.monthly_4.99.no_intro", "com.revenuecat.monthly_9.99.super_premium.1_week_intro",
            "com.revenuecat.weekly_1.99.3_day_intro", "com.revenuecat.weekly_1.99.no_intro", "consumable.10_coins",
        ])
        #expect(result.products.filter { $0.status == .added }.map(\.productID) == [
            "P1", "P2", "com.revenuecat.purchaseTester.500coins.1.99", "com.revenuecat.purchaseTester.annual_39.99.2_week_intro",
            "com.revenuecat.purchaseTester.annual_plus_annual_free", "com.revenuecat.purchaseTester.archiveSub.1.20.99",
            "com.revenuecat.purchaseTester.monthly_4.99.1_week_intro", "demo2023_mv",
            "greenie_annual", "greenie_monthly", "purchasetester_199_1w", "purchasetester_699_1m", "purchasetester_7999_1y",
            "test_product1", "test_refname2",
        ])
        // The non-consumable "lifetime" keeps its reference name under a new ID: one product renamed.
        let renamed = result.products.filter { $0.status == .changed }
        #expect(renamed.map(\.productID) == ["com.revenuecat.purchaseTester.lifetime.199.99"])
        #expect(renamed.first?.changes.first.map { $0.aspect == .id && $0.old == .text("lifetime") && $0.attention == [.productRemoved] } == true)
        #expect(result.summary.changed == 1 && result.summary.unchanged == 0)
        // Groups share no member: the four old ones are removed, the six new ones added.
        #expect(result.sourceChanges.filter { $0.action == .removed }.count == 4)
        #expect(result.sourceChanges.filter { $0.action == .added }.count == 6)
    }

    @Test("Every real StoreKit file diffed with itself has no changes")
    func selfDiff() throws {
        for name in ["apple-backyardbirds-Store.storekit", "ivpn-Store.storekit", "revenuecat-v5.0-UnitTests.storekit", "garten-Purchases-xmlplist.storekit"] {
            let catalog = try Shared.storeKit(name)
            #expect(!CatalogDiffer().diff(old: catalog, new: catalog).hasChanges, "\(name)")
        }
    }
}
