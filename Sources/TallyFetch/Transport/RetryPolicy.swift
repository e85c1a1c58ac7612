import Foundation

/// When and how long to wait before sending a failed request again: 429 waits as long as its
/// Retry-After says (capped), 5xx and dropped connections back off exponentially; both stop after
/// `maxAttempts` attempts in all.
public struct RetryPolicy: Sendable {
    /// Attempts per request, the first included.
    public var maxAttempts: Int
    /// The wait before the second attempt; each later wait doubles, up to `maxDelay`.
    public var baseDelay: Duration
    public var maxDelay: Duration
    /// The longest Retry-After honoured as given; a longer one is cut to this.
    public var maxRetryAfter: Duration
    /// Multiplies the backoff delays (not Retry-After): tests run with a tiny scale.
    public var backoffScale: Double
    /// Waits; tests may pass one that records instead.
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(maxAttempts: Int = 5, baseDelay: Duration = .seconds(1), maxDelay: Duration = .seconds(30),
                maxRetryAfter: Duration = .seconds(60), backoffScale: Double = 1,
                sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
        self.backoffScale = backoffScale.isFinite ? min(max(0, backoffScale), Self.backoffScaleRange.upperBound) : 1
        self.sleep = sleep
    }

    /// The bounds of `backoffScale` (and of `TALLY_FETCH_BACKOFF_SCALE`).
    public static let backoffScaleRange: ClosedRange<Double> = 0...100

    /// The backoff before attempt `attempt + 1`: base × 2^(attempt-1), capped, scaled.
    public func backoff(after attempt: Int) -> Duration {
        var delay = baseDelay
        for _ in 1..<max(1, attempt) where delay < maxDelay { delay *= 2 }
        return min(delay, maxDelay) * backoffScale
    }

    /// The wait a Retry-After header asks for (seconds, or an HTTP date), capped; nil when absent or unreadable.
    public func retryAfter(_ header: String?, now: Date = Date()) -> Duration? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        // Bounded before any arithmetic: 1e300, 10000000000000000 or a date in year 9999 is the cap.
        let seconds: Double
        if let value = Bounded.finite(text) {
            seconds = value
        } else if text.count <= 64, let date = Self.httpDate(text) {
            seconds = date.timeIntervalSince(now)
        } else {
            return nil
        }
        return Bounded.duration(seconds: seconds, cappedAt: maxRetryAfter)
    }

    private static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
