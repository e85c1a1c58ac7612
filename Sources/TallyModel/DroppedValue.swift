/// A value a reader could not take (a price that is not a decimal or is out of range, a period
/// that is not ISO 8601, an offer it cannot read): the file was read, but this value is not in
/// the catalogue, so nothing compares, shows or converts it. Every command that reads a source
/// tells about these (`tally lint` also reports them as findings).
public struct DroppedValue: Sendable, Hashable, CustomStringConvertible {
    /// Where the value is written.
    public var location: SourceLocation
    /// The reader's issue: its lint rule, product, field and message.
    public var issue: SourceIssue

    public init(location: SourceLocation, issue: SourceIssue) {
        self.location = location
        self.issue = issue
    }

    /// `App.storekit:12:7: warning: com.example.pro: displayPrice "1…0" is out of range: 60 digits,
    /// more than the 38 a decimal holds exactly; the value was not taken (invalid-price)`.
    public var description: String { description(remedy: \.summary) }

    /// The line, with the issue's remedy (if any) in the caller's words: `tally` names its flag.
    public func description(remedy text: (Remedy) -> String) -> String {
        diagnostic.rendered(remedy: text)
    }
}

extension Catalog {
    /// The values the reader could not take, in the order they were found, each with its file
    /// and line (the part's own file for a source read from several files).
    public var droppedValues: [DroppedValue] {
        issues.map { DroppedValue(location: location($0.position, path: $0.path), issue: $0) }
    }
}
