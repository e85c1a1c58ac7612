import Foundation

/// Fetches one RevenueCat project's configuration through REST API v2 into a snapshot folder
/// that `RevenueCatReader` reads: every page saved as it came, in request order.
///
/// The requests, under `{api}/v2/projects/{project_id}/`, each list followed through
/// `next_page` to its end (on `--api-url`'s host only: the key goes nowhere else):
/// 1. `apps?limit=100` (which store each product is sold in);
/// 2. `products?limit=100`;
/// 3. `offerings?limit=100&expand=items.package.product` (packages and their products);
/// 4. `entitlements?limit=100&expand=items.product`.
/// These are project-configuration endpoints, rate-limited per project (60 requests a minute by
/// default): a 429 is waited out as its `Retry-After` says, through the shared `FetchClient`.
public struct RevenueCatFetch: Sendable {
    public static let defaultAPI = "https://api.revenuecat.com"
    public static let store = "revenuecat"

    public var projectID: String
    public var apiURL: URL
    public var output: String

    public init(projectID: String, apiURL: URL, output: String, allowHTTP: Bool = false) throws {
        guard !projectID.isEmpty, projectID.count <= 100,
              projectID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }) else {
            throw FetchError.usage("--project must be the RevenueCat project ID (Project settings → General, like proj1ab2c3d4), not \"\(ServerText.clean(projectID, limit: 100))\"")
        }
        self.projectID = projectID
        self.apiURL = try APIURL.checked(apiURL, example: Self.defaultAPI, allowHTTP: allowHTTP)
        self.output = output
    }

    /// The whole fetch as one library run: every request through `settings`, signed with `key`,
    /// events to `progress`, the snapshot written.
    @discardableResult
    public func run(key: RevenueCatKey, settings: FetchSettings, progress: FetchProgress? = nil) async throws -> SnapshotManifest {
        try await run(client: settings.client(signer: key, progress: progress))
    }

    /// Fetches everything, then puts the snapshot in place; on any failure the output folder is left as it was.
    @discardableResult
    public func run(client: FetchClient, now: @Sendable () -> Date = { Date() }) async throws -> SnapshotManifest {
        var run = Run(fetch: self, client: client, writer: try SnapshotWriter(destination: output))
        return try await run.complete { run in
            SnapshotManifest(store: Self.store, app: projectID, fetchedAt: now(), apiHost: APIURL.origin(apiURL),
                             requests: run.requests, pages: run.writer.pages.count, counts: run.counts)
        }
    }

    /// The next page's URL on `apiURL`: `next_page`'s path and query only, whatever host it names.
    /// Each segment of the path is checked as the server will read it, percent-decoded: `%2e%2e`
    /// is `..`, and an encoded slash (`%2f`, `%5c`) would make two segments of one.
    func next(_ text: String) throws -> URL {
        guard let components = URLComponents(string: text), components.percentEncodedPath.hasPrefix("/v2/projects/\(projectID)/"),
              components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst().allSatisfy(Self.isPlainSegment)
        else {
            throw FetchError.invalidResponse(url: APIURL.shown(text), reason: "next_page is not a page of project \(projectID)")
        }
        let query = (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }
        return try APIURL.url(on: apiURL, components.percentEncodedPath, query)
    }

    /// A path segment that names one resource: not empty, `.` or `..`, and no slash or backslash,
    /// once percent-decoded (an undecodable one is refused too).
    static func isPlainSegment(_ segment: Substring) -> Bool {
        guard let decoded = String(segment).removingPercentEncoding, !decoded.isEmpty, decoded != ".", decoded != ".." else { return false }
        return !decoded.contains("/") && !decoded.contains("\\") && !decoded.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    struct Run: SnapshotRun {
        let fetch: RevenueCatFetch
        let client: FetchClient
        var writer: SnapshotWriter
        private(set) var requests = 0
        private(set) var counts: [String: Int] = [:]

        init(fetch: RevenueCatFetch, client: FetchClient, writer: SnapshotWriter) {
            self.fetch = fetch
            self.client = client
            self.writer = writer
        }

        mutating func fetchAll() async throws {
            counts["apps"] = try await list("apps", [], name: "apps")
            counts["products"] = try await list("products", [], name: "products")
            client.progress?(.products(counts["products"] ?? 0))
            counts["offerings"] = try await list("offerings", [("expand", "items.package.product")], name: "offerings")
            counts["entitlements"] = try await list("entitlements", [("expand", "items.product")], name: "entitlements")
        }

        /// Every page of a list, each saved as it is received; the number of items.
        private mutating func list(_ path: String, _ query: [(String, String)], name: String) async throws -> Int {
            var url = try APIURL.url(on: fetch.apiURL, base: "/v2/projects/\(fetch.projectID)/", path, [("limit", "100")] + query)
            var seen = Set<String>()
            var pages = 0
            var count = 0
            while true {
                let response = try await client.get(url)
                requests += 1
                guard let document = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
                      document["object"] as? String == "list", let items = document["items"] as? [Any] else {
                    throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "the body is not a RevenueCat list (object \"list\" with items)")
                }
                pages += 1
                let file = try writer.write(page: response.body, name: pages == 1 ? name : "\(name)-page\(pages)")
                client.progress?(.pageSaved(name: file))
                count += items.count
                guard let next = document["next_page"] as? String, !next.isEmpty else { return count }
                guard seen.insert(next).inserted else {
                    throw FetchError.invalidResponse(url: APIURL.shown(url), reason: "next_page leads back to a page already fetched")
                }
                url = try fetch.next(next)
                // The run's pages-per-list limit (TALLY_FETCH_MAX_PAGES), as for the other stores.
                try client.budget.checkPage(pages + 1, of: name, url: url)
            }
        }
    }
}
