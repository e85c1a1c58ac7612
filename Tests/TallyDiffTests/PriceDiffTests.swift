import Foundation
import TallyDiff
import TallyReport
import TallyModel
import Testing

@Suite("Prices: per territory, currency aware, attention")
struct PriceDiffTests {
    @Test("Prices are matched by territory, not by their order in the file")
    func matchedByTerritory() throws {
        // Given: the same prices, JPN changed, written in another order
        var new = Product.test("a", prices: ["USA": "4.99", "JPN": "800", "GBR": "4.49"])
        new.prices.reverse()
        // When
        let result = diff([.test("a", prices: ["USA": "4.99", "JPN": "700", "GBR": "4.49"])], [new])
        // Then
        #expect(lines(result) == ["a › prices › JPN: changed"])
        let change = try #require(result.allChanges.first)
        #expect(change.path == "a › prices › JPN")
        #expect(change.summary == "700 JPY → 800 JPY (+100 JPY, +14.3%)")
        #expect(change.priceDirection == .up)
        #expect(change.attention.isEmpty)
    }

    @Test("A territory priced on one side only is added or removed")
    func territoriesAddedAndRemoved() {
        let result = diff([.test("a", prices: ["USA": "1", "FRA": "1.19"])], [.test("a", prices: ["USA": "1", "DEU": "1.19"])])
        #expect(Set(lines(result)) == ["a › prices › DEU: added", "a › prices › FRA: removed"])
        #expect(result.summary.pricesAdded == 1 && result.summary.pricesRemoved == 1 && result.summary.priceChanges == 0)
    }

    @Test("The summary counts price changes up and down and their territories")
    func summaryCounts() {
        let result = diff(
            [.test("a", prices: ["USA": "1", "GBR": "1"]), .test("b", prices: ["USA": "2"])],
            [.test("a", prices: ["USA": "2", "GBR": "0.5"]), .test("b", prices: ["USA": "3"])])
        let summary = result.summary
        #expect(summary.priceChanges == 3)
        #expect(summary.priceIncreases == 2)
        #expect(summary.priceDecreases == 1)
        #expect(summary.territoriesWithPriceChanges == 2)
        #expect(summary.changed == 2)
    }

    @Test("A price increase on an existing subscription needs attention; a decrease or a consumable's increase does not")
    func subscriptionIncrease() {
        let up = diff([.subscription("s", price: "4.99")], [.subscription("s", price: "5.99")])
        #expect(up.allChanges.first?.attention == [.subscriptionPriceIncrease])
        let down = diff([.subscription("s", price: "5.99")], [.subscription("s", price: "4.99")])
        #expect(down.allChanges.first?.attention == [])
        let consumable = diff([.test("c", prices: ["USA": "0.99"])], [.test("c", prices: ["USA": "1.99"])])
        #expect(consumable.allChanges.first?.attention == [])
    }

    @Test("More than a factor of 3 in the same currency is suspicious, in either direction; exactly 3 is not", arguments: [
        ("0.99", "2.97", false), ("0.99", "2.98", true), ("19", "0.99", true), ("6", "2", false), ("0", "99", false), ("0.99", "0", false),
    ])
    func suspiciousFactor(old: String, new: String, suspicious: Bool) {
        let result = diff([.test("c", prices: ["USA": old])], [.test("c", prices: ["USA": new])])
        #expect(result.allChanges.first?.attention.contains(.suspiciousPrice) == suspicious)
    }

