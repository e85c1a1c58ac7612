import TallyModel

/// Reads an expression's value from the tokens: literals, collections (`listOf`, `[…]`, `{…}`,
/// `@[…]`, `[NSSet setWithObjects:…]`, `Arrays.asList`), objects, `Platform.select`,
/// `String.fromEnvironment`'s default, and names declared in the same file. Anything else is
/// unknown. Recursion is bounded by depth and the whole file by a step budget, so any input ends.
struct Evaluator {
    let tokens: [Token]
    let structure: Structure
    let bindings: Bindings
    let language: CodeLanguage
    /// The files the tokens come from (one, or a code source's files of this language).
    let spans: FileSpans

    var memo: [Int: Value] = [:]
    var inProgress: Set<Int> = []
    /// Functions whose parameters are being followed to their calls (a recursion is not).
    var following: Set<Int> = []
    /// Parameters already followed, by function and name.
    var parameterMemo: [ParameterKey: Value?] = [:]
    struct ParameterKey: Hashable, Sendable {
        var scope: Int
        var name: String
    }
    /// Call sites by name, once built.
    var sitesByName: [String: [Int]]?
    /// Type bodies by their type's name, once built.
    var typesByName: [String: [Int]]?
    /// Named functions by name, once built; those whose results are being read.
    var functionsByName: [String: [Int]]?
    var returning: Set<Int> = []
    var steps = 0
    /// Steps of the calls read before this one: each call has `maxSteps` of its own, and the
    /// files read together `maxTotalSteps` in all, so that any input ends.
    var spent = 0
    static let maxTotalSteps = 40_000_000

    /// Starts reading one call: its own step budget, within the whole one.
    mutating func beginCall() {
        spent += steps
        steps = spent >= Evaluator.maxTotalSteps ? Evaluator.maxSteps : 0
        stoppedDeep = false
    }

    /// Whether following stopped at the depth limit during the call being read.
    var stoppedDeep = false

    /// Whether the last call read ran out of steps, or of depth.
    var exhausted: Bool { steps >= Evaluator.maxSteps || stoppedDeep }
    /// Tokens from here on are out of reach (while reading a lambda's or loop's collection).
    var limit = Int.max

    static let maxDepth = 40
    static let maxSteps = 400_000

    init(tokens: [Token], structure: Structure, bindings: Bindings, language: CodeLanguage, spans: FileSpans) {
        self.tokens = tokens
        self.structure = structure
        self.bindings = bindings
        self.language = language
        self.spans = spans
    }

    func token(_ i: Int) -> Token? { i >= 0 && i < tokens.count && i < limit ? tokens[i] : nil }
    func isPunctuation(_ i: Int, _ text: String) -> Bool { token(i)?.isPunctuation(text) ?? false }

    func unknown(_ start: Int, _ end: Int) -> Value { .unknown(start..<max(start + 1, end)) }

    // MARK: - Expressions

    /// The value of the expression starting at `start`, and the index after it.
    mutating func expression(at start: Int, depth: Int = 0) -> (Value, Int) {
        steps += 1
        guard depth < Evaluator.maxDepth, steps < Evaluator.maxSteps else { return (unknown(start, start + 1), start) }
        var (value, i) = operand(at: start, depth: depth + 1)
        while i > start, let t = token(i), t.kind == .punctuation || t.kind == .identifier {
            steps += 1
            if steps >= Evaluator.maxSteps { return (unknown(start, i), i) }
            switch t.text {
            case "?" where t.kind == .punctuation:
                let (then, j) = expression(at: i + 1, depth: depth + 1)
                guard j > i + 1, isPunctuation(j, ":") else { return (unknown(start, j), j) }
                let (otherwise, k) = expression(at: j + 1, depth: depth + 1)
                guard k > j + 1 else { return (unknown(start, k), k) }
                value = .either([then, otherwise])
                i = k
            case "?:", "??", "||":
                let (other, j) = operand(at: i + 1, depth: depth + 1)
                guard j > i + 1 else { return (unknown(start, j), j) }
                value = .either([value, other])
                i = j
            case "+":
                let (other, j) = operand(at: i + 1, depth: depth + 1)
                guard j > i + 1 else { return (unknown(start, j), j) }
                if value.isCollection {
                    value = .list([value, other])
                } else if let joined = concatenated(value, other) {
                    value = joined  // `PREFIX + "pro"`: a string of constant parts
                } else {
                    value = unknown(start, j)
                }
                i = j
            case "==", "===", "!=", "!==", "<", ">", "<=", ">=", "&&", "-", "*", "/", "%", "&", "|", "^", "is", "in", "instanceof":
                if t.kind == .identifier, !["is", "in", "instanceof"].contains(t.text) { return (value, i) }
                if t.newlineBefore, t.kind == .identifier { return (value, i) }
                let (_, j) = operand(at: i + 1, depth: depth + 1)
                guard j > i + 1 else { return (unknown(start, j), j) }
                value = unknown(start, j)
                i = j
            default:
                // Kotlin's infix calls (`"a" to "b"`, `x until y`) make something else of the operand.
                if language == .kotlin, t.kind == .identifier, !t.newlineBefore, !["else", "as"].contains(t.text) {
                    let (_, j) = operand(at: i + 1, depth: depth + 1)
                    return (unknown(start, max(j, i + 1)), max(j, i + 1))
                }
                return (value, i)
            }
        }
        return (value, i)
    }

