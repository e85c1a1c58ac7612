import Foundation
import Testing
import TallyFormats
import TallyModel

/// `seat_tiers`, `multi_seat` and `market_settings` in `tally-catalog/1`: read, and strict.
@Suite struct SeatTierCatalogTests {
    static func catalogue(_ subscription: String) -> String {
        """
        format: tally-catalog/1
        subscription_groups:
          - id: teams
            subscriptions:
              - id: com.example.teams.monthly
                period: P1M
                prices: {USA: "9.99"}
        \(subscription.split(separator: "\n", omittingEmptySubsequences: false).map { "        " + $0 }.joined(separator: "\n"))
        """
    }

    @Test func tiersStatusAndMarketsAreRead() throws {
        let catalog = try Fixtures.load(Self.catalogue("""
            multi_seat: true
            market_settings: [APP_STORE, APPLE_SCHOOL]
            seat_tiers:
              - {min_seats: 1, max_seats: 5, prices: {USA: "9.99", GBR: "8.99"}}
              - {min_seats: 6, max_seats: 20, prices: {USA: "7.99"}}
              - {min_seats: 21, prices: {USA: "5.99"}}
              - {min_seats: 1, prices: {USA: "8.99"}, plan: MONTHLY}
            """), as: "teams.yaml")
        let product = try #require(catalog.products.first)
        #expect(product.multiSeatStatus == .enabled)
        #expect(product.marketSettings == [.appStore, .appleSchool])
        // Each plan's tiers are a ladder of their own: the monthly plan's one tier starts again at 1.
        #expect(product.seatTiers.map(\.label) == ["1-5 seats", "6-20 seats", "21+ seats", "1+ seats"])
        #expect(product.seatTiers[0].price(in: .usa)?.money.amount == Decimal(string: "9.99"))
        #expect(product.seatTiers[3].billingPlan == .monthly && product.seatTiers[1].billingPlan == nil)
        #expect(product.seatTiers[2].maximumSeats == nil)
        #expect(catalog.knownFields.contains(.seatTiers) && catalog.knownFields.contains(.multiSeat))
    }

    @Test func theStatusWordIsRead() throws {
        let catalog = try Fixtures.load(Self.catalogue("multi_seat: DISABLED"), as: "teams.yaml")
        #expect(catalog.products.first?.multiSeatStatus == .disabled)
    }

    @Test func aCatalogueWithoutTiersDoesNotKnowThem() throws {
        let catalog = try Fixtures.load(Self.catalogue(""), as: "teams.yaml")
        #expect(!catalog.knownFields.contains(.seatTiers) && !catalog.knownFields.contains(.multiSeat))
    }

    @Test(arguments: [
        ("seat_tiers: [{min_seats: 1, max_seats: 5, prices: {USA: \"9.99\"}}, {min_seats: 7, prices: {USA: \"7.99\"}}]",
         "seat tier 2 starts at 7 seats; after tier 1 (1-5 seats) it must start at 6"),
        ("seat_tiers: [{min_seats: 6, prices: {USA: \"7.99\"}}, {min_seats: 1, max_seats: 5, prices: {USA: \"9.99\"}}]",
         "only the last tier is open-ended"),
        ("seat_tiers: [{min_seats: 1, max_seats: 1}, {min_seats: 2, max_seats: 2}, {min_seats: 3, max_seats: 3}, {min_seats: 4, max_seats: 4}, {min_seats: 5, max_seats: 5}, {min_seats: 6}]",
         "at most 5 seat tiers"),
        ("seat_tiers: [{min_seats: 1, maximum_seats: 5}]", "unknown key \"maximum_seats\" in a seat tier (allowed: min_seats, max_seats, prices, plan)"),
        ("seat_tiers: [{max_seats: 5}]", "a seat tier needs min_seats"),
        ("seat_tiers: [{min_seats: 0, max_seats: 5}]", "min_seats must be 1 or more"),
        ("multi_seat: maybe", "multi_seat \"maybe\" is not true, false, ENABLED or DISABLED"),
        ("market_settings: [APPLE_HOME]", "unknown market \"APPLE_HOME\" in market_settings"),
    ])
    func mistakesAreLocatedErrors(_ subscription: String, _ expected: String) throws {
        let error = try #require(Fixtures.error(Self.catalogue(subscription), as: "teams.yaml"))
        #expect(error.description.contains(expected), "\(error.description)")
        #expect(error.description.contains("teams.yaml:"), "located: \(error.description)")
    }
}
