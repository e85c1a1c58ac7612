import TallyModel

/// Objective-C, Kotlin, Java, Dart, JavaScript/TypeScript and C#, through a tokenizer that knows
/// each language's strings and comments (Tokens/Lexer.swift), the purchase APIs' call shapes
/// (Tokens/PurchaseAPI.swift) and the constants, collections and objects a file declares
/// (Tokens/Evaluator.swift). An ID is a string literal that reaches a purchase API, directly or
/// through names declared in the same file; a call whose IDs are not literals here gets a note.
enum TokenScanner {
    /// Files past this size are not read (a note says so): no app writes its purchase code in one.
    static let maxBytes = 8 << 20
    static let patternAPI = "code: ids pattern"

    static func scan(_ file: CodeFile, idPattern: String?) -> CodeScan {
        scan(group: [file], idPattern: idPattern)
    }

    /// Reads files of one language (JavaScript and TypeScript together) as one token list: a
    /// constant, object, enum, list or `#define` one file declares resolves a call in another
    /// (issue 49). Each file is lexed and bracketed on its own; names are looked up in the
    /// call's own file first, then in the others (`Evaluator.resolve`).
    static func scan(group files: [CodeFile], idPattern: String?) -> CodeScan {
        var scan = CodeScan()
        var pattern: Regex<AnyRegexOutput>?
        if let idPattern, let first = files.first {
            pattern = try? Regex(idPattern)
            if pattern == nil {
                scan.notes.append(CodeNote(message: "the ids pattern `\(idPattern)` is not a valid regular expression; no string was matched against it",
                                           location: CodeLocation(file: first.path, position: Position(line: 1, column: 1))))
            }
        }
        var read: [CodeFile] = []
        var tokens: [Token] = []
        var structures: [Structure] = [], bindings: [Bindings] = []
        var firstToken: [Int] = [], firstByte: [Int] = []
        var source: [UInt8] = []
        var comments: [(CommentSpan, file: Int)] = []
        for file in files {
            let bytes = Array(file.text.utf8)
            guard bytes.count <= maxBytes else {
                scan.notes.append(CodeNote(message: "not read: \(bytes.count) bytes, more than the \(maxBytes >> 20) MB a source file may have",
                                           location: CodeLocation(file: file.path, position: Position(line: 1, column: 1))))
                continue
            }
            let lexed = Lexer.lex(file.text, language: file.language)
            let structure = Structure(tokens: lexed.tokens)
            structures.append(structure)
            bindings.append(Bindings(tokens: lexed.tokens, structure: structure))
            firstToken.append(tokens.count)
            firstByte.append(source.count)
            let shift = source.count
            tokens += lexed.tokens.map { token in
                var token = token
                token.start += shift
                token.end += shift
                return token
            }
            comments += lexed.comments.map { comment in
                var comment = comment
                comment.start += shift
                comment.end += shift
                return (comment, read.count)
            }
            source += bytes
            read.append(file)
        }
        guard let language = read.first?.language else { return scan }
        let spans = FileSpans(files: read, firstToken: firstToken, firstByte: firstByte)
        let structure = read.count == 1 ? structures[0] : Structure(joining: structures, offsets: firstToken)
        let joined = read.count == 1 ? bindings[0] : Bindings(joining: bindings, offsets: firstToken)
        var reader = CallReader(spans: spans, tokens: tokens, structure: structure, bindings: joined, source: source)
        reader.read()
        scan.requests = reader.requests
        scan.notes += reader.notes

        let requestedIDs = Set(reader.requests.map(\.id))
        let rejections = Rejections(tokens: tokens, structure: structure, language: language, known: reader.reasons)
        for (index, token) in tokens.enumerated() where token.isLiteralString && !reader.requested.contains(index) {
            let location = reader.location(of: index)
            if let pattern, (try? pattern.wholeMatch(in: token.text)) != nil {
                scan.requests.append(ProductRequest(id: token.text, literal: location, call: location, api: patternAPI))
                continue
            }
            guard looksLikeProductID(token.text), !requestedIDs.contains(token.text) else { continue }
            scan.rejected.append(RejectedString(text: token.text, location: location, reason: rejections.reason(for: index)))
        }
        var commentsByFile: [[CommentSpan]] = Array(repeating: [], count: read.count)
        for (comment, file) in comments { commentsByFile[file].append(comment) }
        for (n, file) in read.enumerated() {
            scan.rejected += quotedInComments(commentsByFile[n], source: source, file: file.path, skipping: requestedIDs)
        }
        let fileOrder = Dictionary(read.enumerated().map { ($0.element.path, $0.offset) }, uniquingKeysWith: { first, _ in first })
        func place(_ location: CodeLocation) -> (Int, UInt32, UInt32) {
            (fileOrder[location.file] ?? 0, location.position.line, location.position.column)
        }
        scan.rejected.sort { place($0.location) < place($1.location) }
        func order(_ request: ProductRequest) -> (Int, UInt32, UInt32, Int, UInt32, UInt32) {
            let call = place(request.call), literal = place(request.literal)
            return (call.0, call.1, call.2, literal.0, literal.1, literal.2)
        }
        scan.requests.sort { order($0) < order($1) }
        return scan
    }

    /// Whether a file names a purchase API the scanner knows (with the import or class its shape needs).
    static func mayAskForProducts(_ text: String, language: CodeLanguage) -> Bool {
        let search = ByteSearch(text)
        return PurchaseAPI.all.contains { $0.languages.contains(language) && $0.isNamed(in: search) }
    }

    /// `NaiveScan.looksLikeProductID`, after a byte check that rules out most strings cheaply (it
    /// takes only ASCII letters, digits, `.`, `_` and `-`, and at most 200 characters).
    static func looksLikeProductID(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 200, utf8.allSatisfy({ byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || byte == 0x5F || byte == 0x2D
        }) else { return false }
        return NaiveScan.looksLikeProductID(text)
    }

    /// Quoted strings in comments that look like IDs: commented-out code asks for nothing.
    private static func quotedInComments(_ comments: [CommentSpan], source: [UInt8], file: String, skipping: Set<String>) -> [RejectedString] {
        var rejected: [RejectedString] = []
        for comment in comments {
            var line = comment.line, lineStart = comment.start - (comment.column - 1)
            var i = comment.start
            while i < comment.end {
                let c = source[i]
                if c == 0x0A { line += 1; lineStart = i + 1; i += 1; continue }
                guard c == 0x22 || c == 0x27 || c == 0x60 else { i += 1; continue }
                var j = i + 1
                while j < comment.end, j - i <= 201, source[j] != c, source[j] != 0x0A { j += 1 }
                guard j < comment.end, source[j] == c else { i += 1; continue }
                let text = String(decoding: source[(i + 1)..<j], as: UTF8.self)
                if looksLikeProductID(text), !skipping.contains(text) {
                    let start = i > 0 && source[i - 1] == 0x40 ? i - 1 : i  // @"…"
                    rejected.append(RejectedString(text: text, location: CodeLocation(file: file, position: Position(line: line, column: start - lineStart + 1)),
                                                   reason: "in a comment"))
                }
                i = j + 1
            }
        }
        return rejected
    }
}