    /// One operand: a literal, a bracketed literal, a name or call, with what follows it (`.toSet()`, `[0]`, `!!`).
    mutating func operand(at i: Int, depth: Int) -> (Value, Int) {
        steps += 1
        guard let t = token(i), depth < Evaluator.maxDepth, steps < Evaluator.maxSteps else { return (unknown(i, i + 1), i) }
        switch t.kind {
        case .string:
            var j = i + 1
            // Adjacent literals (`"a" "b"`, `@"a" @"b"`) join into one string: not a literal as spelled.
            if let next = token(j), next.kind == .string, !next.newlineBefore || language == .objectiveC || language == .dart {
                while let next = token(j), next.kind == .string { j += 1 }
                return postfix(unknown(i, j), at: j, start: i, depth: depth)
            }
            if !t.isLiteral, t.isInterpolated, let built = template(at: i, depth: depth) {
                return postfix(built, at: j, start: i, depth: depth)
            }
            return postfix(t.isLiteral ? .literal(LiteralRef(token: i)) : unknown(i, j), at: j, start: i, depth: depth)
        case .number, .regex:
            return postfix(unknown(i, i + 1), at: i + 1, start: i, depth: depth)
        case .identifier:
            return word(at: i, depth: depth)
        case .punctuation:
            return punctuation(at: i, depth: depth)
        }
    }

    private mutating func word(at i: Int, depth: Int) -> (Value, Int) {
        let t = tokens[i]
        switch t.text {
        case "null", "nil", "undefined", "NULL", "Nil":
            return (.nothing, i + 1)
        case "true", "false", "YES", "NO":
            return (unknown(i, i + 1), i + 1)
        case "new" where isPunctuation(i + 1, "[") && isPunctuation(i + 2, "]") && isPunctuation(i + 3, "{") && structure.partner[i + 3] > i + 3:
            let close = structure.partner[i + 3]  // C#'s `new[] { "a", "b" }`
            return postfix(.list(elements(open: i + 3, close: close, depth: depth)), at: close + 1, start: i, depth: depth)
        case "new", "const", "await", "final", "readonly", "var", "val", "let", "late":
            guard token(i + 1) != nil else { return (unknown(i, i + 1), i + 1) }
            let (value, j) = operand(at: i + 1, depth: depth + 1)
            return (value, max(j, i + 1))
        case "if":
            return ifExpression(at: i, depth: depth)
        case "function", "fun":
            return (unknown(i, i + 1), skipFunction(at: i))
        default:
            return path(at: i, depth: depth)
        }
    }

    /// Kotlin's `if (c) a else b` and Dart's collection `if`: either branch.
    private mutating func ifExpression(at i: Int, depth: Int) -> (Value, Int) {
        guard isPunctuation(i + 1, "("), structure.partner[i + 1] > i + 1 else { return (unknown(i, i + 1), i + 1) }
        let close = structure.partner[i + 1]
        let (then, j) = expression(at: close + 1, depth: depth + 1)
        guard j > close + 1 else { return (unknown(i, j), j) }
        if let t = token(j), t.isIdentifier("else") {
            let (otherwise, k) = expression(at: j + 1, depth: depth + 1)
            return (k > j + 1 ? .either([then, otherwise]) : unknown(i, k), k)
        }
        return (then, j)
    }

