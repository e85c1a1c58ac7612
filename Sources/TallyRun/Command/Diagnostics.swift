import Foundation
import TallyModel

/// The command line's one diagnostics stream: what a run says besides its findings (`Diagnostic`:
/// failures, dropped values, notices, notes), rendered with each remedy as its flag, collected for
/// the JSON report; progress on a terminal. Written to standard error through `CommandConsole`.
public enum Diagnostics {
    /// A remedy in the command line's words.
    public static func flag(_ remedy: Remedy) -> String {
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
    public static func orExit<T>(_ outcome: String = "nothing was checked", _ body: () throws(RunFailure) -> T) throws(Stop) -> T {
        do {
            return try body()
        } catch {
            throw .run(error, outcome: outcome)
        }
    }

    /// Everything the run said besides its findings, in order: the JSON report lists them.
    public static let log = DiagnosticLog()

    /// The one way a command tells the user something besides its findings and its reports: each
    /// diagnostic is recorded and written on standard error, its remedy as the flag.
    public static func emit(_ diagnostics: [Diagnostic]) {
        for diagnostic in diagnostics {
            log.append(diagnostic)
            guard diagnostic.severity != .note || !quiet.isOn else { continue }
            CommandConsole.shared.err(diagnostic.rendered(remedy: flag) + "\n")
        }
    }

    /// `--quiet` with every report in a file: notes (what a command wrote, what the baseline or
    /// the ignores took out, what a state filter left out) are logged for the reports but not
    /// shown; warnings and errors still are.
    public static let quiet = Switch()

    public final class Switch: @unchecked Sendable {
        private let lock = NSLock()
        private var on = false
        public var isOn: Bool { lock.withLock { on } }
        public func turnOn() { lock.withLock { on = true } }
    }

    public static func emit(_ diagnostics: Diagnostic...) { emit(diagnostics) }

    /// What reading left out (dropped values, products a state filter hid), once per command
    /// that reads sources, after reading them.
    public static func readingDone(_ catalogs: [Catalog]) {
        emit(catalogs.flatMap(\.readingDiagnostics))
    }

    /// The run's warnings about its own settings.
    public static func warn(_ notices: [RunNotice]) {
        emit(notices.map(\.diagnostic))
    }

    /// `tally: MESSAGE`, a note on what the command did (wrote a file, took out findings).
    public static func note(_ message: String) { emit(Diagnostic(.note, message)) }

    /// Progress on standard error, only for large files and only on a terminal.
    public static let progress: RunEvents = { event in
        guard case .reading(let path, let bytes?) = event, bytes >= progressThreshold, CommandConsole.standardErrorIsTerminal else { return }
        CommandConsole.shared.err("tally: reading \(SafeText.line(path)) (\(bytes / 1_048_576) MB)…\n")
    }

    public static let progressThreshold = 8 * 1024 * 1024
}

/// Phase timings on standard error when `TALLY_TIMINGS=1`: where a run spends its time.
struct Timings {
    private let enabled = ProcessInfo.processInfo.environment["TALLY_TIMINGS"] == "1"
    private var last = ContinuousClock.now

    mutating func lap(_ phase: String) {
        guard enabled else { return }
        let now = ContinuousClock.now
        let elapsed = now - last
        last = now
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        CommandConsole.shared.err("tally: \(phase) \(String(format: "%.1f", ms)) ms\n")
    }
}
