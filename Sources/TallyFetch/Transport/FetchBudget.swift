import Foundation

/// What one run may still spend, shared by every copy of its `FetchClient` (the token client
/// included): requests made against `limits.requestsPerRun`, and the deadline.
public final class FetchBudget: @unchecked Sendable {
    public let limits: FetchLimits
    public let deadline: ContinuousClock.Instant
    private let lock = NSLock()
    private var spent = 0

    public init(limits: FetchLimits = FetchLimits(), start: ContinuousClock.Instant = .now) {
        self.limits = limits
        deadline = start.advanced(by: limits.deadline)
    }

    public var requests: Int { lock.withLock { spent } }

    /// Time left before the deadline (zero once past it).
    public var remaining: Duration { max(.zero, ContinuousClock.now.duration(to: deadline)) }

    /// Counts one request about to be sent; throws when it would pass a limit.
    func spend(_ url: URL) throws {
        guard remaining > .zero else { throw deadlinePassed(url) }
        try lock.withLock {
            guard spent < limits.requestsPerRun else {
                throw FetchError.limit(url: APIURL.shown(url), what: "the run made \(limits.requestsPerRun) requests, its limit "
                                           + "(TALLY_FETCH_MAX_REQUESTS); a server that keeps sending more work is stopped here")
            }
            spent += 1
        }
    }

    func deadlinePassed(_ url: URL) -> FetchError {
        FetchError.limit(url: APIURL.shown(url), what: "the fetch ran past its deadline of \(Quantity.seconds(limits.deadline, text: true)) "
                             + "(--timeout SECONDS raises it)")
    }

    /// Throws when the `pages`-th page of a list would pass the pages-per-list limit.
    public func checkPage(_ pages: Int, of list: String, url: URL) throws {
        guard pages <= limits.pagesPerList else {
            throw FetchError.limit(url: APIURL.shown(url), what: "the list \(list) has more than \(limits.pagesPerList) pages, its limit "
                                       + "(TALLY_FETCH_MAX_PAGES); a server that keeps sending next links is stopped here")
        }
    }
}