    private func skipFunction(at i: Int) -> Int {
        var j = i + 1
        while let t = token(j), j - i < 64 {
            if t.isPunctuation("{"), structure.partner[j] > j { return structure.partner[j] + 1 }
            if t.isPunctuation("("), structure.partner[j] > j { j = structure.partner[j] + 1; continue }
            j += 1
        }
        return j
    }

    private mutating func punctuation(at i: Int, depth: Int) -> (Value, Int) {
        let t = tokens[i]
        let close = structure.partner[i]
        switch t.text {
        case "(":
            guard close > i else { return (unknown(i, i + 1), i + 1) }
            if isPunctuation(close + 1, "=>") || isPunctuation(close + 1, "->") {  // an arrow function
                let body = close + 2
                if isPunctuation(body, "{"), structure.partner[body] > body { return (unknown(i, body), structure.partner[body] + 1) }
                let (_, j) = expression(at: body, depth: depth + 1)
                return (unknown(i, j), j)
            }
            if isCast(open: i, close: close) {
                let (value, j) = operand(at: close + 1, depth: depth + 1)
                return (value, max(j, close + 1))
            }
            let (inner, j) = expression(at: i + 1, depth: depth + 1)
            let value = j == close ? inner : unknown(i, close + 1)
            return postfix(value, at: close + 1, start: i, depth: depth)
        case "[":
            guard close > i else { return (unknown(i, i + 1), i + 1) }
            if language == .objectiveC, !isPunctuation(i - 1, "@") {
                return postfix(message(open: i, close: close, depth: depth), at: close + 1, start: i, depth: depth)
            }
            return postfix(.list(elements(open: i, close: close, depth: depth)), at: close + 1, start: i, depth: depth)
        case "{":
            guard close > i else { return (unknown(i, i + 1), i + 1) }
            return postfix(brace(open: i, close: close, depth: depth), at: close + 1, start: i, depth: depth)
        case "@":
            guard let next = token(i + 1), next.kind == .punctuation else { return (unknown(i, i + 1), i + 1) }
            if next.text == "[" || next.text == "{" {
                let (value, j) = operand(at: i + 1, depth: depth + 1)
                return (value, j)
            }
            if next.text == "(", structure.partner[i + 1] > i + 1 { return (unknown(i, structure.partner[i + 1] + 1), structure.partner[i + 1] + 1) }
            return (unknown(i, i + 1), i + 1)
        case "<":
            // A type argument before a literal: Dart's `<String>{…}`, `<String>[…]`.
            if let end = typeArgumentsEnd(from: i), let next = token(end), next.kind == .punctuation, ["[", "{"].contains(next.text) {
                return operand(at: end, depth: depth + 1)
            }
            return (unknown(i, i + 1), i)
        case "*" where language == .kotlin:  // a spread: `setOf(*IDS)`
            let (value, j) = operand(at: i + 1, depth: depth + 1)
            return (value, max(j, i + 1))
        case "...", "...?":
            let (value, j) = operand(at: i + 1, depth: depth + 1)
            return (value, max(j, i + 1))
        case "!", "-", "+", "~", "*", "&":
            let (_, j) = operand(at: i + 1, depth: depth + 1)
            return (unknown(i, j), max(j, i + 1))
        default:
            return (unknown(i, i + 1), i)
        }
    }

    /// `(NSString *)x`, `(String) x`, `(string)x`: a type in parentheses before an operand.
    private func isCast(open: Int, close: Int) -> Bool {
        guard [.objectiveC, .java, .cSharp].contains(language), close > open + 1, let next = token(close + 1) else { return false }
        let startsOperand = next.kind == .identifier || next.kind == .string || next.isPunctuation("@") || next.isPunctuation("[")
        guard startsOperand, !next.newlineBefore else { return false }
        return tokens[(open + 1)..<close].allSatisfy { $0.kind == .identifier || ["*", ".", "<", ">", "[", "]", "?"].contains($0.text) }
            && tokens[open + 1].kind == .identifier
    }

