#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing

/// Seat tiers through the built binary, offline: `tally fetch app-store-connect` against the
/// stand-in saves a multi-seat subscription (API 4.5 `multiSeatStatus`, `marketSettings`) with two
/// volume tiers (API 4.6.1); `tally convert` carries them into a catalogue; `tally check` of the
/// snapshot against that catalogue passes, and fails with exactly one finding naming the tier
/// once one tier's per-seat price differs; `tally show --format json` shows the tiers.
@Suite(.serialized) struct SeatTiersCLITests {
    typealias Setup = FetchAppStoreConnectCLITests.Setup

    @Test(.timeLimit(.minutes(5)))
    func aTierPricedDifferentlyIsOneFindingNamingTheTierAndFixedItPasses() async throws {
        let setup = try await Setup(seatTiers: true)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(setup.server.requests.contains("/v1/subscriptions/6450000203/prices"), "\(setup.server.requests)")
        #expect(fetched.stderr.contains("1 multi-seat subscription, 2 seat tier prices"), "\(fetched.stderr)")

        // The catalogue: the snapshot converted (tiers carried), then checked against the snapshot.
        let catalogue = setup.scratch.path("catalog.yaml")
        let convert = try await Tally.run(["convert", setup.output, "--to", "tally-catalog-yaml", "-o", catalogue])
        #expect(convert.status == 0, "\(convert.all)")
        let text = try String(contentsOfFile: catalogue, encoding: .utf8)
        #expect(text.contains("seat_tiers"), "\(text)")
        #expect(text.contains("multi_seat: true"), "\(text)")
        #expect(text.contains("\"7.99\""), "\(text)")

        let agreeing = try await Tally.run(["check", "--no-config", setup.output, catalogue])
        #expect(agreeing.status == 0, "\(agreeing.all)")
        #expect(agreeing.stdout.contains("seat-tiers (1 of 8: not stated by the configuration for 7"), "\(agreeing.stdout)")

        // One tier's per-seat price differs: exactly one finding, naming the product and the tier.
        try text.replacingOccurrences(of: "\"7.99\"", with: "\"6.99\"").write(toFile: catalogue, atomically: true, encoding: .utf8)
        let differing = try await Tally.run(["check", "--no-config", setup.output, catalogue])
        #expect(differing.status == 1, "\(differing.all)")
        let findings = differing.stdout.split(separator: "\n").filter { $0.contains("  seat-tier  ") }
        #expect(findings.count == 1, "\(differing.stdout)")
        #expect(findings.first?.contains("com.calmly.app.plus.monthly's 6+ seats tier costs 7.99 USD a seat in USA") == true, "\(differing.stdout)")
        #expect(findings.first?.contains("6.99 USD") == true, "\(differing.stdout)")
        let errors = differing.stdout.split(separator: "\n").filter { $0.contains(" error ") || $0.contains("error  ") }
        #expect(errors.count <= 1, "\(differing.stdout)")

        // Fixed: passes again.
        try text.write(toFile: catalogue, atomically: true, encoding: .utf8)
        #expect(try await Tally.run(["check", "--no-config", setup.output, catalogue]).status == 0)

        // `show --format json` shows the tiers and the multi-seat status.
        let show = try await Tally.run(["show", "--format", "json", setup.output])
        #expect(show.status == 0, "\(show.all)")
        let json = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
        let products = json?["products"] as? [[String: Any]] ?? []
        let monthly = products.first { $0["id"] as? String == "com.calmly.app.plus.monthly" }
        #expect(monthly?["multi_seat"] as? String == "ENABLED", "\(show.stdout)")
        #expect(monthly?["market_settings"] as? [String] == ["APP_STORE", "APPLE_BUSINESS"], "\(show.stdout)")
        let tiers = monthly?["seat_tiers"] as? [[String: Any]] ?? []
        #expect(tiers.count == 2, "\(show.stdout)")
        #expect(tiers.first?["min_seats"] as? Int == 1 && tiers.first?["max_seats"] as? Int == 5, "\(tiers)")
        #expect((tiers.first?["prices"] as? [String: String])?["USA"] == "9.99", "\(tiers)")
        #expect(tiers.last?["min_seats"] as? Int == 6 && tiers.last?["max_seats"] == nil, "\(tiers)")
        #expect((tiers.last?["prices"] as? [String: String])?["USA"] == "7.99", "\(tiers)")
    }
}
#endif
