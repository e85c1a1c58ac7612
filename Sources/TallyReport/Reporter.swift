import TallyCheck
import TallyModel

/// Turns a check result into one output format.
///
/// Reporters return the whole report as a string, without a trailing newline; only the `tally`
/// executable prints or writes files.
public protocol Reporter: Sendable {
    /// The format's name, as given to `--format`.
    static var identifier: String { get }

    /// The complete report for `result`.
    func report(_ result: CheckResult) -> String
}

/// Every output format Tally writes. Adding a case forces a reporter for it in `reporter(color:)`.
public enum ReportFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Human-readable lines for a terminal or a CI log.
    case text
    /// The versioned JSON document described on `JSONReport`.
    case json
    /// JUnit XML, one test suite per rule, for GitLab, Jenkins and other CI test views.
    case junit
    /// SARIF 2.1.0, for GitHub code scanning and other static-analysis viewers.
    case sarif
    /// GitHub Actions annotations (`::error file=...,line=...::message`).
    case github
    /// Markdown with a summary table and details, for a pull-request comment.
    case markdown
    /// One self-contained HTML page (inline CSS, no scripts) with the findings and both sides.
    case html

    public var description: String { rawValue }

    /// The reporter for this format. `color` only affects `text`; `context` says what fails the
    /// run (summaries, JUnit failures) and where the repository root is (SARIF).
    public func reporter(color: Bool, context: ReportContext = ReportContext()) -> any Reporter {
        switch self {
        case .text: TextReporter(color: color, context: context)
        case .json: JSONReporter(context: context)
        case .junit: JUnitReporter(context: context)
        case .sarif: SARIFReporter(context: context)
        case .github: GitHubReporter(context: context)
        case .markdown: MarkdownReporter(context: context)
        case .html: HTMLReporter(context: context)
        }
    }
}
