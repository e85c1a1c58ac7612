/// The bracket structure of a token list: which bracket closes which, the innermost bracket
/// around each token (its scope), and which brace blocks are function bodies (with their
/// parameter names) or type and object bodies (whose constants other code may name).
struct Structure: Sendable {
    /// For an opening or closing bracket, the index of its partner; -1 for an unmatched one and any other token.
    private(set) var partner: [Int]
    /// The index of the innermost open bracket around each token (-1 at the top level).
    private(set) var parent: [Int]
    /// Parameter names of a function body, by the index of its `{`; the names of a lambda's parameters likewise.
    private(set) var parameters: [Int: Set<String>] = [:]
    /// Brace blocks that are bodies of a class, object, interface, enum or namespace (their
    /// members are named from elsewhere as `Type.NAME` or, in a companion, bare).
    private(set) var typeBodies: Set<Int> = []
    /// The named functions (and Kotlin primary constructors) whose parameters a name may be, by
    /// the key of their parameters in `parameters` (a body's `{`, an expression body's `=`/`=>`).
    private(set) var callables: [Int: Callable] = [:]
    /// Classes declared without a body (`data class ProductId(val value: String)`), by name: the
    /// key of their constructor in `callables`.
    private(set) var bodilessClasses: [String: Int] = [:]
    /// Type bodies that are enums (`enum class Plan(…) {`, `enum Plan {`) and Kotlin objects (`object Ids {`).
    private(set) var enumBodies: Set<Int> = []
    private(set) var objectBodies: Set<Int> = []
    /// The name of each type body's type (`BillingConstants` of `object BillingConstants {`), by its `{`.
    private(set) var typeNames: [Int: String] = [:]
    /// For each token inside an expression-bodied function (`fun f(x) = …`, `f(x) => …`, `x => …`),
    /// the token that keys its parameters in `parameters`; -1 elsewhere.
    private(set) var expressionBody: [Int]
    /// Tokens marked as in an expression body so far: past 200,000 no more are, so a file of
    /// many long arrow chains costs linear time (their parameters then hide nothing).
    private var marked = 0

    /// How far the scope walks go up (deeper nesting than this is treated as unrelated).
    static let maxWalk = 256

    init(tokens: [Token]) {
        partner = Array(repeating: -1, count: tokens.count)
        parent = Array(repeating: -1, count: tokens.count)
        expressionBody = Array(repeating: -1, count: tokens.count)
        var stack: [Int] = []
        for (i, token) in tokens.enumerated() {
            parent[i] = stack.last ?? -1
            guard token.kind == .punctuation, token.text.utf8.count == 1, let c = token.text.utf8.first else { continue }
            switch c {
            case 0x28, 0x5B, 0x7B:  // ( [ {
                stack.append(i)
            case 0x29, 0x5D, 0x7D:  // ) ] }
                let open: String = c == 0x29 ? "(" : c == 0x5D ? "[" : "{"
                // Close the nearest matching bracket within reach; a stray closer is ignored.
                var k = stack.count - 1
                while k >= 0, stack.count - k <= 64, tokens[stack[k]].text != open { k -= 1 }
                guard k >= 0, stack.count - k <= 64 else { continue }
                partner[stack[k]] = i
                partner[i] = stack[k]
                stack.removeSubrange(k...)
                parent[i] = stack.last ?? -1
            default:
                break
            }
        }
        for (i, token) in tokens.enumerated() {
            if token.isIdentifier("class"), i + 2 < tokens.count, tokens[i + 1].kind == .identifier, tokens[i + 2].isPunctuation("("),
               partner[i + 2] > i + 2 {
                // Kotlin's `data class ProductId(val value: String)` with no body: its constructor.
                let close = partner[i + 2]
                var k = close + 1
                while k < tokens.count, !tokens[k].newlineBefore, !tokens[k].isPunctuation("{"), !tokens[k].isPunctuation(";"), k - close < 64 { k += 1 }
                if k >= tokens.count || !tokens[k].isPunctuation("{") {
                    callables[i + 2] = Callable(name: tokens[i + 1].text, nameToken: i + 1,
                                                parameters: Structure.parameterList(i + 2, close, tokens: tokens, partner: partner))
                    bodilessClasses[tokens[i + 1].text] = i + 2
                }
            }
            if token.isPunctuation("{") { classify(brace: i, tokens: tokens) }
            if token.isPunctuation("=>") || token.isPunctuation("=") { expressionFunction(arrow: i, tokens: tokens) }
        }
    }

