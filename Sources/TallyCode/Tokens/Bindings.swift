/// A name given a value in the file: a constant or variable (`val`, `const`, `static final`,
/// `#define`, `NAME = …`), a loop or lambda variable (each element of a collection), or an
/// addition to a collection (`skus.add("x")`, `[ids addObject:@"x"]`, `skus += "x"`).
struct Binding: Sendable {
    enum Kind: Sendable { case value, element, addition }

    var name: String
    var nameToken: Int
    /// The first token of the value expression (for an element: of the collection).
    var valueStart: Int
    /// The innermost bracket the name is declared in (for an element, the loop body or lambda).
    var scope: Int
    var kind: Kind
    /// Declared at the top level, in a type body, or as `this.x`/`Type.x`: other code may name it as a member.
    var isMember: Bool
    /// Where the value expression must end (an element's collection: before `.map`, or the loop's `)`).
    var valueEnd: Int?
}

/// Every binding of a file, by name.
struct Bindings: Sendable {
    private(set) var all: [Binding] = []
    /// Declarations (values and elements) by name, then by scope.
    private(set) var declarations: [String: [Int: [Int]]] = [:]
    /// Declarations other code may name as members, by name.
    private(set) var members: [String: [Int]] = [:]
    /// Additions (`skus.add("x")`) by name.
    private(set) var additions: [String: [Int]] = [:]

    private static let declarationKeywords: Set<String> = ["val", "var", "let", "const", "readonly", "static", "private",
                                                           "public", "protected", "internal", "export", "declare", "override",
                                                           "lateinit", "final", "late"]
    private static let additionMethods: Set<String> = ["add", "addAll", "push", "Add", "AddRange", "unshift", "insert", "plusAssign"]
    private static let objectiveCAdditions: Set<String> = ["addObject", "addObjectsFromArray"]
    /// Methods whose lambda receives each element of the collection they are called on.
    private static let iterationMethods: Set<String> = ["map", "forEach", "mapNotNull", "onEach", "forEachIndexed", "mapIndexed",
                                                        "mapTo", "associateWith", "Select", "ForEach", "flatMap", "forEachOrdered"]

    init(tokens: [Token], structure: Structure) {
        for i in tokens.indices {
            let token = tokens[i]
            switch token.kind {
            case .punctuation:
                if token.text == "=" { assignment(at: i, tokens: tokens, structure: structure) }
                if token.text == "+=", i > 0, tokens[i - 1].kind == .identifier {
                    add(Binding(name: tokens[i - 1].text, nameToken: i - 1, valueStart: i + 1, scope: structure.parent[i], kind: .addition, isMember: false))
                }
                if token.text == "#" { define(at: i, tokens: tokens) }
            case .identifier:
                addition(at: i, tokens: tokens, structure: structure)
                if token.text == "for" || token.text == "foreach" { loop(at: i, tokens: tokens, structure: structure) }
                if Bindings.iterationMethods.contains(token.text) { lambda(at: i, tokens: tokens, structure: structure) }
            default:
                break
            }
        }
    }

    private mutating func add(_ binding: Binding) {
        let index = all.count
        all.append(binding)
        switch binding.kind {
        case .addition:
            additions[binding.name, default: []].append(index)
        case .value, .element:
            declarations[binding.name, default: [:]][binding.scope, default: []].append(index)
            if binding.isMember, binding.kind == .value { members[binding.name, default: []].append(index) }
        }
    }

    // MARK: - Shapes

