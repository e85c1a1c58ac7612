import TallyReport
import Testing
import TallyCheck
import TallyModel

/// The rules of issue 36 (classes 1, 2 and 7) on values: which pairs `priced-territories`
/// compares, what `commitment-price` computes, and how the checker reports a product held by state.
@Suite("issue 36 rules")
struct IncidentRuleTests {
    private func compare(_ left: Catalog, _ right: Catalog, required: [Territory] = []) -> [Finding] {
        var findings: [Finding] = []
        var checked = CheckedLog()
        PricedTerritoriesRule(territories: required).evaluate(Comparison(configuration: left, catalog: right), findings: &findings, checked: &checked)
        return findings
    }

    static let gbr = Territory("GBR")!, deu = Territory("DEU")!, aus = Territory("AUS")!, nzl = Territory("NZL")!

    @Test func aStoreKitConfigurationIsNeverComparedByTerritory() {
        let config = Catalog.config([.test("com.a.pro", price: "4.99")])
        let catalog = Catalog.server([.test("com.a.pro", prices: ["USA": "4.99", "GBR": "4.49", "DEU": "4.99"])])
        #expect(compare(config, catalog, required: [.usa, Self.gbr]).isEmpty)
    }

    /// Issue 48: territories that never meet are a finding on the product (a warning), where they
    /// were only the source-level prices-not-compared before.
    @Test func twoCataloguesWhoseOneTerritoryEachNeverMeetAreNamed() {
        let left = Catalog.server([.test("com.a.pro", price: "4.99")], file: "a.yaml")
        let right = Catalog.server([.test("com.a.pro", price: "4.49", territory: "GBR")], file: "b.yaml")
        #expect(compare(left, right).map(\.severity) == [.warning])
        // Two catalogues that share a territory and price one each are not compared by territory.
        let same = Catalog.server([.test("com.a.pro", price: "4.49", territory: "USA")], file: "c.yaml")
        #expect(compare(left, same).isEmpty)
        // With a policy, the same pair is compared, and a required territory makes it an error.
        let found = compare(left, right, required: [Self.gbr])
        #expect(found.map(\.severity) == [.error])
        #expect(found.first?.left?.value == .territories([.usa]))
        #expect(found.first?.right?.value == .territories([Self.gbr]))
    }

    @Test func aStoreRecordWithoutAvailabilityIsNotComparedWithACatalogue() {
        let snapshot = Catalog.test([.test("com.a.pro", prices: ["USA": "4.99", "GBR": "4.49"])], file: "asc", format: .appStoreConnect)
        let catalogue = Catalog.server([.test("com.a.pro", prices: ["USA": "4.99", "GBR": "4.49", "DEU": "4.99"])])
        #expect(compare(catalogue, snapshot).isEmpty)
    }

    @Test func aCatalogueOfReferencePricesInSomeOfTheStoresTerritoriesIsNoFinding() {
        var sold = Product.test("com.a.pro", prices: ["USA": "4.99", "GBR": "4.49", "DEU": "4.99", "AUS": "7.99"])
        sold.availability = Availability(territories: [.usa, Self.gbr, Self.deu, Self.aus])
        let snapshot = Catalog.test([sold], file: "asc", format: .appStoreConnect)
        #expect(compare(.server([.test("com.a.pro", prices: ["USA": "4.99", "GBR": "4.49"])]), snapshot).isEmpty)
        // Priced in other territories altogether: both lists, an error where the store sells.
        let found = compare(.server([.test("com.a.pro", price: "3.99", territory: "NZL")]), snapshot)
        #expect(found.count == 1)
        #expect(found.first?.severity == .error)
        #expect(found.first?.left?.value == .territories([Self.nzl]))
        #expect(found.first?.right?.value == .territories([Self.aus, Self.deu, Self.gbr, .usa]))
    }

    @Test func aMonthlyPlanIsChargedTwelveTimes() {
        var product = Product.subscription("com.a.pro", period: "P1Y", price: "59.99")
        product.billingPlans = [
            BillingPlan(type: "UPFRONT", price: Money(amount: 59.99, currency: "USD"), prices: [Price(territory: .usa, money: Money(amount: 59.99, currency: "USD"))]),
            BillingPlan(type: "MONTHLY", price: Money(amount: 5.99, currency: "USD"), commitmentPrice: Money(amount: 71.88, currency: "USD"),
                        prices: [Price(territory: .usa, money: Money(amount: 5.99, currency: "USD"))]),
        ]
        var catalog = Catalog.config([product])
        catalog.knownFields.insert(.billingPlans)
        var findings: [Finding] = []
        var checked = CheckedLog()
        CommitmentPriceRule().lint(catalog, findings: &findings, checked: &checked)
        #expect(findings.isEmpty)
        catalog.products[0].billingPlans[1].commitmentPrice = Money(amount: 59.99, currency: "USD")
        CommitmentPriceRule().lint(catalog, findings: &findings, checked: &checked)
        #expect(findings.map(\.message) == ["com.a.pro's monthly plan costs 5.99 USD a month, 71.88 USD over its 12-month commitment, but its commitment price is 59.99 USD"])
        #expect(findings.first?.hint?.hasPrefix("59.99 USD is the up-front plan's price") == true)
    }

    @Test func aProductHeldByStateIsReportedWithItsStateNotAsMissing() {
        var held = Product.subscription("com.a.pro")
        held.group = GroupMembership(groupID: "21000001", groupName: "Premium", level: nil)
        held.storeState = "READY_TO_SUBMIT"
        var snapshot = Catalog.test([], file: "asc", format: .appStoreConnect)
        snapshot.heldByState = [held]
        let result = Checker().check(configurations: [.config([.subscription("com.a.pro")])], catalogs: [snapshot])
        #expect(result.findings.map { "\($0.ruleID) \($0.severity)" } == ["store-state error"])
        #expect(result.findings.first?.message.contains("no level in its subscription group") == true)
    }

    @Test func theStatesAProductIsHeldIn() {
        #expect(StoreStates.heldWhenLeftOut("READY_TO_SUBMIT") && StoreStates.heldWhenLeftOut("MISSING_METADATA") && StoreStates.heldWhenLeftOut("IN_REVIEW"))
        #expect(!StoreStates.heldWhenLeftOut("DEVELOPER_REMOVED_FROM_SALE") && !StoreStates.heldWhenLeftOut("REMOVED_FROM_SALE") && !StoreStates.heldWhenLeftOut(nil))
    }
}