    private static let declarationStarts: Set<String> = ["fun", "val", "var", "let", "const", "class", "override", "private", "public",
                                                         "internal", "protected", "function", "export", "import", "static", "final"]

    /// `fun f(x: T) = …`, `f(x) => …`, `(x) => …`, `x => …`: records the parameters for the
    /// tokens of the body (to the end of its statement or argument, at most 2,000 tokens).
    private mutating func expressionFunction(arrow: Int, tokens: [Token]) {
        guard arrow > 0, arrow + 1 < tokens.count, !tokens[arrow + 1].isPunctuation("{"), marked < 200_000 else { return }
        if arrow >= 2, tokens[arrow].text == "=>", tokens[arrow - 1].kind == .identifier, tokens[arrow - 2].isIdentifier("get") {
            // Dart's `String get productId => AppConfig.id;`
            callables[arrow] = Callable(name: tokens[arrow - 1].text, nameToken: arrow - 1, parameters: [], isGetter: true)
            return
        }
        var names: Set<String> = []
        var k = arrow - 1
        if tokens[arrow].text == "=" {
            // Kotlin: `fun name(…)` or `fun name(…): Type` before `=`.
            var steps = 0
            while k > 0, steps < 12, !tokens[k].isPunctuation(")") {
                guard tokens[k].kind == .identifier || [":", ".", "<", ">", ">>", ">>>", "?", ","].contains(tokens[k].text) else { return }
                k -= 1
                steps += 1
            }
            let open = partner[k]
            guard tokens[k].isPunctuation(")"), open >= 2, tokens[open - 1].kind == .identifier, tokens[open - 2].isIdentifier("fun") else { return }
            names = self.names(in: open, k, tokens: tokens)
            callables[arrow] = Callable(name: tokens[open - 1].text, nameToken: open - 1,
                                        parameters: Structure.parameterList(open, k, tokens: tokens, partner: partner))
        } else if tokens[k].isPunctuation(")"), partner[k] >= 0 {
            names = self.names(in: partner[k], k, tokens: tokens)
            if let name = Structure.functionName(open: partner[k], tokens: tokens) {
                callables[arrow] = Callable(name: tokens[name].text, nameToken: name,
                                            parameters: Structure.parameterList(partner[k], k, tokens: tokens, partner: partner))
            }
        } else if tokens[k].kind == .identifier {
            names = [tokens[k].text]
        } else {
            return
        }
        guard !names.isEmpty else { return }
        parameters[arrow] = names
        let level = parent[arrow]
        var j = arrow + 1
        while j < tokens.count, j - arrow < 2_000 {
            let t = tokens[j]
            if parent[j] == level || (partner[j] >= 0 && partner[j] < arrow) {
                if partner[j] >= 0 && partner[j] < arrow { break }  // the enclosing bracket closes
                if t.isPunctuation(";") || t.isPunctuation(",") { break }
                if t.newlineBefore, t.kind == .identifier, Structure.declarationStarts.contains(t.text) { break }
            }
            expressionBody[j] = arrow  // a later arrow inside this body is the inner one
            j += 1
        }
        marked += j - arrow
    }

    /// Whether `scope` is `inner` or one of the brackets around it.
    func encloses(_ scope: Int, _ inner: Int) -> Bool {
        if scope == -1 { return true }
        var s = inner, steps = 0
        while s != -1, steps < Structure.maxWalk {
            if s == scope { return true }
            s = parent[s]
            steps += 1
        }
        return false
    }

    private static let typeKeywords: Set<String> = ["class", "object", "interface", "enum", "struct", "namespace", "companion",
                                                    "record", "mixin", "extension", "implementation", "protocol"]
    private static let controlKeywords: Set<String> = ["if", "while", "switch", "when", "synchronized", "using", "lock", "fixed", "guard"]

