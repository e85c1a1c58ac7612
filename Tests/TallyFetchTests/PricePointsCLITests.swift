#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import FlyingFox
import Testing

/// `tally fetch app-store-connect` saves the price points of the territories each product is priced
/// in (`GET /v2/inAppPurchases/{id}/pricePoints`, `GET /v1/subscriptions/{id}/pricePoints`, filtered
/// by territory, followed through `links.next`) as `price-points.json`, and a check offline names a
/// catalogue price that is not one of them: through the binary against the stand-in server.
@Suite(.serialized) struct PricePointsCLITests {
    typealias Setup = FetchAppStoreConnectCLITests.Setup

    @Test(.timeLimit(.minutes(5)))
    func theFetchSavesEachProductsPointsOnceDatedAndFiltered() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 0, "\(fetched.all)")
        #expect(setup.server.rejections.isEmpty, "\(setup.server.rejections)")

        // Every request names its territories; tip.tea's seven (three set by hand, four derived) in one filter.
        let targets = setup.server.rawTargets.filter { $0.contains("/pricePoints") }
        #expect(!targets.isEmpty)
        #expect(targets.allSatisfy { $0.contains("filter%5Bterritory%5D=") || $0.contains("filter[territory]=") }, "\(targets)")
        let tea = targets.filter { $0.hasPrefix("/v2/inAppPurchases/6450000104/pricePoints") }
        #expect(tea.first.map { URLComponents(string: $0)?.queryItems?.first { $0.name == "filter[territory]" }?.value } == "USA,GBR,JPN,DEU,FRA,CAN,BRA",
                "\(tea)")
        #expect(targets.filter { $0.hasPrefix("/v2/") }.allSatisfy { $0.contains("limit=8000") }, "\(targets)")
        #expect(targets.filter { $0.hasPrefix("/v1/subscriptions/") }.allSatisfy { $0.contains("limit=200") }, "\(targets)")
        // More points than a page holds: the lists were followed through links.next.
        #expect(tea.count > 1, "\(tea)")

        let file = URL(fileURLWithPath: setup.output).appendingPathComponent("price-points.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        #expect(document["format"] as? String == "tally-price-points/1")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: setup.output)
            .appendingPathComponent("tally-snapshot.json"))) as? [String: Any])
        // Dated when they were read: during the fetch, which the manifest dates when it ended (ISO 8601, UTC, alike).
        let readAt = try #require(document["readAt"] as? String)
        let fetchedAt = try #require(manifest["fetchedAt"] as? String)
        #expect(readAt.count == fetchedAt.count && readAt.hasSuffix("Z") && readAt <= fetchedAt, "\(readAt) \(fetchedAt)")
        #expect((manifest["files"] as? [String])?.contains("price-points.json") == true, "a later fetch may replace it")
        #expect((manifest["counts"] as? [String: Int])?["pricePoints"].map { $0 > 0 } == true, "\(manifest)")

        let lists = try #require(document["lists"] as? [[String: Any]])
        let products = try #require(document["products"] as? [[String: Any]])
        // Each product the snapshot prices (7 of the 8 in-app purchases, 8 of the 9 subscriptions), with its own points.
        #expect(products.count == 15, "\(products.map { $0["id"] ?? "" })")
        let teaEntry = try #require(products.first { $0["id"] as? String == "6450000104" })
        #expect(teaEntry["type"] as? String == "inAppPurchases")
        let teaTerritories = try #require(teaEntry["territories"] as? [String: Int])
        #expect(Set(teaTerritories.keys) == ["USA", "GBR", "JPN", "DEU", "FRA", "CAN", "BRA"])
        // Identical lists are written once: every in-app purchase shares one list per territory here.
        let references = products.flatMap { ($0["territories"] as? [String: Int] ?? [:]).values }
        #expect(lists.count < references.count, "\(lists.count) lists for \(references.count) references")
        #expect(Set(references).count == lists.count, "every list is used")
        let usa = try #require(teaTerritories["USA"].map { lists[$0] })
        #expect(usa["currency"] as? String == "USD")
        #expect(usa["type"] as? String == "inAppPurchasePricePoints")
        let points = try #require(usa["points"] as? [[String: Any]])
        #expect(points.contains { $0["customerPrice"] as? String == "2.99" && $0["proceeds"] as? String != nil })
        #expect(points.allSatisfy { $0["proceedsYear2"] == nil }, "in-app purchase points have no second-year proceeds")
        let jpn = try #require(teaTerritories["JPN"].map { lists[$0] })
        #expect(jpn["currency"] as? String == "JPY")
        let subscription = try #require(products.first { $0["type"] as? String == "subscriptions" })
        let subscriptionList = try #require((subscription["territories"] as? [String: Int])?.values.first.map { lists[$0] })
        #expect(subscriptionList["type"] as? String == "subscriptionPricePoints")
        #expect((subscriptionList["points"] as? [[String: Any]])?.allSatisfy { $0["proceedsYear2"] is String } == true)

        // Read offline: the snapshot's own prices are points; the check says what it checked against them.
        let check = try await Tally.run(["check", "--no-config", FetchAppStoreConnectCLITests.storekit, setup.output])
        #expect(check.status == 0, "\(check.all)")
        #expect(check.stdout.contains("compared: prices against App Store price points (\(setup.output)/price-points.json, read "), "\(check.stdout)")
        #expect(!check.stdout.contains("  price-point  "), "\(check.stdout)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aCataloguePriceOffThePointsIsNamedWithTheNearestPoints() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        // The server's catalogue: tip.tea at 2.95 USD (the stand-in's points around it: 2.49 and 2.99).
        let catalogue = setup.scratch.path("products.yaml")
        try """
        format: tally-catalog/1
        products:
          - id: com.calmly.app.tip.tea
            kind: consumable
            prices: {USA: "2.95", DEU: "2.99"}
        """.write(toFile: catalogue, atomically: true, encoding: .utf8)
        let check = try await Tally.run(["check", "--no-config", FetchAppStoreConnectCLITests.storekit, catalogue, setup.output])
        #expect(check.status == 1, "\(check.all)")
        let found = check.stdout.split(separator: "\n").filter { $0.contains("  price-point  ") }
        #expect(found.count == 1, "\(check.stdout)")
        #expect(found.first?.contains("com.calmly.app.tip.tea costs 2.95 USD in USA, which is not an App Store price point there; the nearest are 2.49 USD and 2.99 USD") == true,
                "\(check.stdout)")
        #expect(check.stdout.contains("source: \(catalogue):5:"), "the catalogue's price is located: \(check.stdout)")
        #expect(check.stdout.contains("catalog: \(setup.output)/price-points.json:"), "and the points it was checked against: \(check.stdout)")
    }

    @Test(.timeLimit(.minutes(5)))
    func namedTerritoriesAreFetchedForEveryProductAndTheOthersWrittenAsNotFetched() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch(["--price-point-territories", "DEU,USA,ITA"])
        #expect(fetched.status == 0, "\(fetched.all)")
        let targets = setup.server.rawTargets.filter { $0.contains("/pricePoints") }
        #expect(!targets.isEmpty && targets.allSatisfy { URLComponents(string: $0)?.queryItems?.first { $0.name == "filter[territory]" }?.value == "DEU,USA,ITA" },
                "\(targets)")
        let file = URL(fileURLWithPath: setup.output).appendingPathComponent("price-points.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let tea = try #require((document["products"] as? [[String: Any]])?.first { $0["id"] as? String == "6450000104" })
        #expect(Set((tea["territories"] as? [String: Int] ?? [:]).keys) == ["DEU", "USA", "ITA"])
        #expect(tea["notFetched"] as? [String] == ["GBR", "JPN", "FRA", "CAN", "BRA"], "priced there, not named: \(tea)")

        let refused = try await setup.fetch(["--price-point-territories", "usa"], output: setup.scratch.path("other"))
        #expect(refused.status == 2, "\(refused.all)")
        #expect(refused.stderr.contains("--price-point-territories takes territory codes such as USA,DEU,JPN"), "\(refused.stderr)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aSnapshotWithoutPointsSaysPricesWereNotChecked() async throws {
        let setup = try await Setup()
        defer { Task { await setup.finish() } }
        #expect(try await setup.fetch().status == 0)
        // Without the points file (a snapshot saved before Tally fetched points), the check says prices were not checked against points.
        try FileManager.default.removeItem(atPath: setup.output + "/price-points.json")
        let check = try await Tally.run(["check", "--no-config", FetchAppStoreConnectCLITests.storekit, setup.output])
        #expect(check.status == 0, "\(check.all)")
        #expect(check.stdout.contains("compared: prices against App Store price points: not checked, \(setup.output) holds no price points"), "\(check.stdout)")
    }
}

