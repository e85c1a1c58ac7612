#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing
import TallyFormats
@testable import TallyFetch

/// Which price points a fetch asks for, against a routed fake API: the territories each product is
/// priced in (set by hand first), at most 10, in one filtered request, followed through `links.next`;
/// the rest, and a product the API does not know (404), written as not fetched.
@Suite struct PricePointPlanTests {
    static let territories = ["DEU", "USA", "GBR", "FRA", "ITA", "ESP", "NLD", "BEL", "AUT", "PRT", "IRL", "FIN"]

    static func prices(_ codes: [String]) -> String {
        let data = codes.map { #"{"type":"inAppPurchasePrices","id":"P-\#($0)","relationships":{"territory":{"data":{"type":"territories","id":"\#($0)"}}}}"# }
        return #"{"data":[\#(data.joined(separator: ","))],"links":{"self":"x"}}"#
    }

    static func point(_ code: String, _ price: String) -> String {
        #"{"type":"inAppPurchasePricePoints","id":"PP-\#(code)-\#(price)","attributes":{"customerPrice":"\#(price)","proceeds":"0.7"},"relationships":{"territory":{"data":{"type":"territories","id":"\#(code)"}}}}"#
    }

    static let pages = [
        "/v1/apps/42/inAppPurchasesV2": #"{"data":[{"type":"inAppPurchases","id":"7","attributes":{"productId":"p.one","inAppPurchaseType":"CONSUMABLE","state":"APPROVED"},"relationships":{"iapPriceSchedule":{"data":{"type":"inAppPurchasePriceSchedules","id":"S7"}}}},{"type":"inAppPurchases","id":"8","attributes":{"productId":"p.two","inAppPurchaseType":"CONSUMABLE","state":"APPROVED"},"relationships":{"iapPriceSchedule":{"data":{"type":"inAppPurchasePriceSchedules","id":"S8"}}}}],"links":{"self":"x"}}"#,
        // Set by hand in DEU; Apple derived the eleven others.
        "/v1/inAppPurchasePriceSchedules/S7/manualPrices": prices(["DEU"]),
        "/v1/inAppPurchasePriceSchedules/S7/automaticPrices": prices(Array(territories.dropFirst())),
        "/v1/inAppPurchasePriceSchedules/S8/manualPrices": prices(["USA"]),
        "/v1/inAppPurchasePriceSchedules/S8/automaticPrices": #"{"data":[],"links":{"self":"x"}}"#,
        // Two pages of points: DEU's and USA's, then the rest.
        "/v2/inAppPurchases/7/pricePoints": #"{"data":[\#(point("DEU", "0.99")),\#(point("USA", "0.99"))],"included":[{"type":"territories","id":"DEU","attributes":{"currency":"EUR"}}],"links":{"self":"x","next":"https://api.appstoreconnect.apple.com/v2/inAppPurchases/7/pricePoints/more?cursor=2"}}"#,
        "/v2/inAppPurchases/7/pricePoints/more": #"{"data":[\#(point("DEU", "1.99")),\#(point("GBR", "0.99"))],"links":{"self":"x"}}"#,
        "/v1/apps/42/subscriptionGroups": #"{"data":[],"links":{"self":"x"}}"#,
    ]

    @Test func eachProductsPricedTerritoriesAreAskedForWithinTheBoundAndSavedOnce() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let routes = AppStoreConnectPlanTests.Routes(Self.pages)
        let fetch = try AppStoreConnectFetch(appID: "42", apiURL: URL(string: "http://127.0.0.1:9")!, output: scratch.path("asc"))
        let manifest = try await fetch.run(client: FetchClient(transport: routes, signer: nil, retry: RetryPolicy(sleep: { _ in })))

        let asked = routes.asked.filter { $0.path.contains("/pricePoints") }
        #expect(asked.map(\.path) == ["/v2/inAppPurchases/7/pricePoints", "/v2/inAppPurchases/7/pricePoints/more", "/v2/inAppPurchases/8/pricePoints"])
        let query = try #require(URLComponents(url: asked[0], resolvingAgainstBaseURL: false)?.queryItems)
        // Set by hand first (DEU), then USA, then the derived ones in order: ten of the twelve.
        #expect(query.first { $0.name == "filter[territory]" }?.value == "DEU,USA,GBR,FRA,ITA,ESP,NLD,BEL,AUT,PRT")
        #expect(query.first { $0.name == "include" }?.value == "territory")
        #expect(query.first { $0.name == "limit" }?.value == "8000")
        #expect(manifest.counts["pricePoints"] == 4)
        let saved = try #require(SnapshotManifest.read(folder: scratch.path("asc")))
        #expect(saved.files?.contains("price-points.json") == true, "a later fetch may replace it")
        #expect(saved.pages == saved.files.map { $0.count - 1 }, "the points file is not a page")

        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: scratch.path("asc/price-points.json"))))
        let file = try PricePointsFile.read(bytes: bytes, file: "price-points.json")
        #expect(file.lists.map { "\($0.territory) \($0.currency ?? "-") \($0.points.map(\.customerPrice))" } == [
            "DEU EUR [\"0.99\", \"1.99\"]", "USA USD [\"0.99\"]", "GBR GBP [\"0.99\"]",
        ])
        let seven = try #require(file.products.first { $0.id == "7" })
        #expect(seven.territories.map(\.0.code) == ["DEU", "USA", "GBR"])
        // Past the bound, and the territories the API gave no points for, are named.
        #expect(seven.notFetched.map(\.code) == ["IRL", "FIN", "FRA", "ITA", "ESP", "NLD", "BEL", "AUT", "PRT"])
        // The second purchase is unknown to the API (404): its territory is written as not fetched.
        let eight = try #require(file.products.first { $0.id == "8" })
        #expect(eight.territories.isEmpty && eight.notFetched.map(\.code) == ["USA"])
    }
}
#endif
