import Foundation

/// The `--api-url` every store's fetch is given: checked once, and the URLs of its requests made
/// on it the same way (it may carry a path prefix, for a proxy).
enum APIURL {
    /// `apiURL` when it is an http or https URL with a host; otherwise a credentials error that
    /// names `example` (the store's own API).
    static func checked(_ apiURL: URL, example: String) throws -> URL {
        guard let scheme = apiURL.scheme?.lowercased(), scheme == "https" || scheme == "http", apiURL.host != nil else {
            throw FetchError.credentials("--api-url must be an http or https URL, like \(example)")
        }
        return apiURL
    }

    /// `https://api.appstoreconnect.apple.com` (scheme, host and port only).
    static func origin(_ url: URL) -> String {
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        return components.string ?? url.absoluteString
    }

    /// `base` then `path` on `apiURL`, after its own path prefix, with `query`.
    static func url(on apiURL: URL, base: String = "", _ path: String, _ query: [(String, String)]) throws -> URL {
        guard var components = URLComponents(url: apiURL, resolvingAgainstBaseURL: false) else {
            throw FetchError.credentials("--api-url \(apiURL.absoluteString) is not a URL")
        }
        let prefix = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = prefix + base + path
        components.queryItems = query.isEmpty ? nil : query.map { URLQueryItem(name: $0.0, value: $0.1) }
        guard let url = components.url else { throw FetchError.credentials("cannot make a URL of \(apiURL.absoluteString) and \(path)") }
        return url
    }
}
