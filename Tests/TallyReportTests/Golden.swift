import Foundation
import Testing

/// Golden-file comparison. Files are re-recorded only when `TALLY_RECORD=1` is set; in a normal
/// run a missing or different file is a test failure.
enum Golden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent("golden")

    static var recording: Bool { ProcessInfo.processInfo.environment["TALLY_RECORD"] == "1" }

    /// Compares `output` (plus a final newline) with the golden file `name`, or records it.
    static func verify(
        _ output: String, named name: String, in directory: URL = directory, recording: Bool = recording,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let url = directory.appendingPathComponent(name)
        let actual = output + "\n"
        if recording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let data = try? Data(contentsOf: url) else {
            Issue.record("no golden file \(url.path); run `TALLY_RECORD=1 swift test --filter TallyReportTests` to record it",
                         sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard expected != actual else { return }
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let common = min(expectedLines.count, actualLines.count)
        let line = (0..<common).first { expectedLines[$0] != actualLines[$0] } ?? common
        let want = line < expectedLines.count ? String(expectedLines[line]) : "(end of file)"
        let got = line < actualLines.count ? String(actualLines[line]) : "(end of output)"
        Issue.record("""
            output differs from \(url.path) at line \(line + 1):
              expected: \(want)
              actual:   \(got)
            if the change is intended, run `TALLY_RECORD=1 swift test --filter TallyReportTests` and review the diff
            """, sourceLocation: sourceLocation)
    }
}
