#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing

/// `tally fetch app-store-connect` saves where each product is sold (its availability and every
/// territory it lists), and `lint` (one source; `check` alike beside others) on the snapshot names the territories where a product is sold
/// without a price: through the binary against the stand-in server.
@Suite(.serialized) struct AvailabilityCLITests {
    typealias Setup = FetchAppStoreConnectCLITests.Setup

    @Test(.timeLimit(.minutes(5)))
    func aProductSoldWhereItHasNoPriceIsOneFindingNamingThoseTerritories() async throws {
        let setup = try await Setup(availability: true)
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(setup.server.requests.contains("/v2/inAppPurchases/6450000104/inAppPurchaseAvailability"), "\(setup.server.requests)")
        // Nine territories served three per page: every page followed.
        #expect(setup.server.requests.filter { $0 == "/v1/inAppPurchaseAvailabilities/6450000104/availableTerritories" }.count == 3)
        // Purchases whose availability was never set answer 404 and are skipped.
        #expect(setup.server.requests.contains("/v2/inAppPurchases/6450000101/inAppPurchaseAvailability"))

        let check = try await Tally.run(["lint", "--no-config", setup.output])
        #expect(check.status == 1, "\(check.stdout)\n\(check.stderr)")
        let unpriced = check.stdout.split(separator: "\n").filter { $0.contains("  unpriced-territory  ") }
        #expect(unpriced.count == 1, "\(check.stdout)")
        #expect(unpriced.first?.contains("com.calmly.app.tip.tea is sold without a price: no price in 2 of the 9 territories where the store sells it: MEX, KOR") == true,
                "\(check.stdout)")
    }

    @Test(.timeLimit(.minutes(5)))
    func requiredTerritoriesApplyToTheSnapshot() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        let policy = setup.scratch.path("tally.yml")
        try "version: 1\nrequired_territories: [USA, ITA]\n".write(toFile: policy, atomically: true, encoding: .utf8)
        let check = try await Tally.run(["lint", "--config", policy, setup.output])
        #expect(check.status == 1, "\(check.stdout)\n\(check.stderr)")
        #expect(check.stdout.contains("com.calmly.app.tip.tea has no price in ITA, which the policy requires")
                || check.stdout.contains("com.calmly.app.tip.tea has no price in 1 of the 2 territories the policy requires: ITA"), "\(check.stdout)")
    }
}
#endif
