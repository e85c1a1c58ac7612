import ArgumentParser
import Foundation
import TallyFetch

/// `tally fetch STORE`: a snapshot of what a store has live, for `check`, `show` and `diff` to read offline.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Save a snapshot of a store's live products into a folder.",
        discussion: """
        The snapshot is a folder of the API's pages as they came, plus tally-snapshot.json (what \
        was fetched, when, from where). Every command reads it like any source. A failed fetch \
        leaves the folder as it was. Exit codes: 0 fetched, 2 usage, credential or network error.

        Examples:
          tally fetch app-store-connect --app 1600000001 --output asc/
          tally fetch google-play --package com.example.app --service-account key.json --output play/
          tally check configs/ExampleApp.storekit asc/
          tally fetch app-store-connect --app 1600000001 --output asc-now/
          tally diff asc/ asc-now/          # what changed in the store since the first fetch
        """,
        subcommands: [FetchAppStoreConnectCommand.self, FetchGooglePlayCommand.self]
    )
}

/// The options every `tally fetch STORE` has.
struct FetchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The snapshot folder: new, empty, or an earlier snapshot (replaced only when the fetch succeeds).",
                                            valueName: "dir"))
    var output: String

    @Flag(name: .long, help: "List each request on standard error.")
    var verbose = false

    /// Hidden, for tests: multiplies retry backoff delays (TALLY_FETCH_BACKOFF_SCALE works too).
    @Option(name: .long, help: .hidden)
    var backoffScale: Double?

    /// The retry policy: 5 attempts, backoff from 1 s doubling to 30 s, Retry-After honoured up to 60 s.
    func retryPolicy(environment: [String: String]) -> RetryPolicy {
        let scale = backoffScale ?? environment["TALLY_FETCH_BACKOFF_SCALE"].flatMap(Double.init) ?? 1
        return RetryPolicy(backoffScale: scale)
    }
}

/// Runs a fetch from a synchronous command: prints progress, maps every failure to exit 2.
enum FetchRunner {
    /// A fetch's setup before anything is fetched (the `--api-url`, then what `body` makes of
    /// it: the fetcher, the credentials): a `FetchError` is printed and exits 2.
    static func setUp<T>(apiURL: String, _ body: (URL) throws -> T) throws -> T {
        do {
            guard let url = URL(string: apiURL) else { throw FetchError.credentials("--api-url \(apiURL) is not a URL") }
            return try body(url)
        } catch let error as FetchError {
            var standardError = StandardError()
            print("tally: \(error.description)", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
    }

    static func run(what: String, options: FetchOptions,
                    _ body: @escaping @Sendable (@escaping FetchProgress) async throws -> SnapshotManifest) throws {
        let printer = FetchProgressPrinter(verbose: options.verbose, live: isatty(STDERR_FILENO) == 1, what: what)
        let outcome = blocking { try await body(printer.handle) }
        var standardError = StandardError()
        switch outcome {
        case .success(let manifest):
            printer.finish(manifest: manifest, folder: options.output)
        case .failure(let error):
            printer.abandon()
            let message = (error as? FetchError)?.description ?? "\(error)"
            print("tally: fetch failed: \(message)", to: &standardError)
            print("tally: \(options.output) was left as it was", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
    }

    /// Waits for async work on a synchronous thread (the command's), which nothing else needs meanwhile.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, Error> {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.set(.success(try await body())) } catch { box.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return box.get() ?? .failure(CancellationError())
    }

    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<T, Error>?
        func set(_ value: Result<T, Error>) { lock.withLock { result = value } }
        func get() -> Result<T, Error>? { lock.withLock { result } }
    }
}

/// Renders fetch events on standard error: a live line on a terminal, one summary line otherwise,
/// and each request with --verbose. Never prints a token or a key.
final class FetchProgressPrinter: @unchecked Sendable {
    private let verbose: Bool
    private let live: Bool
    private let what: String
    private let lock = NSLock()
    private var requests = 0
    private var retries = 0
    private var products = 0
    private var lineShown = false

    init(verbose: Bool, live: Bool, what: String) {
        self.verbose = verbose
        self.live = live
        self.what = what
    }

    var handle: FetchProgress { { [self] event in self.receive(event) } }

    private func receive(_ event: FetchEvent) {
        lock.withLock {
            switch event {
            case let .request(url, attempt):
                if verbose { line("GET \(Self.shown(url))\(attempt > 1 ? " (attempt \(attempt))" : "")") }
            case let .response(_, status, bytes, _):
                requests += 1
                if verbose { line("  → \(status), \(bytes) bytes") }
            case let .retry(_, reason, delay, _):
                retries += 1
                if verbose { line("  \(reason): retrying in \(Self.seconds(delay))") }
            case let .products(count):
                products = count
            case .pageSaved, .tokenSigned:
                break
            }
            if live { status() }
        }
    }

    /// The live line, rewritten in place.
    private func status() {
        write("\r\u{1B}[K\(what): \(requests) request\(requests == 1 ? "" : "s") done, \(products) product\(products == 1 ? "" : "s") found")
        lineShown = true
    }

    /// A line above the live one.
    private func line(_ text: String) {
        write((live && lineShown ? "\r\u{1B}[K" : "") + text + "\n")
    }

    func finish(manifest: SnapshotManifest, folder: String) {
        lock.withLock {
            if live && lineShown { write("\r\u{1B}[K") }
            var summary = manifest.summary
            if retries > 0, summary.hasSuffix(")") {
                summary = String(summary.dropLast()) + ", \(retries) retr\(retries == 1 ? "y" : "ies"))"
            }
            write("fetched \(folder): \(summary)\n")
        }
    }

    func abandon() {
        lock.withLock { if live && lineShown { write("\n") } }
    }

    private func write(_ text: String) { Console.err(text) }

    /// The path and query: what identifies a request (the host is the same for all).
    static func shown(_ url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        return components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value >= 1 ? String(format: "%.0f s", value) : String(format: "%.0f ms", value * 1000)
    }
}
