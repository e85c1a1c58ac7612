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
    func validate() throws {
        try Usage.checked { () throws(RunFailure) in try ReportTargets<Format>(format: format, output: output, reports: report, environment: [:]).validate() }
    }

    /// The reports asked for (after `validate`, they parse).
    var targets: ReportTargets<Format> {
        (try? ReportTargets(format: format, output: output, reports: report)) ?? ReportTargets(all: [])
    }

    func useColor(for target: ReportTarget<Format>) -> Bool {
        target.format.paintsColour && target.path == nil && Terminal.colorsStandardOutput(noColorFlag: noColor)
    }

    /// With every report going to a file, the console still gets the summary line and where the
    /// reports went (unless --quiet): `✘ 4 errors, ... ` then `reports: junit build/tally.xml`.
    func printConsoleSummary(_ summary: (_ color: Bool) -> String) {
        let targets = targets
        guard !silent, targets.allToFiles else { return }
        Console.out(summary(Terminal.colorsStandardOutput(noColorFlag: noColor)) + "\nreports: " + targets.written + "\n", role: .console)
    }

    /// `--quiet` with every report going to a file: nothing on the console, not even what the
    /// baseline or the ignores took out (the reports say it).
    var silent: Bool { quiet && targets.allToFiles }

    /// Writes every report; each file is written atomically.
    func write(_ render: (Format, Bool) -> String) throws {
        for target in targets.all {
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
        for target in targets.all {
            let color = useColor(for: target)
            var stream = try ReportStream.opened(target.path, forPeople: target.format.isForPeople, color: color)
            render(target.format, color, &stream)
            try stream.finish(path: target.path)
        }
    }
}