    /// Objective-C's `- (void)requestProducts:(NSSet *)ids count:(int)n {`: a method whose
    /// parameters are passed as `[x requestProducts:set count:2]`.
    private mutating func objectiveCMethod(brace: Int, tokens: [Token]) -> Bool {
        var start = brace - 1, steps = 0
        while start > 0, steps < 96, !(tokens[start - 1].kind == .punctuation && [";", "{", "}"].contains(tokens[start - 1].text)) {
            if tokens[start].newlineBefore, tokens[start].isPunctuation("-") || tokens[start].isPunctuation("+") { break }
            start -= 1
            steps += 1
        }
        guard start >= 0, start + 2 < brace, tokens[start].isPunctuation("-") || tokens[start].isPunctuation("+"),
              tokens[start + 1].isPunctuation("("), partner[start + 1] > start + 1 else { return false }
        var j = partner[start + 1] + 1
        var selector: [String] = [], names: [Callable.Parameter] = []
        while j + 1 < brace, tokens[j].kind == .identifier {
            guard tokens[j + 1].isPunctuation(":") else { if selector.isEmpty { selector.append(tokens[j].text) }; break }
            var k = j + 2
            if k < brace, tokens[k].isPunctuation("("), partner[k] > k { k = partner[k] + 1 }
            guard k < brace, tokens[k].kind == .identifier else { break }
            selector.append(tokens[j].text)
            names.append(.init(name: tokens[k].text, rest: false))
            j = k + 1
        }
        guard let first = selector.first else { return false }
        parameters[brace] = Set(names.map(\.name))
        callables[brace] = Callable(name: first, nameToken: start + 2, parameters: names, selector: selector)
        return true
    }

    /// Records what a `{` opens: a type body, a function body (its parameters) or a lambda (its parameters).
    private mutating func classify(brace: Int, tokens: [Token]) {
        // Dart's and TypeScript's getter `get iosProductId {`, `get ids() {`.
        if brace >= 2, tokens[brace - 1].kind == .identifier, tokens[brace - 2].isIdentifier("get") {
            callables[brace] = Callable(name: tokens[brace - 1].text, nameToken: brace - 1, parameters: [], isGetter: true)
            parameters[brace] = []
            return
        }
        if brace >= 4, tokens[brace - 1].isPunctuation(")"), tokens[brace - 2].isPunctuation("("), tokens[brace - 3].kind == .identifier,
           tokens[brace - 4].isIdentifier("get") {
            callables[brace] = Callable(name: tokens[brace - 3].text, nameToken: brace - 3, parameters: [], isGetter: true)
            parameters[brace] = []
            return
        }
        if brace > 0, tokens[brace - 1].kind == .identifier || tokens[brace - 1].isPunctuation(")"),
           objectiveCMethod(brace: brace, tokens: tokens) { return }
        // The header: the tokens back to the previous statement's end.
        var k = brace - 1, steps = 0
        var closeParen = -1
        while k >= 0, steps < 24 {
            let t = tokens[k]
            if t.kind == .punctuation, [";", "{", "}"].contains(t.text) { break }
            if t.kind == .identifier, Structure.typeKeywords.contains(t.text) {
                typeBodies.insert(brace)
                if t.text == "enum" || (t.text == "class" && k > 0 && tokens[k - 1].isIdentifier("enum")) { enumBodies.insert(brace) }
                if t.text == "object", !(k > 0 && tokens[k - 1].isIdentifier("companion")) { objectBodies.insert(brace) }
                // Kotlin's and TypeScript's `class Name(private val ids: List<String>) {`: the
                // constructor's parameters are names in the body, passed where `Name(…)` is called.
                // (`class Name constructor(…)`, `class Name @Inject constructor(…)` too.)
                var paren = k + 2
                while paren < brace, paren - k < 8, !tokens[paren].isPunctuation("("),
                      tokens[paren].kind == .identifier || tokens[paren].isPunctuation("@") { paren += 1 }
                if t.text == "class", paren < brace, tokens[k + 1].kind == .identifier, tokens[paren].isPunctuation("("),
                   partner[paren] > paren, partner[paren] < brace {
                    parameters[brace] = names(in: paren, partner[paren], tokens: tokens)
                    callables[brace] = Callable(name: tokens[k + 1].text, nameToken: k + 1,
                                                parameters: Structure.parameterList(paren, partner[paren], tokens: tokens, partner: partner))
                }
                if k + 1 < brace, tokens[k + 1].kind == .identifier, !Structure.typeKeywords.contains(tokens[k + 1].text) {
                    typeNames[brace] = tokens[k + 1].text
                } else if t.text == "companion" || t.text == "object" {
                    typeNames[brace] = "Companion"
                }
                return
            }
            if t.isPunctuation(")"), closeParen == -1, partner[k] >= 0 {
                closeParen = k
                k = partner[k]
            }
            if t.isPunctuation("="), closeParen == -1 { break }  // `x = {…}`: an object or a lambda value
            k -= 1
            steps += 1
        }
        if closeParen >= 0 {
            let open = partner[closeParen]
            let keyword = open > 0 && tokens[open - 1].kind == .identifier ? tokens[open - 1].text : ""
            if Structure.controlKeywords.contains(keyword) { return }
            if keyword != "for", keyword != "foreach" {
                parameters[brace] = names(in: open, closeParen, tokens: tokens)
                if let name = Structure.functionName(open: open, tokens: tokens) {
                    callables[brace] = Callable(name: tokens[name].text, nameToken: name,
                                                parameters: Structure.parameterList(open, closeParen, tokens: tokens, partner: partner))
                }
            }
        } else if brace > 0, tokens[brace - 1].kind == .identifier, Structure.controlKeywords.contains(tokens[brace - 1].text) {
            return  // `when {`
        }
        // A Kotlin or Swift lambda's own parameters: `{ a, b -> …`.
        var names: Set<String> = []
        var j = brace + 1
        while j < tokens.count, j - brace < 24 {
            let t = tokens[j]
            if t.isPunctuation("->") || t.isIdentifier("in") && !names.isEmpty {
                if !names.isEmpty { parameters[brace, default: []].formUnion(names) }
                break
            }
            guard t.kind == .identifier || [",", ":", "(", ")", "<", ">", "?", "."].contains(t.text) else { break }
            if t.kind == .identifier { names.insert(t.text) }
            j += 1
        }
    }

