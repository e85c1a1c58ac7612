import TallyReport
import Testing
import TallyCheck
import TallyModel

@Suite("unpriced-territory")
struct UnpricedTerritoryRuleTests {
    static let jpn = Territory("JPN")!

    private func lint(_ catalog: Catalog, _ territories: [Territory]) -> [Finding] {
        var findings: [Finding] = []
        var checked = CheckedLog()
        UnpricedTerritoryRule(territories: territories).lint(catalog, findings: &findings, checked: &checked)
        return findings
    }

    @Test func aCatalogueProductWithoutAPriceInARequiredTerritoryIsOneFindingNamingThem() {
        // Given
        let catalog = Catalog.server([.test("com.a.coins", price: "0.99", line: 7), .test("com.a.gems", price: "1.99", territory: "JPN")])
        // When
        let found = lint(catalog, [.usa, Self.jpn])
        // Then
        #expect(found.map { "\($0.productID ?? "") \($0.left?.value?.words ?? "")" } == ["com.a.coins JPN", "com.a.gems USA"])
        #expect(found.first?.message == "com.a.coins has no price in 1 of the 2 territories the policy requires: JPN")
        #expect(found.first?.left?.location.line == 7)
    }

    @Test func aProductMissingManyTerritoriesIsOneFindingWithTheTerritoriesAsAList() throws {
        // Given: seven required territories, one priced
        let required = ["USA", "GBR", "DEU", "FRA", "JPN", "CAN", "AUS"].compactMap { Territory($0) }
        // When
        let found = lint(.server([.test("com.a.coins", price: "0.99")]), required)
        // Then
        #expect(found.count == 1)
        let finding = try #require(found.first)
        #expect(finding.left?.value == .territories(Array(required.dropFirst())))
        #expect(finding.territory == nil)
        #expect(finding.message == "com.a.coins has no price in 6 of the 7 territories the policy requires: GBR, DEU, FRA, JPN, CAN, AUS")
        #expect(finding.sideValues == ["source": "GBR, DEU, FRA, JPN, CAN, AUS"])
    }

    @Test func withOneRequiredTerritoryTheMessageNamesIt() {
        let found = lint(.server([.test("com.a.coins", price: "0.99")]), [Self.jpn])
        #expect(found.map(\.message) == ["com.a.coins has no price in JPN, which the policy requires"])
    }

    @Test func storeKitConfigurationsAreNotExamined() {
        #expect(lint(.config([.test("com.a.coins")]), [Self.jpn]).isEmpty)
    }

    @Test func withoutRequiredTerritoriesTheRuleFindsNothing() {
        #expect(lint(.server([.test("com.a.coins", price: nil)]), []).isEmpty)
    }
}
