/// Turns a file into tokens, skipping comments: one pass over the UTF-8 bytes, no recursion
/// (interpolations nested in strings are followed on an explicit stack), so any input ends in
/// time linear in its size. A string that is not closed on its line ends at the line break.
struct Lexer {
    private let bytes: [UInt8]
    private let rules: LexicalRules
    private var pos = 0
    private var line = 1
    private var lineStart = 0
    private var sawNewline = false
    private var tokens: [Token] = []
    private var comments: [CommentSpan] = []

    init(text: String, language: CodeLanguage) {
        bytes = Array(text.utf8)
        rules = LexicalRules.forLanguage(language)
    }

    static func lex(_ text: String, language: CodeLanguage) -> LexedFile {
        var lexer = Lexer(text: text, language: language)
        return lexer.run()
    }

    private mutating func run() -> LexedFile {
        if bytes.starts(with: [0x23, 0x21]) { skipToLineEnd() }  // #! on the first line
        while pos < bytes.count {
            let c = bytes[pos]
            if c == 0x0A { newline(); pos += 1; continue }
            if c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0C || c == 0x0B { pos += 1; continue }
            if c == 0x2F, next(1) == 0x2F { lineComment(); continue }
            if c == 0x2F, next(1) == 0x2A { blockComment(); continue }
            if c == 0x23, atLineStart(), hashLine() { continue }
            if let (form, prefix) = stringOpener(at: pos) { string(form, prefixLength: prefix); continue }
            if c == 0x60, !rules.templateLiterals { backtickIdentifier(); continue }
            if Lexer.isIdentifierStart(c) { identifier(); continue }
            if Lexer.isDigit(c) { number(); continue }
            if c == 0x2F, rules.regexLiterals, regexMayStart(), regex() { continue }
            punctuation()
        }
        return LexedFile(tokens: tokens, comments: comments)
    }

    // MARK: - Bytes and positions

    private func next(_ offset: Int) -> UInt8? {
        let i = pos + offset
        return i < bytes.count ? bytes[i] : nil
    }

    private mutating func newline() {
        line += 1
        lineStart = pos + 1
        sawNewline = true
    }

    /// Moves to `end`, counting the line breaks on the way.
    private mutating func advance(to end: Int) {
        let end = min(end, bytes.count)
        while pos < end {
            if bytes[pos] == 0x0A { newline() }
            pos += 1
        }
    }

    private mutating func skipToLineEnd() {
        while pos < bytes.count, bytes[pos] != 0x0A { pos += 1 }
    }

    /// No token yet on this line (a comment before a `#` does not count).
    private func atLineStart() -> Bool {
        guard let last = tokens.last else { return true }
        return last.end <= lineStart
    }

    private mutating func emit(_ kind: Token.Kind, from start: Int, line: Int, column: Int, text: String? = nil) {
        let spelled = text ?? String(decoding: bytes[start..<pos], as: UTF8.self)
        tokens.append(Token(kind: kind, text: spelled, start: start, end: pos, line: line, column: column, newlineBefore: sawNewline))
        sawNewline = false
    }

