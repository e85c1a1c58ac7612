import Foundation

/// A temporary copy of the shipped examples (configs/, catalog/, examples/) and of this target's
/// fixtures (plist/, csv/), for tests that make broken twins by editing files.
struct Workspace {
    let root: URL

    static let fixtures = CLIRunner.repository.appendingPathComponent("Tests/TallyCLITests/Fixtures")

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-formats-\(UUID().uuidString)")
        let manager = FileManager.default
        try manager.createDirectory(at: root, withIntermediateDirectories: true)
        for folder in ["configs", "catalog", "examples"] {
            try manager.copyItem(at: CLIRunner.repository.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
        for folder in ["plist", "csv", "builtin"] {
            try manager.copyItem(at: Self.fixtures.appendingPathComponent(folder), to: root.appendingPathComponent(folder))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }

    func text(_ file: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
    }

    /// Replaces `old` with `new`, requiring exactly `count` occurrences (an edit that changes
    /// nothing would make a twin that cannot fail). Returns the 1-based lines the first
    /// occurrence starts on, one per occurrence.
    @discardableResult
    func replace(_ file: String, _ old: String, _ new: String, count: Int = 1) throws -> [Int] {
        let text = try self.text(file)
        let parts = text.components(separatedBy: old)
        guard parts.count - 1 == count else {
            throw CLIRunner.EditError(message: "\(old) occurs \(parts.count - 1) times in \(file), expected \(count)")
        }
        var lines: [Int] = []
        var line = 1
        for part in parts.dropLast() {
            line += part.filter { $0 == "\n" || $0 == "\r\n" }.count
            lines.append(line)
            line += old.filter { $0 == "\n" || $0 == "\r\n" }.count
        }
        try parts.joined(separator: new).write(to: root.appendingPathComponent(file), atomically: true, encoding: .utf8)
        return lines
    }

    func run(_ arguments: [String]) throws -> CLIRunner.Output {
        try CLIRunner.run(arguments, in: root)
    }
}

/// The findings of a JSON report, as "rule product" strings, sorted.
func ruleProducts(_ report: [String: Any]) -> [String] {
    findingRecords(report).map { "\($0["rule"] as? String ?? "?") \($0["product"] as? String ?? "-")" }.sorted()
}

func findingRecords(_ report: [String: Any]) -> [[String: Any]] {
    (report["findings"] as? [[String: Any]]) ?? []
}

func jsonReport(_ output: CLIRunner.Output) throws -> [String: Any] {
    guard let report = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] else {
        throw CLIRunner.EditError(message: "the report is not a JSON object: \(output.stdout) \(output.stderr)")
    }
    return report
}
