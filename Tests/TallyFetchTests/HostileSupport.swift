#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
import FlyingFox
import FlyingSocks
import Foundation
import Testing

/// The stores a hostile case is tried against: each through its own stand-in, which checks the
/// credentials for real before the hostile behaviour answers.
enum Store: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case appStoreConnect = "app-store-connect"
    case googlePlay = "google-play"
    case revenueCat = "revenuecat"

    /// The stores whose catalogues name resources by IDs Tally puts in a path (price schedules, base plans).
    static let withNestedIDs: [Store] = [.appStoreConnect, .googlePlay]

    var testDescription: String { rawValue }
}

/// A started stand-in for `store` with a hostile answer, the fetch's flags, and what reached it.
struct HostileSetup: Sendable {
    typealias Hostile = @Sendable (HTTPRequest, HostileSetup.Context) async -> HTTPResponse?

    /// What a hostile answer may use: the store, the server's base URL, the first list's path, the output folder.
    struct Context: Sendable {
        let store: Store
        let baseURL: String
        let firstList: String
        let output: String
    }

    let store: Store
    let scratch: Scratch
    let asc: StandInServer?
    let play: GooglePlayStandIn?
    let revenueCat: RevenueCatStandIn?
    let keyFile: URL

    init(_ store: Store, hostile: Hostile? = nil) async throws {
        self.store = store
        let scratch = try Scratch()
        self.scratch = scratch
        let box = ContextBox()
        var hook: (@Sendable (HTTPRequest) async -> HTTPResponse?)?
        if let hostile {
            hook = { @Sendable (request: HTTPRequest) async -> HTTPResponse? in
                guard let context = box.context else { return nil }
                return await hostile(request, context)
            }
        }
        switch store {
        case .appStoreConnect:
            let key = TestKey()
            keyFile = try key.write(in: scratch.url)
            var options = StandInServer.Options(publicKey: try key.publicKey)
            options.hostile = hook
            let server = try StandInServer(options)
            try await server.start()
            asc = server
            play = nil
            revenueCat = nil
            box.context = Context(store: store, baseURL: server.baseURL, firstList: "/v1/apps/1600000001/inAppPurchasesV2",
                                  output: scratch.path("out"))
        case .googlePlay:
            let account = try TestServiceAccount()
            var options = GooglePlayStandIn.Options(publicKey: try account.publicKey())
            options.hostile = hook
            let server = try GooglePlayStandIn(options)
            try await server.start()
            keyFile = try account.write(in: scratch.url, tokenURI: server.tokenURL)
            play = server
            asc = nil
            revenueCat = nil
            box.context = Context(store: store, baseURL: server.baseURL, firstList: server.apiPrefix + "subscriptions", output: scratch.path("out"))
        case .revenueCat:
            keyFile = scratch.url.appendingPathComponent("revenuecat-key")
            try RevenueCatStandIn.key.write(to: keyFile, atomically: true, encoding: .utf8)
            let server = try RevenueCatStandIn(hostile: hook)
            try await server.start()
            revenueCat = server
            asc = nil
            play = nil
            box.context = Context(store: store, baseURL: server.baseURL, firstList: Self.revenueCatFirstList, output: scratch.path("out"))
        }
    }

    static let revenueCatFirstList = "/v2/projects/\(RevenueCatStandIn.project)/apps"

    var baseURL: String { asc?.baseURL ?? play?.baseURL ?? revenueCat?.baseURL ?? "" }
    var output: String { scratch.path("out") }
    var firstList: String {
        switch store {
        case .appStoreConnect: "/v1/apps/1600000001/inAppPurchasesV2"
        case .googlePlay: (play?.apiPrefix ?? "") + "subscriptions"
        case .revenueCat: Self.revenueCatFirstList
        }
    }

    func arguments(output: String? = nil, apiURL: String? = nil) -> [String] {
        switch store {
        case .appStoreConnect:
            return ["fetch", "app-store-connect", "--app", "1600000001", "--output", output ?? self.output, "--api-url", apiURL ?? baseURL,
                    "--key-id", "TESTKEY123", "--issuer-id", "57246542-96fe-1a63-e053-0824d011072a", "--private-key", keyFile.path]
        case .googlePlay:
            return ["fetch", "google-play", "--package", "com.example.brightly", "--service-account", keyFile.path,
                    "--output", output ?? self.output, "--api-url", apiURL ?? baseURL]
        case .revenueCat:
            return ["fetch", "revenuecat", "--project", RevenueCatStandIn.project, "--api-key-file", keyFile.path,
                    "--output", output ?? self.output, "--api-url", apiURL ?? baseURL]
        }
    }

    func fetch(_ extra: [String] = [], output: String? = nil, apiURL: String? = nil, environment: [String: String] = [:]) async throws -> Tally.Output {
        try await Tally.run(arguments(output: output, apiURL: apiURL) + extra, environment: environment)
    }

