import Foundation
import TallyConfig
import TallyFormats
import TallyModel
import TallyRun

/// The command line's one diagnostics stream: what a run says besides its findings (`Diagnostic`:
/// failures, dropped values, notices, notes), rendered with each remedy as its flag, collected for
/// the JSON report; progress on a terminal.
enum Diagnostics {
    /// A remedy in the command line's words.
    static func flag(_ remedy: Remedy) -> String {
        switch remedy {
        case .raiseInputLimit: "raise it with --max-input-mb"
        case .raiseDepthLimit: "raise it with --max-depth"
        case .useMapping: "describe it with a tally-mapping/1 file and pass --mapping FILE (docs/mapping-format.md)"
        case .nameInputFormat: "use --input-format to name it"
        case .readAsStoreKit: "use --input-format storekit"
        case .writeBaseline: "write it again with 'tally check --write-baseline FILE'"
        case .givePriceTiers: "give --price-tiers FILE"
        case .givePlayDefaultTerritory: "name it with --play-default-territory (and --play-default-currency)"
        case .nameReportApp: "name it with --report-app NAME (its APP_NAME or APP_APPLE_ID)"
        }
    }

    /// Runs a stage; a failure stops the command (`main` prints it and exits 2).
    /// - Parameter outcome: what did not happen because of it ("nothing was checked").
    static func orExit<T>(_ outcome: String = "nothing was checked", _ body: () throws(RunFailure) -> T) throws(Stop) -> T {
        do {
            return try body()
        } catch {
            throw .run(error, outcome: outcome)
        }
    }

    /// Everything the run said besides its findings, in order: the JSON report lists them.
    static let log = DiagnosticLog()

    /// The one way a command tells the user something besides its findings and its reports: each
    /// diagnostic is recorded and written on standard error, its remedy as the flag.
    static func emit(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            log.append(diagnostic)
            guard diagnostic.severity != .note || !quiet.isOn else { continue }
            Console.err(diagnostic.rendered(remedy: flag) + "\n")
        }
    }

    /// `--quiet` with every report in a file: notes (what a command wrote, what the baseline or
    /// the ignores took out, what a state filter left out) are logged for the reports but not
    /// shown; warnings and errors still are.
    static let quiet = Switch()

    final class Switch: @unchecked Sendable {
        private let lock = NSLock()
        private var on = false
        var isOn: Bool { lock.withLock { on } }
        func turnOn() { lock.withLock { on = true } }
    }

    static func emit(_ diagnostics: Diagnostic...) { emit(diagnostics) }

    /// What reading left out (dropped values, products a state filter hid), once per command
    /// that reads sources, after reading them.
    static func readingDone(_ catalogs: [Catalog]) {
        emit(catalogs.flatMap(\.readingDiagnostics))
    }

    /// The run's warnings about its own settings.
    static func warn(_ notices: [RunNotice]) {
        emit(notices.map(\.diagnostic))
    }

    /// `tally: MESSAGE`, a note on what the command did (wrote a file, took out findings).
    static func note(_ message: String) { emit(Diagnostic(.note, message)) }

    /// Progress on standard error, only for large files and only on a terminal.
    static let progress: RunEvents = { event in
        guard case .reading(let path, let bytes?) = event, bytes >= progressThreshold, isatty(STDERR_FILENO) == 1 else { return }
        Console.err("tally: reading \(SafeText.line(path)) (\(bytes / 1_048_576) MB)…\n")
    }

    static let progressThreshold = 8 * 1024 * 1024
}

/// Reads sources a command names on its own (show, convert, lint), through `TallyRun`.
enum SourceReading {
    static func readAll(_ paths: [String], options: SourceOptions, outcome: String = "nothing was checked") throws -> [Catalog] {
        let set = try options.sourceSet(arguments: paths, policy: nil, outcome: outcome)
        let readOptions = try options.readOptions(consequence: outcome)
        let catalogs = try Diagnostics.orExit(outcome) { () throws(RunFailure) in
            try set.read(format: options.inputFormat, options: readOptions, events: Diagnostics.progress)
        }
        Diagnostics.readingDone(catalogs)
        return catalogs
    }
}
