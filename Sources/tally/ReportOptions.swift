import ArgumentParser
import TallyRun
import Foundation
import TallyModel
import TallyReport

/// Which reports a command writes, and where: any number of `--report FORMAT[:FILE]`, or the
/// `--format`/`--output` shorthand for one. One option group for `check`, `lint` (`ReportFormat`)
/// and `diff` (`DiffFormat`); what differs between formats is the formats' own (`ReportKind`).
struct ReportOptions<Format: ReportKind & ExpressibleByArgument>: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "One report's format: \(Format.names) (default: \(Format.standard(environment: [:]))\(Format.standard(environment: ["GITHUB_ACTIONS": "true"]) == Format.standard(environment: [:]) ? "" : "; \(Format.standard(environment: ["GITHUB_ACTIONS": "true"])) when GITHUB_ACTIONS=true")).",
        valueName: "format"))
    var format: Format?

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
        var format: Format
        var path: String?
    }

    func validate() throws {
        let targets = try self.targets(environment: [:])
        if targets.filter({ $0.path == nil }).count > 1 {
            throw ValidationError("only one report can go to standard output; give the others a file, e.g. --report \(Format.exampleFileReport)")
        }
        let paths = targets.compactMap(\.path)
        for (index, path) in paths.enumerated() {
            guard let other = paths[..<index].first(where: { RunFiles.same($0, path) }) else { continue }
            throw ValidationError(other == path ? "two reports would be written to \(path); give each its own file"
                                  : "two reports would be written to one file (\(other) and \(path)); give each its own file")
        }
    }

    /// The reports asked for; with none, the format's standard one (text, or GitHub annotations on
    /// GitHub Actions for check) to standard output.
    func targets(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> [Target] {
        var targets = try report.map(Self.parse)
        if format != nil || output != nil || targets.isEmpty {
            let automatic = format == nil && output == nil ? Format.standard(environment: environment) : Format.standard(environment: [:])
            targets.insert(Target(format: format ?? automatic, path: output), at: 0)
        }
        return targets
    }

    /// `junit:build/tally.xml`, `text`, `sarif:-` (standard output).
    static func parse(_ text: String) throws -> Target {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let name = parts[0]
        guard let format = Format(rawValue: name.lowercased()) else {
            var message = "unknown report format \"\(name)\" in --report \(text)"
            if let near = NearMatch.best(for: name, among: Format.allCases.map(\.rawValue)) { message += "; did you mean \"\(near)\"?" }
            throw ValidationError(message + " (formats: \(Format.names))")
        }
        guard parts.count == 2 else { return Target(format: format, path: nil) }
        let path = parts[1]
        guard !path.isEmpty else { throw ValidationError("--report \(text) names no file after the ':'; write \(name):FILE, or \(name) alone for standard output") }
        return Target(format: format, path: path == "-" ? nil : path)
    }

    /// Colour only for a format that paints it, on a terminal, never with --no-color or a non-empty NO_COLOR.
    func useColor(for target: Target) -> Bool {
        target.format.paintsColour && target.path == nil && Terminal.colorsStandardOutput(noColorFlag: noColor)
    }

    /// Whether the run writes a report that needs the repository root (SARIF, GitHub annotations).
    var needsRepositoryRoot: Bool {
        ((try? targets()) ?? []).contains { $0.format.needsRepositoryRoot }
    }

    /// Whether a report lists passing checks, so that the run records them (JUnit).
    var listsPassingChecks: Bool {
        ((try? targets()) ?? []).contains { $0.format.listsPassingChecks }
    }

    /// Every report goes to a file.
    var allToFiles: Bool {
        !((try? targets()) ?? []).contains { $0.path == nil }
    }

    /// With every report going to a file, the console still gets the summary line and where the
    /// reports went (unless --quiet): `✘ 4 errors, ... ` then `reports: junit build/tally.xml`.
    func printConsoleSummary(_ summary: (_ color: Bool) -> String) throws {
        let targets = try targets()
        guard !silent, allToFiles else { return }
        let written = targets.compactMap { target in target.path.map { "\(target.format) \($0)" } }
        let text = summary(Terminal.colorsStandardOutput(noColorFlag: noColor)) + "\nreports: " + written.joined(separator: ", ") + "\n"
        Console.out(text, role: .console)
    }

    /// `--quiet` with every report going to a file: nothing on the console, not even what the
    /// baseline or the ignores took out (the reports say it).
    var silent: Bool { quiet && allToFiles }

    /// Writes every report; each file is written atomically.
    func write(_ render: (Format, Bool) -> String) throws {
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

    /// Writes every report in pieces (`ReportStream`: a large diff is never held twice).
    func stream(_ render: (Format, Bool, inout ReportStream) -> Void) throws {
        for target in try targets() {
            let color = useColor(for: target)
            var stream = try ReportStream.opened(target.path, forPeople: target.format.isForPeople, color: color)
            render(target.format, color, &stream)
            try stream.finish(path: target.path)
        }
    }

    /// Whether a report on standard output already says what the ignores and baseline took out.
    var mentionsSuppressionsOnStandardOutput: Bool {
        ((try? targets()) ?? []).contains { $0.path == nil && $0.format.showsSuppressions }
    }
}
