import Foundation

/// The bounds of one fetch, so that no server can make it run, grow or wait without end. The
/// defaults are far past what a real account needs; each can be lowered (tests do) and a few
/// raised, through the environment variables named in `FetchLimits.knobs`, each read with bounds.
public struct FetchLimits: Sendable, Equatable {
    /// Bytes of one response body; a longer body is cut off and the fetch fails.
    public var bytesPerResponse: Int
    /// Time one response may take in all, from sending the request to its last byte (not an idle timer).
    public var timePerResponse: Duration
    /// Time without a byte before a response is given up on (at most `timePerResponse`).
    public var idleTime: Duration
    /// Pages of one list followed through `next` links.
    public var pagesPerList: Int
    /// Requests of the whole run, token requests and retries included.
    public var requestsPerRun: Int
    /// The whole run (`--timeout`): no request starts, and no wait is begun, past it.
    public var deadline: Duration
    /// Same-origin redirects followed for one request.
    public var redirectsPerRequest: Int

    public init(bytesPerResponse: Int = 64 << 20, timePerResponse: Duration = .seconds(300), idleTime: Duration = .seconds(60),
                pagesPerList: Int = 1_000, requestsPerRun: Int = 50_000, deadline: Duration = .seconds(3_600),
                redirectsPerRequest: Int = 5) {
        self.bytesPerResponse = bytesPerResponse
        self.timePerResponse = timePerResponse
        self.idleTime = min(idleTime, timePerResponse)
        self.pagesPerList = pagesPerList
        self.requestsPerRun = requestsPerRun
        self.deadline = deadline
        self.redirectsPerRequest = redirectsPerRequest
    }

    /// The environment variables that set a limit, with their bounds (for `--help` and docs).
    public static let knobs: [(name: String, what: String, range: ClosedRange<Double>)] = [
        ("TALLY_FETCH_MAX_RESPONSE_BYTES", "bytes per response", 1_024...Double(1 << 30)),
        ("TALLY_FETCH_RESPONSE_SECONDS", "seconds per response (total)", 0.1...3_600),
        ("TALLY_FETCH_MAX_PAGES", "pages per list", 1...1_000_000),
        ("TALLY_FETCH_MAX_REQUESTS", "requests per run", 1...10_000_000),
    ]

    /// The defaults, with what the environment and `--timeout` change; a value out of its bounds is a `FetchError.usage`.
    public static func from(environment: [String: String], timeout: Double?) throws -> FetchLimits {
        var limits = FetchLimits()
        if let bytes = try Bounded.number(environment, "TALLY_FETCH_MAX_RESPONSE_BYTES", in: knobs[0].range) {
            limits.bytesPerResponse = Int(bytes)
        }
        if let seconds = try Bounded.number(environment, "TALLY_FETCH_RESPONSE_SECONDS", in: knobs[1].range) {
            limits.timePerResponse = .milliseconds(Int64(seconds * 1_000))
            limits.idleTime = min(limits.idleTime, limits.timePerResponse)
        }
        if let pages = try Bounded.number(environment, "TALLY_FETCH_MAX_PAGES", in: knobs[2].range) { limits.pagesPerList = Int(pages) }
        if let requests = try Bounded.number(environment, "TALLY_FETCH_MAX_REQUESTS", in: knobs[3].range) { limits.requestsPerRun = Int(requests) }
        if let timeout {
            guard timeout.isFinite, (1...86_400).contains(timeout) else {
                throw FetchError.usage("--timeout must be a number of seconds from 1 to 86400 (a day), not \(timeout)")
            }
            limits.deadline = .milliseconds(Int64(timeout * 1_000))
        }
        return limits
    }
}

/// Numbers from outside (a server's header, an environment variable) read with bounds before any
/// arithmetic: a value out of range is refused or capped, never trapped on.
public enum Bounded {
    /// `text` as a finite decimal number; nil when it is not one.
    public static func finite(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.count <= 40, let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// An environment variable as a number in `range`; nil when unset; a `FetchError.usage` when
    /// it is not a number in range.
    public static func number(_ environment: [String: String], _ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = environment[name], !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        guard let value = finite(text), range.contains(value) else {
            throw FetchError.usage("\(name) must be a number from \(format(range.lowerBound)) to \(format(range.upperBound)), "
                                       + "not \"\(ServerText.clean(text, limit: 40))\"")
        }
        return value
    }

    /// Seconds as a `Duration`, capped at `limit` (and at 0 below): safe for any finite or infinite input.
    public static func duration(seconds: Double, cappedAt limit: Duration) -> Duration {
        guard seconds.isFinite, seconds > 0 else { return seconds == .infinity ? limit : .zero }
        let limitSeconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        guard seconds < limitSeconds else { return limit }
        return .milliseconds(Int64((seconds * 1_000).rounded(.up)))
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