    /// The index after `<…>` starting at `open`, when it holds only a type.
    func typeArgumentsEnd(from open: Int) -> Int? {
        var depth = 0, j = open
        while let t = token(j), j - open < 32 {
            if t.isPunctuation("<") { depth += 1 } else if t.isPunctuation(">") {
                depth -= 1
                if depth == 0 { return j + 1 }
            } else if !(t.kind == .identifier || [",", ".", "?", "[", "]", "*"].contains(t.text)) {
                return nil
            }
            j += 1
        }
        return nil
    }

    // MARK: - Strings of constant parts

    /// The text of a string value: a literal's, or a built string's.
    func text(of ref: LiteralRef) -> String { ref.text ?? tokens[ref.token].text }

    /// `a + b` where both are strings known here (each may be one of several: `c ? "a" : "b"`).
    func concatenated(_ left: Value, _ right: Value) -> Value? {
        func strings(_ value: Value) -> [LiteralRef]? {
            switch value {
            case .literal(let ref): return [ref]
            case .either(let items):
                var all: [LiteralRef] = []
                for item in items { guard let some = strings(item) else { return nil }; all += some }
                return all.count <= 16 ? all : nil
            default: return nil
            }
        }
        guard let lefts = strings(left), let rights = strings(right) else { return nil }
        var joined: [Value] = []
        for l in lefts {
            for r in rights {
                joined.append(.literal(LiteralRef(token: r.token, store: l.store ?? r.store, text: text(of: l) + text(of: r),
                                                  parts: (l.parts.isEmpty ? [l.token] : l.parts) + (r.parts.isEmpty ? [r.token] : r.parts))))
            }
        }
        return joined.count == 1 ? joined[0] : .either(joined)
    }