/// A server that answers the price point lists with what Tally cannot use: the fetch stops with
/// the URL and the reason (exit 2), and the folder is left as it was.
@Suite(.serialized) struct HostilePricePointTests {
    static func body(_ text: String) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data(text.utf8))
    }

    @Test(.timeLimit(.minutes(5)))
    func aPointWithoutAnAmountStopsTheFetchNamingIt() async throws {
        let setup = try await HostileSetup(.appStoreConnect) { request, _ in
            guard request.path.hasSuffix("/pricePoints") else { return nil }
            return Self.body(#"{"data":[{"type":"inAppPurchasePricePoints","id":"PP1","attributes":{"customerPrice":"1e3"},"relationships":{"territory":{"data":{"type":"territories","id":"USA"}}}}],"links":{"self":"x"}}"#)
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("/pricePoints") && fetched.stderr.contains("price point PP1 has no customerPrice that is an amount"), "\(fetched.stderr)")
        #expect(!FileManager.default.fileExists(atPath: setup.output))
        #expect(setup.leftovers.isEmpty, "\(setup.leftovers)")
    }

    @Test(.timeLimit(.minutes(5)))
    func aNextLinkBackToThePageIsRefused() async throws {
        let setup = try await HostileSetup(.appStoreConnect) { request, context in
            guard request.path.hasSuffix("/pricePoints") else { return nil }
            // The first page leads to ?cursor=1, and that page to itself.
            let next = context.baseURL + request.path + "?cursor=1"
            return Self.body(#"{"data":[],"links":{"self":"x","next":"\#(next)"}}"#)
        }
        defer { Task { await setup.finish() } }
        let fetched = try await setup.fetch()
        #expect(fetched.status == 2, "\(fetched.all)")
        #expect(fetched.stderr.contains("links.next leads back to a page already fetched"), "\(fetched.stderr)")
    }
}
#endif
