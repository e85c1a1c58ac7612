import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard output and standard error as the command runs write them: the CLI's
/// `Console` behind it (`write(2)` in a loop, failures said on the other stream), installed once by
/// `main` before any command runs. A command run (`CheckRun.perform`, `DiffRun.perform`, …) says
/// what it has to say through here and `Diagnostics`; TallyRun opens no standard stream of its own.
/// Until one is installed (a library user, a test), nothing is written.
public struct CommandConsole: Sendable {
    /// What a piece of standard output is.
    public enum Role: Sendable {
        /// The run's product: a report, a table, a listing. Losing it makes the run exit 2.
        case verdict
        /// A line beside the verdict (the summary when every report went to a file).
        case console
    }

    /// Writes text to standard output.
    public var out: @Sendable (String, Role) -> Void
    /// Writes bytes to standard output (a streamed report or converted file); false once it
    /// cannot be written.
    public var outBytes: @Sendable (UnsafeRawBufferPointer) -> Bool
    /// Writes a message to standard error (made safe for a terminal by the console).
    public var err: @Sendable (String) -> Void
    /// Writes one of Tally's own terminal controls to standard error (fetch progress rewriting its line).
    public var errControl: @Sendable (String) -> Void

    public init(out: @escaping @Sendable (String, Role) -> Void, outBytes: @escaping @Sendable (UnsafeRawBufferPointer) -> Bool,
                err: @escaping @Sendable (String) -> Void, errControl: @escaping @Sendable (String) -> Void) {
        self.out = out
        self.outBytes = outBytes
        self.err = err
        self.errControl = errControl
    }

    /// A console that writes nothing.
    public static let silent = CommandConsole(out: { _, _ in }, outBytes: { _ in true }, err: { _ in }, errControl: { _ in })

    /// The console the runs write to.
    public static var shared: CommandConsole { box.value }

    /// Makes `console` the one the runs write to (`main`, once).
    public static func install(_ console: CommandConsole) { box.set(console) }

    private static let box = Box()

    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var console = CommandConsole.silent
        var value: CommandConsole { lock.withLock { console } }
        func set(_ console: CommandConsole) { lock.withLock { self.console = console } }
    }

    /// Whether standard error is a terminal (progress is shown only there).
    public static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// NO_COLOR (https://no-color.org) set to a non-empty value: never colour. Set but empty, it
    /// asks nothing.
    public static var noColorRequested: Bool {
        !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
    }

    /// Colour for standard output: a terminal, without --no-color or NO_COLOR.
    public static func colorsStandardOutput(noColorFlag: Bool) -> Bool {
        !noColorFlag && !noColorRequested && isatty(STDOUT_FILENO) == 1
    }
}