    @Test("Between single-storefront sources with different storefronts, the storefront prices are compared, naming both currencies")
    func storefrontToStorefront() throws {
        // Given: StoreKit files for USA and for COL
        let us = Catalog.test([.test("tip", prices: ["USA": "0.99"]), .test("gone", prices: ["USA": "1.99"])], file: "US.storekit", format: .storeKit)
        let col = Catalog.test([.test("tip", prices: ["COL": "4900"])], file: "CO.storekit", format: .storeKit, territory: Territory("COL")!)
        // When
        let result = CatalogDiffer().diff(old: us, new: col)
        // Then
        #expect(lines(result) == ["(catalogue) › storefront: changed", "gone: removed", "tip › prices › USA → COL: changed"])
        let price = try #require(result.products.last?.changes.first)
        #expect(price.summary == "0.99 USD → 4900.00 COP (currency USD → COP)")
        #expect(price.priceDirection == .otherCurrency)
        #expect(price.attention.isEmpty)
        #expect(result.summary.priceCurrencyChanges == 1)
        #expect(result.summary.territoriesWithPriceChanges == 1)
        #expect(result.sourceChanges.first?.summary.hasPrefix("USA → COL (each file holds one price per product") == true)
    }

    @Test("Catalogues priced in many territories keep prices keyed by territory even when the default territory changes")
    func multiTerritoryKeepsTerritories() {
        let old = Catalog.test([.test("a", prices: ["USA": "1", "COL": "4900"])], file: "a.yaml")
        let new = Catalog.test([.test("a", prices: ["USA": "1", "COL": "5900"])], file: "b.yaml", territory: Territory("COL")!)
        #expect(lines(CatalogDiffer().diff(old: old, new: new)) == ["(catalogue) › storefront: changed", "a › prices › COL: changed"])
    }
}

@Suite("Price arithmetic: exact, fast path and Decimal path agree")
struct PriceArithmeticTests {
    static func money(_ text: String, _ currency: String? = "USD") -> Money {
        Money(amount: DecimalText.parse(text) ?? 0, currency: currency)
    }

    @Test("Difference and percent, rounded half away from zero", arguments: [
        ("4.99", "5.99", "+1.00 USD, +20%"), ("0.99", "19", "+18.01 USD, +1819.2%"), ("10", "9.5", "-0.50 USD, -5%"),
        ("3", "2", "-1.00 USD, -33.3%"), ("0.08", "0.0801", "+0.0001 USD, +0.1%"), ("2", "2.001", "+0.001 USD, +0.1%"),
        ("2", "1.999", "-0.001 USD, -0.1%"), ("0", "1", "+1.00 USD"), ("12.90", "12.9", "0.00 USD, 0%"), ("10.90", "12.90", "+2.00 USD, +18.3%"),
    ])
    func words(old: String, new: String, expected: String) {
        #expect(PriceChange(old: Self.money(old), new: Self.money(new)).words == expected)
    }

    @Test("Values too large for the integer path give the same answers through Decimal")
    func largeValues() throws {
        let old = Self.money("123456789012345678901234.5"), new = Self.money("246913578024691357802469")
        let change = PriceChange(old: old, new: new)
        #expect(change.direction == .up)
        #expect(change.percent == Decimal(100))
        #expect(change.exceedsFactor(3) == false)
        #expect(change.difference?.amount == new.amount - old.amount)
    }

    @Test("Across currencies there is no difference, percent or factor")
    func otherCurrency() {
        let change = PriceChange(old: Self.money("0.99"), new: Self.money("4900", "COP"))
        #expect(change.direction == .otherCurrency)
        #expect(change.difference == nil && change.percent == nil)
        #expect(!change.exceedsFactor(3))
        #expect(change.words == "currency USD → COP")
    }

    @Test("Decimal text matches Money.plain for every kind of value")
    func plainText() {
        var values = ["0", "0.5", "-0.5", "12.90", "4900", "0.0001", "-12", "100.00", "123456789012345678901234567890", "1.5e3"]
        for cents in stride(from: -1_000, through: 100_000, by: 997) { values.append(Money.plain(Decimal(cents) / 100)) }
        for value in values {
            guard let decimal = DecimalText.parse(value) ?? Decimal(string: value) else { continue }
            #expect(DecimalFormat.plain(decimal) == Money.plain(decimal), "\(value)")
        }
    }
}
