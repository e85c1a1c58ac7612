#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import Crypto
import FlyingFox
import Foundation

/// A stand-in for the App Store Connect API, written from Apple's documentation: it verifies
/// every bearer token (ES256 signature with the test key's public key, kid, iss, aud, lifetime,
/// expiry), serves JSON:API pages (resources, relationships, `included`, `links.next`,
/// `meta.paging`) in small pages, answers 404 for unknown paths, and injects faults on request.
///
/// The data are the Calmly export of `Tests/TallyCLITests/Fixtures/app-store-connect/calmly`
/// (which agrees with `configs/ExampleApp.storekit`) plus promotional offers and the automatic
/// (derived) prices of one in-app purchase, keyed by the endpoint each page answers; on request,
/// billing plans and localizations on versions (`Fixtures/review-metadata`, `StandInServer+Review.swift`);
/// on request, a multi-seat subscription with volume tiers (`StandInServer+Seats.swift`).
final class StandInServer: @unchecked Sendable {
    enum Fault: Sendable {
        case status(Int, retryAfter: String?)
    }

    struct Options {
        /// Hostile behaviour: answers a request whose credentials were verified, instead of the
        /// stand-in, when it returns a response (redirects, endless bodies, echoed headers, ...).
        var hostile: (@Sendable (HTTPRequest) async -> HTTPResponse?)?
        var keyID = "TESTKEY123"
        var issuerID = "57246542-96fe-1a63-e053-0824d011072a"
        var publicKey: P256.Signing.PublicKey
        /// Resources per page, whatever `limit` asks (smaller is allowed by the API).
        var pageSize = 3
        /// Text edits to the fixture pages before they are served: (file, old, new).
        var edits: [(file: String, old: String, new: String)] = []
        /// Faults answered once each, in order, for a path.
        var faults: [String: [Fault]] = [:]
        /// Paths that always answer 500.
        var broken: Set<String> = []
        /// Whether the data include where one in-app purchase is sold (`Fixtures/availability`).
        var availability = false
        /// Whether the data include billing plans and localizations (`Fixtures/review-metadata`).
        var reviewMetadata = false
        /// Whether com.calmly.app.plus.monthly is a multi-seat subscription with two volume tiers
        /// (`Fixtures/seat-tiers`, `StandInServer+Seats.swift`).
        var seatTiers = false
        /// Whether the server has API 3.6's win-back offers and API 2.0's offer codes
        /// (`Fixtures/winback-offers`: com.calmly.app.plus.annual has a win-back offer in force,
        /// one that ended, and one active offer code); else their endpoints answer 404.
        var winBack = false
        /// The API version served: endpoints added after it answer 404.
        var api = APIVersion.v4_4_1
    }

    private let options: Options
    private let lock = NSLock()
    private(set) var routes: [String: (data: [[String: Any]], pool: [[String: Any]])] = [:]
    /// "type/id" of every resource the data hold: a related list of one of them exists (maybe empty).
    private(set) var known = Set<String>()
    /// "type/id" → the resource, with its attributes, for every resource the data hold.
    private var resources: [String: [String: Any]] = [:]
    private var pendingFaults: [String: [Fault]]
    private var _tokens: [String] = []
    private var _requests: [String] = []
    private var _rejections: [String] = []
    private var _rawTargets: [String] = []
    private var server: HTTPServer?
    private var task: Task<Void, Error>?
    private(set) var port: UInt16 = 0

    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let repository = testsFolder.deletingLastPathComponent().deletingLastPathComponent()
    static let calmly = repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/app-store-connect/calmly")
    static let promotional = testsFolder.appendingPathComponent("Fixtures/promotional-offers")
    /// Prices Apple derives (automatic, equalised) for one in-app purchase's other territories.
    static let automatic = testsFolder.appendingPathComponent("Fixtures/automatic-prices")
    /// Where tip.tea is sold: nine territories, two of them (MEX, KOR) without a price.
    static let availability = testsFolder.appendingPathComponent("Fixtures/availability")
    /// Billing plans (API 4.4) and localizations on versions (4.4.1) and on the older endpoints.
    static let reviewMetadata = testsFolder.appendingPathComponent("Fixtures/review-metadata")
    /// Win-back offers and offer codes (issue 50).
    static let winBack = testsFolder.appendingPathComponent("Fixtures/winback-offers")

    init(_ options: Options) throws {
        self.options = options
        pendingFaults = options.faults
        try load()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var tokens: [String] { lock.withLock { _tokens } }
    var requests: [String] { lock.withLock { _requests } }
    var rejections: [String] { lock.withLock { _rejections } }
    /// The percent-encoded path and query of every request whose credentials were verified.
    var rawTargets: [String] { lock.withLock { _rawTargets } }

    func start() async throws {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled,
                                handler: ClosureHTTPHandler { [self] request in await self.handle(request) })
        self.server = server
        task = Task { try await server.run() }
        try await server.waitUntilListening(timeout: 60)
        guard case let .ip4(_, port)? = await server.listeningAddress else { throw StandInError("no listening address") }
        self.port = port
    }

