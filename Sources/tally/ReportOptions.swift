import ArgumentParser
import TallyReport
import TallyRun

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

    /// The reports, `--no-color` and `--quiet` as `TallyRun` writes them.
    var request: ReportRequest<Format> { ReportRequest(targets: targets, noColor: noColor, quiet: quiet) }
}
