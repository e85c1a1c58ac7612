import TallyFetch
#if Fetch
import TallyFetchHTTP
#endif

/// `tally fetch`'s transport: AsyncHTTPClient (TallyFetchHTTP) in a build with the package trait
/// Fetch — release binaries, the artifact bundle, `swift build --traits Fetch` — and none in a
/// default build from source, which so never builds SwiftNIO (`swift run tally check`).
enum NetworkStack {
    /// What a fetch in a build without the network stack says (exit 2), before anything else.
    static let missing = FetchError.usage("""
        this tally was built without the network stack that tally fetch needs (SwiftNIO, left out so \
        that a build from source is quick); use a release binary, or build with the package trait Fetch: \
        swift build -c release --traits Fetch
        """)

    static func transport(proxies: ProxySettings) throws -> any HTTPTransport {
        #if Fetch
        return AsyncHTTPClientTransport(proxies: proxies)
        #else
        throw missing
        #endif
    }
}
