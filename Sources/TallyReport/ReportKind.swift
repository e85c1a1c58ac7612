import TallyModel

/// What a command needs to know of a report format besides its reporter: the facts `check`, `lint`
/// and `diff` kept in hand lists before (which format paints colour, needs the repository's root,
/// says what was suppressed, lists passing checks). `ReportFormat` and `DiffFormat` answer each in
/// an exhaustive switch, so a new format cannot be added without saying them.
public protocol ReportKind: RawRepresentable, CaseIterable, Sendable, Hashable, CustomStringConvertible where RawValue == String {
    /// Text and Markdown: made safe for a terminal and a CI log as a whole (`SafeText.block`).
    var isForPeople: Bool { get }
    /// Paints colour on a terminal (never into a file).
    var paintsColour: Bool { get }
    /// Names files from the repository's top folder (SARIF, GitHub annotations).
    var needsRepositoryRoot: Bool { get }
    /// Says what the ignores and the baseline took out, so the console need not.
    var showsSuppressions: Bool { get }
    /// Lists the checks that passed (JUnit's passing test cases), which the run then records.
    var listsPassingChecks: Bool { get }
    /// The format when none is named: text, or GitHub annotations on GitHub Actions where the
    /// format has them.
    static func standard(environment: [String: String]) -> Self
    /// A second report in a message's example: `junit:build/tally.xml`.
    static var exampleFileReport: String { get }
}

extension ReportKind {
    /// Every format's name, for help and messages: `text, json, junit`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The report as it may reach a terminal, a CI log or a pull request (see `SafeText`): the
    /// formats for people pass through `SafeText.block`, which writes out any escape sequence,
    /// bidirectional override or workflow command a value could still carry (keeping the colour
    /// the format painted); GitHub annotations are commands by design and escape their values
    /// themselves; JSON, JUnit, SARIF and HTML escape by their own syntax.
    public func safe(_ report: String, color: Bool) -> String {
        isForPeople ? SafeText.block(report, keepingColour: color && paintsColour) : report
    }
}

extension ReportFormat: ReportKind {
    public var isForPeople: Bool {
        switch self {
        case .text, .markdown: true
        case .json, .junit, .sarif, .github, .html: false
        }
    }

    public var paintsColour: Bool { self == .text }

    public var needsRepositoryRoot: Bool {
        switch self {
        case .sarif, .github: true
        case .text, .json, .junit, .markdown, .html: false
        }
    }

    public var showsSuppressions: Bool {
        switch self {
        case .text, .github, .markdown: true
        case .json, .junit, .sarif, .html: false
        }
    }

    public var listsPassingChecks: Bool { self == .junit }

    public static func standard(environment: [String: String]) -> ReportFormat {
        environment["GITHUB_ACTIONS"] == "true" ? .github : .text
    }

    public static var exampleFileReport: String { "junit:build/tally.xml" }
}

extension DiffFormat: ReportKind {
    public var isForPeople: Bool {
        switch self {
        case .text, .markdown, .releaseNotes: true
        case .json, .html: false
        }
    }

    public var paintsColour: Bool { self == .text }
    public var needsRepositoryRoot: Bool { false }
    public var showsSuppressions: Bool { false }
    public var listsPassingChecks: Bool { false }
    public static func standard(environment: [String: String]) -> DiffFormat { .text }
    public static var exampleFileReport: String { "html:build/diff.html" }
}