    static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) || c == 0x5F || c == 0x24 || c >= 0x80
    }

    static func isIdentifierPart(_ c: UInt8) -> Bool { isIdentifierStart(c) || isDigit(c) }
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    // MARK: - Comments and directives

    private mutating func lineComment() {
        let start = pos, column = pos - lineStart + 1
        skipToLineEnd()
        comments.append(CommentSpan(start: start, end: pos, line: line, column: column))
    }

    private mutating func blockComment() {
        let start = pos, startLine = line, column = pos - lineStart + 1
        var depth = 0
        while pos < bytes.count {
            if bytes[pos] == 0x2F, next(1) == 0x2A {
                depth += 1
                pos += 2
                if !rules.nestedBlockComments && depth > 1 { depth = 1 }
            } else if bytes[pos] == 0x2A, next(1) == 0x2F {
                depth -= 1
                pos += 2
                if depth == 0 { break }
            } else {
                if bytes[pos] == 0x0A { newline() }
                pos += 1
            }
        }
        comments.append(CommentSpan(start: start, end: pos, line: startLine, column: column))
    }

    /// A `#` line C# or Objective-C does not write code on; true when it was skipped.
    private mutating func hashLine() -> Bool {
        switch rules.hashLines {
        case .tokens:
            return false
        case .skipDirectives:
            skipToLineEnd()
            return true
        case .objectiveC:
            var i = pos + 1
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 }
            var j = i
            while j < bytes.count, Lexer.isIdentifierPart(bytes[j]) { j += 1 }
            let word = String(decoding: bytes[i..<j], as: UTF8.self)
            guard ["pragma", "warning", "error"].contains(word) else { return false }
            skipToLineEnd()
            return true
        }
    }

    // MARK: - Strings

    /// The string that starts at `i`, and how many bytes its prefix and opening quotes take.
    private func stringOpener(at i: Int) -> (StringForm, Int)? {
        func byte(_ k: Int) -> UInt8? { i + k < bytes.count ? bytes[i + k] : nil }
        let dq: UInt8 = 0x22, sq: UInt8 = 0x27
        guard let c = byte(0) else { return nil }
        let triple = { (q: UInt8, at: Int) -> Bool in byte(at) == q && byte(at + 1) == q && byte(at + 2) == q }
        if rules.atStrings, c == 0x40, byte(1) == dq {
            return (StringForm(quote: dq), 2)
        }
        if rules.cSharpPrefixes, c == 0x40 || c == 0x24 {
            // @"…", $"…", $@"…", @$"…", $"""…""", $$"""…"""
            var k = 0, verbatim = false, interpolated = false
            while let p = byte(k), p == 0x40 || p == 0x24 { if p == 0x40 { verbatim = true } else { interpolated = true }; k += 1 }
            guard k > 0, byte(k) == dq else { return nil }
            if triple(dq, k) {
                return (StringForm(quote: dq, triple: true, raw: true, interpolation: interpolated ? .brace : .none, multiline: true), k + 3)
            }
            return (StringForm(quote: dq, raw: verbatim, doubledQuote: verbatim, interpolation: interpolated ? .brace : .none, multiline: verbatim), k + 1)
        }
        if rules.rawPrefix, c == 0x72, byte(1) == dq || byte(1) == sq, i == 0 || !Lexer.isIdentifierPart(bytes[i - 1]) {
            let q = byte(1) ?? dq
            if rules.tripleQuotes, triple(q, 1) { return (StringForm(quote: q, triple: true, raw: true, multiline: true), 4) }
            return (StringForm(quote: q, raw: true), 2)
        }
        let dollar: StringForm.Interpolation = rules.dollarInterpolation ? .dollar : .none
        if c == dq || (c == sq && rules.singleQuoteStrings) {
            if rules.tripleQuotes, triple(c, 0), c == dq || rules.singleQuoteStrings {
                return (StringForm(quote: c, triple: true, raw: !rules.tripleQuotesEscape, interpolation: dollar, multiline: true), 3)
            }
            return (StringForm(quote: c, interpolation: dollar), 1)
        }
        if c == sq { return (StringForm(quote: sq), 1) }  // a character literal
        if c == 0x60, rules.templateLiterals {
            return (StringForm(quote: 0x60, interpolation: .dollarBrace, multiline: true), 1)
        }
        return nil
    }

    private enum Frame {
        case string(StringForm)
        /// Code inside an interpolation, with its brace depth.
        case code(Int)
    }

    /// Reads one string, following interpolated code (and the strings in it) on a stack.
    private mutating func string(_ form: StringForm, prefixLength: Int) {
        let start = pos, startLine = line, column = pos - lineStart + 1
        var stack: [Frame] = [.string(form)]
        var i = pos + prefixLength
        let contentStart = i
        var contentEnd = i
        var interpolated = false
        var terminated = false
        let n = bytes.count
        scan: while i < n, let frame = stack.last {
            let c = bytes[i]
            if c == 0x0A, !form.multiline {
                if case .string(let inner) = frame, inner.multiline {} else { break scan }
            }
            switch frame {
            case .string(let f):
                if c == 0x5C, !f.raw { i += 2; continue }
                if c == f.quote {
                    if f.triple {
                        guard i + 2 < n, bytes[i + 1] == f.quote, bytes[i + 2] == f.quote else { i += 1; continue }
                        var close = i + 3
                        while close < n, bytes[close] == f.quote { close += 1 }  // """" closes on the last three
                        stack.removeLast()
                        if stack.isEmpty { contentEnd = close - 3; i = close; terminated = true; break scan }
                        i = close
                        continue
                    }
                    if f.doubledQuote, i + 1 < n, bytes[i + 1] == f.quote { i += 2; continue }
                    stack.removeLast()
                    if stack.isEmpty { contentEnd = i; i += 1; terminated = true; break scan }
                    i += 1
                    continue
                }
                switch f.interpolation {
                case .none:
                    break
                case .dollar:
                    if c == 0x24, i + 1 < n {
                        if bytes[i + 1] == 0x7B { interpolated = true; stack.append(.code(1)); i += 2; continue }
                        if Lexer.isIdentifierStart(bytes[i + 1]), bytes[i + 1] != 0x24 { interpolated = true }
                    }
                case .dollarBrace:
                    if c == 0x24, i + 1 < n, bytes[i + 1] == 0x7B { interpolated = true; stack.append(.code(1)); i += 2; continue }
                case .brace:
                    if c == 0x7B {
                        if i + 1 < n, bytes[i + 1] == 0x7B { i += 2; continue }
                        interpolated = true
                        stack.append(.code(1))
                        i += 1
                        continue
                    }
                }
                i += 1
            case .code(let depth):
                if c == 0x7B { stack[stack.count - 1] = .code(depth + 1); i += 1; continue }
                if c == 0x7D {
                    if depth <= 1 { stack.removeLast() } else { stack[stack.count - 1] = .code(depth - 1) }
                    i += 1
                    continue
                }
                if c == 0x2F, i + 1 < n, bytes[i + 1] == 0x2A {  // a block comment inside an interpolation
                    i += 2
                    while i + 1 < n, !(bytes[i] == 0x2A && bytes[i + 1] == 0x2F) { i += 1 }
                    i += 2
                    continue
                }
                if let (inner, prefix) = stringOpener(at: i) { stack.append(.string(inner)); i += prefix; continue }
                i += 1
            }
        }
        let end = min(i, n)
        let text = terminated ? String(decoding: bytes[contentStart..<max(contentStart, contentEnd)], as: UTF8.self)
            : String(decoding: bytes[contentStart..<max(contentStart, min(end, n))], as: UTF8.self)
        advance(to: end)
        var token = Token(kind: .string, text: text, start: start, end: pos, line: startLine, column: column, newlineBefore: sawNewline)
        token.isLiteral = terminated && !interpolated
        token.isInterpolated = interpolated
        tokens.append(token)
        sawNewline = false
    }

    // MARK: - Words, numbers, punctuation

    private mutating func identifier() {
        let start = pos, column = pos - lineStart + 1
        while pos < bytes.count, Lexer.isIdentifierPart(bytes[pos]) { pos += 1 }
        emit(.identifier, from: start, line: line, column: column)
    }

    /// Kotlin's `` `name` `` (and Dart/C#'s stray backticks): an identifier, never past the line.
    private mutating func backtickIdentifier() {
        let start = pos, column = pos - lineStart + 1
        var i = pos + 1
        while i < bytes.count, i - pos < 256, bytes[i] != 0x60, bytes[i] != 0x0A { i += 1 }
        if i < bytes.count, bytes[i] == 0x60 {
            pos = i + 1
            emit(.identifier, from: start, line: line, column: column, text: String(decoding: bytes[(start + 1)..<i], as: UTF8.self))
        } else {
            pos += 1
            emit(.punctuation, from: start, line: line, column: column)
        }
    }

    private mutating func number() {
        let start = pos, column = pos - lineStart + 1
        while pos < bytes.count {
            let c = bytes[pos]
            if Lexer.isIdentifierPart(c) { pos += 1; continue }
            if c == 0x2E, pos + 1 < bytes.count, Lexer.isDigit(bytes[pos + 1]) { pos += 1; continue }
            break
        }
        emit(.number, from: start, line: line, column: column)
    }

    private static let operators: [[UInt8]] = ["===", "!==", "...", "?.", "?:", "??", "::", "->", "=>", "==", "!=", "<=", ">=",
                                               "&&", "||", "+=", "-=", "*=", "/=", "..", "!!", "++", "--"].map { Array($0.utf8) }

    private mutating func punctuation() {
        let start = pos, column = pos - lineStart + 1
        for op in Lexer.operators where bytes.count - pos >= op.count && bytes[pos..<(pos + op.count)].elementsEqual(op) {
            pos += op.count
            emit(.punctuation, from: start, line: line, column: column)
            return
        }
        pos += 1
        emit(.punctuation, from: start, line: line, column: column)
    }

    // MARK: - JavaScript regular expressions

    private static let regexKeywords: Set<String> = ["return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
                                                     "throw", "case", "do", "else", "yield", "await"]

    /// A `/` starts a regular expression where an operand is expected, not after one.
    private func regexMayStart() -> Bool {
        guard let previous = tokens.last else { return true }
        switch previous.kind {
        case .identifier: return Lexer.regexKeywords.contains(previous.text)
        case .string, .number, .regex: return false
        case .punctuation: return ![")", "]", "}"].contains(previous.text)
        }
    }

    /// Reads `/…/flags` on one line; false (nothing read) when the line ends first or the
    /// expression runs past 2,000 bytes (so a line of stray slashes costs linear time).
    private mutating func regex() -> Bool {
        var i = pos + 1
        var inClass = false
        while i < bytes.count {
            let c = bytes[i]
            if c == 0x0A || i - pos > 2_000 { return false }
            if c == 0x5C { i += 2; continue }
            if c == 0x5B { inClass = true } else if c == 0x5D { inClass = false } else if c == 0x2F, !inClass { break }
            i += 1
        }
        guard i < bytes.count else { return false }
        i += 1
        while i < bytes.count, Lexer.isIdentifierPart(bytes[i]) { i += 1 }
        let start = pos, column = pos - lineStart + 1
        pos = i
        emit(.regex, from: start, line: line, column: column)
        return true
    }
}
