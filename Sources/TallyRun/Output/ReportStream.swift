import Foundation
import TallyModel

/// Writes a report in pieces: to standard output, or to `--output FILE` as `OutputFile` writes
/// files (a regular file atomically, a named pipe or device through, a link followed).
/// For reports too large to hold twice in memory (`tally diff --format json` on two large catalogues).
public struct ReportStream: TextOutputStream {
    private let file: OutputFile?
    private var endsWithNewline = false
    public private(set) var failure: OutputFile.Failure?
    private let standardOutput: (String) -> Void
    /// For a report for people: `SafeText.block` on every complete line (keeping colour when
    /// painted), the unfinished line held until its end.
    private let safe: ((String) -> String)?
    private var pending = ""

    /// Opens standard output, or `path` (creating its folders). `forPeople`: the report is text
    /// or Markdown, made safe line by line (see `ReportKind.isForPeople`).
    public init(path: String?, forPeople: Bool = false, color: Bool = false,
                standardOutput: @escaping (String) -> Void) throws(OutputFile.Failure) {
        safe = forPeople ? { SafeText.block($0, keepingColour: color) } : nil
        self.standardOutput = standardOutput
        file = try path.map { path throws(OutputFile.Failure) in try OutputFile.open(path) }
    }

    public mutating func write(_ string: String) {
        guard failure == nil, !string.isEmpty else { return }
        guard let safe else { return deliver(string) }
        pending += string
        guard let lastBreak = pending.lastIndex(of: "\n") else { return }
        let complete = String(pending[...lastBreak])
        pending = String(pending[pending.index(after: lastBreak)...])
        deliver(safe(complete))
    }

    private mutating func deliver(_ string: String) {
        endsWithNewline = string.hasSuffix("\n")
        guard let file else {
            standardOutput(string)
            return
        }
        do {
            try file.write(string)
        } catch {
            failure = error
        }
    }

    /// Ends the report with a newline and, for a file, completes it.
    public mutating func finish() throws(OutputFile.Failure) {
        if let safe, !pending.isEmpty {
            deliver(safe(pending))
            pending = ""
        }
        if !endsWithNewline { deliver("\n") }
        try file?.complete(after: failure)
    }
}
