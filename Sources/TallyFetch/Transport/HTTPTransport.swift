import Foundation

/// One request: a GET, or a POST with a body (an OAuth token exchange), with the bounds its
/// response must keep.
public struct TransportRequest: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    public var method: String
    public var body: Data?
    /// Bytes of the response body past which the transfer is stopped (`TransportFailure.tooLarge`).
    public var maxBytes: Int
    /// Time for the whole response, from sending the request to its last byte, past which it is stopped (`.tooSlow`).
    public var timeLimit: Duration
    /// Time without a byte (of the head or the body) past which it is stopped (`.timedOut`).
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

/// Sends requests. `AsyncHTTPClientTransport` (TallyFetchHTTP, built with the trait Fetch) is the
/// real one; tests may pass their own.
///
/// A transport never follows a redirect: a 3xx is answered as it came, and `FetchClient` decides
/// (same origin only). It keeps to the request's bounds, and stops when its task is cancelled.
public protocol HTTPTransport: Sendable {
    /// The response, whatever its status; throws `TransportFailure` when there is none. Sends
    /// `request.method` (GET unless the request says otherwise).
    func get(_ request: TransportRequest) async throws -> TransportResponse
}

/// Durations and sizes as messages name them: "1 s", "0.5 s", "1 MiB", "1000 bytes".
public enum Quantity {
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    public static func seconds(_ duration: Duration, text: Bool) -> String {
        let value = seconds(duration)
        return value == value.rounded() ? "\(Int64(value)) s" : String(format: "%.1f s", value)
    }

    public static func bytes(_ count: Int) -> String {
        count >= 1 << 20 && count % (1 << 20) == 0 ? "\(count >> 20) MiB" : "\(count) bytes"
    }
}
