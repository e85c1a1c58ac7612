import Foundation

/// What a fetch reports while it runs, for a command to render (live on a terminal, a summary
/// otherwise, each request with --verbose). Events arrive in order, from one task at a time.
public enum FetchEvent: Sendable, Equatable {
    /// A request is about to be sent (attempt 1, or a retry).
    case request(url: URL, attempt: Int)
    /// A response arrived (any status).
    case response(url: URL, status: Int, bytes: Int, attempt: Int)
    /// The request failed (a status worth retrying or a dropped connection) and is sent again after `delay`.
    case retry(url: URL, reason: String, delay: Duration, attempt: Int)
    /// A page was saved into the snapshot.
    case pageSaved(name: String)
    /// How many products the fetch has found so far.
    case products(Int)
    /// A staging folder that an interrupted fetch left beside the snapshot was removed.
    case stagingRemoved(name: String)
    /// A new authentication token was signed (the first, or a renewal before the last expires).
    case tokenSigned
}

/// Receives fetch events. It must be quick: the fetch waits for it.
public typealias FetchProgress = @Sendable (FetchEvent) -> Void
