#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Foundation
import Testing
@testable import TallyFetch

/// The request plan against a routed fake API: what is asked, what an `include` saves, where `links.next` leads.
@Suite struct AppStoreConnectPlanTests {
    /// Answers by path; records every URL asked.
    final class Routes: HTTPTransport, @unchecked Sendable {
        private let lock = NSLock()
        private let pages: [String: String]
        private(set) var asked: [URL] = []
        init(_ pages: [String: String]) { self.pages = pages }

        func get(_ request: TransportRequest) async throws -> TransportResponse {
            lock.withLock { asked.append(request.url) }
            guard let body = pages[request.url.path] else {
                return TransportResponse(url: request.url, status: 404, body: Data(#"{"errors":[{"code":"NOT_FOUND"}]}"#.utf8))
            }
            return TransportResponse(url: request.url, status: 200, body: Data(body.utf8))
        }
    }

    static let pages = [
        // No iapPriceSchedule linkage: the schedule is asked for.
        "/v1/apps/42/inAppPurchasesV2": #"{"data":[{"type":"inAppPurchases","id":"7","attributes":{"productId":"p.one","inAppPurchaseType":"CONSUMABLE","state":"APPROVED"}}],"links":{"self":"x"}}"#,
        "/v2/inAppPurchases/7/iapPriceSchedule": #"{"data":{"type":"inAppPurchasePriceSchedules","id":"S7"},"links":{"self":"x"}}"#,
        // Where it is sold: the availability, then its territories (the subscription's was never set: 404).
        "/v2/inAppPurchases/7/inAppPurchaseAvailability": #"{"data":{"type":"inAppPurchaseAvailabilities","id":"A7","attributes":{"availableInNewTerritories":true}},"links":{"self":"x"}}"#,
        "/v1/inAppPurchaseAvailabilities/A7/availableTerritories": #"{"data":[{"type":"territories","id":"USA"},{"type":"territories","id":"CAN"}],"links":{"self":"x"}}"#,
        "/v1/inAppPurchasePriceSchedules/S7/manualPrices": #"{"data":[],"links":{"self":"x"}}"#,
        "/v1/inAppPurchasePriceSchedules/S7/automaticPrices": #"{"data":[],"links":{"self":"x"}}"#,
        // Subscriptions included with the group: no list of the group's subscriptions is asked for.
        "/v1/apps/42/subscriptionGroups": #"{"data":[{"type":"subscriptionGroups","id":"G","relationships":{"subscriptions":{"data":[{"type":"subscriptions","id":"9"}]}}}],"included":[{"type":"subscriptions","id":"9","attributes":{"productId":"p.sub"}}],"links":{"self":"x"}}"#,
        "/v1/subscriptions/9/prices": #"{"data":[],"links":{"self":"x"}}"#,
        "/v1/subscriptions/9/introductoryOffers": #"{"data":[],"links":{"self":"x"}}"#,
        // Pages whose links.next names another host: followed on the API host only.
        "/v1/subscriptions/9/promotionalOffers": #"{"data":[{"type":"subscriptionPromotionalOffers","id":"O1"}],"links":{"self":"x","next":"https://elsewhere.example/v1/subscriptions/9/promotionalOffers/more?cursor=2"}}"#,
        "/v1/subscriptions/9/promotionalOffers/more": #"{"data":[],"links":{"self":"x"}}"#,
        "/v1/subscriptionPromotionalOffers/O1/prices": #"{"data":[]}"#,
        // API 4.4: the subscription's plans, the monthly one's territories (its prices: the prices route above, filtered).
        "/v1/subscriptions/9/planAvailabilities": #"{"data":[{"type":"subscriptionPlanAvailabilities","id":"P9M","attributes":{"planType":"MONTHLY","availableInNewTerritories":true}}],"links":{"self":"x"}}"#,
        "/v1/subscriptionPlanAvailabilities/P9M/availableTerritories": #"{"data":[{"type":"territories","id":"USA"}],"links":{"self":"x"}}"#,
        // API 4.4.1: the purchase's version and its localizations; the group has only the older endpoint.
        "/v2/inAppPurchases/7/versions": #"{"data":[{"type":"inAppPurchaseVersions","id":"V7","attributes":{"state":"APPROVED"}}],"links":{"self":"x"}}"#,
        "/v1/inAppPurchaseVersions/V7/localizations": #"{"data":[{"type":"inAppPurchaseLocalizations","id":"L7","attributes":{"locale":"en-US","name":"One"}}],"links":{"self":"x"}}"#,
        "/v1/subscriptionGroups/G/subscriptionGroupLocalizations": #"{"data":[{"type":"subscriptionGroupLocalizations","id":"GL","attributes":{"locale":"en-US","name":"G"}}],"links":{"self":"x"}}"#,
    ]

    @Test func theRequestsFollowTheDocumentedEndpointsAndSaveEveryPage() async throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let routes = Routes(Self.pages)
        let fetch = try AppStoreConnectFetch(appID: "42", apiURL: URL(string: "http://127.0.0.1:9")!, output: scratch.path("asc"))
        let manifest = try await fetch.run(client: FetchClient(transport: routes, signer: nil, retry: RetryPolicy(sleep: { _ in })))
        #expect(routes.asked.map(\.path) == [
            "/v1/apps/42/inAppPurchasesV2", "/v2/inAppPurchases/7/iapPriceSchedule", "/v2/inAppPurchases/7/inAppPurchaseAvailability",
            "/v1/inAppPurchaseAvailabilities/A7/availableTerritories", "/v1/inAppPurchasePriceSchedules/S7/manualPrices",
            "/v1/inAppPurchasePriceSchedules/S7/automaticPrices", "/v1/apps/42/subscriptionGroups", "/v1/subscriptions/9/prices", "/v1/subscriptions/9/introductoryOffers",
            "/v1/subscriptions/9/promotionalOffers", "/v1/subscriptions/9/promotionalOffers/more", "/v1/subscriptionPromotionalOffers/O1/prices",
            // API 3.6 win-back offers and offer codes: this server has neither (404), nothing saved.
            "/v1/subscriptions/9/winBackOffers", "/v1/subscriptions/9/offerCodes",
            "/v1/subscriptions/9/subscriptionAvailability",
            // Plans and localizations, after the prices: versions first, the older endpoint where they give none (404 here).
            "/v2/inAppPurchases/7/versions", "/v1/inAppPurchaseVersions/V7/localizations",
            "/v1/subscriptions/9/planAvailabilities", "/v1/subscriptionPlanAvailabilities/P9M/availableTerritories", "/v1/subscriptions/9/prices",
            "/v1/subscriptions/9/versions", "/v1/subscriptions/9/subscriptionLocalizations",
            "/v1/subscriptionGroups/G/versions", "/v1/subscriptionGroups/G/subscriptionGroupLocalizations",
        ])
        let monthly = routes.asked[19]
        #expect(URLComponents(url: monthly, resolvingAgainstBaseURL: false)?.queryItems?.contains(URLQueryItem(name: "filter[planType]", value: "MONTHLY")) == true,
                "\(monthly)")
        #expect(routes.asked.allSatisfy { $0.host == "127.0.0.1" && $0.port == 9 })
        #expect(routes.asked[10].query == "cursor=2")
        #expect(routes.asked[3].query == "limit=200")
        #expect(manifest.counts == ["inAppPurchases": 1, "manualPrices": 0, "automaticPrices": 0, "subscriptionGroups": 1, "subscriptions": 1, "subscriptionPrices": 0,
                                    "introductoryOffers": 0, "promotionalOffers": 1,
                                    "availabilities": 1, "availableTerritories": 2,
                                    "planAvailabilities": 1, "planTerritories": 1, "monthlyPrices": 0, "versions": 1, "localizations": 2, "pricePoints": 0])
        #expect(manifest.endpoints == ["localizations": ["versions": 1, "none": 1, "older": 1], "planAvailabilities": ["planAvailabilities": 1]])
        #expect(manifest.requests == 18 && manifest.pages == 18)
        // A page without links.self gets the request's URL, which readers join it by.
        let files = try FileManager.default.contentsOfDirectory(atPath: scratch.path("asc")).sorted()
        #expect(files.first == "0001-inAppPurchasesV2.json" && files.contains("0012-promotionalOfferPrices-O1.json"))
        #expect(files.contains("0003-inAppPurchaseAvailability-7.json") && files.contains("0004-availableTerritories-A7.json"))
        let last = try String(contentsOfFile: scratch.path("asc/0012-promotionalOfferPrices-O1.json"), encoding: .utf8)
        #expect(last.contains("subscriptionPromotionalOffers\\/O1\\/prices") || last.contains("subscriptionPromotionalOffers/O1/prices"), "\(last)")
    }

    @Test func aProxyPrefixIsKeptAndApplesHostIsRewrittenOntoIt() throws {
        let fetch = try AppStoreConnectFetch(appID: "42", apiURL: URL(string: "https://proxy.example/asc/")!, output: "/tmp/unused")
        let first = try fetch.url("/v1/apps/42/subscriptionGroups", [("include", "subscriptions"), ("limit[subscriptions]", "50")])
        #expect(first.absoluteString.hasPrefix("https://proxy.example/asc/v1/apps/42/subscriptionGroups?include=subscriptions&limit"))
        let next = try fetch.follow("https://api.appstoreconnect.apple.com/v1/apps/42/subscriptionGroups?cursor=AB", from: first)
        #expect(next.absoluteString == "https://proxy.example/asc/v1/apps/42/subscriptionGroups?cursor=AB")
        #expect(try fetch.follow("?cursor=CD", from: first).absoluteString.hasPrefix("https://proxy.example/asc/v1/apps/42/subscriptionGroups?cursor=CD"))
    }

    @Test func anAppIDMustBeAnID() {
        #expect(throws: FetchError.self) { try AppStoreConnectFetch(appID: "../etc", apiURL: URL(string: "https://a.example")!, output: "x") }
        #expect(throws: FetchError.self) { try AppStoreConnectFetch(appID: "1", apiURL: URL(string: "ftp://a.example")!, output: "x") }
    }
}
#endif
