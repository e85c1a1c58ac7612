import TallyModel

/// A file Tally cannot read: what is wrong and where, as precisely as the format allows.
public struct FormatError: Error, Sendable, Hashable, CustomStringConvertible {
    public var location: SourceLocation
    public var message: String

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

    /// `file:line:column: error: message (at products[2].prices)`, the form editors and CI link.
    public var description: String {
        var text = "\(location): error: \(message)"
        if location.line != nil, let path = location.path, !path.isEmpty { text += " (at \(path))" }
        return text
    }
}
