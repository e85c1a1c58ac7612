import TallyFormats
import TallyModel

/// Why a command ends without a verdict: `main` emits its diagnostics (`Diagnostics.emit`, the
/// one stream), and the exit reads them: 2 (128 + the signal when interrupted). The command runs
/// throw it; none prints an error and exits on its own.
public enum Stop: Error {
    /// A stage of a run failed (sources, policy, revisions); `outcome` says what did not happen.
    case run(RunFailure, outcome: String)
    /// What stopped it, as diagnostics (`tally: MESSAGE`, `path: error: …`).
    case diagnostics([Diagnostic])
    /// A signal stopped the run (`tally fetch`): its diagnostics, exit 128 + the signal.
    case interrupted(signal: Int32, [Diagnostic])
    /// A usage problem found once the command ran (`show` given several sources that are not one
    /// code source): `main` says it as ArgumentParser says a validation error, with the usage.
    case usage(String)

    /// `tally: MESSAGE`.
    public static func message(_ message: String, remedy: Remedy? = nil) -> Stop {
        .diagnostics([Diagnostic(.error, message, remedy: remedy)])
    }

    public var diagnostics: [Diagnostic] {
        switch self {
        case .run(let failure, let outcome): failure.diagnostics(outcome: outcome)
        case .diagnostics(let diagnostics): diagnostics
        case .interrupted(_, let diagnostics): diagnostics
        case .usage(let message): [Diagnostic(.error, message)]
        }
    }
}

/// How `check`, `lint` and `diff` end once their reports are written: thrown to `main`, the one
/// place that turns a status into an exit code. It holds the run's outcome so that unwinding does
/// not free a large model on the way out (that costs time and shows nothing); `main` exits with
/// it still held.
public struct Verdict: Error {
    public let status: ExitStatus
    public let kept: [any Sendable]

    public init(_ status: ExitStatus, keeping kept: any Sendable...) {
        self.status = status
        self.kept = kept
    }
}
