import Foundation
import TallyReport
import Testing
import TallyCheck
import TallyModel
import TallyTestSupport

@Suite("price-point")
struct PricePointRuleTests {
    static let deu = Territory("DEU")!

    /// A snapshot's points: com.a.coins in DEU at 0.99 … 9.99 EUR, and in USA.
    static func points(readAt: String = "2026-11-20T09:30:00Z", age: Int? = 6) -> PricePoints {
        let euros = ["0.99", "1.99", "4.49", "4.99", "9.99"].compactMap { DecimalText.parse($0) }
        let dollars = ["0.99", "4.99"].compactMap { DecimalText.parse($0) }
        return PricePoints(readAt: readAt, ageInDays: age, file: "asc/price-points.json", products: [
            "com.a.coins": [deu: PricePointList(currency: "EUR", prices: euros, position: Position(line: 12, column: 5)),
                            .usa: PricePointList(currency: "USD", prices: dollars, position: Position(line: 3, column: 5))],
        ])
    }

    private func lint(_ catalog: Catalog, _ points: [PricePoints] = [points()]) -> [Finding] {
        var findings: [Finding] = []
        var checked = CheckedLog()
        PricePointRule(points: points).lint(catalog, findings: &findings, checked: &checked)
        return findings
    }

    @Test func aPriceBetweenTwoPointsNamesTheNearestBelowAndAbove() throws {
        // Given: 4.95 EUR in DEU, between 4.49 and 4.99
        let catalog = Catalog.server([.test("com.a.coins", price: "4.95", territory: "DEU", line: 8)])
        // When
        let found = lint(catalog)
        // Then
        let finding = try #require(found.first)
        #expect(found.count == 1)
        #expect(finding.ruleID == .pricePoint)
        #expect(finding.severity == .error)
        #expect(finding.territory == Self.deu)
        #expect(finding.message == "com.a.coins costs 4.95 EUR in DEU, which is not an App Store price point there; the nearest are 4.49 EUR and 4.99 EUR")
        #expect(finding.left?.value == .money(Money(amount: Decimal(string: "4.95")!, currency: "EUR")))
        #expect(finding.left?.location.file == "catalog.yaml" && finding.left?.location.line == 8)
        #expect(finding.right?.value == .money(Money(amount: Decimal(string: "4.99")!, currency: "EUR")), "the closest point")
        #expect(finding.right?.location.file == "asc/price-points.json" && finding.right?.location.line == 12)
    }

    @Test func belowTheLowestOrAboveTheHighestPointNamesOnlyThatEnd() {
        let low = lint(.server([.test("com.a.coins", price: "0.49", territory: "DEU")]))
        #expect(low.map(\.message) == ["com.a.coins costs 0.49 EUR in DEU, which is not an App Store price point there; the lowest is 0.99 EUR"])
        let high = lint(.server([.test("com.a.coins", price: "12.99", territory: "DEU")]))
        #expect(high.map(\.message) == ["com.a.coins costs 12.99 EUR in DEU, which is not an App Store price point there; the highest is 9.99 EUR"])
    }

    @Test func oneFindingPerProductAndTerritoryAndNoneForAPoint() {
        let catalog = Catalog.server([.test("com.a.coins", prices: ["DEU": "4.95", "USA": "2.00"]), .test("com.a.gems", price: "2.00")])
        let found = lint(catalog)
        #expect(found.map { "\($0.productID ?? "") \($0.territory?.code ?? "")" } == ["com.a.coins DEU", "com.a.coins USA"],
                "com.a.gems has no points: not checked")
        #expect(lint(.server([.test("com.a.coins", prices: ["DEU": "4.99", "USA": "0.99"])])).isEmpty)
    }

    @Test func withoutPointsTheRuleIsSilentAndTheCoverageSaysSo() {
        let catalog = Catalog.server([.test("com.a.coins", price: "4.95", territory: "DEU")])
        #expect(lint(catalog, []).isEmpty)
        let snapshot = Catalog.test([.test("com.a.coins", price: "0.99")], file: "asc", format: .appStoreConnect)
        let lines = PricePointCoverage.lines([catalog, snapshot]).map(\.text)
        #expect(lines == ["prices against App Store price points: not checked, asc holds no price points (a snapshot fetched before Tally saved them, or pages saved by hand); fetch it again to check them"])
        #expect(PricePointCoverage.lines([catalog]).isEmpty, "no App Store Connect source: no points could be expected")
    }

    @Test func theCheckTakesTheRunsPointsForEverySourceAndSaysHowOldTheyAre() {
        // Given: a StoreKit file, a catalogue and a snapshot whose points are 120 days old
        var snapshot = Catalog.test([.test("com.a.coins", price: "0.99")], file: "asc", format: .appStoreConnect)
        snapshot.pricePoints = Self.points(readAt: "2026-07-29T09:30:00Z", age: 120)
        let catalogue = Catalog.server([.test("com.a.coins", prices: ["DEU": "4.95", "USA": "0.99"])])
        let config = Catalog.config([.test("com.a.coins", price: "0.95")])
        // When
        let result = Checker().check(configurations: [config], catalogs: [catalogue, snapshot])
        // Then: the configuration's and the catalogue's prices off the points, each where it is written
        let found = result.findings.filter { $0.ruleID == .pricePoint }
        #expect(found.map { "\($0.left?.location.file ?? "") \($0.territory?.code ?? "")" } == ["App.storekit USA", "catalog.yaml DEU"])
        #expect(result.comparisons.last?.text == "prices against App Store price points (asc/price-points.json, read 2026-07-29T09:30:00Z (120 days old, "
                + "over 90: Apple revises points with taxes and exchange rates, fetch again)): 4 prices in 3 sources")
    }
}
