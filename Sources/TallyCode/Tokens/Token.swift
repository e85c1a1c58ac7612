/// One token of a source file: what the call shapes, constants and strings are read from.
struct Token: Sendable {
    enum Kind: Sendable, Equatable {
        case identifier
        /// A string literal; `text` is what stands between its quotes, as spelled.
        case string
        case number
        case punctuation
        /// A JavaScript regular expression literal: skipped, kept so nothing inside it is read.
        case regex
    }

    var kind: Kind
    var text: String
    /// The byte offsets of the token in the file (for a string: from its prefix or opening quote).
    var start: Int
    var end: Int
    var line: Int
    /// 1-based, in UTF-8 bytes.
    var column: Int
    /// Whether a line break stands between this token and the one before it.
    var newlineBefore: Bool
    /// For a string: closed on its line (or where its form allows) and without interpolation, so
    /// its text is its value. False for `"$x"`, `` `${x}` ``, `$"{x}"` and an unterminated string.
    var isLiteral: Bool = false
    /// For a string: it had interpolation (`"$x"`, `` `${x}` ``, `$"{x}"`).
    var isInterpolated: Bool = false

    func isPunctuation(_ text: String) -> Bool { kind == .punctuation && self.text == text }
    func isIdentifier(_ text: String) -> Bool { kind == .identifier && self.text == text }
    var isLiteralString: Bool { kind == .string && isLiteral }
}

/// A comment's place in the file: strings quoted inside comments are reported as rejected.
struct CommentSpan: Sendable {
    var start: Int
    var end: Int
    var line: Int
    var column: Int
}

/// A file as tokens, comments aside.
struct LexedFile: Sendable {
    var tokens: [Token]
    var comments: [CommentSpan]
}
