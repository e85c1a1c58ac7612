#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import FlyingFox
import Foundation

/// A stand-in for RevenueCat's REST API v2 project-configuration endpoints, written from
/// RevenueCat's API reference: `GET /v2/projects/{project_id}/{apps,products,offerings,entitlements}`
/// with a `Bearer` secret key, `limit` items a page (2 here, at most what `limit` asks) chained by
/// `starting_after` and `next_page` (a path, as RevenueCat writes it), `expand` honoured
/// (offerings carry their packages and products only with `items.package.product`, entitlements
/// their products only with `items.product`). A wrong key gets 401 `authentication_error`; faults
/// are answered once each, per path: 429 `rate_limit_error` with `Retry-After` and `backoff_ms`, or
/// 401. The project is the Lumen project of `Tests/TallyCLITests/Fixtures/paywall/revenuecat`.
/// A `hostile` answer, when given, answers a request whose key was checked instead of the stand-in
/// when it returns a response (HostileFetchTests).
final class RevenueCatStandIn: @unchecked Sendable {
    enum Fault: Sendable { case rateLimited(retryAfter: String), unauthorized }

    static let project = "proj1ab2c3d4"
    static let key = "sk_TallyStandInKey0123456789abcdef"
    static let pages = StandInServer.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures/paywall/revenuecat")
    static let pageSize = 2

    private let lock = NSLock()
    private var lists: [String: [[String: Any]]] = [:]
    private var pendingFaults: [String: [Fault]]
    private var _requests: [String] = []
    private var _rawTargets: [String] = []
    private let hostile: (@Sendable (HTTPRequest) async -> HTTPResponse?)?
    private var _served: [Data] = []
    private var server: HTTPServer?
    private var task: Task<Void, Error>?
    private(set) var port: UInt16 = 0

    init(faults: [String: [Fault]] = [:], hostile: (@Sendable (HTTPRequest) async -> HTTPResponse?)? = nil) throws {
        pendingFaults = faults
        self.hostile = hostile
        func items(_ name: String) throws -> [[String: Any]] {
            let data = try Data(contentsOf: Self.pages.appendingPathComponent(name))
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["items"] as? [[String: Any]] ?? []
        }
        let prefix = "/v2/projects/\(Self.project)/"
        lists[prefix + "apps"] = try items("01-apps.json")
        lists[prefix + "products"] = try items("02-products.json") + items("03-products.json")
        lists[prefix + "offerings"] = try items("04-offerings.json")
        lists[prefix + "entitlements"] = try items("05-entitlements.json")
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var requests: [String] { lock.withLock { _requests } }
    /// Every request's target as sent (path and query, percent-encoding kept).
    var rawTargets: [String] { lock.withLock { _rawTargets } }
    /// The bodies of the pages answered 200, in order.
    var served: [Data] { lock.withLock { _served } }

    func start() async throws {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled,
                                handler: ClosureHTTPHandler { [self] request in
            lock.withLock {
                _rawTargets.append(request.target.rawValue)
                _requests.append("\(request.method.rawValue) \(request.path)?\(request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))")
            }
            if let hostile, request.headers[.authorization] == "Bearer \(Self.key)", let response = await hostile(request) { return response }
            return self.handle(request)
        })
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

    private func handle(_ request: HTTPRequest) -> HTTPResponse {
        let path = request.path
        let query = request.query
        guard request.method == .GET else { return Self.error(405, "invalid_request", "Method not allowed.") }
        guard request.headers[.authorization] == "Bearer \(Self.key)" else {
            return Self.error(401, "authentication_error", "Invalid API key.")
        }
        if let fault = lock.withLock({ pendingFaults[path]?.isEmpty == false ? pendingFaults[path]?.removeFirst() : nil }) {
            switch fault {
            case .rateLimited(let retryAfter):
                var response = Self.error(429, "rate_limit_error", "Rate limit exceeded.", extra: ["backoff_ms": (Int(retryAfter) ?? 1) * 1000])
                response.headers[HTTPHeader("Retry-After")] = retryAfter
                return response
            case .unauthorized:
                return Self.error(401, "authentication_error", "Invalid API key.")
            }
        }
        guard var items = lists[path] else { return Self.error(404, "resource_missing", "Not found.") }
        let expand = Set((query["expand"] ?? "").split(separator: ",").map(String.init))
        if path.hasSuffix("/offerings"), !expand.contains("items.package.product") {
            items = items.map { var offering = $0; offering.removeValue(forKey: "packages"); return offering }
        }
        if path.hasSuffix("/entitlements"), !expand.contains("items.product") {
            items = items.map { var entitlement = $0; entitlement.removeValue(forKey: "products"); return entitlement }
        }
        let limit = min(Self.pageSize, Int(query["limit"] ?? "") ?? 20)
        guard limit >= 1 else { return Self.error(400, "parameter_error", "limit must be at least 1.") }
        var start = 0
        if let after = query["starting_after"] {
            guard let index = items.firstIndex(where: { $0["id"] as? String == after }) else {
                return Self.error(400, "parameter_error", "starting_after names no item.")
            }
            start = index + 1
        }
        let page = Array(items[start..<min(items.count, start + limit)])
        var next: Any = NSNull()
        if start + limit < items.count, let last = page.last?["id"] as? String {
            var extra = "starting_after=\(last)&limit=\(limit)"
            if let expandText = query["expand"] { extra += "&expand=\(expandText)" }
            next = "\(path)?\(extra)"
        }
        let body = (try? JSONSerialization.data(withJSONObject: ["object": "list", "items": page, "next_page": next, "url": path],
                                                options: [.prettyPrinted, .sortedKeys])) ?? Data()
        lock.withLock { _served.append(body) }
        return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
    }

    private static func error(_ status: Int, _ type: String, _ message: String, extra: [String: Any] = [:]) -> HTTPResponse {
        var object: [String: Any] = ["object": "error", "type": type, "message": message, "retryable": status == 429,
                                     "doc_url": "https://errors.rev.cat/\(type.replacingOccurrences(of: "_", with: "-"))"]
        for (key, value) in extra { object[key] = value }
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Error"), headers: [.contentType: "application/json"], body: body)
    }
}
#endif
