import TallyDiff
import TallyReport
import TallyModel
import TallyTestSupport
import Testing

@Suite("Multi-seat subscriptions: seat tiers")
struct SeatTierDiffTests {
    static func tier(_ minimum: Int, _ maximum: Int?, _ prices: [String: String], plan: BillingPlanKind? = nil) -> SeatTier {
        SeatTier(minimumSeats: minimum, maximumSeats: maximum,
                 prices: prices.sorted { $0.key < $1.key }.compactMap { code, amount in
                     guard let territory = Territory(code), let value = DecimalText.parse(amount) else { return nil }
                     return Price(territory: territory, money: Money(amount: value, in: territory))
                 },
                 billingPlan: plan)
    }

    /// A subscription with `tiers`, in a catalogue that states seat tiers.
    static func catalog(_ tiers: [SeatTier], file: String, knows: Bool = true) -> Catalog {
        var product = Product.subscription("team.yearly", period: "P1Y")
        product.seatTiers = tiers
        var catalog = Catalog.test([product], file: file)
        if knows { catalog.knownFields.insert(.seatTiers) }
        return catalog
    }

    static func changes(_ old: [SeatTier], _ new: [SeatTier], knows: Bool = true) -> [Change] {
        CatalogDiffer().diff(old: catalog(old, file: "old.yaml", knows: knows), new: catalog(new, file: "new.yaml", knows: knows)).allChanges
    }

    @Test("A tier added, a tier removed, a per-seat price changed, added and removed in a territory")
    func tierChanges() throws {
        let old = [Self.tier(1, 5, ["USA": "9.99", "GBR": "8.99"]), Self.tier(6, nil, ["USA": "7.99"])]
        let new = [Self.tier(1, 5, ["USA": "10.99", "DEU": "9.99"]), Self.tier(6, 20, ["USA": "7.99"]), Self.tier(21, nil, ["USA": "5.99"])]
        let changes = Self.changes(old, new)
        #expect(changes.map { "\($0.path): \($0.action)" } == [
            "team.yearly › seat tiers › 6-20 seats: added",
            "team.yearly › seat tiers › 21+ seats: added",
            "team.yearly › seat tiers › 6+ seats: removed",
            "team.yearly › seat tiers › 1-5 seats › GBR: removed",
            "team.yearly › seat tiers › 1-5 seats › USA: changed",
            "team.yearly › seat tiers › 1-5 seats › DEU: added",
        ])
        let repriced = try #require(changes.first { $0.action == .changed })
        #expect(repriced.summary == "9.99 USD → 10.99 USD")
        #expect(repriced.territory == Territory("USA"))
        #expect(changes.first?.summary == "added: 6-20 seats at 7.99 USD in USA")
    }

    @Test("Tiers of different plans are different tiers; unchanged tiers are no change")
    func plansAndNoChange() {
        let tiers = [Self.tier(1, nil, ["USA": "9.99"], plan: .upfront)]
        #expect(Self.changes(tiers, tiers).isEmpty)
        let moved = Self.changes(tiers, [Self.tier(1, nil, ["USA": "9.99"], plan: .monthly)])
        #expect(moved.map { "\($0.path): \($0.action)" } == [
            "team.yearly › seat tiers › 1+ seats (MONTHLY): added", "team.yearly › seat tiers › 1+ seats (UPFRONT): removed",
        ])
    }

    @Test("A source that does not state seat tiers compares none")
    func unstated() {
        #expect(Self.changes([Self.tier(1, nil, ["USA": "9.99"])], [], knows: false).isEmpty)
    }
}