    private static let notFunctionNames: Set<String> = ["if", "while", "for", "foreach", "switch", "when", "catch", "synchronized",
                                                         "using", "lock", "fixed", "guard", "return", "function", "fun", "async", "await",
                                                         "super", "this", "init", "constructor", "new", "else", "try", "do"]

    /// The token naming the function whose parameter list opens at `open`: `fun name(`,
    /// `void name(`, `function name(`, `name(` (a method), `name = (…) =>`, `name: function (`.
    static func functionName(open: Int, tokens: [Token]) -> Int? {
        guard open >= 1 else { return nil }
        var k = open - 1
        if tokens[k].isPunctuation(">") {  // `fun <T> name(` has the name first; `List<String> name(` is Java's return type
            return nil
        }
        if tokens[k].isIdentifier("function") || tokens[k].isIdentifier("async") { k -= 1 }
        if k >= 1, tokens[k].isPunctuation("=") || tokens[k].isPunctuation(":") { k -= 1 }
        guard k >= 0, tokens[k].kind == .identifier, !notFunctionNames.contains(tokens[k].text) else { return nil }
        if k >= 1, tokens[k - 1].isPunctuation(".") {
            // `fun String.name(` declares; `foo.bar(…) {` is a call with a trailing lambda.
            guard k >= 3, tokens[k - 3].isIdentifier("fun") else { return nil }
        }
        return k
    }

