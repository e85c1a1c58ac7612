import ArgumentParser
import TallyRun
import Foundation
import TallyModel

/// Writes report, baseline, policy and converted files whole (see `OutputFile`): a regular file
/// is replaced atomically (a crash or kill leaves the old file or the new one, never half of
/// one; missing folders are created), a symbolic link or one of the run's inputs is refused, a
/// named pipe, character device or `/dev/stdout` is written through.
enum ReportFile {
    static func write(_ text: String, to path: String, regularOnly: Bool = false) throws(OutputFile.Failure) {
        try OutputFile.write(text.hasSuffix("\n") ? text : text + "\n", to: path, regularOnly: regularOnly)
    }

    /// Writes, or prints `path: error: cannot write ...` and exits 2. `regularOnly`: a policy or
    /// baseline file, never a named pipe or device.
    static func writeOrExit(_ text: String, to path: String, what: String = "the report", regularOnly: Bool = false) throws {
        do {
            try write(text, to: path, regularOnly: regularOnly)
        } catch {
            throw fail(path, what: what, error)
        }
    }

    /// `path: error: cannot write WHAT: REASON`, to throw.
    static func fail(_ path: String, what: String = "the report", _ failure: OutputFile.Failure) -> Stop {
        .diagnostics([Diagnostic(.error, "cannot write \(what): \(failure.reason)", at: SourceLocation(file: Elision.value(path)))])
    }
}

extension StreamedOutput {
    /// A command's streamed product: to standard output through `Console`, or to `path`; a path
    /// that cannot be opened or written is a `Stop` (`path: error: cannot write WHAT: …`, exit 2).
    static func opened(_ path: String?, what: String) throws -> StreamedOutput {
        do {
            return try StreamedOutput(path) { Console.out(bytes: $0) }
        } catch {
            throw ReportFile.fail(path ?? "-", what: what, error)
        }
    }

    func commit(what: String) throws {
        do { try commit() } catch { throw ReportFile.fail(path ?? "-", what: what, error) }
    }
}

extension ReportStream {
    /// A report written in pieces to standard output through `Console`, or to `path`; failures are `Stop`s.
    static func opened(_ path: String?, forPeople: Bool, color: Bool) throws -> ReportStream {
        do {
            return try ReportStream(path: path, forPeople: forPeople, color: color) { Console.out($0) }
        } catch {
            throw ReportFile.fail(path ?? "-", error)
        }
    }

    mutating func finish(path: String?) throws {
        do { try finish() } catch { throw ReportFile.fail(path ?? "-", error) }
    }
}