    /// The path of every request whose credentials were verified.
    var requests: [String] {
        asc?.requests ?? play?.requests.map { String($0.drop { $0 != " " }.dropFirst()) }
            ?? revenueCat?.requests.map { String($0.drop { $0 != " " }.dropFirst().prefix { $0 != "?" }) } ?? []
    }
    var rawTargets: [String] { asc?.rawTargets ?? play?.rawTargets ?? revenueCat?.rawTargets ?? [] }
    /// The credentials the fetch sent (JWTs, access tokens, the secret key): none may appear in any output.
    var credentials: [String] { asc?.tokens ?? play?.issuedTokens ?? (revenueCat == nil ? [] : [RevenueCatStandIn.key]) }

    /// Names in the scratch folder that a fetch left beside its output (staging, set-aside folders).
    var leftovers: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scratch.url.path)) ?? []).filter { $0.contains(".tally-") }
    }

    func finish() async {
        await asc?.stop()
        await play?.stop()
        await revenueCat?.stop()
        scratch.remove()
    }

    private final class ContextBox: @unchecked Sendable {
        private let lock = NSLock()
        private var value: Context?
        var context: Context? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }
}

/// A second server, on another port: records every request's headers and answers 200 with an
/// empty list. A redirect to it must bring no credential (and with Tally, no request at all).
final class RecordingServer: @unchecked Sendable {
    private let lock = NSLock()
    private var _headers: [[String: String]] = []
    private var server: HTTPServer?
    private var task: Task<Void, Error>?
    private(set) var port: UInt16 = 0

    var baseURL: String { "http://127.0.0.1:\(port)" }
    var headers: [[String: String]] { lock.withLock { _headers } }

    func start() async throws {
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled,
                                handler: ClosureHTTPHandler { [self] request in
            var seen: [String: String] = [:]
            for (name, value) in request.headers { seen[name.rawValue] = value }
            lock.withLock { _headers.append(seen) }
            return HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: Data("{\"data\":[],\"links\":{}}".utf8))
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
}

/// Hostile answers, in each store's own error and page shapes.
enum Hostile {
    static func json(_ status: Int, _ object: Any, headers: [String: String] = [:]) -> HTTPResponse {
        var all: HTTPHeaders = [.contentType: "application/json"]
        for (name, value) in headers { all[HTTPHeader(name)] = value }
        let body = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return HTTPResponse(statusCode: HTTPStatusCode(status, phrase: "Hostile"), headers: all, body: body)
    }

    /// An error whose text is `detail`, as the store words its errors.
    static func error(_ store: Store, _ status: Int, _ detail: String) -> HTTPResponse {
        switch store {
        case .appStoreConnect:
            return json(status, ["errors": [["status": String(status), "code": "PARAMETER_ERROR", "title": "Bad", "detail": detail]]])
        case .googlePlay:
            return json(status, ["error": ["code": status, "message": detail, "status": "INVALID_ARGUMENT"]])
        case .revenueCat:
            return json(status, ["object": "error", "type": "parameter_error", "message": detail, "retryable": false])
        }
    }

    /// A page of `store`'s first list with the next link or token `next`.
    static func page(_ store: Store, baseURL: String, path: String, next: Int) -> HTTPResponse {
        switch store {
        case .appStoreConnect:
            return json(200, ["data": [], "links": ["self": baseURL + path, "next": "\(baseURL)\(path)?cursor=\(next)"]])
        case .googlePlay:
            return json(200, ["subscriptions": [], "nextPageToken": "page\(next)"])
        case .revenueCat:
            return json(200, ["object": "list", "items": [], "next_page": "\(path)?starting_after=app\(next)&limit=20", "url": path])
        }
    }

    /// A body of `chunk` bytes every `interval`, without end.
    static func endless(chunk: Int, every interval: Duration) -> HTTPResponse {
        HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"],
                     body: HTTPBodySequence(from: Drip(chunk: chunk, interval: interval)))
    }

    struct Drip: AsyncBufferedSequence, Sendable {
        typealias Element = UInt8
        let chunk: Int
        let interval: Duration

        func makeAsyncIterator() -> Iterator { Iterator(chunk: chunk, interval: interval) }

        struct Iterator: AsyncBufferedIteratorProtocol {
            let chunk: Int
            let interval: Duration

            mutating func next() async throws -> UInt8? { try await nextBuffer(suggested: 1)?.first }

            mutating func nextBuffer(suggested count: Int) async throws -> [UInt8]? {
                if interval > .zero { try await Task.sleep(for: interval) }
                return [UInt8](repeating: UInt8(ascii: " "), count: Swift.max(1, Swift.min(chunk, count)))
            }
        }
    }
}
#endif
