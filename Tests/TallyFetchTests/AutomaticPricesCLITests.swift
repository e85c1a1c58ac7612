#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing

/// `tally fetch app-store-connect` saves the prices Apple derives for the other territories
/// (`GET /v1/inAppPurchasePriceSchedules/{id}/automaticPrices`) beside the manual ones, through
/// the binary against the stand-in server (auth verified, 4 derived prices served 3 per page).
@Suite(.serialized) struct AutomaticPricesCLITests {
    typealias Setup = FetchAppStoreConnectCLITests.Setup

    @Test(.timeLimit(.minutes(5)))
    func theSnapshotHoldsDerivedPricesMarkedAsDerived() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(setup.server.rejections.isEmpty, "\(setup.server.rejections)")
        // Every schedule's automatic prices were asked for; the one with four was followed over two pages.
        let automatic = setup.server.requests.filter { $0.hasSuffix("/automaticPrices") }
        #expect(automatic.filter { $0 == "/v1/inAppPurchasePriceSchedules/6450000104/automaticPrices" }.count == 2, "\(automatic)")
        #expect(Set(automatic).count == 8, "one list per in-app purchase's schedule: \(automatic)")
        #expect(fetched.stderr.contains("4 in-app purchase prices derived by Apple"), "\(fetched.stderr)")

        let show = try await Tally.run(["show", "--format", "json", setup.output])
        #expect(show.status == 0, "\(show.all)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any])
        let products = try #require(document["products"] as? [[String: Any]])
        let tea = try #require(products.first { $0["id"] as? String == "com.calmly.app.tip.tea" })
        #expect(tea["prices"] as? [String: String] == ["USA": "2.99", "GBR": "2.99", "JPN": "450", "DEU": "2.99", "FRA": "2.99", "CAN": "3.99", "BRA": "14.9"])
        #expect(tea["currencies"] as? [String: String] == ["USA": "USD", "GBR": "GBP", "JPN": "JPY", "DEU": "EUR", "FRA": "EUR", "CAN": "CAD", "BRA": "BRL"])
        #expect(tea["price_origins"] as? [String: String] == ["USA": "manual", "GBR": "manual", "JPN": "manual",
                                                             "DEU": "automatic", "FRA": "automatic", "CAN": "automatic", "BRA": "automatic"])
    }

    @Test(.timeLimit(.minutes(5)))
    func checkComparesADerivedPriceInTheConfigurationsStorefront() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        // The configuration for the German storefront, tip.tea at 3.49 EUR; Apple derives 2.99 EUR there.
        let source = StandInServer.repository.appendingPathComponent(FetchAppStoreConnectCLITests.storekit)
        var text = try String(contentsOf: source, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"_storefront\" : \"USA\"", with: "\"_storefront\" : \"DEU\"")
        text = text.replacingOccurrences(of: "\"displayPrice\" : \"2.99\"", with: "\"displayPrice\" : \"3.49\"")
        let storekit = setup.scratch.path("German.storekit")
        try text.write(toFile: storekit, atomically: true, encoding: .utf8)
        let check = try await Tally.run(["check", "--no-config", storekit, setup.output])
        #expect(check.status == 1, "\(check.all)")
        #expect(check.stdout.contains("com.calmly.app.tip.tea costs 3.49 EUR in DEU in the configuration but 2.99 EUR"), "\(check.stdout)")
    }
}
#endif
