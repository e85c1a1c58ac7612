import TallyDiff

/// Turns the result of `tally diff` into one output format.
///
/// Like `Reporter` for checks: the whole report as a string, without a trailing newline; only the
/// `tally` executable prints or writes files.
public protocol DiffReporter: Sendable {
    /// The format's name, as given to `--format`.
    static var identifier: String { get }

    /// The complete report for `result`.
    func report(_ result: DiffResult) -> String

    /// Writes the report to `output` in pieces, so that a report of millions of changes is never
    /// held whole. The default writes `report(result)` at once.
    func write<Output: TextOutputStream>(_ result: DiffResult, to output: inout Output)
}

extension DiffReporter {
    public func write<Output: TextOutputStream>(_ result: DiffResult, to output: inout Output) {
        output.write(report(result))
    }
}

/// Every format `tally diff` writes. Adding a case forces a reporter for it in `reporter(color:verbose:)`.
public enum DiffFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A summary, the changes that need attention, then the changes grouped by product.
    case text
    /// Every change, for scripts: the document described on `DiffJSONReport`.
    case json
    /// A table per file, for a pull-request comment.
    case markdown
    /// One self-contained HTML page (inline CSS, no scripts) for a release manager.
    case html
    /// Markdown release notes grouped by what buyers see, for a release ticket.
    case releaseNotes = "release-notes"

    public var description: String { rawValue }

    /// Text and Markdown summarise a product's price changes in one row above this many,
    /// unless verbose.
    public static let sweepThreshold = 10

    /// The reporter for this format. `color` only affects `text`; `verbose` lists every price
    /// row instead of summarising large sweeps (JSON always lists every change).
    public func reporter(color: Bool, verbose: Bool) -> any DiffReporter {
        switch self {
        case .text: DiffTextReporter(color: color, verbose: verbose)
        case .json: DiffJSONReporter()
        case .markdown: DiffMarkdownReporter(verbose: verbose)
        case .html: DiffHTMLReporter(verbose: verbose)
        case .releaseNotes: DiffReleaseNotesReporter()
        }
    }
}
