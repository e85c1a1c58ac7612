import ArgumentParser
import Foundation
import TallyFetch
import TallyModel
import TallyReport
import TallyRun

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

/// A store's fetch for its command: its flags as a `FetchRequest` for `FetchCommandRun`, which
/// runs it, shows its progress and ends it (a `Stop` for `Tally.main` when it does not fetch).
enum FetchRunner {
    typealias Job = FetchCommandRun.Job

    /// `prepare` makes the store's fetcher and reads its credentials from the `--api-url` and the
    /// environment (each a `FetchError` when it cannot); the run's settings are read after it.
    static func fetch(_ what: String, options: FetchOptions, apiURL: String,
                      prepare: (URL, [String: String]) throws -> Job) async throws {
        let request = FetchRequest(what: what, output: options.output, verbose: options.verbose, apiURL: apiURL)
        try await FetchCommandRun.perform(request) { url, environment in
            (try prepare(url, environment), try options.settings(environment: environment))
        }
    }
}
