// Compiled only with the package trait Fetch (Package.swift): without it this module is empty and
// nothing of SwiftNIO is resolved or built.
#if Fetch
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import TallyFetch

/// The real transport: swift-server's AsyncHTTPClient (SwiftNIO; TLS through swift-nio-ssl's
/// BoringSSL with the system's trust roots, on Debian `/etc/ssl/certs/ca-certificates.crt`).
///
/// - **No redirect is followed** (`redirectConfiguration: .disallow`): the 3xx is the response,
///   and `FetchClient` decides by origin.
/// - **The body is streamed** (`response.body`, an async sequence with backpressure: NIO reads
///   from the socket only as the loop below asks for more), counted chunk by chunk, and the
///   transfer is stopped with `.tooLarge` before the chunk that would pass `maxBytes` is kept;
///   a `Content-Length` past `maxBytes` is refused before any byte of the body is read. Memory
///   is so bounded by the cap plus the few chunks NIO has buffered (64 KiB or less each).
/// - **The header section is bounded by NIO's HTTP/1.1 parser**: 80 KiB of names and values in
///   all (`NIOHTTPDecoderLimitConfiguration`), refused with `.other` past that. HTTP/1.1 only
///   (`httpVersion: .http1Only`), so that the bounds proved against the local stand-ins are the
///   ones real hosts meet.
/// - **Time**: a watchdog stops a response that outlasts `timeLimit` from the request's start
///   (`.tooSlow`) or gets no byte for `idleLimit` (`.timedOut`); cancelling the calling task
///   cancels the request (`CancellationError`).
/// - **Failures**: connecting fails at once (`retryConnectionEstablishment` off, `FetchClient`
///   retries) with `.cannotConnect`; a connection dropped before the whole response is
///   `.connectionLost`; DNS, TLS and malformed HTTP are `.other`; every message goes through
///   `ServerText.clean`. No decompression (a small gzip body cannot unpack past the cap).
///
/// Proxies: `ProxySettings` (`https_proxy`, `http_proxy`, `no_proxy`, as curl reads them).
///
/// One `HTTPClient` per transport and proxy (copies share them) on NIO's process-wide event loop group
/// (`HTTPClient.defaultEventLoopGroup`, NIO's singleton: no loop is created or leaked per
/// transport); the client is shut down, without blocking, when the last copy goes away, so it
/// never meets AsyncHTTPClient's "Client not shut down before the deinit" check.
///
/// Measured against a local endless body (`bench/fetch-memory.sh BEFORE AFTER 3`: `tally fetch
/// app-store-connect` on `bench/fetch-hostile/server.py endless`, peak RSS from `/usr/bin/time -v`,
/// debug builds, interleaved; docs/fetch.md): with a 1 MiB cap 43.4–43.7 MB (the process's own
/// ~44 MB), where the URLSession transport it replaces reached 416–684 MB in the same runs
/// (FoundationNetworking's libcurl write callback queued every chunk and never paused); with the
/// default 64 MiB cap 108.0 MB every run, where URLSession reached 115 MB to 4.3 GB.
public struct AsyncHTTPClientTransport: HTTPTransport {
    private let owner: Owner

    /// A transport that goes through `proxies` (`ProxySettings.from(environment:)`; none by default).
    public init(proxies: ProxySettings = ProxySettings()) {
        owner = Owner(proxies: proxies)
    }

    public func get(_ request: TransportRequest) async throws -> TransportResponse {
        let activity = Activity()
        let client = owner.client(for: request.url)
        do {
            return try await withThrowingTaskGroup(of: TransportResponse?.self) { group in
                group.addTask { try await Self.exchange(request, client: client, activity: activity) }
                group.addTask {
                    try await Self.watch(request, activity: activity)
                    return nil
                }
                defer { group.cancelAll() }
                while let next = try await group.next() {
                    if let response = next { return response }
                }
                throw CancellationError()
            }
        } catch let failure as TransportFailure {
            if Task.isCancelled { throw CancellationError() }
            throw failure
        } catch {
            if Task.isCancelled || error is CancellationError { throw CancellationError() }
            throw Self.failure(error, request: request)
        }
    }

