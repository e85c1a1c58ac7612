import ArgumentParser
import Foundation
import TallyModel
import TallyReport

/// Which reports `tally check` writes, and where: any number of `--report FORMAT[:FILE]`, or the
/// `--format`/`--output` shorthand for one.
struct ReportOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "One report's format (default: text; github when GITHUB_ACTIONS=true).", valueName: "format"))
    var format: ReportFormat?

    @Option(name: .long, help: ArgumentHelp("Write that report to FILE instead of standard output (atomically).", valueName: "file"))
    var output: String?

    @Option(name: .long, help: ArgumentHelp(
        "A report to write: FORMAT to standard output, or FORMAT:FILE (atomically, folders created). Repeat for several.",
        valueName: "format[:file]"))
    var report: [String] = []

    @Flag(name: .long, help: "Never colour the output (colour is only used on a terminal anyway; NO_COLOR is honoured).")
    var noColor = false

    @Flag(name: .long, help: "When every report goes to a file, print nothing on the console (by default: the summary line and where the reports went).")
    var quiet = false

    /// One report: a format and a file, or standard output when `path` is nil.
    struct Target: Equatable {
        var format: ReportFormat
        var path: String?
    }

    func validate() throws {
        let targets = try self.targets(environment: [:])
        if targets.filter({ $0.path == nil }).count > 1 {
            throw ValidationError("only one report can go to standard output; give the others a file, e.g. --report junit:build/tally.xml")
        }
        let paths = targets.compactMap(\.path)
        for (index, path) in paths.enumerated() {
            guard let other = paths[..<index].first(where: { RunFiles.same($0, path) }) else { continue }
            throw ValidationError(other == path ? "two reports would be written to \(path); give each its own file"
                                  : "two reports would be written to one file (\(other) and \(path)); give each its own file")
        }
    }

    /// The reports asked for; with none, text (or GitHub annotations on GitHub Actions) to standard output.
    func targets(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [Target] {
        var targets = try report.map(Self.parse)
        if format != nil || output != nil || targets.isEmpty {
            let automatic: ReportFormat = format == nil && output == nil && environment["GITHUB_ACTIONS"] == "true" ? .github : .text
            targets.insert(Target(format: format ?? automatic, path: output), at: 0)
        }
        return targets
    }

    /// `junit:build/tally.xml`, `text`, `sarif:-` (standard output).
    static func parse(_ text: String) throws -> Target {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        guard let format = ReportFormat(rawValue: name.lowercased()) else {
            var message = "unknown report format \"\(name)\" in --report \(text)"
            if let near = NearMatch.best(for: name, among: ReportFormat.allCases.map(\.rawValue)) { message += "; did you mean \"\(near)\"?" }
            throw ValidationError(message + " (formats: \(ReportFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        guard parts.count == 2 else { return Target(format: format, path: nil) }
        let path = parts[1]
        guard !path.isEmpty else { throw ValidationError("--report \(text) names no file after the ':'; write \(name):FILE, or \(name) alone for standard output") }
        return Target(format: format, path: path == "-" ? nil : path)
    }

    /// Colour only for text on a terminal, never with --no-color or a non-empty NO_COLOR.
    func useColor(for target: Target) -> Bool {
        target.format == .text && target.path == nil && Terminal.colorsStandardOutput(noColorFlag: noColor)
    }

    /// Whether the run writes a report that needs the repository root (SARIF, GitHub annotations).
    var needsRepositoryRoot: Bool {
        ((try? targets()) ?? []).contains { $0.format == .sarif || $0.format == .github }
    }

    /// With every report going to a file, the console still gets the summary line and where the
    /// reports went (unless --quiet): `✘ 4 errors, ... ` then `reports: junit build/tally.xml`.
    func printConsoleSummary(_ summary: (_ color: Bool) -> String) throws {
        let targets = try targets()
        guard !silent, !targets.contains(where: { $0.path == nil }) else { return }
        let written = targets.compactMap { target in target.path.map { "\(target.format) \($0)" } }
        let text = summary(Terminal.colorsStandardOutput(noColorFlag: noColor)) + "\nreports: " + written.joined(separator: ", ") + "\n"
        Console.out(text, role: .console)
    }

    /// `--quiet` with every report going to a file: nothing on the console, not even what the
    /// baseline or the ignores took out (the reports say it).
    var silent: Bool {
        quiet && !((try? targets()) ?? []).contains { $0.path == nil }
    }

    /// Writes every report; each file is written atomically.
    func write(_ render: (ReportFormat, Bool) -> String) throws {
        for target in try targets() {
            let color = useColor(for: target)
            let text = target.format.safe(render(target.format, color), color: color)
            if let path = target.path {
                try ReportFile.writeOrExit(text, to: path)
            } else {
                Console.out(text.hasSuffix("\n") ? text : text + "\n")
            }
        }
    }

    /// Whether a report on standard output already says what the ignores and baseline took out
    /// (text, GitHub annotations and Markdown do; JSON, JUnit and SARIF have no place for it).
    var mentionsSuppressionsOnStandardOutput: Bool {
        ((try? targets()) ?? []).contains { $0.path == nil && [.text, .github, .markdown].contains($0.format) }
    }
}
