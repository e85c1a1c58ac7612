import ArgumentParser
import Foundation
import TallyFetch
import TallyModel
import TallyReport

/// `tally fetch STORE`: a snapshot of what a store has live, for `check`, `show` and `diff` to read offline.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Save a snapshot of a store's live products into a folder.",
        discussion: """
        The snapshot is a folder of the API's pages as they came, plus tally-snapshot.json (what \
        was fetched, when, from where). Every command reads it like any source. A failed fetch \
        leaves the folder as it was. Credentials go only to the API's own origin (a redirect elsewhere \
        is refused), over https (plain http only to this machine, or with --allow-http). Every \
        response, list and run is bounded; --timeout bounds the whole fetch. Exit codes: 0 fetched, \
        2 usage, credential, network or limit error, 130 interrupted (SIGINT), 143 terminated (SIGTERM). \
        Release binaries can fetch; a build from source can with the package trait Fetch \
        (swift build -c release --traits Fetch), which adds the network stack (SwiftNIO).

        Examples:
          tally fetch app-store-connect --app 1600000001 --output asc/
          tally fetch google-play --package com.example.app \\
              --service-account key.json --output play/
          tally check configs/ExampleApp.storekit asc/
          tally fetch app-store-connect --app 1600000001 --output asc-now/
          tally diff asc/ asc-now/   # what changed in the store since the first fetch
        """,
        subcommands: [FetchAppStoreConnectCommand.self, FetchGooglePlayCommand.self, FetchRevenueCatCommand.self]
    )
}

/// The options every `tally fetch STORE` has.
struct FetchOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The snapshot folder: new, empty, or an earlier snapshot (replaced only when the fetch succeeds).",
                                            valueName: "dir"))
    var output: String

    @Flag(name: .long, help: "List each request on standard error.")
    var verbose = false

    @Option(name: .long, help: ArgumentHelp("Stop the whole fetch after this many seconds (1 to 86400; default 3600).", valueName: "seconds"))
    var timeout: Double?

    @Flag(name: .long, help: "Allow a plain-http API or token URL on a host other than this machine (a test proxy you trust).")
    var allowHTTP = false

    /// Hidden, for tests: multiplies retry backoff delays (TALLY_FETCH_BACKOFF_SCALE works too).
    @Option(name: .long, help: .hidden)
    var backoffScale: Double?

    /// The run's settings: limits, retries (5 attempts, backoff from 1 s doubling to 30 s,
    /// Retry-After honoured up to 60 s), every environment knob read with bounds.
    func settings(environment: [String: String]) throws -> FetchSettings {
        try FetchSettings.from(environment: environment, timeout: timeout, backoffScale: backoffScale, allowHTTP: allowHTTP,
                               userAgent: "tally/\(TallyInfo.version)", transport: NetworkStack.transport(proxies:))
    }
}

/// A store's fetch for its command: the setup's `FetchError` becomes a `Stop` (exit 2), and
/// `FetchRun`'s outcome becomes the summary line, a failure (exit 2) or `Stop.interrupted` (130 or
/// 143). `Tally.main` prints the stop and exits.
enum FetchRunner {
    /// A store's fetch from its command, every store the same way: `prepare` makes the store's
    /// fetcher and reads its credentials from the `--api-url` and the environment (each a
    /// `FetchError` when it cannot), the run's settings are read after it, then `FetchRun` runs it.
    typealias Job = @Sendable (FetchSettings, @escaping FetchProgress) async throws -> SnapshotManifest

    static func fetch(_ what: String, options: FetchOptions, apiURL: String,
                      prepare: (URL, [String: String]) throws -> Job) async throws {
        let environment = ProcessInfo.processInfo.environment
        let (job, settings) = try setUp(apiURL: apiURL) { url in
            (try prepare(url, environment), try options.settings(environment: environment))
        }
        try await run(what: what, options: options) { progress in try await job(settings, progress) }
    }

    static func setUp<T>(apiURL: String, _ body: (URL) throws -> T) throws -> T {
        do {
            // Every argument and credential is checked first, in any build; the transport is
            // made last (`FetchOptions.settings`), where a build without the trait Fetch stops.
            return try FetchRun.setUp(apiURL: apiURL, body)
        } catch let error as FetchError {
            throw Stop.message(error.description)
        }
    }

    static func run(what: String, options: FetchOptions,
                    _ body: @escaping @Sendable (@escaping FetchProgress) async throws -> SnapshotManifest) async throws {
        let printer = FetchProgressText(verbose: options.verbose, live: isatty(STDERR_FILENO) == 1, what: what) { control, text in
            Console.err(control: control)
            Console.err(text)
        }
        let outcome = await FetchRun.run(progress: printer.handle, body)
        switch outcome {
        case .fetched(let manifest):
            printer.finish(manifest: manifest, folder: options.output)
        case .interrupted(let signal, _):
            printer.abandon()
            throw Stop.interrupted(signal: signal, outcome.diagnostics(output: options.output))
        case .failed:
            printer.abandon()
            throw Stop.diagnostics(outcome.diagnostics(output: options.output))
        }
    }
}