    /// `NAME = …`, `val NAME: Type = …`, `Type NAME = …`, `NAME[] = {…}`, `this.NAME = …`.
    private mutating func assignment(at i: Int, tokens: [Token], structure: Structure) {
        guard i > 0, i + 1 < tokens.count else { return }
        var nameIndex = -1
        // A type annotation between the name and `=`: `val skus: List<String> = …`.
        var k = i - 1, angle = 0, steps = 0
        annotation: while k > 0, steps < 20 {
            let t = tokens[k]
            // A declaration that starts its line ends the walk: the `:` before it is the previous
            // line's (`private lateinit var cache: String` above `const val ID = "x"`).
            if t.newlineBefore, t.kind == .identifier, Bindings.declarationKeywords.contains(t.text) { break annotation }
            switch t.text {
            case ">" where t.kind == .punctuation: angle += 1
            case "<" where t.kind == .punctuation: angle -= 1
            case ":" where t.kind == .punctuation && angle == 0:
                // `val x: T =`, and a parameter's default `(x: T = …` (its scope is the parameter list);
                // not `case X: y =` nor `c ? a : b =`, where the name is the one before `=`.
                if tokens[k - 1].kind == .identifier, k >= 2,
                   tokens[k - 2].kind == .identifier && Bindings.declarationKeywords.contains(tokens[k - 2].text)
                    || tokens[k - 2].isPunctuation("(") || tokens[k - 2].isPunctuation(",") {
                    nameIndex = k - 1
                }
                break annotation
            case ";", "{", "}", "(", "=", ",":
                if t.kind == .punctuation, !(t.text == "," && angle > 0) { break annotation }
            default:
                if t.kind == .string || t.kind == .number { break annotation }
            }
            k -= 1
            steps += 1
        }
        if nameIndex < 0 {
            if tokens[i - 1].kind == .identifier {
                nameIndex = i - 1
            } else if i >= 3, tokens[i - 1].isPunctuation("]"), tokens[i - 2].isPunctuation("["), tokens[i - 3].kind == .identifier {
                nameIndex = i - 3  // a C or Java array: `NSString *ids[] = {…}`, `String ids[] = {…}`
            } else {
                return
            }
        }
        let scope = structure.parent[nameIndex]
        let dotted = nameIndex >= 1 && (tokens[nameIndex - 1].isPunctuation(".") || tokens[nameIndex - 1].isPunctuation("?."))
        let isMember = scope == -1 || structure.typeBodies.contains(scope) || dotted
        add(Binding(name: tokens[nameIndex].text, nameToken: nameIndex, valueStart: i + 1, scope: scope, kind: .value, isMember: isMember))
    }

    /// Objective-C's `#define NAME value` (not a macro with parameters).
    private mutating func define(at i: Int, tokens: [Token]) {
        guard i + 3 < tokens.count, tokens[i + 1].isIdentifier("define"), tokens[i + 2].kind == .identifier,
              !tokens[i + 1].newlineBefore, !tokens[i + 2].newlineBefore, !tokens[i + 3].newlineBefore else { return }
        if tokens[i + 3].isPunctuation("("), tokens[i + 3].start == tokens[i + 2].end { return }
        add(Binding(name: tokens[i + 2].text, nameToken: i + 2, valueStart: i + 3, scope: -1, kind: .value, isMember: true))
    }

    /// `skus.add("x")`, `skus.push('x')`, `ids.Add("x")`, `[ids addObject:@"x"]`.
    private mutating func addition(at i: Int, tokens: [Token], structure: Structure) {
        guard i + 3 < tokens.count else { return }
        if tokens[i + 1].isPunctuation("."), tokens[i + 2].kind == .identifier, Bindings.additionMethods.contains(tokens[i + 2].text),
           tokens[i + 3].isPunctuation("("), i == 0 || !tokens[i - 1].isPunctuation(".") || (i >= 2 && ["this", "self"].contains(tokens[i - 2].text)) {
            var start = i + 4
            // `list.add(0, "x")`: the element is the last argument.
            if start + 1 < tokens.count, tokens[start].kind == .number, tokens[start + 1].isPunctuation(",") { start += 2 }
            add(Binding(name: tokens[i].text, nameToken: i, valueStart: start, scope: structure.parent[i], kind: .addition, isMember: false))
        }
        if i > 0, tokens[i - 1].isPunctuation("["), Bindings.objectiveCAdditions.contains(tokens[i + 1].text), tokens[i + 2].isPunctuation(":") {
            add(Binding(name: tokens[i].text, nameToken: i, valueStart: i + 3, scope: structure.parent[i], kind: .addition, isMember: false))
        }
    }

