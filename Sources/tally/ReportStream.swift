import ArgumentParser
import Foundation

/// Writes a report in pieces: to standard output, or to `--output FILE` atomically (into a
/// temporary file beside it, renamed into place when complete; missing folders are created).
/// For reports too large to hold twice in memory (`tally diff --format json` on two large catalogues).
struct ReportStream: TextOutputStream {
    private let handle: FileHandle
    private let destination: String?
    private let temporary: String?
    private var endsWithNewline = false
    private(set) var failure: String?

    /// Opens standard output, or a temporary file beside `options.output` (creating its folders).
    init(_ options: OutputOptions) throws {
        guard let output = options.output else {
            handle = FileHandle.standardOutput
            destination = nil
            temporary = nil
            return
        }
        let directory = (output as NSString).deletingLastPathComponent
        let name = ".\((output as NSString).lastPathComponent).tally-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).tmp"
        let temporary = directory.isEmpty ? name : "\(directory)/\(name)"
        if !directory.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw Self.fail(output, "cannot create the folder \(directory): \((error as NSError).localizedDescription)")
            }
        }
        guard FileManager.default.createFile(atPath: temporary, contents: nil), let handle = FileHandle(forWritingAtPath: temporary) else {
            throw Self.fail(output, "cannot create a file there (does the folder exist, and may Tally write to it?)")
        }
        self.handle = handle
        self.destination = output
        self.temporary = temporary
    }

    mutating func write(_ string: String) {
        guard failure == nil, !string.isEmpty else { return }
        var text = string
        do {
            try text.withUTF8 { try handle.write(contentsOf: $0) }
            endsWithNewline = string.hasSuffix("\n")
        } catch {
            failure = error.localizedDescription
        }
    }

    /// Ends the report with a newline and, for a file, moves it into place.
    mutating func finish() throws {
        if !endsWithNewline { write("\n") }
        guard let destination, let temporary else {
            if let failure { throw Self.fail("standard output", failure) }
            return
        }
        try? handle.close()
        if failure == nil, rename(temporary, destination) != 0 {
            failure = String(cString: strerror(errno))
        }
        if let failure {
            try? FileManager.default.removeItem(atPath: temporary)
            throw Self.fail(destination, failure)
        }
    }

    private static func fail(_ target: String, _ reason: String) -> ExitCode {
        var standardError = StandardError()
        print("\(target): error: cannot write the report: \(reason)", to: &standardError)
        return TallyExit.usageOrInput.code
    }
}
