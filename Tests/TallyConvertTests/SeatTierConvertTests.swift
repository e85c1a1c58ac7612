import Foundation
import Testing
@testable import TallyConvert
import TallyFormats
import TallyModel

/// Seat tiers, multi-seat status and markets survive `tally convert` to a catalogue and back.
@Suite struct SeatTierConvertTests {
    static let yaml = """
    format: tally-catalog/1
    subscription_groups:
      - id: teams
        subscriptions:
          - id: com.example.teams.monthly
            period: P1M
            prices: {USA: "9.99"}
            multi_seat: true
            market_settings: [APP_STORE, APPLE_BUSINESS]
            seat_tiers:
              - {min_seats: 1, max_seats: 5, prices: {USA: "9.99"}}
              - {min_seats: 6, prices: {USA: "7.99"}, plan: UPFRONT}
    """

    @Test(arguments: [ConvertTarget.tallyCatalogYAML, .tallyCatalogJSON])
    func tiersRoundTrip(_ target: ConvertTarget) throws {
        let original = try SourceLoader.load(bytes: Array(Self.yaml.utf8), file: "teams.yaml")
        let text = Converter.convert(original, options: ConvertOptions(target: target)).text
        #expect(text.contains("seat_tiers") && text.contains("min_seats") && text.contains("market_settings"), "\(text)")
        let again = try SourceLoader.load(bytes: Array(text.utf8), file: target == .tallyCatalogJSON ? "teams.json" : "teams.yaml")
        let (before, after) = (try #require(original.products.first), try #require(again.products.first))
        #expect(after.seatTiers.map(\.label) == before.seatTiers.map(\.label))
        #expect(after.seatTiers.map { $0.price(in: .usa)?.money.amount } == before.seatTiers.map { $0.price(in: .usa)?.money.amount })
        #expect(after.seatTiers.map(\.billingPlan) == [nil, .upfront])
        #expect(after.multiSeatStatus == .enabled)
        #expect(after.marketSettings == [.appStore, .appleBusiness])
    }

    @Test(arguments: [ConvertTarget.storeKit, .csv])
    func targetsWithoutTiersSayTheyLeaveThemOut(_ target: ConvertTarget) throws {
        let original = try SourceLoader.load(bytes: Array(Self.yaml.utf8), file: "teams.yaml")
        let converted = Converter.convert(original, options: ConvertOptions(target: target))
        #expect("\(converted.notes)".contains("multi-seat status and seat tiers left out"), "\(converted.notes)")
    }
}
