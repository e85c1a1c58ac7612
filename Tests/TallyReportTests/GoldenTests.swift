import Foundation
import TallyCheck
import TallyReport
import Testing

@Suite("Golden reports")
struct GoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var format: ReportFormat
        var color = false
        var result: CheckResult
        var testDescription: String { file }
    }

    static let cases = [
        Case(file: "mixed.txt", format: .text, result: Sample.mixed),
        Case(file: "mixed.color.txt", format: .text, color: true, result: Sample.mixed),
        Case(file: "mixed.json", format: .json, result: Sample.mixed),
        Case(file: "mixed.junit.xml", format: .junit, result: Sample.mixed),
        Case(file: "consistent.txt", format: .text, result: Sample.consistent),
        Case(file: "consistent.color.txt", format: .text, color: true, result: Sample.consistent),
        Case(file: "consistent.json", format: .json, result: Sample.consistent),
        Case(file: "consistent.junit.xml", format: .junit, result: Sample.consistent),
        Case(file: "mixed.sarif.json", format: .sarif, result: Sample.mixed),
        Case(file: "mixed.github.txt", format: .github, result: Sample.mixed),
        Case(file: "mixed.md", format: .markdown, result: Sample.mixed),
        Case(file: "consistent.sarif.json", format: .sarif, result: Sample.consistent),
        Case(file: "consistent.github.txt", format: .github, result: Sample.consistent),
        Case(file: "consistent.md", format: .markdown, result: Sample.consistent),
        Case(file: "suppressed.txt", format: .text, result: Sample.suppressed),
        Case(file: "suppressed.md", format: .markdown, result: Sample.suppressed),
        Case(file: "mixed.html", format: .html, result: Sample.mixed),
        Case(file: "consistent.html", format: .html, result: Sample.consistent),
    ]

    @Test("Output matches the committed golden file", arguments: cases)
    func matchesGolden(_ testCase: Case) throws {
        // When
        let output = testCase.format.reporter(color: testCase.color).report(testCase.result)
        // Then
        try Golden.verify(output, named: testCase.file)
    }

    @Test("A missing golden file fails and says how to record it")
    func missingGoldenFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-golden-\(UUID().uuidString)")
        try withKnownIssue {
            try Golden.verify("anything", named: "absent.txt", in: directory, recording: false)
        } matching: { issue in
            issue.description.contains("TALLY_RECORD=1")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test("Recording writes the file, and a different output then fails")
    func recordingWrites() throws {
        // Given
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-golden-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // When
        try Golden.verify("first", named: "out.txt", in: directory, recording: true)
        // Then
        try Golden.verify("first", named: "out.txt", in: directory, recording: false)
        withKnownIssue {
            try Golden.verify("second", named: "out.txt", in: directory, recording: false)
        }
    }
}
