import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request: a GET, or a POST with a body (an OAuth token exchange).
public struct TransportRequest: Sendable, Equatable {
    public var url: URL
    public var headers: [String: String]
    public var method: String
    public var body: Data?

    public init(url: URL, headers: [String: String] = [:], method: String = "GET", body: Data? = nil) {
        self.url = url
        self.headers = headers
        self.method = method
        self.body = body
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

/// Why a request got no response at all.
public struct TransportFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Nothing listens, or the connection was refused or timed out while connecting.
        case cannotConnect
        /// The connection was made and then dropped before a whole response arrived.
        case connectionLost
        /// No answer in time.
        case timedOut
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
    public var isTransient: Bool { kind != .other }

    public var description: String { message }
}

/// Sends requests. `URLSessionTransport` is the real one; tests may pass their own.
public protocol HTTPTransport: Sendable {
    /// The response, whatever its status; throws `TransportFailure` when there is none. Sends
    /// `request.method` (GET unless the request says otherwise).
    func get(_ request: TransportRequest) async throws -> TransportResponse
}

/// Foundation's URLSession (FoundationNetworking on Linux): no extra dependency, async on every platform Tally builds on.
public struct URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    public init(timeout: TimeInterval = 60) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        session = URLSession(configuration: configuration)
        self.timeout = timeout
    }

    public func get(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        urlRequest.httpBody = request.body
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: urlRequest)
        } catch let error as URLError {
            throw Self.failure(error)
        } catch {
            throw TransportFailure(.other, "\(error)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw TransportFailure(.other, "not an HTTP response")
        }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(url: request.url, status: http.statusCode, headers: headers, body: data)
    }

    static func failure(_ error: URLError) -> TransportFailure {
        switch error.code {
        case .cannotConnectToHost, .notConnectedToInternet:
            return TransportFailure(.cannotConnect, "the connection was refused")
        case .networkConnectionLost, .badServerResponse, .zeroByteResource:
            return TransportFailure(.connectionLost, "the connection was dropped before a whole response arrived")
        case .timedOut:
            return TransportFailure(.timedOut, "no answer within the time limit")
        case .cannotFindHost, .dnsLookupFailed:
            return TransportFailure(.other, "the host name cannot be resolved")
        default:
            return TransportFailure(.other, error.localizedDescription)
        }
    }
}
