import TallyReport
import Testing
import TallyCheck
import TallyModel
import TallyTestSupport

/// Issue 28's rules on their own: territories where a product is sold without a price, required
/// locales, localization texts against the stores' limits, and billing plans compared.
@Suite("review readiness")
struct ReviewReadinessRuleTests {
    private func lint(_ rule: some LintRule, _ catalog: Catalog) -> [Finding] { rule.findings(in: catalog) }

    static let can = Territory("CAN")!
    static let gbr = Territory("GBR")!

    @Test func aSnapshotProductSoldWhereItHasNoPriceIsOneFindingWithoutAnyPolicy() throws {
        var product = Product.test("com.a.gems", price: "0.99")
        product.availability = Availability(territories: [.usa, Self.gbr, Self.can], inNewTerritories: true)
        let found = lint(UnpricedTerritoryRule(), Catalog(file: "asc", format: .appStoreConnect, products: [product]))
        #expect(found.count == 1)
        let finding = try #require(found.first)
        #expect(finding.message == "com.a.gems is sold without a price: no price in 2 of the 3 territories where the store sells it: GBR, CAN")
        #expect(finding.left?.value == .territories([Self.gbr, Self.can]))
    }

    @Test func requiredAndSoldTerritoriesAreNamedOnceInOneFinding() throws {
        var product = Product.test("com.a.gems", price: "0.99")
        product.availability = Availability(territories: [.usa, Self.gbr, Self.can])
        let found = lint(UnpricedTerritoryRule(territories: [.usa, Self.gbr]), Catalog(file: "asc", format: .appStoreConnect, products: [product]))
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.left?.value == .territories([Self.gbr, Self.can]))
        #expect(finding.message.contains("the policy requires: GBR") && finding.message.contains("where the store sells it: CAN"))
    }

    @Test func missingLocalesAreOneFindingPerProductAndEnUSMatchesEnDashUS() {
        var product = Product.test("com.a.gems", price: "0.99")
        product.localizations = [Localization(locale: "en-US", displayName: "Gems", description: "A pouch of gems")]
        let found = lint(MissingLocaleRule(locales: ["en_US", "de_DE", "fr_FR"]), Catalog(file: "asc", format: .appStoreConnect, products: [product]))
        #expect(found.map(\.message) == ["com.a.gems has no localization in de_DE, fr_FR, which the policy requires"])
        #expect(lint(MissingLocaleRule(), Catalog(file: "asc", format: .appStoreConnect, products: [product])).isEmpty)
    }

    @Test func localizationTextsAreCheckedAgainstEachStoresLimits() {
        var product = Product.test("com.a.gems", price: "0.99")
        product.localizations = [
            Localization(locale: "en_US", displayName: "Gems", description: String(repeating: "x", count: 45)),
            Localization(locale: "de_DE", displayName: String(repeating: "ü", count: 31), description: "  "),
            Localization(locale: "fr_FR", displayName: "Gemmes", description: nil),
        ]
        let found = lint(LocalizationTextRule(isEnabled: true), Catalog(file: "a.storekit", format: .storeKit, products: [product]))
        #expect(found.map(\.message) == [
            "com.a.gems in de_DE: display name is 31 characters, 1 over the limit of 30; empty description",
            "com.a.gems in fr_FR: no description",
        ])
        #expect(lint(LocalizationTextRule(), Catalog(file: "a.storekit", format: .storeKit, products: [product])).isEmpty, "off without required_locales")
        // Google Play: a subscription's description up to 80, at most four benefits.
        var play = Product(id: "premium:monthly", kind: .autoRenewableSubscription)
        play.localizations = [Localization(locale: "en_US", displayName: "Premium", description: String(repeating: "y", count: 81),
                                           benefits: ["a", "b", "c", "d", "e"])]
        let playFound = lint(LocalizationTextRule(isEnabled: true), Catalog(file: "play", format: .googlePlay, products: [play]))
        #expect(playFound.map(\.message) == ["premium:monthly in en_US: description is 81 characters, 1 over the limit of 80; 5 benefits (at most 4)"])
    }
}
