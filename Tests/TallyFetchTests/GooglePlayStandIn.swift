#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import _CryptoExtras
import Crypto
import FlyingFox
import Foundation

/// A stand-in for Google's OAuth 2.0 token endpoint and the Google Play Developer API
/// (androidpublisher v3), written from Google's documentation.
///
/// `POST /token` takes the JWT-bearer grant (form-encoded `grant_type` and `assertion`) and
/// verifies the assertion: RS256 over `header.claims` with the test key's public key, `kid`,
/// `iss`, `scope`, `aud` (this endpoint's URL), `exp` after now and at most an hour after `iat`;
/// it answers `{access_token, expires_in, token_type}`, or 401 `invalid_grant`. The list endpoints
/// take only tokens it issued, and serve the Brightly pages of `Tests/TallyCLITests/Fixtures/
/// google-play/play-pages` one item per page, chained by `nextPageToken` (the legacy
/// `inappproducts` by `tokenPagination`). Faults are answered once each, in order, per path.
final class GooglePlayStandIn: @unchecked Sendable {
    enum Fault: Sendable { case status(Int, retryAfter: String?) }

    struct Options {
        /// Hostile behaviour: answers a request whose credentials were verified, instead of the
        /// stand-in, when it returns a response (redirects, endless bodies, echoed headers, ...).
        var hostile: (@Sendable (HTTPRequest) async -> HTTPResponse?)?
        var publicKey: _RSA.Signing.PublicKey
        var clientEmail = "tally-fetch@brightly-play.iam.gserviceaccount.com"
        var keyID = "0f3c9a7e51d2b8c4a6e0f1d2c3b4a5968778695a"
        var package = "com.example.brightly"
        /// Text edits to the fixture pages before they are served: (file, old, new).
        var edits: [(file: String, old: String, new: String)] = []
        var faults: [String: [Fault]] = [:]
        /// Whether `subscriptions/-/basePlans/-/offers` is served (else each base plan's own list).
        var wildcardOffers = true
        /// Whether the legacy `inappproducts` list is served (else 404).
        var legacy = true
        /// Whether one-time product offers are served (`oneTimeProducts/-/purchaseOptions/-/offers`,
        /// `Fixtures/play-offers`); else that list answers 404, as on a server without them.
        var oneTimeOffers = false
    }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let pages = repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/google-play/play-pages")

    private let options: Options
    private let lock = NSLock()
    private var lists: [String: (key: String, items: [Any], legacy: Bool)] = [:]
    private var pendingFaults: [String: [Fault]]
    private var issued = Set<String>()
    private var _requests: [String] = []
    private var _rejections: [String] = []
    private var _rawTargets: [String] = []
    private var server: HTTPServer?
    private var task: Task<Void, Error>?
    private(set) var port: UInt16 = 0

