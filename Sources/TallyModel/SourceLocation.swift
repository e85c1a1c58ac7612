/// Where a value came from: a file and, where the format has them, a line and column
/// (1-based) or a key path (property lists have no line numbers).
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// A key path such as `Products[3].productIdentifier`, for sources without lines.
    public var path: String?

    public init(file: String, line: Int? = nil, column: Int? = nil, path: String? = nil) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
    }

    /// `file:line:column`, `file:line`, `file (path)` or `file`.
    public var description: String {
        // A file name is data: a newline or an escape sequence in it is written out (`SafeText`).
        var text = SafeText.line(file)
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        } else if let path {
            text += " (\(SafeText.line(path)))"
        }
        return text
    }
}

/// A compact position inside one source file (line and column, 1-based; 0 when unknown).
/// Model values carry a `Position`; the file name lives once on the `Catalog`.
public struct Position: Sendable, Hashable, Codable {
    public var line: UInt32
    public var column: UInt32

    public init(line: Int, column: Int) {
        self.line = UInt32(clamping: line)
        self.column = UInt32(clamping: column)
    }

    public static let unknown = Position(line: 0, column: 0)
    public var isKnown: Bool { line > 0 }
}
