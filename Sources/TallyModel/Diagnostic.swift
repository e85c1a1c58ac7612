import Foundation

/// Something a run says besides its findings: a file it could not read, a value a reader could not
/// take, a setting it warns about, a note on what it left out, a reason it stopped. Every producer
/// (readers, the run, the policy, the fetch) makes these, and every audience renders them: the
/// console (`tally`: `file:line:col: warning: …`, a remedy as its flag), the JSON report
/// (`diagnostics`), `TallyTesting` (a remedy as the argument a test passes).
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public var severity: Severity
    /// The file (and line, column, key path) it is about; none for the run itself (`tally: …`).
    public var location: SourceLocation?
    /// What happened, in words; values from files are made safe when rendered.
    public var message: String
    /// Where in the file's structure (`products[2].prices`), shown after the message.
    public var path: String?
    /// What the person can do about it, rendered in the words of whoever shows it.
    public var remedy: Remedy?

    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil, path: String? = nil, remedy: Remedy? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.path = path
        self.remedy = remedy
    }

    /// `file:line:col: SEVERITY: message (at path)` and the remedy in the caller's words, an error's
    /// in parentheses, a warning's or note's after a semicolon; a diagnostic of the run itself is
    /// `tally: message`. An error's long values are elided with their length (`Elision`: a 50 MB
    /// key); every value is one safe line (`SafeText.line`).
    public func rendered(remedy text: (Remedy) -> String) -> String {
        guard let location else {
            return "tally: " + SafeText.line(message) + (remedy.map { " (\(text($0)))" } ?? "")
        }
        var line = "\(location): \(severity.rawValue): \(SafeText.line(message))"
        if location.line != nil, let path, !path.isEmpty { line += " (at \(SafeText.line(path)))" }
        if severity == .error { line = Elision.message(line) }
        guard let remedy else { return line }
        return line + (severity == .error ? " (\(text(remedy)))" : "; \(text(remedy))")
    }

    /// Rendered with each remedy in words that name no interface.
    public var description: String { rendered { $0.summary } }
}

extension DroppedValue {
    /// `App.storekit:12:7: warning: com.example.pro: … the value was not taken (invalid-price)`.
    public var diagnostic: Diagnostic {
        // An unknown key's message says itself what was not read.
        let taken = issue.rule == .unknownContent || issue.rule == .promotionalImage ? "" : "; the value was not taken"
        let product = issue.productID.map { "\($0): " } ?? ""
        return Diagnostic(.warning, "\(product)\(issue.message)\(taken) (\(issue.rule))", at: location, remedy: issue.remedy)
    }
}

/// The diagnostics a run has said, in order: whoever shows them records them here, and whoever
/// reports on the run (the JSON report) reads them back.
public final class DiagnosticLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [Diagnostic] = []

    public init() {}

    public func append(_ diagnostic: Diagnostic) { lock.withLock { entries.append(diagnostic) } }

    public var all: [Diagnostic] { lock.withLock { entries } }

    /// How many of each severity.
    public func count(_ severity: Severity) -> Int { lock.withLock { entries.filter { $0.severity == severity }.count } }
}
