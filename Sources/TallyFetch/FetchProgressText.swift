import Foundation

/// Renders fetch events as text for a person: a live line on a terminal, one summary line
/// otherwise, and each request when verbose. It never prints: every piece goes to `write` (the
/// CLI's standard error). It never shows a token or a key.
public final class FetchProgressText: @unchecked Sendable {
    private let verbose: Bool
    private let live: Bool
    private let what: String
    private let lock = NSLock()
    private var requests = 0
    private var retries = 0
    private var products = 0
    private var lineShown = false
    /// What the fetch waits for now, for the live line.
    private var waiting = ""

    private let output: @Sendable (_ control: String, _ text: String) -> Void

    /// - Parameter write: writes `control` (a terminal control of this renderer's own, only when
    ///   `live`) as it is, then `text` made safe.
    public init(verbose: Bool, live: Bool, what: String, write: @escaping @Sendable (_ control: String, _ text: String) -> Void) {
        self.verbose = verbose
        self.live = live
        self.what = what
        output = write
    }

    public var handle: FetchProgress { { [self] event in self.receive(event) } }

    private func receive(_ event: FetchEvent) {
        lock.withLock {
            switch event {
            case let .request(url, attempt):
                waiting = "waiting for \(Self.shown(url))"
                if verbose { line("GET \(Self.shown(url))\(attempt > 1 ? " (attempt \(attempt))" : "")") }
            case let .response(_, status, bytes, _):
                requests += 1
                waiting = ""
                if verbose { line("  → \(status), \(bytes) bytes") }
            case let .retry(url, reason, delay, _):
                retries += 1
                waiting = "\(reason): waiting \(Self.seconds(delay)) before retrying \(Self.shown(url))"
                if verbose { line("  \(reason): retrying in \(Self.seconds(delay))") }
            case let .products(count):
                products = count
            case let .stagingRemoved(name):
                line("tally: removed \(name), a staging folder an interrupted fetch left")
            case .pageSaved, .tokenSigned:
                break
            }
            if live { status() }
        }
    }

    /// The live line, rewritten in place.
    private func status() {
        let now = waiting.isEmpty ? "" : "; " + String(waiting.prefix(100))
        write("\(what): \(requests) request\(requests == 1 ? "" : "s") done, \(products) product\(products == 1 ? "" : "s") found\(now)", after: Self.rewriteLine)
        lineShown = true
    }

    /// A line above the live one.
    private func line(_ text: String) {
        write(text + "\n", after: live && lineShown ? Self.rewriteLine : "")
    }

    public func finish(manifest: SnapshotManifest, folder: String) {
        lock.withLock {
            if live && lineShown { write("", after: Self.rewriteLine) }
            var summary = manifest.summary
            if retries > 0, summary.hasSuffix(")") {
                summary = String(summary.dropLast()) + ", \(retries) retr\(retries == 1 ? "y" : "ies"))"
            }
            write("fetched \(folder): \(summary)\n")
        }
    }

    public func abandon() {
        lock.withLock { if live && lineShown { write("\n") } }
    }

    /// Back to the line's start and clear it: the terminal control that rewrites the live line.
    public static let rewriteLine = "\r\u{1B}[K"

    /// `control` (empty, or `rewriteLine`) is this renderer's own terminal control, written as it
    /// is; `text` holds values from servers and files, which the writer makes safe.
    private func write(_ text: String, after control: String = "") { output(control, text) }

    /// The path and query: what identifies a request (the host is the same for all).
    public static func shown(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return ServerText.clean(APIURL.shown(url)) }
        return ServerText.clean(components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? ""))
    }

    public static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value >= 1 ? String(format: "%.0f s", value) : String(format: "%.0f ms", value * 1000)
    }
}