    func stop() async {
        await server?.stop(timeout: 1)
        task?.cancel()
    }

    // MARK: - Data

    private func load() throws {
        var files: [URL] = []
        for folder in [Self.calmly, Self.promotional, Self.automatic] + (options.availability ? [Self.availability] : [])
            + (options.reviewMetadata ? [Self.reviewMetadata] : []) + (options.seatTiers ? [Self.seatTiers] : [])
            + (options.winBack ? [Self.winBack] : []) {
            files += try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil).filter { $0.pathExtension == "json" }
        }
        for file in files.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
            var text = try String(contentsOf: file, encoding: .utf8)
            for edit in (options.seatTiers ? Self.seatEdits : []) + options.edits where edit.file == file.lastPathComponent {
                guard text.contains(edit.old) else { throw StandInError("\(edit.old) is not in \(edit.file)") }
                text = text.replacingOccurrences(of: edit.old, with: edit.new)
            }
            guard let document = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
                  let links = document["links"] as? [String: Any], let selfLink = links["self"] as? String,
                  let path = URLComponents(string: selfLink)?.path else { throw StandInError("\(file.lastPathComponent) has no links.self") }
            // A single resource (an availability) is served as a list of one, as every route is.
            let data = document["data"] as? [[String: Any]] ?? (document["data"] as? [String: Any]).map { [$0] } ?? []
            var route = routes[path] ?? ([], [])
            route.data += data
            for resource in document["included"] as? [[String: Any]] ?? [] where !route.pool.contains(where: { Self.key($0) == Self.key(resource) }) {
                route.pool.append(resource)
            }
            routes[path] = route
            for resource in data + (document["included"] as? [[String: Any]] ?? []) {
                known.insert(Self.key(resource))
                if resources[Self.key(resource)] == nil || resource["attributes"] != nil { resources[Self.key(resource)] = resource }
            }
        }
    }

    private static func key(_ resource: [String: Any]) -> String {
        "\(resource["type"] as? String ?? "")/\(resource["id"] as? String ?? "")"
    }

    // MARK: - Requests

    private func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let path = request.path
        let token = request.headers[.authorization]
        lock.withLock { _requests.append(path) }
        if let problem = verify(token) {
            lock.withLock { _rejections.append(problem) }
            return Self.error(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.",
                              "Provide a properly configured and signed bearer token, and make sure that it has not expired. \(problem)")
        }
        lock.withLock { _rawTargets.append(request.target.rawValue) }
        if let hostile = options.hostile, let response = await hostile(request) { return response }
        if let fault = lock.withLock({ pendingFaults[path]?.isEmpty == false ? pendingFaults[path]?.removeFirst() : nil }) {
            switch fault {
            case let .status(status, retryAfter):
                var headers: HTTPHeaders = [.contentType: "application/json"]
                if let retryAfter { headers[HTTPHeader("Retry-After")] = retryAfter }
                let title = status == 429 ? "The request rate limit has been reached." : "The service is unavailable."
                return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Fault"), headers: headers,
                                    body: Self.errorBody(status, status == 429 ? "RATE_LIMIT_EXCEEDED" : "UNEXPECTED_ERROR", title, "Try again later."))
            }
        }
        if !options.api.serves(path) {
            return Self.error(404, "NOT_FOUND", "The specified resource does not exist", "The path provided does not match a defined resource type.")
        }
        if options.broken.contains(path) {
            return Self.error(500, "UNEXPECTED_ERROR", "An unexpected error occurred.", "The server is broken for this test.")
        }
        if let response = pricePoints(request) { return response }
        guard let route = route(for: path) else {
            return Self.error(404, "NOT_FOUND", "The specified resource does not exist", "The path provided does not match a defined resource type.")
        }
        return page(route, request: request)
    }

    private func route(for path: String) -> (data: [[String: Any]], pool: [[String: Any]])? {
        if let route = routes[path] { return route }
        // A related list of a known resource that the export has no page of: it exists, and is empty.
        let parts = path.split(separator: "/").map(String.init)
        let lists = ["prices", "introductoryOffers", "promotionalOffers", "manualPrices", "automaticPrices", "subscriptions"]
            + (options.winBack ? ["winBackOffers", "offerCodes"] : [])
        if parts.count == 4, parts[0].hasPrefix("v"), known.contains("\(parts[1])/\(parts[2])"), lists.contains(parts[3]) {
            return ([], [])
        }
        // Plans, versions and localizations: what the resource's relationship links to, else empty.
        if parts.count == 4, parts[0].hasPrefix("v"), let owner = resources["\(parts[1])/\(parts[2])"], Self.reviewLists.contains(parts[3]) {
            return (Self.linked(owner, parts[3]).compactMap { resources[$0] }, [])
        }
        return nil
    }

    /// One page: `limit` (capped at the page size) resources from `cursor`, what they link to from
    /// the page's `included`, `links.self`/`links.next` on this server, `meta.paging`.
    func page(_ route: (data: [[String: Any]], pool: [[String: Any]]), request: HTTPRequest, pageSize: Int? = nil, maximum: Int = 200) -> HTTPResponse {
        let query = request.query
        let limit = min(Int(query.first { $0.name == "limit" }?.value ?? "") ?? 50, maximum, pageSize ?? options.pageSize)
        let offset = Int(query.first { $0.name == "cursor" }?.value ?? "") ?? 0
        let data = Self.filtered(route.data, query)
        let slice = Array(data.dropFirst(offset).prefix(limit))
        var wanted = Set(slice.flatMap(Self.linked))
        var included: [[String: Any]] = []
        for _ in 0..<2 {
            for resource in route.pool where wanted.contains(Self.key(resource)) && !included.contains(where: { Self.key($0) == Self.key(resource) }) {
                included.append(resource)
            }
            wanted.formUnion(included.flatMap(Self.linked))
        }
        func link(cursor: Int?) -> String {
            var items = query.filter { $0.name != "cursor" }.map { URLQueryItem(name: $0.name, value: $0.value) }
            if let cursor { items.append(URLQueryItem(name: "cursor", value: String(cursor))) }
            var components = URLComponents(string: baseURL + request.path) ?? URLComponents()
            components.queryItems = items.isEmpty ? nil : items
            return components.string ?? baseURL + request.path
        }
        var links: [String: Any] = ["self": link(cursor: offset == 0 ? nil : offset)]
        if offset + slice.count < data.count { links["next"] = link(cursor: offset + slice.count) }
        var document: [String: Any] = ["data": slice, "links": links, "meta": ["paging": ["total": data.count, "limit": limit]]]
        if !included.isEmpty { document["included"] = included }
        let body = (try? JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
    }

    private static func linked(_ resource: [String: Any]) -> [String] {
        var keys: [String] = []
        for case let relationship as [String: Any] in (resource["relationships"] as? [String: Any] ?? [:]).values {
            if let one = relationship["data"] as? [String: Any] { keys.append(key(one)) }
            if let many = relationship["data"] as? [[String: Any]] { keys += many.map(key) }
        }
        return keys
    }

    // MARK: - Tokens

    /// Why the token is refused, or nil when it is good (and then it is recorded).
    private func verify(_ header: String?) -> String? {
        guard let header, header.hasPrefix("Bearer ") else { return "no bearer token" }
        let token = String(header.dropFirst("Bearer ".count))
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
              let signatureData = Self.base64URL(parts[2]),
              let jwtHeader = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any] else { return "not a JWT" }
        guard jwtHeader["alg"] as? String == "ES256", jwtHeader["typ"] as? String == "JWT" else { return "header is not ES256/JWT" }
        guard jwtHeader["kid"] as? String == options.keyID else { return "unknown kid" }
        guard claims["iss"] as? String == options.issuerID else { return "unknown iss" }
        guard claims["aud"] as? String == "appstoreconnect-v1" else { return "wrong aud" }
        guard let iat = claims["iat"] as? Int, let exp = claims["exp"] as? Int else { return "no iat/exp" }
        let now = Int(Date().timeIntervalSince1970)
        guard exp > iat, exp - iat <= 20 * 60 else { return "lifetime over 20 minutes" }
        guard exp > now else { return "expired" }
        guard iat <= now + 5 else { return "issued in the future" }
        guard signatureData.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
              options.publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)) else { return "bad signature" }
        lock.withLock { if !_tokens.contains(token) { _tokens.append(token) } }
        return nil
    }

    static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    private static func errorBody(_ status: Int, _ code: String, _ title: String, _ detail: String) -> Data {
        let document: [String: Any] = ["errors": [["id": UUID().uuidString, "status": String(status), "code": code, "title": title, "detail": detail]]]
        return (try? JSONSerialization.data(withJSONObject: document)) ?? Data()
    }

    static func error(_ status: Int, _ code: String, _ title: String, _ detail: String) -> HTTPResponse {
        HTTPResponse(statusCode: HTTPStatusCode(status, phrase: title), headers: [.contentType: "application/json"],
                     body: errorBody(status, code, title, detail))
    }
}

struct StandInError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
#endif