    /// `for (sku in SKUS)`, `for (String sku : SKUS)`, `foreach (var sku in SKUS)`, `for (const sku of SKUS)`.
    private mutating func loop(at i: Int, tokens: [Token], structure: Structure) {
        guard i + 1 < tokens.count, tokens[i + 1].isPunctuation("(") else { return }
        let open = i + 1, close = structure.partner[open]
        guard close > open else { return }
        var k = open + 1
        while k < close, k - open < 256 {
            if structure.partner[k] > k { k = structure.partner[k] + 1; continue }
            let t = tokens[k]
            if t.isIdentifier("in") || t.isIdentifier("of") || t.isPunctuation(":") {
                guard k > open + 1, tokens[k - 1].kind == .identifier, k + 1 < close else { return }
                let body = close + 1 < tokens.count && tokens[close + 1].isPunctuation("{") ? close + 1 : structure.parent[i]
                add(Binding(name: tokens[k - 1].text, nameToken: k - 1, valueStart: k + 1, scope: body, kind: .element, isMember: false, valueEnd: close))
                return
            }
            if t.isPunctuation(";") { return }  // a counting loop
            k += 1
        }
    }

    /// `SKUS.map { sku -> … }`, `SKUS.forEach { it }`, `skus.map((sku) => …)`, `skus.forEach(function (sku) {…})`.
    private mutating func lambda(at i: Int, tokens: [Token], structure: Structure) {
        guard i >= 2, i + 2 < tokens.count, tokens[i - 1].isPunctuation(".") || tokens[i - 1].isPunctuation("?.") else { return }
        guard let receiver = Bindings.receiverStart(before: i - 1, tokens: tokens, structure: structure) else { return }
        let open = i + 1
        if tokens[open].isPunctuation("{") {
            // Kotlin: `{ sku -> …}` or `it`.
            var name = "it", k = open + 1
            while k < tokens.count, k - open < 12 {
                if tokens[k].isPunctuation("->") { if tokens[k - 1].kind == .identifier { name = tokens[k - 1].text }; break }
                guard tokens[k].kind == .identifier || tokens[k].isPunctuation(",") || tokens[k].isPunctuation(":") else { break }
                k += 1
            }
            add(Binding(name: name, nameToken: open, valueStart: receiver, scope: open, kind: .element, isMember: false, valueEnd: i - 1))
        } else if tokens[open].isPunctuation("(") {
            var k = open + 1
            if k < tokens.count, tokens[k].isIdentifier("function") { k += 1 }
            var name: Int?
            if k + 1 < tokens.count, tokens[k].kind == .identifier, tokens[k + 1].isPunctuation("=>") {
                name = k
            } else if k < tokens.count, tokens[k].isPunctuation("("), structure.partner[k] > k {
                let close = structure.partner[k]
                var j = close - 1
                while j > k, tokens[j].kind != .identifier { j -= 1 }
                if j > k { name = j }
            }
            if let name {
                add(Binding(name: tokens[name].text, nameToken: name, valueStart: receiver, scope: open, kind: .element, isMember: false, valueEnd: i - 1))
            }
        }
    }

    /// The first token of the expression a method is called on (`Constants.SKUS` in `Constants.SKUS.map`).
    static func receiverStart(before dot: Int, tokens: [Token], structure: Structure) -> Int? {
        var j = dot - 1, steps = 0
        guard j >= 0 else { return nil }
        while j >= 0, steps < 32 {
            steps += 1
            let t = tokens[j]
            if t.isPunctuation(")") || t.isPunctuation("]") {
                guard structure.partner[j] >= 0 else { return nil }
                j = structure.partner[j]
                if j > 0, tokens[j - 1].kind == .identifier, tokens[j].isPunctuation("(") { j -= 1 }
            } else if t.isPunctuation("}"), structure.partner[j] > 0, tokens[structure.partner[j] - 1].kind == .identifier {
                j = structure.partner[j] - 1  // Kotlin's trailing lambda: `Plan.entries.filter { … }.map {`
            } else if t.isPunctuation("!!") {
                j -= 1
                continue
            } else if !(t.kind == .identifier || t.kind == .string) {
                return nil
            }
            if j >= 2, tokens[j - 1].isPunctuation(".") || tokens[j - 1].isPunctuation("?.") {
                j -= 2
                continue
            }
            return j
        }
        return nil
    }
}

extension Bindings {
    /// The bindings of several files' tokens, one after another (`offsets` as `Structure(joining:)`).
    init(joining parts: [Bindings], offsets: [Int]) {
        for (part, offset) in zip(parts, offsets) {
            for var binding in part.all {
                binding.nameToken += offset
                binding.valueStart += offset
                if binding.scope >= 0 { binding.scope += offset }
                binding.valueEnd = binding.valueEnd.map { $0 + offset }
                add(binding)
            }
        }
    }
}
