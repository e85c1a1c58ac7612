import Foundation

/// The proxies `tally fetch` goes through, read from the environment as curl reads them (the
/// URLSession transport honoured them through libcurl): `https_proxy` / `HTTPS_PROXY` for https
/// URLs, `http_proxy` for http URLs (lower case only: `HTTP_PROXY` can be set by a CGI request's
/// `Proxy:` header), `all_proxy` / `ALL_PROXY` for either when the specific one is unset, and
/// `no_proxy` / `NO_PROXY` (a comma-separated list of hosts, each also matching its subdomains,
/// or `*`) for hosts to reach directly. Hosts on this machine (`localhost`, `127.x.y.z`, `::1`)
/// are always reached directly. A proxy is an `http://` URL (`http://user:password@host:port`,
/// port 1080 when none is given, as curl); anything else is refused (`FetchError.usage`).
public struct ProxySettings: Sendable, Equatable {
    public struct Server: Sendable, Hashable {
        public var host: String
        public var port: Int
        public var user: String?
        public var password: String?

        public init(host: String, port: Int, user: String? = nil, password: String? = nil) {
            self.host = host
            self.port = port
            self.user = user
            self.password = password
        }
    }

    public var http: Server?
    public var https: Server?
    public var noProxy: [String]

    public init(http: Server? = nil, https: Server? = nil, noProxy: [String] = []) {
        self.http = http
        self.https = https
        self.noProxy = noProxy
    }

    public static func from(environment: [String: String]) throws -> ProxySettings {
        func value(_ names: String...) -> (String, String)? {
            for name in names {
                if let text = environment[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty { return (name, text) }
            }
            return nil
        }
        let all = try value("all_proxy", "ALL_PROXY").map(server)
        let noProxy = (value("no_proxy", "NO_PROXY")?.1 ?? "").split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        return ProxySettings(http: try value("http_proxy").map(server) ?? all, https: try value("https_proxy", "HTTPS_PROXY").map(server) ?? all,
                             noProxy: noProxy)
    }

    private static func server(_ setting: (name: String, text: String)) throws -> Server {
        let text = setting.text.contains("://") ? setting.text : "http://" + setting.text
        guard let url = URL(string: text), url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty,
              url.path.isEmpty || url.path == "/", url.query == nil else {
            throw FetchError.usage("\(setting.name) must be a proxy's http URL (http://host:port), not \"\(ServerText.clean(APIURL.shown(text), limit: 100))\"")
        }
        return Server(host: host, port: url.port ?? 1080, user: url.user?.removingPercentEncoding, password: url.password?.removingPercentEncoding)
    }

    /// The proxy for `url`, or nil to connect directly.
    public func server(for url: URL) -> Server? {
        guard let host = url.host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")), !APIURL.isLoopback(host) else { return nil }
        for entry in noProxy {
            if entry == "*" { return nil }
            let suffix = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == suffix || host.hasSuffix("." + suffix) { return nil }
        }
        return url.scheme?.lowercased() == "https" ? https : http
    }
}
