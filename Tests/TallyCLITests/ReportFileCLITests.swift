import Foundation
import Testing

/// `--output FILE` and `--report FORMAT:FILE` create missing folders and write every report
/// atomically, for every format of `tally check` and `tally diff` (the formats are read from
/// the binary itself, so a new one is covered without touching this test).
@Suite struct ReportFileCLITests {
    @Test func diffOutputCreatesFoldersForEveryFormat() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let copy = directory.appendingPathComponent("catalog/copy.yaml")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("catalog/products.yaml"), to: copy)
        try CLIRunner.edit(copy, replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        let help = try CLIRunner.run(["diff", "--help"], in: directory).stdout
        let formats = try Self.list(after: "One report's format: ", in: help, end: "(default")
        #expect(formats.contains("html") && formats.contains("json") && formats.count >= 4, "\(formats)")
        for format in formats {
            let path = "build/sub/\(format)/diff.\(format)"
            let output = try CLIRunner.run(["diff", "catalog/products.yaml", "catalog/copy.yaml", "--format", format, "--output", path], in: directory)
            #expect(output.status == 0, "\(format): \(output.stderr)")
            #expect(output.stdout.isEmpty, "\(format) goes to the file only")
            let written = try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
            #expect(written.contains("6.49"), "\(format): the report is in \(path)")
            #expect(written.hasSuffix("\n"))
            try Self.expectNoLeftovers(directory.appendingPathComponent("build/sub/\(format)"))
        }
    }

    @Test func checkReportsCreateFoldersForEveryFormat() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("catalog/products.yaml"), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        let unknown = try CLIRunner.run(["check", "--report", "nope"], in: directory)
        #expect(unknown.status == 2)
        let formats = try Self.list(after: "(formats: ", in: unknown.stderr, end: ")")
        #expect(formats.contains("html") && formats.contains("sarif") && formats.count >= 7, "\(formats)")
        let arguments = formats.flatMap { ["--report", "\($0):reports/\($0)/deeper/tally.\($0)"] }
        let output = try CLIRunner.run(["check", "configs/ExampleApp.storekit", "catalog/products.yaml"] + arguments, in: directory)
        #expect(output.status == 1, "\(output.stderr)")
        for format in formats {
            let folder = directory.appendingPathComponent("reports/\(format)/deeper")
            let written = try String(contentsOf: folder.appendingPathComponent("tally.\(format)"), encoding: .utf8)
            #expect(written.contains("com.calmly.app.sessions.20"), "\(format): the finding is in the report")
            try Self.expectNoLeftovers(folder)
        }
        // Reference names stand beside the IDs for people (text, Markdown), never in their place
        let text = try String(contentsOf: directory.appendingPathComponent("reports/text/deeper/tally.text"), encoding: .utf8)
        #expect(text.hasPrefix("com.calmly.app.sessions.20 (Session Pack 20)\n  error  price  com.calmly.app.sessions.20 costs"), "\(text)")
        let markdown = try String(contentsOf: directory.appendingPathComponent("reports/markdown/deeper/tally.markdown"), encoding: .utf8)
        #expect(markdown.contains("**`com.calmly.app.sessions.20`** Session Pack 20\n"), "\(markdown)")
        // And the --format/--output shorthand, into a folder that does not exist yet
        let single = try CLIRunner.run(["check", "configs/ExampleApp.storekit", "catalog/products.yaml", "--format", "html", "--output", "a/b/check.html"], in: directory)
        #expect(single.status == 1)
        #expect(try String(contentsOf: directory.appendingPathComponent("a/b/check.html"), encoding: .utf8).contains("<!DOCTYPE html>"))
    }

    /// `text, json, markdown` after `marker`, up to `end` (or the line's end).
    static func list(after marker: String, in text: String, end: String = ".") throws -> [String] {
        let start = try #require(text.range(of: marker), "no \(marker) in \(text)")
        let rest = text[start.upperBound...]
        let stop = rest.range(of: end)?.lowerBound ?? rest.endIndex
        return rest[..<stop].split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// No temporary file is left beside the report.
    static func expectNoLeftovers(_ folder: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 1 && !names.contains { $0.hasPrefix(".") }, "\(folder.lastPathComponent) holds \(names)", sourceLocation: sourceLocation)
    }
}
