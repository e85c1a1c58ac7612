#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing

/// Issue 50, must show: win-back offers and offer codes fetched from the stand-in (App Store
/// Connect API 3.6's `winBackOffers`, API 2.0's `subscriptionOfferCodes`, as Apple's reference
/// documents them), shown, and compared with a `.storekit` file's win-back offer: agreeing, they
/// pass; with one planted difference (the offer's duration), exactly that is found.
@Suite(.serialized) struct WinBackOffersCLITests {
    typealias Setup = FetchAppStoreConnectCLITests.Setup

    /// The example StoreKit configuration as Xcode 16 writes it (4.0), with the annual plan's
    /// win-back offer of `duration` (P1M as App Store Connect has it).
    static func storeKit(in folder: URL, duration: String) throws -> String {
        var text = try String(contentsOf: StandInServer.repository.appendingPathComponent("configs/ExampleApp.storekit"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"major\" : 3,", with: "\"major\" : 4,")
        let anchor = "\"productID\" : \"com.calmly.app.plus.annual\","
        guard text.contains(anchor) else { throw StandInError("the example has no plus.annual") }
        text = text.replacingOccurrences(of: anchor, with: anchor + """

                  "winbackOffers" : [
                    {
                      "internalID" : "5B0C1E2D",
                      "isEligible" : true,
                      "offerID" : "plus_annual_comeback",
                      "paymentMode" : "free",
                      "referenceName" : "Plus annual: a month back",
                      "subscriptionPeriod" : "\(duration)"
                    }
                  ],
        """)
        let file = folder.appendingPathComponent("App.storekit")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    @Test(.timeLimit(.minutes(5)))
    func fetchedWinBackOffersAreShownAndComparedWithTheStoreKitFile() async throws {
        let setup = try await Setup(winBack: true)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(fetched.stderr.contains("2 win-back offers, 1 offer code"), "\(fetched.stderr)")
        #expect(setup.server.requests.contains("/v1/subscriptions/6450000202/winBackOffers"), "\(setup.server.requests)")
        #expect(setup.server.requests.contains("/v1/subscriptions/6450000202/offerCodes"), "\(setup.server.requests)")

        // Shown: the offer in force and the offer code; the offer that ended is not.
        let show = try await Tally.run(["show", "--format", "json", setup.output])
        #expect(show.status == 0, "\(show.all)")
        let json = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
        let annual = (json?["products"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "com.calmly.app.plus.annual" }
        let winBacks = annual?["winback_offers"] as? [[String: Any]] ?? []
        #expect(winBacks.map { $0["id"] as? String } == ["plus_annual_comeback"], "\(annual ?? [:])")
        #expect(winBacks.first?["period"] as? String == "P1M", "\(winBacks)")
        let codes = annual?["code_offers"] as? [[String: Any]] ?? []
        #expect(codes.map { $0["id"] as? String } == ["SPRING26"], "\(annual ?? [:])")
        #expect(codes.first?["eligibility"] as? [String] == ["new", "expired"], "\(codes)")

        // Compared with a .storekit file that has the same offer: consistent, and the line says win-back offers were compared.
        let agreeing = try Self.storeKit(in: setup.scratch.url, duration: "P1M")
        let same = try await Tally.run(["check", "--no-config", agreeing, setup.output])
        #expect(same.status == 0, "\(same.all)")
        #expect(same.stdout.contains("winback-offers (8)"), "\(same.stdout)")

        // One planted difference: the StoreKit file's offer lasts a week.
        let planted = try Self.storeKit(in: setup.scratch.url, duration: "P1W")
        let differing = try await Tally.run(["check", "--no-config", planted, setup.output])
        #expect(differing.status == 1, "\(differing.all)")
        let findings = differing.stdout.split(separator: "\n").filter { $0.contains("  winback-offer  ") }
        #expect(findings.count == 1, "\(differing.stdout)")
        #expect(findings.first?.contains("com.calmly.app.plus.annual win-back offer plus_annual_comeback differs: period") == true, "\(differing.stdout)")
        #expect(!differing.stdout.contains("  error  ") || differing.stdout.components(separatedBy: "  error  ").count == 2, "one error only: \(differing.stdout)")
    }
}
#endif
