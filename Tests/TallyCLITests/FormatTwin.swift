import Foundation
import Testing

/// A broken twin of a format fixture: one realistic edit to a copy of the fixture, the findings
/// it must give (exactly), and the line the main finding must point at in the edited file.
struct FormatTwin: Sendable, CustomTestStringConvertible {
    var name: String
    /// The file to edit, relative to the fixture folder; nil when only the arguments change.
    var file: String?
    /// A unique text before the edit: the first `old` after it is replaced (or `old` itself is unique).
    var anchor: String?
    var old = ""
    var new = ""
    /// "rule product" pairs, in any order.
    var expected: [String]
    /// The rule whose finding must point at the edited line (the first expected one when nil).
    var lineRule: String?
    /// Lines from the start of the replacement to the one the finding points at; nil: no line check.
    var lineOffset: Int? = 0
    /// Extra arguments; `{fixture}` stands for the copied fixture folder.
    var arguments: [String] = []
    var status: Int32 = 1

    var testDescription: String { name }

    /// Copies the fixture folder, makes the edit, runs `tally check configs/ExampleApp.storekit SOURCE`
    /// (SOURCE relative to the copy; empty for the copied folder itself) and checks the findings,
    /// the exit status and the line.
    func verify(fixture: String, source: String) throws {
        let folder = try FormatTwin.copy(fixture)
        defer { try? FileManager.default.removeItem(at: folder) }
        var editedLine: Int?
        if let file { editedLine = try FormatTwin.edit(folder.appendingPathComponent(file), after: anchor, replacing: old, with: new) }
        let sourcePath = source.isEmpty ? folder.path : folder.appendingPathComponent(source).path
        // --no-config: the repository's own .tally.yml (required territories) is not what these twins test.
        let arguments = ["check", "configs/ExampleApp.storekit", sourcePath, "--format", "json", "--no-config"]
            + self.arguments.map { $0.replacingOccurrences(of: "{fixture}", with: folder.path) }
        let output = try CLIRunner.run(arguments)
        #expect(output.status == status, "\(output.stderr)\(output.stdout.prefix(2000))")
        let findings = try FormatTwin.findings(output.stdout)
        #expect(findings.map(\.pair).sorted() == expected.sorted())
        guard let file, let editedLine, let lineOffset else { return }
        let rule = lineRule ?? expected.first?.split(separator: " ").first.map(String.init)
        let finding = try #require(findings.first { $0.rule == rule }, "no \(rule ?? "?") finding")
        #expect(finding.file?.hasSuffix(file) == true, "\(finding)")
        #expect(finding.line == editedLine + lineOffset, "\(finding)")
    }

    /// One finding of a JSON report: its pair and where its catalogue (or only) side points.
    struct Found: CustomStringConvertible {
        var rule: String
        var product: String
        var file: String?
        var line: Int?
        var pair: String { "\(rule) \(product)" }
        var description: String { "\(pair) at \(file ?? "?"):\(line.map(String.init) ?? "?")" }
    }

    static func findings(_ json: String) throws -> [Found] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "not a JSON report: \(json.prefix(500))")
        return ((report["findings"] as? [[String: Any]]) ?? []).map { finding in
            let side = (finding["catalog"] as? [String: Any]) ?? (finding["source"] as? [String: Any])
            return Found(rule: finding["rule"] as? String ?? "?", product: finding["product"] as? String ?? "-",
                         file: side?["file"] as? String, line: side?["line"] as? Int)
        }
    }

    /// A fresh temporary copy of a folder under Tests/TallyCLITests/Fixtures.
    static func copy(_ fixture: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-twin-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: CLIRunner.fixtures.appendingPathComponent(fixture), to: folder)
        return folder
    }

    /// Replaces the first `old` after `anchor` (which must occur once), or the only `old`;
    /// returns the line the replacement starts on. A test that silently changes nothing cannot fail.
    static func edit(_ file: URL, after anchor: String?, replacing old: String, with new: String) throws -> Int {
        var text = try String(contentsOf: file, encoding: .utf8)
        var searchStart = text.startIndex
        if let anchor {
            let parts = text.components(separatedBy: anchor)
            guard parts.count == 2, let found = text.range(of: anchor) else {
                throw CLIRunner.EditError(message: "\(anchor) occurs \(parts.count - 1) times in \(file.lastPathComponent)")
            }
            searchStart = found.upperBound
        } else if text.components(separatedBy: old).count != 2 {
            throw CLIRunner.EditError(message: "\(old) does not occur exactly once in \(file.lastPathComponent)")
        }
        guard let range = text.range(of: old, range: searchStart..<text.endIndex) else {
            throw CLIRunner.EditError(message: "\(old) does not occur after the anchor in \(file.lastPathComponent)")
        }
        let line = text[..<range.lowerBound].filter { $0 == "\n" }.count + 1
        text.replaceSubrange(range, with: new)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return line
    }

    /// The line of the first occurrence of `text` in a fixture file.
    static func line(of text: String, in file: URL) throws -> Int {
        let content = try String(contentsOf: file, encoding: .utf8)
        let range = try #require(content.range(of: text), "\(text) is not in \(file.lastPathComponent)")
        return content[..<range.lowerBound].filter { $0 == "\n" }.count + 1
    }
}

extension CLIRunner {
    static let fixtures = repository.appendingPathComponent("Tests/TallyCLITests/Fixtures")
}
