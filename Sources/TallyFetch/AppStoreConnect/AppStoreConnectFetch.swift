import Foundation
import TallyModel

/// Fetches one app's in-app purchases and subscriptions from the App Store Connect API into a
/// snapshot folder that `AppStoreConnectReader` reads: every page saved as it came, in request order.
///
/// The requests, through Apple's documented endpoints, following `links.next` to the end:
/// 1. `GET /v1/apps/{id}/inAppPurchasesV2?include=iapPriceSchedule&limit=200`
///    (`GET /v2/inAppPurchases/{id}/iapPriceSchedule` for a purchase whose schedule is not linked);
/// 2. per price schedule, `GET /v1/inAppPurchasePriceSchedules/{id}/manualPrices` (prices set by hand)
///    and `/automaticPrices` (the prices Apple derives for every other territory), both with
///    `?include=inAppPurchasePricePoint,territory&limit=200`;
/// 3. `GET /v1/apps/{id}/subscriptionGroups?include=subscriptions&limit=200&limit[subscriptions]=50`
///    (`GET /v1/subscriptionGroups/{id}/subscriptions?limit=200` for a group with more);
/// 4. per subscription, `GET /v1/subscriptions/{id}/prices` and `/introductoryOffers` (both with
///    `include=subscriptionPricePoint,territory&limit=200`) and `/promotionalOffers?limit=200`;
/// 5. per promotional offer, `GET /v1/subscriptionPromotionalOffers/{id}/prices?include=subscriptionPricePoint,territory&limit=200`;
/// 6. where each product is sold: `GET /v2/inAppPurchases/{id}/inAppPurchaseAvailability` and
///    `GET /v1/subscriptions/{id}/subscriptionAvailability` (404, never set: skipped), then
///    `GET /v1/inAppPurchaseAvailabilities/{id}/availableTerritories?limit=200` (or
///    `subscriptionAvailabilities`), every territory it is sold in;
/// 7–8. billing plans (API 4.4) and localizations (API 4.4.1 versions, else the older endpoints):
///    see `AppStoreConnectRun+Review.swift`.
/// 9. last, per product, the price points of the territories it is priced in (at most
///    `PricePointPlan.territoriesPerProduct`): `GET /v2/inAppPurchases/{id}/pricePoints` and
///    `GET /v1/subscriptions/{id}/pricePoints` with `filter[territory]`, saved together, identical
///    lists once, as `price-points.json` (`PricePointsFile`), not as pages.
public struct AppStoreConnectFetch: Sendable {
    public static let defaultAPI = "https://api.appstoreconnect.apple.com"
    public static let store = "app-store-connect"

    public var appID: String
    public var apiURL: URL
    public var output: String
    /// The territories whose price points to fetch for every priced product
    /// (`--price-point-territories`); nil: those it is priced in, at most 10 (`PricePointPlan`).
    public var pricePointTerritories: [Territory]? = nil

    public init(appID: String, apiURL: URL, output: String, allowHTTP: Bool = false, pricePointTerritories: [Territory]? = nil) throws {
        guard !appID.isEmpty, appID.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }) else {
            throw FetchError.credentials("--app must be the app's Apple ID (the number in App Store Connect → App Information), not \"\(appID)\"")
        }
        self.appID = appID
        self.apiURL = try APIURL.checked(apiURL, example: Self.defaultAPI, allowHTTP: allowHTTP)
        self.output = output
        self.pricePointTerritories = pricePointTerritories
    }

    /// The whole fetch as one library run: signs with `credentials` (tokens living
    /// `tokenLifetime`), sends through `settings`, reports to `progress`, writes the snapshot.
    @discardableResult
    public func run(credentials: AppStoreConnectCredentials, tokenLifetime: TimeInterval = AppStoreConnectToken.defaultLifetime,
                    settings: FetchSettings, progress: FetchProgress? = nil) async throws -> SnapshotManifest {
        let token = AppStoreConnectToken(credentials: credentials, lifetime: tokenLifetime, onSign: { progress?(.tokenSigned) })
        return try await run(client: settings.client(signer: token, progress: progress))
    }

    /// Fetches everything, then puts the snapshot in place; on any failure the output folder is left as it was.
    @discardableResult
    public func run(client: FetchClient, now: @escaping @Sendable () -> Date = { Date() }) async throws -> SnapshotManifest {
        var run = Run(fetch: self, client: client, writer: try SnapshotWriter(destination: output))
        run.now = now
        return try await run.complete { run in
            SnapshotManifest(store: Self.store, app: appID, fetchedAt: now(), apiHost: Self.origin(apiURL),
                             requests: run.requests, pages: run.writer.pages.count, counts: run.counts,
                             endpoints: run.endpoints.isEmpty ? nil : run.endpoints)
        }
    }

    /// `https://api.appstoreconnect.apple.com` (scheme, host and port only).
    static func origin(_ url: URL) -> String { APIURL.origin(url) }

    /// The URL of an API path on `apiURL` (which may carry a path prefix, for a proxy).
    func url(_ path: String, _ query: [(String, String)]) throws -> URL {
        try APIURL.url(on: apiURL, path, query)
    }

    /// Where `links.next` leads: the link itself when it is on the API host as given; otherwise
    /// (Apple's host, as a proxy passes it on, or whatever host a server names itself by) the same
    /// path and query on `apiURL`. Requests, and the token, only ever go to `apiURL`'s host.
    func follow(_ link: String, from current: URL) throws -> URL {
        guard let next = URL(string: link, relativeTo: current)?.absoluteURL, next.host != nil,
              var components = URLComponents(url: next, resolvingAgainstBaseURL: false),
              let base = URLComponents(url: apiURL, resolvingAgainstBaseURL: false) else {
            throw FetchError.invalidResponse(url: APIURL.shown(current), reason: "links.next \"\(ServerText.clean(link, limit: 200))\" is not a URL")
        }
        if Self.origin(next) == Self.origin(apiURL) { return next }
        components.scheme = base.scheme
        components.host = base.host
        components.port = base.port
        let prefix = base.percentEncodedPath.hasSuffix("/") ? String(base.percentEncodedPath.dropLast()) : base.percentEncodedPath
        if !prefix.isEmpty, !components.percentEncodedPath.hasPrefix(prefix + "/") {
            components.percentEncodedPath = prefix + components.percentEncodedPath
        }
        guard let url = components.url else {
            throw FetchError.invalidResponse(url: APIURL.shown(current), reason: "links.next \"\(ServerText.clean(link, limit: 200))\" is not a URL")
        }
        return url
    }
}
