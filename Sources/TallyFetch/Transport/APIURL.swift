import Foundation

/// The URLs a fetch sends credentials to: the `--api-url` (and an OAuth token URL), checked once,
/// and the URLs of its requests made on it the same way (it may carry a path prefix, for a proxy).
/// Shared by every store's fetch: the scheme rule, origins, path segments from server IDs, and
/// URLs as they are shown or saved (never with a user or password).
public enum APIURL {
    /// `apiURL` when it is an https URL with a host, or an http one on a loopback host (or with
    /// `allowHTTP`); otherwise a usage error that names `example` (the store's own API) and `what`.
    public static func checked(_ apiURL: URL, example: String, what: String = "--api-url", allowHTTP: Bool = false) throws -> URL {
        guard let scheme = apiURL.scheme?.lowercased(), scheme == "https" || scheme == "http", let host = apiURL.host, !host.isEmpty else {
            throw FetchError.usage("\(what) must be an https URL, like \(example), not \(shown(apiURL))")
        }
        if scheme == "http", !allowHTTP, !isLoopback(host) {
            throw FetchError.usage("\(what) \(shown(apiURL)) is plain http: credentials would cross the network unencrypted. "
                                       + "Use https, or pass --allow-http for a test proxy you trust")
        }
        return apiURL
    }

    /// `localhost`, `127.x.y.z` or `::1`: a host that never leaves this machine.
    public static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// `https://api.appstoreconnect.apple.com` (scheme, host and port only; never a user or password).
    public static func origin(_ url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme?.lowercased()
        components.host = url.host?.lowercased()
        components.port = url.port
        return components.string ?? shown(url)
    }

    /// Whether two URLs have the same origin (scheme, host, port; a default port counts as given).
    public static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        func key(_ url: URL) -> String {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
            return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
        }
        return key(first) == key(second)
    }

    /// The URL as it may be printed or saved: without a user or password.
    public static func shown(_ url: URL) -> String {
        guard url.user != nil || url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.user = nil
        components.password = nil
        return components.string ?? url.absoluteString
    }

    /// A URL written by a user or sent by a server, without `user:password@` (for a text that
    /// may not parse as a URL at all).
    public static func shown(_ text: String) -> String {
        if let url = URL(string: text), url.host != nil { return shown(url) }
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") else { return text }
        let authority = text[scheme.upperBound..<at]
        guard !authority.contains("/") else { return text }
        return String(text[..<scheme.upperBound] + text[text.index(after: at)...])
    }

    /// One path segment made of an ID a server sent: percent-encoded whole (a `/` stays inside
    /// the segment); `.`, `..` and an empty ID are refused, since they would change the path.
    public static func segment(_ id: String, from url: URL) throws -> String {
        guard !id.isEmpty, id != ".", id != ".." else {
            throw FetchError.invalidResponse(url: shown(url), reason: "the server named a resource \"\(ServerText.clean(id, limit: 80))\", "
                                                 + "which is not an ID (it would change the path of the next request)")
        }
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._~")
        return id.addingPercentEncoding(withAllowedCharacters: allowed) ?? id
    }

    /// `base` then `path` on `apiURL`, after its own path prefix, with `query`. `base` and `path`
    /// are percent-encoded already (server IDs go through `segment`).
    public static func url(on apiURL: URL, base: String = "", _ path: String, _ query: [(String, String)]) throws -> URL {
        guard var components = URLComponents(url: apiURL, resolvingAgainstBaseURL: false) else {
            throw FetchError.usage("--api-url \(shown(apiURL)) is not a URL")
        }
        let prefix = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        // Foundation traps on a percent-encoded path that is not one: every byte is checked
        // first, so a server ID that reached a path unencoded is an error, never a crash.
        let full = prefix + base + path
        var pathBytes = CharacterSet.urlPathAllowed
        pathBytes.insert("%")
        guard full.unicodeScalars.allSatisfy({ $0.isASCII && pathBytes.contains($0) }),
              full.removingPercentEncoding != nil || !full.contains("%") else {
            throw FetchError.invalidResponse(url: shown(apiURL), reason: "a request path would hold characters that are not a URL path's (\(ServerText.clean(path, limit: 80)))")
        }
        components.percentEncodedPath = full
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.0, value: $0.1) }
        guard let url = components.url else { throw FetchError.usage("cannot make a URL of \(shown(apiURL)) and \(path)") }
        return url
    }
}
