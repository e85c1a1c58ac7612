import Foundation
import Testing

/// Everything a run says besides its findings is one stream of `Diagnostic`s (issue 39): the
/// console renders each, the JSON report lists the same ones, and the command line has no other
/// place that writes to standard error.
@Suite struct DiagnosticsStreamTests {
    struct Entry: Decodable {
        var severity: String
        var message: String
        var file: String?
        var line: Int?
        var column: Int?
        var remedy: String?
    }

    struct Report: Decodable {
        var diagnostics: [Entry]
    }

    @Test func aDroppedValueIsOnTheConsoleAndInTheJSONReportAlike() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("configs/ExampleApp.storekit")
        let lines = try String(contentsOf: config, encoding: .utf8).components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains("\"displayPrice\" : \"5.99\"") }) + 1
        try CLIRunner.edit(config, replacing: "\"displayPrice\" : \"5.99\"", with: "\"displayPrice\" : \"5,99\"")
        let run = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", "catalog/products.yaml",
                                     "--report", "text", "--report", "json:build/tally.json"], in: directory)
        #expect(run.status == 1, "\(run.stderr)")
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: directory.appendingPathComponent("build/tally.json")))
        let dropped = try #require(report.diagnostics.first { $0.message.contains("\"5,99\"") }, "\(report.diagnostics)")
        #expect(dropped.severity == "warning")
        #expect(dropped.file == "configs/ExampleApp.storekit")
        #expect(dropped.line == line)
        #expect(dropped.message.hasSuffix("the value was not taken (invalid-price)"))
        let console = "configs/ExampleApp.storekit:\(line):\(dropped.column ?? 0): warning: \(dropped.message)"
        #expect(run.stderr.contains(console), "\(run.stderr)")
        // The stream holds what was said, and nothing else: the same count on both.
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains(": warning: ") }
        #expect(warnings.count == report.diagnostics.filter { $0.severity == "warning" }.count, "\(run.stderr)")
    }

    /// `--quiet` with every report in a file reads the stream: notes are logged (the JSON report
    /// has them) but not shown; a warning still is.
    @Test func quietLeavesOutNotesButNotWarnings() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent("configs/ExampleApp.storekit"),
                           replacing: "\"displayPrice\" : \"5.99\"", with: "\"displayPrice\" : \"5,99\"")
        let arguments = ["check", "--no-config", "configs/ExampleApp.storekit", "catalog/products.yaml", "--write-baseline", "base.json",
                         "--report", "json:build/tally.json"]
        let loud = try CLIRunner.run(arguments, in: directory)
        #expect(loud.status == 0, "\(loud.stderr)")
        #expect(loud.stderr.contains("tally: wrote "), "\(loud.stderr)")
        let quiet = try CLIRunner.run(arguments + ["--quiet"], in: directory)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        #expect(!quiet.stderr.contains("tally: wrote "), "\(quiet.stderr)")
        #expect(quiet.stderr.contains(": warning: "), "\(quiet.stderr)")
        #expect(quiet.stdout.isEmpty, "\(quiet.stdout)")
        let report = try JSONDecoder().decode(Report.self, from: Data(contentsOf: directory.appendingPathComponent("build/tally.json")))
        #expect(report.diagnostics.contains { $0.severity == "note" && $0.message.hasPrefix("wrote ") && $0.file == nil }, "\(report.diagnostics)")
    }

    @Test func aCleanRunHasNoDiagnostics() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try CLIRunner.run(["check", "--format", "json"], in: directory)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try JSONDecoder().decode(Report.self, from: Data(run.stdout.utf8)).diagnostics.isEmpty)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
    }

    @Test func aStopIsRenderedAsDiagnosticsWithTheRemedyAsItsFlag() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("catalog/big.json")
        try Data(repeating: 0x20, count: 2 * 1_048_576).write(to: big)
        let run = try CLIRunner.run(["check", "--no-config", "configs/ExampleApp.storekit", "catalog/big.json", "--max-input-mb", "1"], in: directory)
        #expect(run.status == 2)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("catalog/big.json: error: ") && $0.hasSuffix("(raise it with --max-input-mb)") }, "\(run.stderr)")
        #expect(lines.last == "tally: 1 source could not be read; nothing was checked", "\(run.stderr)")
    }

    /// The lines of the command line's files (but `Console.swift`, the one writer) that contain
    /// any of `needles`, as `FILE:LINE: TEXT`.
    static func commandLines(containing needles: [String]) throws -> [String] {
        let folder = CLIRunner.repository.appendingPathComponent("Sources/tally")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count > 10)
        var found: [String] = []
        for file in files.sorted() where file != "Console.swift" {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where needles.contains(where: { line.contains($0) }) {
                found.append("\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    /// The command line writes to standard error in one place, `Console.err`; commands emit
    /// diagnostics (`Diagnostics.emit`) and never print to standard error themselves.
    @Test func onlyTheConsoleWritesToStandardError() throws {
        let writers = try Self.commandLines(containing: ["StandardError()", "FileHandle.standardError", "fputs("])
        #expect(writers.isEmpty, "\(writers)")
    }

    /// The exit is read in one place, `main`, from the stream and the verdict
    /// (`ExitStatus.ending`): no command ends the process itself.
    @Test func onlyMainEndsTheProcessAndItReadsTheStream() throws {
        let exits = try Self.commandLines(containing: ["Console.exit(", "Foundation.exit(", "Glibc.exit("])
        #expect(exits.allSatisfy { $0.hasPrefix("Tally.swift:") }, "\(exits)")
        #expect(exits.contains { $0.contains("ExitStatus.ending(verdict: verdict, said: Diagnostics.log.all)") }, "\(exits)")
    }

    /// A usage error is in the stream too: exit 2, ArgumentParser's message on standard error.
    @Test func aUsageErrorEndsWithTwo() throws {
        let run = try CLIRunner.run(["check", "--no-such-flag"], in: CLIRunner.repository)
        #expect(run.status == 2)
        #expect(run.stderr.contains("Unknown option '--no-such-flag'"), "\(run.stderr)")
    }
}
