import Foundation
import TallyReport
import Testing
import TallyCheck
import TallyModel
import TallyTestSupport

/// `seat-tier` and `multi-seat`: tiers compared only where both sides state them.
@Suite struct SeatTierRuleTests {
    /// The findings of a configuration and a catalogue that both know seat tiers and multi-seat
    /// status (as a catalogue with `seat_tiers` and an App Store Connect snapshot do).
    func findings(_ config: [Product], _ catalog: [Product], known: Bool = true) -> [Finding] {
        var left = Catalog.config(config), right = Catalog.server(catalog)
        if known {
            left.knownFields.formUnion([.seatTiers, .multiSeat])
            right.knownFields.formUnion([.seatTiers, .multiSeat])
        }
        return Checker().check(configurations: [left], catalogs: [right]).findings
    }

    static func tier(_ minimum: Int, _ maximum: Int?, _ usa: String, plan: BillingPlanKind? = nil) -> SeatTier {
        SeatTier(minimumSeats: minimum, maximumSeats: maximum,
                 prices: [Price(territory: .usa, money: Money(amount: Decimal(string: usa) ?? 0, currency: "USD"))], billingPlan: plan)
    }

    static func teams(_ tiers: [SeatTier], status: MultiSeatStatus? = nil) -> Product {
        var product = Product.subscription("com.example.teams", price: "9.99")
        product.seatTiers = tiers
        product.multiSeatStatus = status
        return product
    }

    static let both = [tier(1, 5, "9.99"), tier(6, nil, "7.99")]

    @Test func agreeingTiersGiveNothing() {
        #expect(findings([Self.teams(Self.both)], [Self.teams(Self.both)]).isEmpty)
    }

    @Test func aTierPricedDifferentlyIsOneFindingNamingTheTierWithBothValues() throws {
        let result = findings([Self.teams(Self.both)], [Self.teams([Self.tier(1, 5, "9.99"), Self.tier(6, nil, "6.99")])])
        #expect(pairs(result) == ["seat-tier com.example.teams"])
        let finding = try #require(result.first)
        #expect(finding.message.contains("com.example.teams's 6+ seats tier costs 7.99 USD a seat in USA"), "\(finding.message)")
        #expect(finding.message.contains("6.99 USD"), "\(finding.message)")
        #expect(finding.territory == .usa)
    }

    @Test func thePlanIsNamedWhereStated() throws {
        let left = Self.teams([Self.tier(1, nil, "9.99", plan: .monthly)])
        let right = Self.teams([Self.tier(1, nil, "8.99", plan: .monthly)])
        let finding = try #require(findings([left], [right]).first)
        #expect(finding.message.contains("1+ seats (monthly plan) tier"), "\(finding.message)")
    }

    @Test func aTierOnOneSideOnlyIsAFinding() throws {
        let result = findings([Self.teams(Self.both)], [Self.teams([Self.tier(1, 5, "9.99")])])
        #expect(pairs(result) == ["seat-tier com.example.teams"])
        #expect(result.first?.message.contains("has a 6+ seats tier in") == true, "\(result)")
    }

    @Test func aSideThatStatesNoTiersIsNotCompared() {
        #expect(findings([Self.teams(Self.both)], [Self.teams([])]).isEmpty)
    }

    @Test func multiSeatStatusIsComparedWhereBothStateIt() {
        #expect(pairs(findings([Self.teams([], status: .enabled)], [Self.teams([], status: .disabled)])) == ["multi-seat com.example.teams"])
        #expect(findings([Self.teams([], status: .enabled)], [Self.teams([])]).isEmpty)
    }

    @Test func aSourceThatDoesNotKnowTiersIsNotCompared() {
        #expect(findings([Self.teams(Self.both)], [Self.teams([Self.tier(1, 5, "9.99")])], known: false).isEmpty)
    }

    @Test func tierProblemsAreFound() {
        #expect(SeatTier.problems(in: Self.both).isEmpty)
        #expect(SeatTier.problems(in: [Self.tier(1, 5, "1"), Self.tier(7, nil, "1")]).count == 1)
        #expect(SeatTier.problems(in: (1...6).map { Self.tier($0, $0, "1") }).count == 1)
    }
}
