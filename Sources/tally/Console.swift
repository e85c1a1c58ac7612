import Foundation
import TallyModel
import TallyFetch
import TallyRun
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way `tally` writes to standard output and standard error: `write(2)` in a loop, so a
/// full disk (`> /dev/full`), a closed stream (`>&-`) or a reader that went away ends in a
/// message and an exit code, never a trap.
///
/// - Standard output carries the verdict (a report, `show`'s table, `--help`): when it cannot be
///   written, standard error says so and the run exits 2. A reader that stopped reading
///   (`| head -1`) ends the run quietly: SIGPIPE, or with SIGPIPE ignored, EPIPE and no message.
/// - Standard output's console lines (the summary when every report went to a file) and standard
///   error's messages are not the verdict: when they cannot be written the run keeps its exit
///   code and the other stream says what was lost.
enum Console {
    typealias WriteFailure = Descriptor.WriteFailure

    /// What a line on standard output is: the verdict (a report, a table, a listing: losing it
    /// makes the run exit 2) or a console line beside it (the summary when every report went to a file).
    typealias Role = CommandConsole.Role

    /// The console as the commands' runs in TallyRun write to it (`main` installs it).
    static let commandConsole = CommandConsole(out: { out($0, role: $1) }, outBytes: { out(bytes: $0) },
                                               err: { err($0) }, errControl: { err(control: $0) })

    /// Writes to standard output. A failure is said on standard error once; after it, nothing
    /// more is written there. Console lines pass through `SafeText.block` (no escape sequence,
    /// bidirectional override or workflow command from a file name or value reaches the terminal
    /// or the CI log); a verdict is written as its maker made it safe (`ReportFormat.safe`, the
    /// commands' tables).
    static func out(_ text: String, role: Role = .verdict) {
        guard !text.isEmpty, state.outputUsable else { return }
        let text = role == .console ? SafeText.block(text) : text
        do {
            try Descriptor.write(text, to: STDOUT_FILENO)
        } catch {
            outputFailed(error, role: role)
        }
    }

    /// After standard output failed, nothing more is written there; a lost verdict is an error in
    /// the diagnostics stream (which the exit reads: 2), a lost console line a warning. A reader
    /// that went away (`| head -1`) is not a failure: no message, the exit as it was.
    private static func outputFailed(_ error: WriteFailure, role: Role) {
        state.outputFailed()
        guard !error.readerGone else { return }
        Diagnostics.emit(role == .verdict
            ? Diagnostic(.error, "error: cannot write to standard output: \(error.reason); the output did not arrive (exit 2)")
            : Diagnostic(.warning, "warning: cannot write to standard output: \(error.reason); the console summary did not arrive (the reports are in their files)"))
    }

    /// Writes bytes to standard output as `out(_:role:)` writes text (a streamed report or
    /// converted file); false once standard output cannot be written.
    @discardableResult
    static func out(bytes: UnsafeRawBufferPointer, role: Role = .verdict) -> Bool {
        guard state.outputUsable else { return false }
        guard !bytes.isEmpty else { return true }
        do {
            try Descriptor.write(bytes, to: STDOUT_FILENO)
            return true
        } catch {
            outputFailed(error, role: role)
            return false
        }
    }

    /// Writes a message to standard error, long values elided (see `Elision`) and made safe for a
    /// terminal and a CI log (`SafeText.block`: this is the one way to standard error). When standard
    /// error cannot be written, the message is counted as lost; an `essential` one (the reason a
    /// run exits 2) goes to standard output instead.
    static func err(_ text: String, essential: Bool = false) {
        guard !text.isEmpty else { return }
        let shown = SafeText.block(Elision.message(text))
        if state.errorUsable {
            do {
                try Descriptor.write(shown, to: STDERR_FILENO)
                return
            } catch {
                state.errorFailed(error)
            }
        }
        if essential {
            out(shown, role: .console)
        } else {
            state.lost(shown)
        }
    }

    /// Writes a terminal control of Tally's own (`FetchProgressText.rewriteLine`: back to the
    /// line's start and clear it) to standard error as it is: the one sequence that is not passed
    /// through `SafeText`. Anything else is refused.
    static func err(control: String) {
        guard control == FetchProgressText.rewriteLine, state.errorUsable else { return }
        do { try Descriptor.write(control, to: STDERR_FILENO) } catch { state.errorFailed(error) }
    }

    /// Ends the process with `code` (`main` reads it from the diagnostics stream and the verdict:
    /// `ExitStatus.ending`), with a line on standard output when lines for standard error were lost.
    static func exit(_ code: Int32) -> Never {
        let outcome = state.outcome
        if let failure = outcome.errorFailure, let lost = outcome.lost {
            // A run that fails says why on the stream that works; one that does not, how much it could not say.
            let lines = lost.text.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } + lost.dropped
            var note = "tally: warning: standard error cannot be written (\(failure.reason)): "
            if code == TallyExit.usageOrInput.rawValue {
                out(lost.text, role: .console)
                note += "the messages above were meant for it" + (lost.dropped > 0 ? "; \(lost.dropped) more lines did not arrive" : "")
            } else {
                note += "\(lines > 1 ? "\(lines) lines" : "a line") of messages did not arrive"
            }
            out(note + "\n", role: .console)
        }
        Foundation.exit(code)
    }

    private static let state = ConsoleState()
}

/// What has failed so far: shared by every thread that prints (fetch progress comes from tasks).
private final class ConsoleState: @unchecked Sendable {
    private let lock = NSLock()
    private var outputBroken = false
    private var errorFailure: Console.WriteFailure?
    /// What standard error did not get: the first 16 KB, and how many lines after them.
    private var lost: (text: String, dropped: Int)?

    var outputUsable: Bool { lock.withLock { !outputBroken } }
    var errorUsable: Bool { lock.withLock { errorFailure == nil } }

    func outputFailed() {
        lock.withLock { outputBroken = true }
    }

    func errorFailed(_ failure: Console.WriteFailure) {
        lock.withLock { errorFailure = failure }
    }

    func lost(_ text: String) {
        lock.withLock {
            var kept = lost ?? ("", 0)
            if kept.text.utf8.count + text.utf8.count <= 16_384 {
                kept.text += text
            } else {
                kept.dropped += max(1, text.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 })
            }
            lost = kept
        }
    }

    var outcome: (errorFailure: Console.WriteFailure?, lost: (text: String, dropped: Int)?) {
        lock.withLock { (errorFailure, lost) }
    }
}

/// Standard output through `Console.out`, for `print(_:to:)`.
struct StandardOutput: TextOutputStream {
    var role: Console.Role = .verdict

    mutating func write(_ string: String) {
        Console.out(string, role: role)
    }
}
