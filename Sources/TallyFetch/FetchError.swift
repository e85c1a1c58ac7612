import Foundation

/// Why a fetch failed, typed so that a command can say what to check (and exit 2).
public enum FetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server refused the credentials (401) or their permissions (403). `hint` names the
    /// credential to check, as the store's signer words it.
    case authentication(status: Int, url: String, detail: String?, hint: String)
    /// No connection could be made (or each attempt was dropped), after the retries.
    case unreachable(url: String, reason: String)
    /// An HTTP status that is not success: a 4xx, or a 429/5xx still failing after the retries.
    case httpStatus(status: Int, url: String, detail: String?, attempts: Int)
    /// A credential is missing or unusable (no key ID, a private key that is not a P-256 PKCS#8 key).
    case credentials(String)
    /// The server answered with something that is not the document asked for.
    case invalidResponse(url: String, reason: String)
    /// The snapshot folder cannot be written or must not be replaced.
    case snapshot(path: String, reason: String)

    public var description: String {
        switch self {
        case let .authentication(status, url, detail, hint):
            let what = status == 403 ? "refused access (403 Forbidden)" : "rejected the credentials (401 Unauthorized)"
            return "the server \(what) for \(url)\(detail.map { ": \($0)" } ?? ""). \(hint)"
        case let .unreachable(url, reason):
            return "cannot connect to \(url): \(reason). Check --api-url, the network and any proxy."
        case let .httpStatus(status, url, detail, attempts):
            let tries = attempts > 1 ? " (after \(attempts) attempts)" : ""
            return "HTTP \(status) from \(url)\(tries)\(detail.map { ": \($0)" } ?? "")"
        case let .credentials(message):
            return message
        case let .invalidResponse(url, reason):
            return "unexpected response from \(url): \(reason)"
        case let .snapshot(path, reason):
            return "cannot write the snapshot \(path): \(reason)"
        }
    }
}
