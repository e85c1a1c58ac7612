import ArgumentParser
import Foundation
import TallyModel

/// Writes a report in pieces: to standard output, or to `--output FILE` as `OutputFile` writes
/// files (a regular file atomically, a named pipe or device through, a link followed).
/// For reports too large to hold twice in memory (`tally diff --format json` on two large catalogues).
struct ReportStream: TextOutputStream {
    private let file: OutputFile?
    private let destination: String?
    private var endsWithNewline = false
    private(set) var failure: OutputFile.Failure?

    /// Opens standard output, or `options.output` (creating its folders).
    init(_ options: OutputOptions) throws {
        guard let output = options.output else {
            file = nil
            destination = nil
            return
        }
        do {
            file = try OutputFile.open(output)
        } catch {
            throw ReportFile.fail(output, error)
        }
        destination = output
    }

    mutating func write(_ string: String) {
        guard failure == nil, !string.isEmpty else { return }
        endsWithNewline = string.hasSuffix("\n")
        guard let file else {
            Console.out(string)
            return
        }
        do {
            try file.write(string)
        } catch {
            failure = error
        }
    }

    /// Ends the report with a newline and, for a file, completes it.
    mutating func finish() throws {
        if !endsWithNewline { write("\n") }
        guard let file, let destination else { return }
        if failure == nil {
            do { try file.commit() } catch { failure = error }
        }
        if let failure {
            file.abandon()
            throw ReportFile.fail(destination, failure)
        }
    }
}
