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

    @Test func aCatalogueProductWithoutAPriceInARequiredTerritoryIsFoundOncePerTerritory() {
        // Given
        let catalog = Catalog.server([.test("com.a.coins", price: "0.99", line: 7), .test("com.a.gems", price: "1.99", territory: "JPN")])
        // When
        let found = lint(catalog, [.usa, Self.jpn])
        // Then
        #expect(found.map { "\($0.productID ?? "") \($0.territory?.code ?? "")" } == ["com.a.coins JPN", "com.a.gems USA"])
        #expect(found.first?.message == "com.a.coins has no price in JPN, which the policy requires")
        #expect(found.first?.left?.location.line == 7)
    }

    @Test func storeKitConfigurationsAreNotExamined() {
        #expect(lint(.config([.test("com.a.coins")]), [Self.jpn]).isEmpty)
    }

    @Test func withoutRequiredTerritoriesTheRuleFindsNothing() {
        #expect(lint(.server([.test("com.a.coins", price: nil)]), []).isEmpty)
    }
}
