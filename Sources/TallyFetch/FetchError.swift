import Foundation

/// Why a fetch failed, typed so that a command can say what to check (and exit 2). Every text in
/// it that a server sent is cleaned (`ServerText`) when it is made, and again when it is shown;
/// every URL is shown without a user or password.
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the credentials (401) or their permissions (403). `hint` names the
    /// credential to check, as the store's signer words it.
    case authentication(status: Int, url: String, detail: String?, hint: String)
    /// No connection could be made (or each attempt was dropped), after the retries.
    case unreachable(url: String, reason: String)
    /// A connection was made but no whole response came in time, after the retries.
    case noResponse(url: String, reason: String)
    /// An HTTP status that is not success: a 4xx, or a 429/5xx still failing after the retries.
    case httpStatus(status: Int, url: String, detail: String?, attempts: Int)
    /// A credential is missing or unusable (no key ID, a private key that is not a P-256 PKCS#8 key).
    case credentials(String)
    /// An option or environment variable that cannot be used (a plain-http API URL, a limit out of bounds).
    case usage(String)
    /// The server answered with something that is not the document asked for.
    case invalidResponse(url: String, reason: String)
    /// The server redirected to another origin: not followed, so no credential went there.
    case redirect(url: String, status: Int, location: String)
    /// A limit of the run was reached (`what` says which, and how to raise it).
    case limit(url: String, what: String)
    /// The snapshot folder cannot be written or must not be replaced.
    case snapshot(path: String, reason: String)

    public var description: String {
        func shown(_ url: String) -> String { ServerText.clean(APIURL.shown(url), limit: 500) }
        func text(_ detail: String?) -> String { detail.map { ": " + ServerText.clean($0, limit: 1_000) } ?? "" }
        switch self {
        case let .authentication(status, url, detail, hint):
            let what = status == 403 ? "refused access (403 Forbidden)" : "rejected the credentials (401 Unauthorized)"
            return "the server \(what) for \(shown(url))\(text(detail)). \(hint)"
        case let .unreachable(url, reason):
            return "cannot connect to \(shown(url)): \(reason). Check --api-url, the network and any proxy."
        case let .noResponse(url, reason):
            return "no response from \(shown(url)): \(reason)."
        case let .httpStatus(status, url, detail, attempts):
            let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
            return "HTTP \(status) from \(shown(url))\(tries)\(text(detail))"
        case let .credentials(message), let .usage(message):
            return message
        case let .invalidResponse(url, reason):
            return "unexpected response from \(shown(url)): \(ServerText.clean(reason, limit: 1_000))"
        case let .redirect(url, status, location):
            return "\(shown(url)) redirected (HTTP \(status)) to another origin, \(shown(location)); not followed: "
                + "Tally sends credentials only to the API's own origin. If that origin is the API, pass it as --api-url"
        case let .limit(url, what):
            return "stopped at \(shown(url)): \(what)"
        case let .snapshot(path, reason):
            return "cannot write the snapshot \(path): \(reason)"
        }
    }
}