    /// A template whose every placeholder is a name known here: Kotlin's and Dart's `"$PREFIX.pro"`
    /// and `"${Ids.BASE}_pro"`, JavaScript's `` `${PREFIX}_pro` ``; nil for any other placeholder.
    mutating func template(at i: Int, depth: Int) -> Value? {
        let raw = Array(tokens[i].text.utf8)
        guard raw.count <= 512 else { return nil }
        var value: Value = .literal(LiteralRef(token: i, text: "", parts: [i]))
        var literal: [UInt8] = []
        var k = 0
        func flush() -> Bool {
            guard !literal.isEmpty else { return true }
            let piece: Value = .literal(LiteralRef(token: i, text: String(decoding: literal, as: UTF8.self), parts: [i]))
            literal = []
            guard let joined = concatenated(value, piece) else { return false }
            value = joined
            return true
        }
        let dollar = language == .kotlin || language == .dart
        let brace = language == .cSharp
        while k < raw.count {
            let c = raw[k]
            if c == 0x5C {  // an escape: only `\$`, `\\`, quotes are plain characters here
                guard k + 1 < raw.count, [0x24, 0x5C, 0x22, 0x27, 0x60].contains(raw[k + 1]) else { return nil }
                literal.append(raw[k + 1])
                k += 2
                continue
            }
            var name: [UInt8]?
            if (c == 0x24 && k + 1 < raw.count && raw[k + 1] == 0x7B) || (brace && c == 0x7B) {
                let open = c == 0x24 ? k + 2 : k + 1
                guard let close = raw[open...].firstIndex(of: 0x7D) else { return nil }
                name = Array(raw[open..<close])
                k = close + 1
            } else if dollar, c == 0x24, k + 1 < raw.count, Lexer.isIdentifierStart(raw[k + 1]) {
                var end = k + 1
                while end < raw.count, Lexer.isIdentifierPart(raw[end]), raw[end] != 0x24 { end += 1 }
                name = Array(raw[(k + 1)..<end])
                k = end
            }
            guard let spelled = name else {
                literal.append(c)
                k += 1
                continue
            }
            // The placeholder must be a name or a member path (`PREFIX`, `Ids.BASE`).
            let text = String(decoding: spelled, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            let path = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard !path.isEmpty, path.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy(Lexer.isIdentifierPart) }) else { return nil }
            guard flush() else { return nil }
            let part = resolve(path: path, range: i..<(i + 1), depth: depth + 1)
            guard let joined = concatenated(value, part) else { return nil }
            value = joined
        }
        guard flush() else { return nil }
        return value
    }

    // MARK: - Collections

    /// The elements between `open` and `close` (spreads included); unreadable elements are unknown.
    mutating func elements(open: Int, close: Int, depth: Int) -> [Value] {
        var items: [Value] = []
        var k = open + 1
        while k < close, steps < Evaluator.maxSteps {
            if isPunctuation(k, ",") { k += 1; continue }
            let (value, end) = expression(at: k, depth: depth + 1)
            let next = nextSeparator(from: max(end, k), close: close)
            items.append(end == next ? value : unknown(k, next))
            k = max(next, k + 1)
        }
        return items
    }

    /// The next `,` at this level, or `close`.
    func nextSeparator(from start: Int, close: Int) -> Int {
        var k = start
        while k < close, k - start < 65_536 {
            if structure.partner[k] > k { k = structure.partner[k] + 1; continue }
            if isPunctuation(k, ",") { return k }
            k += 1
        }
        return close  // (or far enough: the rest is one element)
    }

    /// `{…}`: an object (`{skus: […]}`, `{'a': 'b'}`), a Dart set, or a C#/Java initializer list.
    private mutating func brace(open: Int, close: Int, depth: Int) -> Value {
        var entries: [Value.ObjectEntry] = []
        var k = open + 1
        var isObject = false, isList = false
        while k < close, steps < Evaluator.maxSteps {
            if isPunctuation(k, ",") || isPunctuation(k, ";") { k += 1; continue }
            let t = tokens[k]
            if (t.kind == .identifier || t.kind == .string || t.kind == .number), isPunctuation(k + 1, ":") {
                isObject = true
                let (value, end) = expression(at: k + 2, depth: depth + 1)
                let next = nextSeparator(from: max(end, k + 2), close: close)
                entries.append(.init(key: t.text, keyToken: t.kind == .string ? k : nil, value: end == next ? value : unknown(k + 2, next)))
                k = max(next, k + 1)
                continue
            }
            if [.javaScript, .typeScript].contains(language), t.kind == .identifier, isPunctuation(k + 1, ",") || k + 1 == close {
                isObject = true  // shorthand `{ skus }`
                entries.append(.init(key: t.text, keyToken: nil, value: resolve(path: [t.text], range: k..<(k + 1), depth: depth + 1)))
                k += 1
                continue
            }
            if isPunctuation(k, "..."), [.javaScript, .typeScript].contains(language) {
                let (value, end) = expression(at: k + 1, depth: depth + 1)
                if case .object(let spread, _) = value { entries.append(contentsOf: spread) }
                k = max(nextSeparator(from: max(end, k + 1), close: close), k + 1)
                continue
            }
            isList = true
            break
        }
        if isList || !isObject {
            return isObject ? unknown(open, close + 1) : .list(elements(open: open, close: close, depth: depth))
        }
        return .object(entries, open..<(close + 1))
    }

    /// An Objective-C message: `[NSSet setWithObjects:…, nil]`, `[NSSet setWithArray:@[…]]`, `[[NSMutableArray alloc] init]`.
    private mutating func message(open: Int, close: Int, depth: Int) -> Value {
        let (receiver, afterReceiver) = operand(at: open + 1, depth: depth + 1)
        guard afterReceiver > open + 1, let selector = token(afterReceiver), selector.kind == .identifier else { return unknown(open, close + 1) }
        var arguments: [Value] = []
        if isPunctuation(afterReceiver + 1, ":") {
            var k = afterReceiver + 2
            while k < close, steps < Evaluator.maxSteps {
                let (value, end) = expression(at: k, depth: depth + 1)
                guard end > k else { break }
                arguments.append(value)
                if isPunctuation(end, ",") { k = end + 1; continue }
                break  // further selector parts (`count:`) are not read
            }
        }
        switch selector.text {
        case "setWithObjects", "arrayWithObjects", "initWithObjects", "setWithArray", "arrayWithArray", "initWithArray",
             "setWithSet", "initWithSet", "setWithObject", "arrayWithObject", "setByAddingObjectsFromArray", "arrayByAddingObjectsFromArray":
            let added: [Value] = selector.text.contains("ByAdding") ? [receiver] : []
            return .list(added + arguments)
        case "alloc", "new", "set", "array", "setWithCapacity", "arrayWithCapacity":
            return .list([])
        case "init", "initWithCapacity", "copy", "mutableCopy", "allObjects":
            if case .unknown = receiver { return unknown(open, close + 1) }
            return receiver
        default:
            return unknown(open, close + 1)
        }
    }
}
