import TallyModel

/// A file Tally cannot read: what is wrong and where, as precisely as the format allows.
///
/// Readers that can go on after a mistake (the catalogue, mapping and policy readers) report
/// every error of a file in one pass: the first is this error, the rest are in `others`.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String
    /// Further errors found in the same pass, in the order found.
    public var others: [FormatError] = []
    /// Whether the reader stopped at `FormatError.limit` errors, so that the file may hold more.
    public var stoppedAtLimit = false
    /// What the reader of the message can do about it, rendered by whoever shows the error:
    /// `tally` names its flag, `TallyTesting` the argument (see `rendered(remedy:)`).
    public var remedy: Remedy?

    /// How many errors a reader collects before it stops.
    public static let limit = 20

    public init(_ message: String, at location: SourceLocation) {
        self.location = location
        self.message = message
    }

    public init(_ message: String, file: String, position: Position, path: String? = nil) {
        self.message = message
        self.location = position.isKnown
            ? SourceLocation(file: file, line: Int(position.line), column: Int(position.column), path: path)
            : SourceLocation(file: file, path: path)
    }

    /// This error with a remedy.
    public func with(_ remedy: Remedy) -> FormatError {
        var copy = self
        copy.remedy = remedy
        return copy
    }

    /// One error carrying all of `errors` (which must not be empty): the first, with the rest as `others`.
    public static func combining(_ errors: [FormatError], stoppedAtLimit: Bool = false) -> FormatError {
        let flat = errors.flatMap(\.all)
        var first = flat[0]
        first.others = Array(flat.dropFirst())
        first.stoppedAtLimit = stoppedAtLimit || errors.contains(where: \.stoppedAtLimit)
        return first
    }

    /// This error and the others, each on its own.
    public var all: [FormatError] {
        var head = self
        head.others = []
        head.stoppedAtLimit = false
        return [head] + others.flatMap(\.all)
    }

    /// `file:line:column: error: message (at products[2].prices)`, the form editors and CI link;
    /// one line per error when there are several.
    public var description: String {
        rendered { $0.summary }
    }

    /// The errors with each remedy in the words of the caller (a flag, an argument).
    public func rendered(remedy text: (Remedy) -> String) -> String {
        diagnostics.map { $0.rendered(remedy: text) }.joined(separator: "\n")
    }

    /// Each error as a diagnostic, and a note when the reader stopped at `FormatError.limit`.
    public var diagnostics: [Diagnostic] {
        var list = all.map { Diagnostic(.error, $0.message, at: $0.location, path: $0.location.path, remedy: $0.remedy) }
        if stoppedAtLimit {
            list.append(Diagnostic(.note, "stopped after \(FormatError.limit) errors; fix these and run again", at: SourceLocation(file: location.file)))
        }
        return list
    }
}