    /// Sends the request and reads the response, at most `maxBytes` of body.
    private static func exchange(_ request: TransportRequest, client: HTTPClient, activity: Activity) async throws -> TransportResponse {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.replaceOrAdd(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        // No deadline of AsyncHTTPClient's own: the watchdog keeps `timeLimit` and `idleLimit`.
        let response = try await client.execute(outgoing, deadline: .distantFuture)
        activity.touch()
        var headers: [String: String] = [:]
        for (name, value) in response.headers {
            let key = name.lowercased()
            headers[key] = headers[key].map { $0 + ", " + value } ?? value
        }
        var body = Data()
        if let length = headers["content-length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            guard length <= request.maxBytes else { throw tooLarge(request) }
            body.reserveCapacity(length)
        }
        for try await chunk in response.body {
            activity.touch()
            guard body.count + chunk.readableBytes <= request.maxBytes else { throw tooLarge(request) }
            body.append(contentsOf: chunk.readableBytesView)
        }
        return TransportResponse(url: request.url, status: Int(response.status.code), headers: headers, body: body)
    }

    private static func tooLarge(_ request: TransportRequest) -> TransportFailure {
        TransportFailure(.tooLarge, "the response passed \(Quantity.bytes(request.maxBytes))")
    }

    /// Returns never: throws `.tooSlow` past `timeLimit` from now, `.timedOut` after `idleLimit`
    /// without a byte, `CancellationError` when the request is done (its task group cancels it).
    private static func watch(_ request: TransportRequest, activity: Activity) async throws {
        let clock = ContinuousClock()
        let deadline = activity.start.advanced(by: request.timeLimit)
        while true {
            let idleEnd = activity.last.advanced(by: request.idleLimit)
            let now = clock.now
            if now >= deadline {
                throw TransportFailure(.tooSlow, "the response took longer than \(Quantity.seconds(request.timeLimit, text: true)) in all")
            }
            if now >= idleEnd {
                throw TransportFailure(.timedOut, "nothing arrived for \(Quantity.seconds(request.idleLimit, text: true))")
            }
            try await Task.sleep(until: min(deadline, idleEnd), clock: clock)
        }
    }

    /// What an error of NIO or AsyncHTTPClient means for `FetchClient`: whether to retry, and
    /// what to say. Every message is cleaned (`ServerText`): a reason phrase or host name is the server's text.
    static func failure(_ error: any Error, request: TransportRequest) -> TransportFailure {
        switch error {
        case let failure as TransportFailure:
            return failure
        case let error as HTTPClientError:
            switch error {
            case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
                return TransportFailure(.cannotConnect, "the connection timed out while connecting")
            case .remoteConnectionClosed:
                return lost
            case .readTimeout:
                return TransportFailure(.timedOut, "nothing arrived for \(Quantity.seconds(request.idleLimit, text: true))")
            case .deadlineExceeded:
                return TransportFailure(.tooSlow, "the response took longer than \(Quantity.seconds(request.timeLimit, text: true)) in all")
            case .proxyAuthenticationRequired:
                return TransportFailure(.other, "the proxy asks for credentials (HTTP 407): check the user and password in the proxy's URL")
            case .invalidProxyResponse:
                return TransportFailure(.other, "the proxy refused to open a tunnel to the server")
            case .httpProxyHandshakeTimeout:
                return TransportFailure(.cannotConnect, "the proxy did not answer")
            case .invalidURL, .emptyHost, .emptyScheme:
                return TransportFailure(.other, "not a URL that can be requested")
            default:
                return TransportFailure(.other, ServerText.clean("\(error)"))
            }
        case let error as NIOConnectionError:
            if error.connectionErrors.isEmpty, error.dnsAError != nil || error.dnsAAAAError != nil {
                return TransportFailure(.other, "the host name cannot be resolved")
            }
            return TransportFailure(.cannotConnect, "the connection was refused")
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, ETIMEDOUT:
                return TransportFailure(.cannotConnect, "the connection was refused")
            case ECONNRESET, EPIPE, ECONNABORTED:
                return lost
            default:
                return TransportFailure(.other, ServerText.clean("\(error)"))
            }
        case let error as ChannelError:
            switch error {
            case .connectTimeout:
                return TransportFailure(.cannotConnect, "the connection timed out while connecting")
            case .ioOnClosedChannel, .eof, .outputClosed, .alreadyClosed:
                return lost
            default:
                return TransportFailure(.other, ServerText.clean("\(error)"))
            }
        case let error as HTTPParserError:
            switch error {
            case .headerOverflow:
                return TransportFailure(.other, "the response's header section passed 80 KiB (or 65,534 fields), the HTTP parser's limit")
            case .invalidEOFState:
                return lost
            default:
                return TransportFailure(.other, ServerText.clean("not a valid HTTP/1.1 response (\(error))"))
            }
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return TransportFailure(.other, ServerText.clean("TLS failed: \(tlsReason(error))"))
        default:
            return TransportFailure(.other, ServerText.clean("\(error)"))
        }
    }

    /// BoringSSL's reason (`CERTIFICATE_VERIFY_FAILED`) rather than its whole error stack, which
    /// names source files of the build.
    static func tlsReason(_ error: any Error) -> String {
        let text = "\(error)"
        guard let marker = text.range(of: "OPENSSL_internal:") else { return text }
        let reason = String(text[marker.upperBound...].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
        switch reason {
        case "":
            return text
        case "CERTIFICATE_VERIFY_FAILED":
            return "the server's certificate is not trusted by this system's CA roots (CERTIFICATE_VERIFY_FAILED)"
        default:
            return reason
        }
    }

    private static let lost = TransportFailure(.connectionLost, "the connection was dropped before a whole response arrived")

    /// Owns the clients (one direct, one per proxy in use), each made at its first request: shuts
    /// them down, without blocking, when the last transport holding them goes.
    private final class Owner: @unchecked Sendable {
        let proxies: ProxySettings
        private let lock = NSLock()
        private var clients: [ProxySettings.Server?: HTTPClient] = [:]

        init(proxies: ProxySettings) { self.proxies = proxies }

        func client(for url: URL) -> HTTPClient {
            let proxy = proxies.server(for: url)
            return lock.withLock {
                if let client = clients[proxy] { return client }
                var configuration = HTTPClient.Configuration(redirectConfiguration: .disallow, decompression: .disabled)
                configuration.httpVersion = .http1Only
                // FetchClient retries a refused connection with its own backoff and deadline.
                configuration.connectionPool.retryConnectionEstablishment = false
                configuration.timeout.connect = .seconds(30)
                if let proxy {
                    let authorization = proxy.user.map { HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "") }
                    configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
                }
                let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
                clients[proxy] = client
                return client
            }
        }

        deinit {
            for client in clients.values { client.shutdown(queue: .global()) { _ in } }
        }
    }

    /// When the request started and when its last byte (or head) arrived.
    private final class Activity: @unchecked Sendable {
        let start = ContinuousClock.now
        private let lock = NSLock()
        private var lastValue: ContinuousClock.Instant

        init() { lastValue = start }

        var last: ContinuousClock.Instant { lock.withLock { lastValue } }

        func touch() {
            let now = ContinuousClock.now
            lock.withLock { lastValue = now }
        }
    }
}
#endif