    /// The parameters of a list in order: a name before `:` (Kotlin, TypeScript, Dart's named
    /// `{required this.ids}` aside), else the last word before `=` or the end (Java, C#, Dart);
    /// `vararg`, `...` and `params` mark the one that takes the rest.
    static func parameterList(_ open: Int, _ close: Int, tokens: [Token], partner: [Int]) -> [Callable.Parameter] {
        var list: [Callable.Parameter] = []
        var start = open + 1, k = open + 1
        func item(_ from: Int, _ to: Int) {
            guard from < to else { return }
            var name: String?
            var rest = false
            var j = from, angle = 0
            while j < to {
                let t = tokens[j]
                if t.isPunctuation("<") { angle += 1 } else if t.isPunctuation(">") { angle -= 1 }
                if t.isIdentifier("vararg") || t.isIdentifier("params") || t.isPunctuation("...") { rest = true }
                if angle == 0, t.isPunctuation(":") || t.isPunctuation("?:") {
                    if j > from, tokens[j - 1].kind == .identifier { name = tokens[j - 1].text }
                    break
                }
                if angle == 0, t.isPunctuation("=") { break }
                if t.kind == .identifier, angle == 0 { name = t.text }
                if partner[j] > j, !t.isPunctuation("<") { j = partner[j] + 1; continue }
                j += 1
            }
            if let name { list.append(.init(name: name, rest: rest)) }
        }
        while k < close, k - open < 4_096, list.count < 64 {
            if partner[k] > k, ["(", "[", "{"].contains(tokens[k].text) {
                if tokens[k].isPunctuation("{"), k == start {
                    // Dart's named parameters `{required this.ids, String? x}`: each by its name.
                    var m = k + 1, itemStart = k + 1
                    let end = partner[k]
                    while m <= end {
                        if m == end || tokens[m].isPunctuation(",") {
                            item(itemStart, m)
                            itemStart = m + 1
                        } else if partner[m] > m {
                            m = partner[m]
                        }
                        m += 1
                    }
                    k = end + 1
                    start = k
                    continue
                }
                k = partner[k] + 1
                continue
            }
            if tokens[k].isPunctuation(",") {
                item(start, k)
                start = k + 1
            }
            k += 1
        }
        item(start, close)
        return list
    }

    /// The identifiers directly inside a parameter list (types included, which is harmless).
    private func names(in open: Int, _ close: Int, tokens: [Token]) -> Set<String> {
        var names: Set<String> = []
        var k = open + 1
        while k < close, names.count < 64, k - open < 4_096 {
            if partner[k] > k, k != open { k = partner[k] + 1; continue }
            if tokens[k].kind == .identifier { names.insert(tokens[k].text) }
            k += 1
        }
        return names
    }
}

extension Structure {
    /// The structures of several files' tokens, one after another (each file's brackets pair
    /// within the file; `offsets[n]` is the index of file n's first token in the joined list).
    init(joining parts: [Structure], offsets: [Int]) {
        partner = []
        parent = []
        expressionBody = []
        for (part, offset) in zip(parts, offsets) {
            func shifted(_ i: Int) -> Int { i < 0 ? i : i + offset }
            partner += part.partner.map(shifted)
            parent += part.parent.map(shifted)
            expressionBody += part.expressionBody.map(shifted)
            for (key, names) in part.parameters { parameters[key + offset] = names }
            for body in part.typeBodies { typeBodies.insert(body + offset) }
            for (key, name) in part.typeNames { typeNames[key + offset] = name }
            for body in part.enumBodies { enumBodies.insert(body + offset) }
            for (name, key) in part.bodilessClasses where bodilessClasses[name] == nil { bodilessClasses[name] = key + offset }
            for body in part.objectBodies { objectBodies.insert(body + offset) }
            for (key, callable) in part.callables {
                var callable = callable
                callable.nameToken += offset
                callables[key + offset] = callable
            }
        }
    }

    /// The names of the types around token `i`, innermost first.
    func enclosingTypes(of i: Int) -> [String] {
        var names: [String] = []
        var s = i >= 0 && i < parent.count ? parent[i] : -1, steps = 0
        while s != -1, steps < Structure.maxWalk {
            if let name = typeNames[s] { names.append(name) }
            s = parent[s]
            steps += 1
        }
        return names
    }
}

/// A named function or constructor: where `name(…)` is called, each parameter receives the
/// argument at its place (or with its label), which is how a parameter's value is followed.
struct Callable: Sendable {
    struct Parameter: Sendable {
        var name: String
        /// `vararg ids`, `...ids`, `params string[] ids`: the rest of the arguments.
        var rest: Bool
    }

    var name: String
    var nameToken: Int
    var parameters: [Parameter]
    /// An Objective-C method's selector parts (`requestProducts`, `count`), one per parameter.
    var selector: [String]? = nil
    /// A getter (`get productId => …`): read where a member of that name is not otherwise known.
    var isGetter = false
}
