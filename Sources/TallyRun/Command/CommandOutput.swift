import Foundation
import TallyModel
import TallyReport

/// Writes report, baseline, policy and converted files whole (see `OutputFile`): a regular file
/// is replaced atomically (a crash or kill leaves the old file or the new one, never half of
/// one; missing folders are created), a symbolic link or one of the run's inputs is refused, a
/// named pipe, character device or `/dev/stdout` is written through.
public enum ReportFile {
    public static func write(_ text: String, to path: String, regularOnly: Bool = false) throws(OutputFile.Failure) {
        try OutputFile.write(text.hasSuffix("\n") ? text : text + "\n", to: path, regularOnly: regularOnly)
    }

    /// Writes, or stops the command with `path: error: cannot write ...` (exit 2). `regularOnly`:
    /// a policy or baseline file, never a named pipe or device.
    public static func writeOrExit(_ text: String, to path: String, what: String = "the report", regularOnly: Bool = false) throws(Stop) {
        do {
            try write(text, to: path, regularOnly: regularOnly)
        } catch {
            throw fail(path, what: what, error)
        }
    }

    /// `path: error: cannot write WHAT: REASON`, to throw.
    public static func fail(_ path: String, what: String = "the report", _ failure: OutputFile.Failure) -> Stop {
        .diagnostics([Diagnostic(.error, "cannot write \(what): \(failure.reason)", at: SourceLocation(file: Elision.value(path)))])
    }
}

extension StreamedOutput {
    /// A command's streamed product: to standard output through the console, or to `path`; a path
    /// that cannot be opened or written is a `Stop` (`path: error: cannot write WHAT: …`, exit 2).
    public static func opened(_ path: String?, what: String) throws(Stop) -> StreamedOutput {
        do {
            return try StreamedOutput(path) { CommandConsole.shared.outBytes($0) }
        } catch {
            throw ReportFile.fail(path ?? "-", what: what, error)
        }
    }

    public func commit(what: String) throws(Stop) {
        do { try commit() } catch { throw ReportFile.fail(path ?? "-", what: what, error) }
    }
}

extension ReportStream {
    /// A report written in pieces to standard output through the console, or to `path`; failures are `Stop`s.
    public static func opened(_ path: String?, forPeople: Bool, color: Bool) throws(Stop) -> ReportStream {
        do {
            return try ReportStream(path: path, forPeople: forPeople, color: color) { CommandConsole.shared.out($0, .verdict) }
        } catch {
            throw ReportFile.fail(path ?? "-", error)
        }
    }

    public mutating func finish(path: String?) throws(Stop) {
        do { try finish() } catch { throw ReportFile.fail(path ?? "-", error) }
    }
}

/// The reports a command was asked for and how: where each goes (`ReportTargets`), `--no-color`
/// and `--quiet`. `check`, `lint` and `diff` write them through it.
public struct ReportRequest<Format: ReportKind>: Sendable {
    public var targets: ReportTargets<Format>
    public var noColor: Bool
    public var quiet: Bool

    public init(targets: ReportTargets<Format>, noColor: Bool = false, quiet: Bool = false) {
        self.targets = targets
        self.noColor = noColor
        self.quiet = quiet
    }

    func useColor(for target: ReportTarget<Format>) -> Bool {
        target.format.paintsColour && target.path == nil && CommandConsole.colorsStandardOutput(noColorFlag: noColor)
    }

    /// With every report going to a file, the console still gets the summary line and where the
    /// reports went (unless --quiet): `✘ 4 errors, ... ` then `reports: junit build/tally.xml`.
    func printConsoleSummary(_ summary: (_ color: Bool) -> String) {
        guard !silent, targets.allToFiles else { return }
        CommandConsole.shared.out(summary(CommandConsole.colorsStandardOutput(noColorFlag: noColor)) + "\nreports: " + targets.written + "\n", .console)
    }

    /// `--quiet` with every report going to a file: nothing on the console, not even what the
    /// baseline or the ignores took out (the reports say it).
    public var silent: Bool { quiet && targets.allToFiles }

    /// Writes every report; each file is written atomically.
    func write(_ render: (Format, Bool) -> String) throws(Stop) {
        for target in targets.all {
            let color = useColor(for: target)
            let text = target.format.safe(render(target.format, color), color: color)
            if let path = target.path {
                try ReportFile.writeOrExit(text, to: path)
            } else {
                CommandConsole.shared.out(text.hasSuffix("\n") ? text : text + "\n", .verdict)
            }
        }
    }

    /// Writes every report in pieces (`ReportStream`: a large diff is never held twice).
    func stream(_ render: (Format, Bool, inout ReportStream) -> Void) throws(Stop) {
        for target in targets.all {
            let color = useColor(for: target)
            var stream = try ReportStream.opened(target.path, forPeople: target.format.isForPeople, color: color)
            render(target.format, color, &stream)
            try stream.finish(path: target.path)
        }
    }
}
