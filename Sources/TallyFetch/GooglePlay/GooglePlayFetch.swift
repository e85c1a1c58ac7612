import Foundation

/// Fetches one app's products from the Google Play Developer API (androidpublisher v3) into a
/// snapshot folder that `GooglePlayReader` reads: every page saved as it came, in request order.
///
/// The requests, under `{api}/androidpublisher/v3/applications/{package}/`, each list followed
/// through `nextPageToken` (`pageToken=`) to its end:
/// 1. `subscriptions?pageSize=100` (`monetization.subscriptions.list`);
/// 2. `subscriptions/-/basePlans/-/offers?pageSize=100` (every offer of every base plan), when
///    there are subscriptions; where that wildcard list is not served (404), each base plan's
///    `subscriptions/{productId}/basePlans/{basePlanId}/offers`;
/// 3. `oneTimeProducts?pageSize=100` (`monetization.onetimeproducts.list`);
/// 4. `inappproducts?maxResults=100` (the legacy list, `token=` and `tokenPagination.nextPageToken`).
///
/// The first list must answer; a later list that is not served (404: a proxy or server without
/// it) is left out of the snapshot, and the manifest counts only what was fetched.
public struct GooglePlayFetch: Sendable {
    public static let defaultAPI = "https://androidpublisher.googleapis.com"
    public static let defaultTokenURL = "https://oauth2.googleapis.com/token"
    public static let store = "google-play"

    public var packageName: String
    public var apiURL: URL
    public var output: String

    public init(packageName: String, apiURL: URL, output: String, allowHTTP: Bool = false) throws {
        let parts = packageName.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2, parts.allSatisfy({ part in
            part.first?.isLetter == true && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        }) else {
            throw FetchError.credentials("--package must be the app's package name (applicationId), like com.example.app, not \"\(packageName)\"")
        }
        self.packageName = packageName
        self.apiURL = try APIURL.checked(apiURL, example: Self.defaultAPI, allowHTTP: allowHTTP)
        self.output = output
    }

    /// The token URL: `--token-url`, else the key's `token_uri`, else Google's.
    /// Held to the same rule as the API URL: https, or http on a loopback host (or with `allowHTTP`).
    public static func tokenURL(option: String?, account: GooglePlayServiceAccount, allowHTTP: Bool = false) throws -> URL {
        let text = option ?? account.tokenURI ?? defaultTokenURL
        let what = option != nil ? "--token-url" : account.tokenURI != nil ? "the key's token_uri" : "the token URL"
        guard let url = URL(string: text) else {
            throw FetchError.usage("\(what) \(ServerText.clean(APIURL.shown(text), limit: 200)) is not a URL")
        }
        return try APIURL.checked(url, example: defaultTokenURL, what: what, allowHTTP: allowHTTP)
    }

    /// The whole fetch as one library run: an OAuth token for `account` from `tokenURL`, every
    /// request through `settings`, events to `progress`, the snapshot written.
    @discardableResult
    public func run(account: GooglePlayServiceAccount, tokenURL: URL, settings: FetchSettings,
                    progress: FetchProgress? = nil) async throws -> SnapshotManifest {
        var client = settings.client(progress: progress)
        client.signer = GooglePlayToken(account: account, tokenURL: tokenURL, client: client, onSign: { progress?(.tokenSigned) })
        return try await run(client: client)
    }

    /// Fetches everything, then puts the snapshot in place; on any failure the output folder is left as it was.
    @discardableResult
    public func run(client: FetchClient, now: @Sendable () -> Date = { Date() }) async throws -> SnapshotManifest {
        var run = Run(fetch: self, client: client, writer: try SnapshotWriter(destination: output))
        return try await run.complete { run in
            SnapshotManifest(store: Self.store, app: packageName, fetchedAt: now(), apiHost: APIURL.origin(apiURL),
                             requests: run.requests, pages: run.writer.pages.count, counts: run.counts)
        }
    }

    /// `{api}/androidpublisher/v3/applications/{package}/{path}?query` (`apiURL` may carry a path prefix, for a proxy).
    func url(_ path: String, _ query: [(String, String)]) throws -> URL {
        try APIURL.url(on: apiURL, base: "/androidpublisher/v3/applications/\(packageName)/", path, query)
    }

    /// One fetch in progress.
    struct Run: SnapshotRun {
        let fetch: GooglePlayFetch
        let client: FetchClient
        var writer: SnapshotWriter
        private(set) var requests = 0
        private(set) var counts: [String: Int] = [:]

