import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request: a GET, or a POST with a body (an OAuth token exchange), with the bounds its
/// response must keep.
public struct TransportRequest: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    public var method: String
    public var body: Data?
    /// Bytes of the response body past which the transfer is stopped (`TransportFailure.tooLarge`).
    public var maxBytes: Int
    /// Time for the whole response, first byte to last, past which it is stopped (`.tooSlow`).
    public var timeLimit: Duration
    /// Time without a byte past which it is stopped (`.timedOut`).
    public var idleLimit: Duration

    public init(url: URL, headers: [String: String] = [:], method: String = "GET", body: Data? = nil,
                maxBytes: Int = FetchLimits().bytesPerResponse, timeLimit: Duration = FetchLimits().timePerResponse,
                idleLimit: Duration = FetchLimits().idleTime) {
        self.url = url
        self.headers = headers
        self.method = method
        self.body = body
        self.maxBytes = maxBytes
        self.timeLimit = timeLimit
        self.idleLimit = idleLimit
    }
}

/// One response: the status, the headers (names in lower case) and the body.
public struct TransportResponse: Sendable, Equatable {
    public var url: URL
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(url: URL, status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.url = url
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }

    public subscript(header name: String) -> String? { headers[name.lowercased()] }
}

/// Why a request got no (whole) response.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Nothing listens, or the connection was refused or timed out while connecting.
        case cannotConnect
        /// The connection was made and then dropped before a whole response arrived.
        case connectionLost
        /// No byte for the idle time.
        case timedOut
        /// The body passed the request's `maxBytes`: not retried.
        case tooLarge
        /// The response took longer than the request's `timeLimit`: not retried.
        case tooSlow
        /// Anything else (a bad URL, an unknown host, TLS): not worth retrying.
        case other
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Whether sending the request again may help.
    public var isTransient: Bool { [.cannotConnect, .connectionLost, .timedOut].contains(kind) }

    public var description: String { message }
}

/// Sends requests. `URLSessionTransport` is the real one; tests may pass their own.
///
/// A transport never follows a redirect: a 3xx is answered as it came, and `FetchClient` decides
/// (same origin only). It keeps to the request's bounds, and stops when its task is cancelled.
public protocol HTTPTransport: Sendable {
    /// The response, whatever its status; throws `TransportFailure` when there is none. Sends
    /// `request.method` (GET unless the request says otherwise).
    func get(_ request: TransportRequest) async throws -> TransportResponse
}

