import Foundation
import TallyFetch
import TallyModel

/// `tally fetch STORE` as its flags ask for it: what is fetched (for the progress lines), the
/// snapshot folder, `--verbose` and the `--api-url`.
public struct FetchRequest: Sendable {
    /// "App Store Connect app 1600000001".
    public var what: String
    public var output: String
    public var verbose: Bool
    public var apiURL: String

    public init(what: String, output: String, verbose: Bool = false, apiURL: String) {
        self.what = what
        self.output = output
        self.verbose = verbose
        self.apiURL = apiURL
    }
}

/// A store's fetch, every store the same way: the setup's `FetchError` becomes a `Stop` (exit 2),
/// the progress goes to standard error, and `FetchRun`'s outcome becomes the summary line, a
/// failure (exit 2) or `Stop.interrupted` (130 or 143). `main` prints the stop and exits.
public enum FetchCommandRun {
    /// What a store's fetch does once set up: fetch with the run's settings, telling `progress`.
    public typealias Job = @Sendable (FetchSettings, @escaping FetchProgress) async throws -> SnapshotManifest

    /// `prepare` makes the store's fetcher and reads its credentials from the `--api-url` and the
    /// environment, then the run's settings (each a `FetchError` when it cannot); `FetchRun` runs it.
    public static func perform(_ request: FetchRequest, prepare: (URL, [String: String]) throws -> (Job, FetchSettings)) async throws {
        let environment = ProcessInfo.processInfo.environment
        let (job, settings) = try setUp(apiURL: request.apiURL) { url in try prepare(url, environment) }
        try await run(request) { progress in try await job(settings, progress) }
    }

    static func setUp<T>(apiURL: String, _ body: (URL) throws -> T) throws -> T {
        do {
            // Every argument and credential is checked first, in any build; the transport is
            // made last (the run's settings), where a build without the trait Fetch stops.
            return try FetchRun.setUp(apiURL: apiURL, body)
        } catch let error as FetchError {
            throw Stop.message(error.description)
        }
    }

    static func run(_ request: FetchRequest,
                    _ body: @escaping @Sendable (@escaping FetchProgress) async throws -> SnapshotManifest) async throws {
        let console = CommandConsole.shared
        let printer = FetchProgressText(verbose: request.verbose, live: CommandConsole.standardErrorIsTerminal, what: request.what) { control, text in
            console.errControl(control)
            console.err(text)
        }
        let outcome = await FetchRun.run(progress: printer.handle, body)
        switch outcome {
        case .fetched(let manifest):
            printer.finish(manifest: manifest, folder: request.output)
        case .interrupted(let signal, _):
            printer.abandon()
            throw Stop.interrupted(signal: signal, outcome.diagnostics(output: request.output))
        case .failed:
            printer.abandon()
            throw Stop.diagnostics(outcome.diagnostics(output: request.output))
        }
    }
}