    init(_ options: Options) throws {
        self.options = options
        pendingFaults = options.faults
        try load()
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var tokenURL: String { baseURL + "/token" }
    var requests: [String] { lock.withLock { _requests } }
    var rejections: [String] { lock.withLock { _rejections } }
    /// The percent-encoded path and query of every request whose credentials were verified.
    var rawTargets: [String] { lock.withLock { _rawTargets } }
    /// The access tokens it issued.
    var issuedTokens: [String] { lock.withLock { Array(issued) } }
    var apiPrefix: String { "/androidpublisher/v3/applications/\(options.package)/" }

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
        func document(_ name: String) throws -> [String: Any] {
            var text = try String(contentsOf: Self.pages.appendingPathComponent(name), encoding: .utf8)
            for edit in options.edits where edit.file == name {
                guard text.contains(edit.old) else { throw StandInError("\(edit.old) is not in \(name)") }
                text = text.replacingOccurrences(of: edit.old, with: edit.new)
            }
            return try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
        }
        let subscriptions = try document("01-subscriptions.json")["subscriptions"] as? [Any] ?? []
        let offers = try document("02-offers.json")["subscriptionOffers"] as? [Any] ?? []
        let oneTime = try document("03-onetimeproducts.json")["oneTimeProducts"] as? [[String: Any]] ?? []
        let prefix = apiPrefix
        lists[prefix + "subscriptions"] = ("subscriptions", subscriptions, false)
        if options.wildcardOffers {
            lists[prefix + "subscriptions/-/basePlans/-/offers"] = ("subscriptionOffers", offers, false)
        } else {
            for case let subscription as [String: Any] in subscriptions {
                let product = subscription["productId"] as? String ?? ""
                for case let plan as [String: Any] in subscription["basePlans"] as? [Any] ?? [] {
                    let basePlan = plan["basePlanId"] as? String ?? ""
                    let own = offers.filter { ($0 as? [String: Any])?["basePlanId"] as? String == basePlan }
                    lists[prefix + "subscriptions/\(product)/basePlans/\(basePlan)/offers"] = ("subscriptionOffers", own, false)
                }
            }
        }
        lists[prefix + "oneTimeProducts"] = ("oneTimeProducts", oneTime, false)
        if options.oneTimeOffers {
            let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/play-offers/04-onetimeproduct-offers.json")
            let offers = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any]
            lists[prefix + "oneTimeProducts/-/purchaseOptions/-/offers"] = ("oneTimeProductOffers", offers?["oneTimeProductOffers"] as? [Any] ?? [], false)
        }
        // The legacy API lists the same one-time products again, in its own shape.
        let legacy: [Any] = oneTime.map { product in
            ["packageName": options.package, "sku": product["productId"] ?? "", "status": "active", "purchaseType": "managedUser",
             "defaultPrice": ["priceMicros": "990000", "currency": "USD"], "defaultLanguage": "en-US"] as [String: Any]
        }
        if options.legacy { lists[prefix + "inappproducts"] = ("inappproduct", legacy, true) }
    }

    // MARK: - Requests

    private func handle(_ request: HTTPRequest) async -> HTTPResponse {
        let path = request.path
        lock.withLock { _requests.append("\(request.method.rawValue) \(path)") }
        if path == "/token" {
            guard request.method == .POST else { return Self.json(405, ["error": "method_not_allowed"]) }
            let body = (try? await request.bodyData) ?? Data()
            return token(form: String(decoding: body, as: UTF8.self), contentType: request.headers[.contentType])
        }
        let authorization = request.headers[.authorization] ?? ""
        let known = lock.withLock { issued.contains(String(authorization.dropFirst("Bearer ".count))) }
        guard authorization.hasPrefix("Bearer "), known else {
            lock.withLock { _rejections.append("\(path): no valid access token") }
            return Self.googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
        }
        lock.withLock { _rawTargets.append(request.target.rawValue) }
        if let hostile = options.hostile, let response = await hostile(request) { return response }
        if let fault = lock.withLock({ pendingFaults[path]?.isEmpty == false ? pendingFaults[path]?.removeFirst() : nil }) {
            switch fault {
            case let .status(status, retryAfter):
                var response = Self.googleError(status, status == 429 ? "RESOURCE_EXHAUSTED" : "UNAVAILABLE", "Try again later.")
                if let retryAfter { response.headers[HTTPHeader("Retry-After")] = retryAfter }
                return response
            }
        }
        guard let list = lists[path] else { return Self.googleError(404, "NOT_FOUND", "Requested entity was not found.") }
        // One item per page: the page token is the index of the page's item.
        let token = list.legacy ? request.query["token"] : request.query["pageToken"]
        let index = token.flatMap(Int.init) ?? 0
        guard index >= 0, index <= max(0, list.items.count - 1) else { return Self.googleError(400, "INVALID_ARGUMENT", "Bad page token.") }
        var page: [String: Any] = [:]
        if !list.items.isEmpty { page[list.key] = [list.items[index]] }
        let next = index + 1 < list.items.count ? String(index + 1) : nil
        if list.legacy {
            page["kind"] = "androidpublisher#inappproductsListResponse"
            if let next { page["tokenPagination"] = ["nextPageToken": next] }
        } else if let next {
            page["nextPageToken"] = next
        }
        return Self.json(200, page)
    }

    /// The JWT-bearer grant: verifies the assertion, issues an access token.
    private func token(form: String, contentType: String?) -> HTTPResponse {
        var fields: [String: String] = [:]
        for pair in form.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        func reject(_ why: String) -> HTTPResponse {
            lock.withLock { _rejections.append("token: \(why)") }
            return Self.json(401, ["error": "invalid_grant", "error_description": why])
        }
        guard contentType?.hasPrefix("application/x-www-form-urlencoded") == true else { return reject("not a form") }
        guard fields["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer" else { return reject("wrong grant_type") }
        guard let assertion = fields["assertion"] else { return reject("no assertion") }
        let parts = assertion.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerData = Self.base64URL(parts[0]), let claimsData = Self.base64URL(parts[1]),
              let signatureData = Self.base64URL(parts[2]),
              let header = try? JSONSerialization.jsonObject(with: headerData) as? [String: Any],
              let claims = try? JSONSerialization.jsonObject(with: claimsData) as? [String: Any] else { return reject("not a JWT") }
        guard header["alg"] as? String == "RS256", header["kid"] as? String == options.keyID else { return reject("wrong alg or kid") }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: signatureData)
        guard options.publicKey.isValidSignature(signature, for: SHA256.hash(data: Data("\(parts[0]).\(parts[1])".utf8)),
                                                 padding: .insecurePKCS1v1_5) else { return reject("Invalid JWT Signature.") }
        guard claims["iss"] as? String == options.clientEmail else { return reject("wrong iss") }
        guard claims["scope"] as? String == "https://www.googleapis.com/auth/androidpublisher" else { return reject("wrong scope") }
        guard claims["aud"] as? String == tokenURL else { return reject("wrong aud \(claims["aud"] ?? "")") }
        guard let iat = (claims["iat"] as? NSNumber)?.intValue, let exp = (claims["exp"] as? NSNumber)?.intValue,
              exp <= iat + 3600, exp > Int(Date().timeIntervalSince1970) else { return reject("bad iat/exp") }
        let access = "ya29.stand-in-\(UUID().uuidString)"
        lock.withLock { _ = issued.insert(access) }
        return Self.json(200, ["access_token": access, "expires_in": 3599, "token_type": "Bearer"])
    }

    private static func base64URL(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        return Data(base64Encoded: base64)
    }

    private static func json(_ status: Int, _ object: [String: Any]) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Status"), headers: [.contentType: "application/json"], body: body)
    }

    /// Google's API error shape: `{"error": {"code", "message", "status"}}`.
    private static func googleError(_ status: Int, _ code: String, _ message: String) -> HTTPResponse {
        json(status, ["error": ["code": status, "message": message, "status": code]])
    }
}
#endif
