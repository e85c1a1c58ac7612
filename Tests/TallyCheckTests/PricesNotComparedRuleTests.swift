import TallyReport
import Testing
import TallyCheck
import TallyModel

/// `✔` never hides that no price was compared.
@Suite("prices-not-compared")
struct PricesNotComparedRuleTests {
    static let deu = Territory("DEU")!

    @Test func aConfigurationWithoutPricesInItsStorefrontIsAWarningNamingBothSides() throws {
        // Given: the configuration states no USA price; the catalogue prices Germany only.
        let config = [Product.test("com.a.coins", price: nil), .test("com.a.gems", price: nil)]
        let catalog = [Product.test("com.a.coins", price: "0.99", territory: "DEU"), .test("com.a.gems", price: "1.99", territory: "DEU")]
        // When
        let found = findings(config, catalog).filter { $0.ruleID == .pricesNotCompared }
        // Then
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.severity == .warning && finding.productID == nil && finding.field == .prices)
        #expect(finding.message == "prices were compared for none of the 2 products in both App.storekit and catalog.yaml: "
            + "the configuration states no price in its storefront USA for any of the 2 products (the catalogue prices DEU)")
        #expect(finding.left?.value == nil && finding.right?.value == .territories([Self.deu]))
    }

    @Test func pricesComparedForOneProductAreEnough() {
        let config = [Product.test("com.a.coins", price: "0.99"), .test("com.a.gems", price: nil)]
        let catalog = [Product.test("com.a.coins", price: "0.99"), .test("com.a.gems", price: "1.99")]
        #expect(findings(config, catalog).isEmpty)
    }

    @Test func aSourceThatCannotStatePricesIsNotReported() {
        // A property list knows IDs only: the compared line says it has no prices, every run.
        let plist = Catalog(file: "Products.plist", format: .propertyList, products: [.test("com.a.coins", price: nil)], knownFields: [.id])
        let result = Checker().check(configurations: [plist], catalogs: [.server([.test("com.a.coins", price: "0.99", territory: "DEU")])])
        #expect(result.findings.isEmpty)
    }

    @Test func theRuleCanBeTurnedOffByThePolicy() {
        let config = [Product.test("com.a.coins", price: nil)]
        let result = Checker().check(configurations: [.config(config)], catalogs: [.server([.test("com.a.coins", price: "0.99", territory: "DEU")])])
        #expect(result.findings.map(\.ruleID) == [.pricesNotCompared])
        let outcome = Policy(rules: [.pricesNotCompared: .off]).apply(to: result)
        #expect(outcome.result.findings.isEmpty)
    }
}
