import Foundation

/// How a store's fetch runs, whatever the store: the transport, the retry policy, the limits,
/// whether plain http is allowed beyond loopback hosts, the user agent. A command builds it
/// from its options and the environment (every number read with bounds), and each store's
/// `run(…, settings:progress:)` assembles its client, signer and snapshot writer from it.
public struct FetchSettings: Sendable {
    public var limits: FetchLimits
    public var retry: RetryPolicy
    /// Allows an `http://` API or token URL on a host other than a loopback one (a test proxy).
    public var allowHTTP: Bool
    public var userAgent: String
    public var transport: any HTTPTransport

    public init(limits: FetchLimits = FetchLimits(), retry: RetryPolicy = RetryPolicy(), allowHTTP: Bool = false,
                userAgent: String = "tally", transport: any HTTPTransport) {
        self.limits = limits
        self.retry = retry
        self.allowHTTP = allowHTTP
        self.userAgent = userAgent
        self.transport = transport
    }

    /// The settings of a command: `--timeout`, `--allow-http`, and the environment's knobs
    /// (`TALLY_FETCH_BACKOFF_SCALE`, `FetchLimits.knobs`, the proxies of `ProxySettings`), each a
    /// `FetchError.usage` when out of bounds. `transport` makes the transport for those proxies
    /// (TallyFetchHTTP's `AsyncHTTPClientTransport` in `tally fetch`).
    public static func from(environment: [String: String], timeout: Double?, backoffScale: Double? = nil, allowHTTP: Bool = false,
                            userAgent: String = "tally",
                            transport: (ProxySettings) throws -> any HTTPTransport) throws -> FetchSettings {
        let limits = try FetchLimits.from(environment: environment, timeout: timeout)
        let range = RetryPolicy.backoffScaleRange
        var scale = try Bounded.number(environment, "TALLY_FETCH_BACKOFF_SCALE", in: range) ?? 1
        if let backoffScale {
            guard backoffScale.isFinite, range.contains(backoffScale) else {
                throw FetchError.usage("--backoff-scale must be a number from 0 to \(Bounded.format(range.upperBound))")
            }
            scale = backoffScale
        }
        return FetchSettings(limits: limits, retry: RetryPolicy(backoffScale: scale), allowHTTP: allowHTTP, userAgent: userAgent,
                             transport: try transport(try ProxySettings.from(environment: environment)))
    }

    /// A client for one run: its own budget (the deadline starts now).
    public func client(signer: (any RequestSigner)? = nil, progress: FetchProgress?) -> FetchClient {
        FetchClient(transport: transport, signer: signer, retry: retry, progress: progress, userAgent: userAgent,
                    budget: FetchBudget(limits: limits))
    }
}