/// Foundation's URLSession (FoundationNetworking on Linux): no extra dependency. Redirects are
/// refused in the session's delegate; the body streams into a buffer that stops at `maxBytes`;
/// a timer stops a response that outlasts `timeLimit`; cancelling the task cancels the transfer.
///
/// A known limit (measured, see docs/fetch.md): FoundationNetworking's libcurl write callback
/// queues every chunk for the delegate and never pauses the transfer, so the cap ends the
/// response (exit 2, in about a second) but memory can briefly hold what the socket delivered
/// before the cancel took effect: against a local endless body, peaks of 0.1–1.5 GB on a loaded
/// machine, for a cap of 1 MiB. A transport on libcurl's easy interface (a write callback that
/// refuses past the cap) would bound it exactly.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let delegate: TransportDelegate

    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.urlCredentialStorage = nil
        configuration.timeoutIntervalForResource = 24 * 3600
        let delegate = TransportDelegate()
        self.delegate = delegate
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    public func get(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData,
                                    timeoutInterval: max(0.1, Self.seconds(request.idleLimit)))
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        urlRequest.httpShouldHandleCookies = false
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let task = session.dataTask(with: urlRequest)
        let id = task.taskIdentifier
        let outcome: TransportDelegate.Outcome = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                delegate.register(id, maxBytes: request.maxBytes, continuation: continuation)
                task.resume()
                let limit = request.timeLimit
                let timer = Task { [delegate] in
                    try await Task.sleep(for: limit)
                    if delegate.expire(id) { task.cancel() }
                }
                delegate.setTimer(id, timer)
            }
        } onCancel: {
            if delegate.abandon(id) { task.cancel() }
        }
        try Task.checkCancellation()
        switch outcome.stop {
        case .tooLarge:
            throw TransportFailure(.tooLarge, "the response passed \(Self.bytes(request.maxBytes))")
        case .tooSlow:
            throw TransportFailure(.tooSlow, "the response took longer than \(Self.seconds(request.timeLimit, text: true)) in all")
        case .abandoned:
            throw CancellationError()
        case nil:
            break
        }
        if let error = outcome.error {
            if let urlError = error as? URLError { throw Self.failure(urlError, idle: request.idleLimit) }
            throw TransportFailure(.other, ServerText.clean("\(error)"))
        }
        guard let http = outcome.response as? HTTPURLResponse else {
            throw TransportFailure(.other, "not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(url: request.url, status: http.statusCode, headers: headers, body: outcome.body)
    }

    static func failure(_ error: URLError, idle: Duration) -> TransportFailure {
        switch error.code {
        case .cannotConnectToHost, .notConnectedToInternet:
            return TransportFailure(.cannotConnect, "the connection was refused")
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            return TransportFailure(.connectionLost, "the connection was dropped before a whole response arrived")
        case .timedOut:
            return TransportFailure(.timedOut, "nothing arrived for \(seconds(idle, text: true))")
        case .cannotFindHost, .dnsLookupFailed:
            return TransportFailure(.other, "the host name cannot be resolved")
        default:
            return TransportFailure(.other, ServerText.clean(error.localizedDescription))
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func seconds(_ duration: Duration, text: Bool) -> String {
        let value = seconds(duration)
        return value == value.rounded() ? "\(Int64(value)) s" : String(format: "%.1f s", value)
    }

    static func bytes(_ count: Int) -> String {
        count >= 1 << 20 && count % (1 << 20) == 0 ? "\(count >> 20) MiB" : "\(count) bytes"
    }
}

/// The session's delegate: refuses every redirect, collects each task's body up to its cap, and
/// resumes the waiting request once, when the task completes.
final class TransportDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Stop { case tooLarge, tooSlow, abandoned }

    struct Outcome: @unchecked Sendable {
        var response: URLResponse?
        var body: Data
        var error: (any Error)?
        var stop: Stop?
    }

    /// One task's state, a reference so that appending to its body never copies it (a copy per
    /// chunk would make a large body quadratic, and the transfer outrun the cap).
    private final class Pending {
        let maxBytes: Int
        let continuation: CheckedContinuation<Outcome, any Error>
        var body = Data()
        var response: URLResponse?
        var stop: Stop?
        var timer: Task<Void, any Error>?

        init(maxBytes: Int, continuation: CheckedContinuation<Outcome, any Error>) {
            self.maxBytes = maxBytes
            self.continuation = continuation
        }
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]

    func register(_ id: Int, maxBytes: Int, continuation: CheckedContinuation<Outcome, any Error>) {
        lock.withLock { pending[id] = Pending(maxBytes: maxBytes, continuation: continuation) }
    }

    func setTimer(_ id: Int, _ timer: Task<Void, any Error>) {
        let orphan = lock.withLock { () -> Bool in
            guard let entry = pending[id] else { return true }
            entry.timer = timer
            return false
        }
        if orphan { timer.cancel() }
    }

    /// Marks the task as past its time limit; true when it is still running (the caller cancels it).
    func expire(_ id: Int) -> Bool { mark(id, .tooSlow) }

    /// Marks the task as no longer wanted (its Swift task was cancelled).
    func abandon(_ id: Int) -> Bool { mark(id, .abandoned) }

    private func mark(_ id: Int, _ stop: Stop) -> Bool {
        lock.withLock {
            guard let entry = pending[id], entry.stop == nil else { return false }
            entry.stop = stop
            return true
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        // Never followed here: the 3xx is the response, and FetchClient decides by origin.
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let tooLarge = lock.withLock { () -> Bool in
            guard let entry = pending[dataTask.taskIdentifier] else { return false }
            entry.response = response
            guard response.expectedContentLength > Int64(entry.maxBytes) else { return false }
            entry.stop = .tooLarge
            return true
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock { () -> Bool in
            guard let entry = pending[dataTask.taskIdentifier], entry.stop == nil else { return false }
            if entry.body.count + data.count > entry.maxBytes {
                entry.stop = .tooLarge
                entry.body = Data()
                return true
            }
            entry.body.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ pending.removeValue(forKey: task.taskIdentifier) }) else { return }
        entry.timer?.cancel()
        let response = entry.response ?? task.response
        entry.continuation.resume(returning: Outcome(response: response, body: entry.body, error: error, stop: entry.stop))
    }
}
