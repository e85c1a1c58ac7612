import Foundation
import Testing
import TallyCheck
import TallyFormats
import TallyModel
import TallyReport

/// The fuzz targets, as `TallyFuzz --list` prints them (the replay build sits beside `tally`).
enum FuzzTargets {
    static func list() throws -> [(name: String, format: String)] {
        let process = Process()
        process.executableURL = CLIRunner.executable.deletingLastPathComponent().appendingPathComponent("TallyFuzz")
        process.arguments = ["--list"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "-")
        }
    }
}

/// Lists that must agree come from one place, or fail here when they drift: the input formats
/// (`SourceFormat.allCases`, read by `SourceLoader.readers`) against the fuzz targets, the
/// documentation's format lists and the help text.
@Suite struct OneRegistryTests {
    @Test func everyFormatHasAFuzzTargetAndRunShKeepsNoListOfItsOwn() throws {
        let fuzzed = Set(try FuzzTargets.list().map(\.format))
        let missing = SourceFormat.allCases.map(\.rawValue).filter { !fuzzed.contains($0) }
        #expect(missing.isEmpty, "formats without a fuzz target (a reader's `fuzzTargets`): \(missing)")
        let script = try String(contentsOf: CLIRunner.repository.appendingPathComponent("fuzz/run.sh"), encoding: .utf8)
        #expect(script.contains("TallyFuzz\" --list"), "fuzz/run.sh runs the targets TallyFuzz lists")
    }

    /// The fuzz targets are the readers' own (`SourceReader.fuzzTargets`, over `SourceLoader.readers`)
    /// and the mapping parser's: TallyFuzz keeps no list, and no two targets share a name.
    @Test func theFuzzTargetsAreTheReadersOwn() throws {
        let names = SourceLoader.readers.flatMap { $0.fuzzTargets.map(\.name) } + ["mapping"]
        #expect(Set(names).count == names.count, "fuzz targets of one name: \(names.sorted())")
        #expect(try FuzzTargets.list().map(\.name).sorted() == names.sorted())
    }

    /// docs/show-json.md names a source's `format`: every format, and no other.
    @Test func theDocsNameEveryFormat() throws {
        let page = "docs/show-json.md"
        let text = try String(contentsOf: CLIRunner.repository.appendingPathComponent(page), encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("`tally-catalog-json`") }) else {
            Issue.record("\(page) lists no formats (looked for a line naming `tally-catalog-json`)")
            return
        }
        let named = Set(line.matches(of: /`([a-z-]+)`/).map { String($0.output.1) }).intersection(Self.formatLike)
        #expect(named == Set(SourceFormat.allCases.map(\.rawValue)), "\(page) format list: \(line)")
    }

    /// Backticked words that could be format names (a format list also names fields such as `file`).
    static let formatLike = Set(SourceFormat.allCases.map(\.rawValue)).union(["tally-catalog", "xml", "json", "yaml", "app-store", "play"])

    @Test func theInputFormatHelpNamesEveryFormat() throws {
        let help = try CLIRunner.run(["show", "--help"])
        let flat = help.stdout.replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
        for format in SourceFormat.allCases {
            #expect(flat.contains(format.rawValue), "show --help does not name \(format.rawValue)")
        }
    }

    /// `tally --help` says what Tally reads and writes from the registries (issue 39: it named 8
    /// of 15 input formats): every format's phrase, every report and diff format.
    @Test func theMainHelpNamesEveryInputAndReportFormat() throws {
        let help = try CLIRunner.run(["--help"])
        let flat = help.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
        for format in SourceFormat.allCases {
            let phrase = format.forPeople.split(separator: " ").joined(separator: " ")
            #expect(flat.contains(phrase), "tally --help does not say \(phrase)")
        }
        guard let reports = flat.range(of: "Reports: ") else {
            Issue.record("tally --help has no Reports: line: \(flat.prefix(400))")
            return
        }
        let line = flat[reports.upperBound...].prefix { $0 != "." && $0 != "E" }
        for format in ReportFormat.allCases.map(\.rawValue) + DiffFormat.allCases.map(\.rawValue) {
            #expect(line.contains(format), "tally --help's Reports: line does not name \(format): \(line)")
        }
    }

    /// The rules: `RuleSet` is the one list (`RuleID.all` and the descriptions come from it).
    /// Fails when an identity in `RuleID` has no rule in `RuleSet` (or a rule's ID is not one of
    /// them), when a rule's description lacks its summary, rationale or fix, or when docs/rules.md
    /// names a rule that does not exist or misses one.
    @Test func everyRuleIDHasARuleWithADescriptionAndTheRulesPageNamesEachOnce() throws {
        let source = try String(contentsOf: CLIRunner.repository.appendingPathComponent("Sources/TallyModel/RuleID.swift"), encoding: .utf8)
        let declared = source.matches(of: /static let \w+ = RuleID\(rawValue: "([a-z-]+)"\)/).map { String($0.output.1) }
        let ruled = RuleSet.descriptions.map(\.id.rawValue)
        #expect(!declared.isEmpty, "found no RuleID members in Sources/TallyModel/RuleID.swift")
        #expect(Set(declared).subtracting(ruled).sorted() == [], "RuleID members with no rule in RuleSet (Sources/TallyCheck/Checker.swift)")
        #expect(Set(ruled).subtracting(declared).sorted() == [], "rules whose ID is not a RuleID member")
        #expect(Set(ruled).count == ruled.count, "a rule ID is used by two rules: \(ruled)")
        #expect(RuleID.all.map(\.rawValue) == ruled)
        for description in RuleSet.descriptions {
            #expect(!description.summary.isEmpty && !description.rationale.isEmpty && !description.fix.isEmpty,
                    "\(description.id) lacks a summary, rationale or fix")
            #expect(["cross-source", "lint", "paywall", "code"].contains(description.category), "\(description.id): category \(description.category)")
        }
        let page = try String(contentsOf: CLIRunner.repository.appendingPathComponent("docs/rules.md"), encoding: .utf8)
        let rows = page.split(separator: "\n").compactMap { $0.firstMatch(of: /^\| `([a-z-]+)` \|/).map { String($0.output.1) } }
        #expect(rows == ruled, "docs/rules.md's table lists other rules than RuleSet: regenerate it (TALLY_RECORD=1 swift test --filter RulesPageTests)")
    }
}