        init(fetch: GooglePlayFetch, client: FetchClient, writer: SnapshotWriter) {
            self.fetch = fetch
            self.client = client
            self.writer = writer
        }

        mutating func fetchAll() async throws {
            let subscriptions = try await list("subscriptions", [("pageSize", "100")], items: "subscriptions", name: "subscriptions")
            counts["subscriptions"] = subscriptions.count
            counts["basePlans"] = subscriptions.reduce(0) { $0 + $1.basePlans.count }
            reportProducts()
            if !subscriptions.isEmpty {
                if let offers = try await optionalList("subscriptions/-/basePlans/-/offers", [("pageSize", "100")],
                                                       items: "subscriptionOffers", name: "subscriptionOffers") {
                    counts["subscriptionOffers"] = offers.count
                } else {
                    try await offersPerBasePlan(subscriptions)
                }
            }
            if let products = try await optionalList("oneTimeProducts", [("pageSize", "100")], items: "oneTimeProducts", name: "oneTimeProducts") {
                counts["oneTimeProducts"] = products.count
                // Their offers (discounted, pre-order, game reward), every product's and purchase
                // option's at once (`-`, as for subscription offers); a server without them: 404, skipped.
                if !products.isEmpty, let offers = try await optionalList("oneTimeProducts/-/purchaseOptions/-/offers", [("pageSize", "100")],
                                                                         items: "oneTimeProductOffers", name: "oneTimeProductOffers") {
                    counts["oneTimeProductOffers"] = offers.count
                }
            }
            reportProducts()
            if let legacy = try await optionalList("inappproducts", [("maxResults", "100")], items: "inappproduct",
                                                   name: "inappproducts", legacy: true) {
                counts["inAppProducts"] = legacy.count
            }
        }

        /// Each base plan's own offers list, for a server without the `-` wildcard.
        private mutating func offersPerBasePlan(_ subscriptions: [PlayListPage.Item]) async throws {
            var found: Int?
            for subscription in subscriptions {
                guard let product = subscription.productID else { continue }
                for case let basePlan? in subscription.basePlans {
                    // IDs are lower-case letters, digits, '_', '.' and '-': each becomes one segment, `..` refused.
                    let from = (try? fetch.url("subscriptions", [])) ?? fetch.apiURL
                    let path = "subscriptions/\(try APIURL.segment(product, from: from))/basePlans/\(try APIURL.segment(basePlan, from: from))/offers"
                    if let offers = try await optionalList(path, [("pageSize", "100")], items: "subscriptionOffers",
                                                           name: "subscriptionOffers-\(product)-\(basePlan)") {
                        found = (found ?? 0) + offers.count
                    }
                }
            }
            if let found { counts["subscriptionOffers"] = found }
        }

        /// A list that the server may not serve: nil (and nothing saved) when it answers 404.
        private mutating func optionalList(_ path: String, _ query: [(String, String)], items key: String, name: String,
                                           legacy: Bool = false) async throws -> [PlayListPage.Item]? {
            do {
                return try await list(path, query, items: key, name: name, legacy: legacy)
            } catch FetchError.httpStatus(let status, _, _, _) where status == 404 {
                return nil
            }
        }

        private func reportProducts() {
            client.progress?(.products((counts["basePlans"] ?? 0) + (counts["oneTimeProducts"] ?? 0)))
        }

        /// Every page of a list, each saved as it is received; the items of all pages, as the
        /// product and base plan IDs they hold (`PlayListPage`: a page is streamed, not kept).
        private mutating func list(_ path: String, _ query: [(String, String)], items key: String, name: String,
                                   legacy: Bool = false) async throws -> [PlayListPage.Item] {
            var items: [PlayListPage.Item] = []
            var token: String?
            var seen = Set<String>()
            var pages = 0
            while true {
                let url = try fetch.url(path, query + (token.map { [(legacy ? "token" : "pageToken", $0)] } ?? []))
                let response = try await client.get(url)
                requests += 1
                guard let page = try? PlayListPage(Array(response.body), items: key, legacy: legacy) else {
                    throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "the body is not a JSON object")
                }
                pages += 1
                let file = try writer.write(page: response.body, name: pages == 1 ? name : "\(name)-page\(pages)")
                client.progress?(.pageSaved(name: file))
                items += page.items
                guard let next = page.nextPageToken, !next.isEmpty else { return items }
                guard seen.insert(next).inserted else {
                    throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "nextPageToken leads back to a page already fetched")
                }
                try client.budget.checkPage(pages + 1, of: name, url: url)
                token = next
            }
        }
    }
}
