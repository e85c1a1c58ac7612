import TallyModel

/// One argument of a call: its label (`skus:`, Kotlin's `productId =`) and tokens.
struct Argument: Sendable {
    var label: String?
    var start: Int
    var end: Int
}

extension Evaluator {
    /// Functions that make a collection of their arguments.
    static let collectionBuilders: Set<String> = [
        "listOf", "setOf", "arrayOf", "mutableListOf", "mutableSetOf", "arrayListOf", "hashSetOf", "linkedSetOf", "sortedSetOf",
        "listOfNotNull", "setOfNotNull", "mutableStateListOf", "persistentListOf", "persistentSetOf", "immutableListOf",
        "asList", "of", "singletonList", "singleton", "newArrayList", "newHashSet", "HashSet", "ArrayList", "LinkedList",
        "TreeSet", "LinkedHashSet", "Set", "List", "Array", "from", "unmodifiableList", "unmodifiableSet", "copyOf", "ImmutableList",
    ]
    /// Methods that keep a collection's elements (`.toSet()`, `.toList()`).
    static let passThrough: Set<String> = [
        "toSet", "toList", "toTypedArray", "toArray", "toMutableList", "toMutableSet", "ToList", "ToArray", "ToHashSet",
        "sorted", "distinct", "asList", "toImmutableList", "toImmutableSet", "toSortedSet", "toHashSet", "Distinct", "toImmutable",
    ]

    /// Methods that keep some of a collection's elements (`filter`, `distinctBy`, `take`): the
    /// IDs the code names are all the ones it may ask for, so each is read as the whole collection.
    static let selections: Set<String> = [
        "filter", "filterNot", "filterNotNull", "filterIsInstance", "distinctBy", "sortedBy", "sortedByDescending", "sortedWith",
        "take", "takeLast", "takeWhile", "drop", "dropLast", "dropWhile", "reversed", "asReversed", "asSequence", "asIterable",
        "where", "Where", "OrderBy", "OrderByDescending", "Take", "Skip", "slice", "unique", "uniq", "toSorted", "shuffled",
    ]
    /// Methods that make a collection of what a lambda returns for each element.
    static let mappings: Set<String> = ["map", "mapNotNull", "flatMap", "Select", "SelectMany", "expand", "compactMap", "mapTo"]

    /// `xs.map((p) => p.sku)`, `xs.map { it.id }`, `ids.map(id => ({id, type}))`: the lambda's
    /// body read once with its parameter standing for every element (Bindings' element binding),
    /// when the body is one expression; nil for a body of statements.
    mutating func mapped(_ collection: Value, lambdaAt open: Int, depth: Int) -> (Value, Int)? {
        guard let bracket = token(open), bracket.kind == .punctuation, ["(", "{"].contains(bracket.text), !bracket.newlineBefore else { return nil }
        let close = structure.partner[open]
        guard close > open else { return nil }
        var body = open + 1
        if bracket.text == "{" {
            // Kotlin: `{ it.id }`, `{ sku -> sku.id }`, `{ (id, _) -> id }`.
            var k = open + 1
            while k < close, k - open < 16 {
                if isPunctuation(k, "->") { body = k + 1; break }
                guard let t = token(k), t.kind == .identifier || [",", ":", "(", ")", "_"].contains(t.text) else { break }
                k += 1
            }
        } else {
            // `(p) => …`, `p => …`, `function (p) { return …; }`, Dart's `(p) { return …; }`.
            var k = open + 1
            if isPunctuation(k, "("), structure.partner[k] > k { k = structure.partner[k] + 1 } else if token(k)?.kind == .identifier { k += 1 }
            if isPunctuation(k, "=>") || isPunctuation(k, "->") {
                body = k + 1
            } else {
                return nil
            }
            if isPunctuation(body, "{"), structure.partner[body] > body, isIdentifier(body + 1, "return") {
                let (value, end) = expression(at: body + 2, depth: depth + 1)
                guard isPunctuation(end, ";") || end == structure.partner[body] else { return nil }
                return (.list([value]), close + 1)
            }
        }
        let (value, end) = expression(at: body, depth: depth + 1)
        guard end == close else { return nil }
        _ = collection
        return (.list([value]), close + 1)
    }

    func isIdentifier(_ i: Int, _ text: String) -> Bool { token(i)?.isIdentifier(text) ?? false }

    static func store(forPlatform key: String) -> Store? {
        switch key.lowercased() {
        case "ios", "macos", "tvos", "watchos", "visionos", "apple", "appstore", "applestore": return .appStore
        case "android", "google", "googleplay", "play": return .googlePlay
        default: return nil
        }
    }

    // MARK: - Names and calls

    /// A name, member path or call: `SKUS`, `Constants.PRO`, `listOf(…)`, `Platform.select({…})`, `new IDs {…}`.
    mutating func path(at i: Int, depth: Int) -> (Value, Int) {
        var names = [tokens[i].text]
        var j = i + 1
        while let t = token(j) {
            if t.isPunctuation(".") || t.isPunctuation("?."), let next = token(j + 1), next.kind == .identifier {
                names.append(next.text)
                j += 2
            } else if t.isPunctuation("!!") || (t.isPunctuation("!") && t.start == tokens[j - 1].end) {
                j += 1
            } else if t.isPunctuation("<"), let end = typeArgumentsEnd(from: j), let next = token(end), !next.newlineBefore,
                      next.kind == .punctuation, ["(", "{", ".", "?."].contains(next.text) {
                j = end
            } else if t.isPunctuation("["), isPunctuation(j + 1, "]"), [.java, .cSharp, .objectiveC].contains(language) {
                j += 2  // `new String[] {…}`
            } else {
                break
            }
        }
        // Kotlin's trailing lambda on a collection: `PLANS.map { it.id }`, `SKUS.filter { … }`.
        if names.count >= 2, let last = names.last, let t = token(j), t.isPunctuation("{"), !t.newlineBefore, structure.partner[j] > j,
           Evaluator.mappings.contains(last) || Evaluator.selections.contains(last) {
            let base = resolve(path: Array(names.dropLast()), range: i..<(j - 2), depth: depth)
            if Evaluator.selections.contains(last) { return postfix(base, at: structure.partner[j] + 1, start: i, depth: depth) }
            if let (mapped, end) = mapped(base, lambdaAt: j, depth: depth) { return postfix(mapped, at: end, start: i, depth: depth) }
        }
        let isNew = i > 0 && tokens[i - 1].isIdentifier("new")
        if let t = token(j), t.isPunctuation("("), structure.partner[j] > j,
           !(t.newlineBefore && [.javaScript, .typeScript, .kotlin].contains(language)) {
            let close = structure.partner[j]
            var value = call(names, open: j, close: close, start: i, depth: depth)
            var end = close + 1
            if isNew, language == .cSharp, isPunctuation(end, "{"), structure.partner[end] > end {  // `new List<string>() { "a" }`
                value = .list([value, .list(elements(open: end, close: structure.partner[end], depth: depth))])
                end = structure.partner[end] + 1
            }
            return postfix(value, at: end, start: i, depth: depth)
        }
        if isNew, [.cSharp, .java].contains(language), isPunctuation(j, "{"), structure.partner[j] > j {
            let close = structure.partner[j]  // `new IDs {…}`, `new string[] {…}`, `new List<string> {…}`
            return postfix(.list(elements(open: j, close: close, depth: depth)), at: close + 1, start: i, depth: depth)
        }
        return postfix(resolve(path: names, range: i..<j, depth: depth), at: j, start: i, depth: depth)
    }

    private mutating func call(_ names: [String], open: Int, close: Int, start: Int, depth: Int) -> Value {
        let name = names.last ?? ""
        let args = arguments(open: open, close: close)
        let owner = names.count >= 2 ? names[names.count - 2] : ""
        if Evaluator.passThrough.contains(name), names.count >= 2, args.isEmpty {  // `_kIds.toSet()`
            return resolve(path: Array(names.dropLast()), range: start..<open, depth: depth)
        }
        if Evaluator.selections.contains(name), names.count >= 2 {  // `ids.filter((id) => …)`
            return resolve(path: Array(names.dropLast()), range: start..<open, depth: depth)
        }
        if Evaluator.mappings.contains(name), names.count >= 2 {  // `PACKS.map((p) => p.sku)`
            let base = resolve(path: Array(names.dropLast()), range: start..<open, depth: depth)
            if let (mapped, end) = mapped(base, lambdaAt: open, depth: depth), end == close + 1 { return mapped }
        }
        if Evaluator.collectionBuilders.contains(name) {
            var items: [Value] = []
            for arg in args where arg.label == nil {
                if arg.end == arg.start + 1, tokens[arg.start].kind == .number { continue }  // a capacity
                items.append(value(of: arg, depth: depth))
            }
            return .list(items)
        }
        if ["values", "Values", "entries"].contains(name), args.isEmpty, names.count >= 2,
           let entries = typePath(Array(names.dropLast()) + ["entries"], use: start, depth: depth) {
            return entries  // `Plan.values()`
        }
        if names.count == 1 || names.dropLast().allSatisfy({ $0.first?.isUppercase == false }),
           let object = constructed(name, open: open, close: close, depth: depth) {
            return object  // `ProductId("premium")`, `new Plan("x")`
        }
        if !Evaluator.collectionBuilders.contains(name), let result = returned(names, open: open, close: close, depth: depth) {
            return result  // `Constants.getProductIds('ios')`
        }
        switch (owner, name) {
        case ("Object", "values"):
            guard let first = args.first, case .object(let entries, _) = value(of: first, depth: depth) else { break }
            return .list(entries.map(\.value))
        case ("Object", "keys"):
            guard let first = args.first, case .object(let entries, _) = value(of: first, depth: depth) else { break }
            return .list(entries.map { entry in entry.keyToken.map { .literal(LiteralRef(token: $0)) } ?? unknown(open, close + 1) })
        case (_, "select") where names.contains("Platform"):
            guard let first = args.first, case .object(let entries, _) = value(of: first, depth: depth) else { break }
            return .either(entries.map { $0.value.tagged(Evaluator.store(forPlatform: $0.key)) })
        case (_, "fromEnvironment"):
            guard let fallback = args.first(where: { $0.label == "defaultValue" }) else { break }
            return value(of: fallback, depth: depth)
        default:
            // `RequestPurchaseIOS(sku: 'x')`: named arguments only, read like an object.
            if !args.isEmpty, args.allSatisfy({ $0.label != nil }) {
                return .object(args.map { .init(key: $0.label ?? "", keyToken: nil, value: value(of: $0, depth: depth)) }, start..<(close + 1))
            }
        }
        return unknown(start, close + 1)
    }

    /// The arguments between `open` and `close` (past 65,536 of them, the rest is one argument:
    /// a list of 12,000 IDs in one `listOf(…)` is read whole, issue 47).
    func arguments(open: Int, close: Int) -> [Argument] {
        var args: [Argument] = []
        var k = open + 1, itemStart = open + 1, visited = 0
        while k <= close {
            visited += 1
            if visited > 1_048_576 || args.count >= 65_536 {
                if close > itemStart { args.append(Argument(label: nil, start: itemStart, end: close)) }
                return args
            }
            if k == close || isPunctuation(k, ",") {
                if k > itemStart { args.append(argument(itemStart, k)) }
                itemStart = k + 1
                k += 1
                continue
            }
            if structure.partner[k] > k {
                k = min(structure.partner[k] + 1, close)
                continue
            }
            k += 1
        }
        return args
    }

    private func argument(_ start: Int, _ end: Int) -> Argument {
        if end - start >= 3, tokens[start].kind == .identifier,
           isPunctuation(start + 1, ":") || (language == .kotlin && isPunctuation(start + 1, "=")) {
            return Argument(label: tokens[start].text, start: start + 2, end: end)
        }
        return Argument(label: nil, start: start, end: end)
    }

    /// An argument's value: unknown unless the whole argument was read.
    mutating func value(of argument: Argument, depth: Int) -> Value {
        let (value, end) = expression(at: argument.start, depth: depth + 1)
        return end == argument.end ? value : unknown(argument.start, argument.end)
    }

    // MARK: - What follows an operand

    mutating func postfix(_ value: Value, at start: Int, start origin: Int, depth: Int) -> (Value, Int) {
        var value = value, j = start
        while let t = token(j), steps < Evaluator.maxSteps {
            steps += 1
            if t.isPunctuation(".") || t.isPunctuation("?."), let m = token(j + 1), m.kind == .identifier {
                let called = isPunctuation(j + 2, "(") && structure.partner[j + 2] > j + 2
                if Evaluator.passThrough.contains(m.text) || Evaluator.selections.contains(m.text) {
                    j = called ? structure.partner[j + 2] + 1 : j + 2
                    // Kotlin's trailing lambda: `.filter { it.active }`, `.distinctBy { it.id }`.
                    if Evaluator.selections.contains(m.text), isPunctuation(j, "{"), structure.partner[j] > j, !tokens[j].newlineBefore {
                        j = structure.partner[j] + 1
                    }
                    continue
                }
                if Evaluator.mappings.contains(m.text), let (mapped, end) = mapped(value, lambdaAt: j + 2, depth: depth) {
                    value = mapped
                    j = end
                    continue
                }
                if !called, let member = value.member(m.text) { value = member; j += 2; continue }
                if m.text == "first", !called || structure.partner[j + 2] == j + 3, let first = value.element(0) {
                    value = first
                    j = called ? j + 4 : j + 2
                    continue
                }
                let end = skipChain(from: j)  // transformed at run time (`.map {…}`, `.uppercase()`)
                return (unknown(origin, end), end)
            }
            if t.isPunctuation("["), !t.newlineBefore, structure.partner[j] > j {
                let close = structure.partner[j]
                if close == j + 2, let index = token(j + 1) {
                    if index.kind == .number, let n = Int(index.text), let element = value.element(n) { value = element; j = close + 1; continue }
                    if index.isLiteralString, let member = value.member(index.text) { value = member; j = close + 1; continue }
                }
                return (unknown(origin, close + 1), close + 1)
            }
            if t.isPunctuation("!!") || (t.isPunctuation("!") && t.start == tokens[j - 1].end && !isPunctuation(j + 1, "(")) {
                j += 1
                continue
            }
            if t.isIdentifier("as") || t.isIdentifier("satisfies"), !t.newlineBefore, language != .dart || t.text == "as" {
                j = skipType(from: j + 1)
                continue
            }
            if t.isPunctuation(".."), let m = token(j + 1), ["add", "addAll"].contains(m.text), isPunctuation(j + 2, "("), structure.partner[j + 2] > j + 2 {
                let close = structure.partner[j + 2]  // Dart's cascade: `<String>{}..add('a')`
                value = .list([value] + arguments(open: j + 2, close: close).map { self.value(of: $0, depth: depth) })
                j = close + 1
                continue
            }
            break
        }
        return (value, j)
    }

    /// The end of a member chain: `.a`, `(…)`, `[…]`, a trailing `{…}` lambda, `!!`.
    private func skipChain(from start: Int) -> Int {
        var j = start
        while let t = token(j), j - start < 4_096 {
            if t.isPunctuation(".") || t.isPunctuation("?.") || t.isPunctuation("..") || t.isPunctuation("!!") { j += 1; continue }
            if t.kind == .identifier, j > start, tokens[j - 1].kind == .punctuation, [".", "?.", ".."].contains(tokens[j - 1].text) { j += 1; continue }
            if (t.isPunctuation("(") || t.isPunctuation("[") || (t.isPunctuation("{") && language == .kotlin)), structure.partner[j] > j, !t.newlineBefore {
                j = structure.partner[j] + 1
                continue
            }
            break
        }
        return j
    }

    /// The end of a type after `as`: `String`, `string[]`, `const`, `List<String>?`.
    private func skipType(from start: Int) -> Int {
        var j = start
        while let t = token(j), j - start < 64 {
            if t.kind == .identifier, j == start || tokens[j - 1].isPunctuation(".") { j += 1; continue }
            if t.isPunctuation("."), j > start { j += 1; continue }
            if t.isPunctuation("<"), let end = typeArgumentsEnd(from: j) { j = end; continue }
            if t.isPunctuation("["), isPunctuation(j + 1, "]") { j += 2; continue }
            if t.isPunctuation("?"), j > start, !isPunctuation(j + 1, ":") { j += 1; continue }
            break
        }
        return max(j, start)
    }

    // MARK: - Resolving names

    /// What a name or member path refers to in this file, or unknown.
    mutating func resolve(path names: [String], range: Range<Int>, depth: Int) -> Value {
        var names = names
        let viaSelf = names.count > 1 && ["this", "self", "widget", "super"].contains(names[0])
        if viaSelf { names.removeFirst() }
        guard let last = names.last else { return unknown(range.lowerBound, range.upperBound) }
        let use = range.lowerBound
        if names.count == 1 {
            let found = viaSelf ? (member(named: last, at: use, depth: depth) ?? resolve(name: last, at: use, depth: depth))
                : resolve(name: last, at: use, depth: depth)
            return found ?? getter(last, depth: depth) ?? unknown(range.lowerBound, range.upperBound)
        }
        // `PRODUCTS.monthly`, `SKU.PRE_MON`: a member of an object (or of each `Platform.select` branch).
        if let base = resolve(name: names[0], at: use, depth: depth) {
            var value: Value? = base
            for name in names.dropFirst() { value = value?.member(name) }
            if let value { return value }
        }
        // `Constants.PRO`, `Skus.INSTANCE.PRO`: a constant declared in a type or object of this
        // file, else of another file whose type the path names (`BillingConstants.PREMIUM`), else
        // a module's top-level constant through its import name (`skus.MONTHLY`, `ids.pro`).
        if let found = member(named: last, at: use, depth: depth) { return found }
        if let found = typePath(names, use: use, depth: depth) { return found }
        if let found = getter(last, depth: depth) { return found }
        if spans.files.count > 1 {
            let qualifiers = Set(names.dropLast())
            let typed = (bindings.members[last] ?? []).filter { index in
                !spans.sameFile(bindings.all[index].nameToken, use)
                    && structure.enclosingTypes(of: bindings.all[index].nameToken).contains { qualifiers.contains($0) }
            }
            if !typed.isEmpty { return combine(typed, name: last, depth: depth) }
            if names.count == 2, let top = bindings.declarations[last]?[-1]?.filter({ !spans.sameFile(bindings.all[$0].nameToken, use) }), !top.isEmpty {
                return combine(top, name: last, depth: depth)
            }
        }
        return unknown(range.lowerBound, range.upperBound)
    }

    /// The binding `name` at `use` means: the innermost declaration around it (a parameter of
    /// an enclosing function hides outer ones), else a member constant of that name; nil if none.
    mutating func resolve(name: String, at use: Int, depth: Int) -> Value? {
        let byScope = bindings.declarations[name] ?? [:]
        if use >= 0, use < structure.expressionBody.count, structure.expressionBody[use] >= 0,
           structure.parameters[structure.expressionBody[use]]?.contains(name) == true {
            // A lambda's parameter standing for each element of a collection (`xs.map((p) => p.sku)`).
            let elements = byScope.values.joined().filter { bindings.all[$0].kind == .element && structure.encloses(bindings.all[$0].scope, use) }
            if !elements.isEmpty { return combine(Array(elements), name: name, depth: depth) }
            return parameter(name, of: structure.expressionBody[use], depth: depth)  // of an expression-bodied function
        }
        var scope = use >= 0 && use < structure.parent.count ? structure.parent[use] : -1
        var walked = 0
        while walked < Structure.maxWalk {
            if let here = byScope[scope]?.filter({ bindings.all[$0].nameToken != use }), !here.isEmpty {
                guard scope == -1, spans.files.count > 1 else { return combine(here, name: name, depth: depth) }
                // The top level of this file, then a constant of this file's types, then another file's top level.
                let own = here.filter { spans.sameFile(bindings.all[$0].nameToken, use) }
                if !own.isEmpty { return combine(own, name: name, depth: depth) }
                return member(named: name, at: use, depth: depth) ?? combine(here, name: name, depth: depth)
            }
            if scope != -1, structure.parameters[scope]?.contains(name) == true { return parameter(name, of: scope, depth: depth) }
            if scope != -1, let assigned = assignments(of: name, inside: scope, before: use, byScope: byScope) {
                return combine(assigned, name: name, depth: depth)
            }
            if scope == -1 { break }
            scope = structure.parent[scope]
            walked += 1
        }
        return member(named: name, at: use, depth: depth) ?? statics(named: name, at: use, depth: depth)
    }

    /// A parameter's values: the arguments every call of its function passes it, followed as
    /// the Swift scanner follows them (issue 49); nil when the function is not a named one or is
    /// never called in the code read (the value then comes from elsewhere, and a note says so).
    private mutating func parameter(_ name: String, of scope: Int, depth: Int) -> Value? {
        // Each parameter is followed once (a fan of calls costs their number, not its power).
        let key = ParameterKey(scope: scope, name: name)
        if let known = parameterMemo[key] { return known }
        guard let callable = structure.callables[scope], let position = callable.parameters.firstIndex(where: { $0.name == name }),
              !following.contains(scope) else { return nil }
        guard depth < Evaluator.maxDepth - 4 else {
            stoppedDeep = true
            return nil
        }
        let result = followed(name, callable: callable, position: position, scope: scope, depth: depth)
        if steps < Evaluator.maxSteps { parameterMemo[key] = result }
        return result
    }

    private mutating func followed(_ name: String, callable: Callable, position: Int, scope: Int, depth: Int) -> Value? {
        let sites = callSites()[callable.name] ?? []
        guard !sites.isEmpty else { return nil }
        following.insert(scope)
        // The calls stand anywhere: outside a lambda's collection being read (`limit`) too.
        let outerLimit = limit
        limit = Int.max
        defer {
            following.remove(scope)
            limit = outerLimit
        }
        let parameter = callable.parameters[position]
        var values: [Value] = []
        if let selector = callable.selector {
            // `[x requestProducts:set count:2]`: the argument after this parameter's selector part.
            for site in sites.prefix(64) where site != callable.nameToken {
                let message = structure.parent[site]
                guard message >= 0, tokens[message].isPunctuation("["), structure.partner[message] > site else { continue }
                var k = site, part = 0
                while k < structure.partner[message], part < position {
                    if structure.partner[k] > k { k = structure.partner[k] + 1; continue }
                    if tokens[k].kind == .identifier, isPunctuation(k + 1, ":"), k > site, tokens[k].text == selector[min(part + 1, selector.count - 1)] { part += 1; if part == position { break } }
                    k += 1
                }
                guard part == position, isPunctuation(k + 1, ":") else { continue }
                let (argument, _) = expression(at: k + 2, depth: depth + 1)
                values.append(argument)
            }
            values = Value.unique(values)
            guard !values.isEmpty else { return nil }
            return values.count == 1 ? values[0] : .either(values)
        }
        for site in sites.prefix(64) where site != callable.nameToken {
            let open = site + 1, close = structure.partner[open]
            guard close > open else { continue }
            let args = arguments(open: open, close: close)
            if let labelled = args.first(where: { $0.label == name }) {
                values.append(value(of: labelled, depth: depth + 1))
                continue
            }
            let positional = args.filter { $0.label == nil }
            // A call with more arguments than the function takes (and no rest parameter) is another function's.
            guard positional.count <= callable.parameters.count || callable.parameters.last?.rest == true else { continue }
            if parameter.rest {
                values.append(.list(positional.dropFirst(position).map { value(of: $0, depth: depth + 1) }))
            } else if position < positional.count {
                values.append(value(of: positional[position], depth: depth + 1))
            }
        }
        values = Value.unique(values)
        guard !values.isEmpty else { return nil }
        return values.count == 1 ? values[0] : .either(values)
    }

    /// Where each name is called (`name(`), by name: built once, on the first parameter followed.
    private mutating func callSites() -> [String: [Int]] {
        if let sites = sitesByName { return sites }
        var sites: [String: [Int]] = [:]
        for i in tokens.indices where tokens[i].kind == .identifier && i + 1 < tokens.count && tokens[i + 1].isPunctuation(":") && language == .objectiveC {
            // An Objective-C message's first selector part: `[x requestProducts:…]`.
            if i > 0, tokens[i - 1].kind == .identifier || tokens[i - 1].isPunctuation("]") { sites[tokens[i].text, default: []].append(i) }
        }
        for i in tokens.indices where tokens[i].kind == .identifier && i + 1 < tokens.count && tokens[i + 1].isPunctuation("(") {
            if i > 0, tokens[i - 1].kind == .identifier, !["return", "await", "new", "yield", "else", "in", "of", "is", "as", "case"].contains(tokens[i - 1].text) {
                continue  // `fun name(`, `void name(`: a declaration
            }
            sites[tokens[i].text, default: []].append(i)
        }
        sitesByName = sites
        return sites
    }

    /// Dart's `final ids;` then `ids = A;` in one branch and `ids = B;` in the other: the plain
    /// assignments to `name` in blocks inside the function body `scope`, before `use`.
    private func assignments(of name: String, inside scope: Int, before use: Int, byScope: [Int: [Int]]) -> [Int]? {
        guard structure.callables[scope] != nil || structure.parameters[scope] != nil, !structure.typeBodies.contains(scope) else { return nil }
        var found: [Int] = []
        for (inner, indices) in byScope where inner != scope && inner > scope && inner < use && structure.encloses(scope, inner) {
            for index in indices {
                let binding = bindings.all[index]
                guard binding.kind == .value, binding.nameToken < use, binding.nameToken > 0 else { continue }
                let before = tokens[binding.nameToken - 1]
                if before.isPunctuation(";") || before.isPunctuation("{") || before.isPunctuation("}") { found.append(index) }
            }
        }
        return found.isEmpty ? nil : found.sorted()
    }

    /// A member constant named `name` declared in the file of token `use` (its types and objects).
    private mutating func member(named name: String, at use: Int, depth: Int) -> Value? {
        guard let members = bindings.members[name], !members.isEmpty else { return nil }
        let own = spans.files.count == 1 ? members : members.filter { spans.sameFile(bindings.all[$0].nameToken, use) }
        return own.isEmpty ? nil : combine(own, name: name, depth: depth)
    }

    /// A constant another file declares in a type, named bare: Java's `import static …Constants.*`,
    /// C#'s `using static`, a Kotlin companion's `const val`. Only a name spelled as a constant
    /// (`SKU_PREMIUM`, `kProductPro`), so that a field of some other class (`id`, `sku`) is not taken.
    private mutating func statics(named name: String, at use: Int, depth: Int) -> Value? {
        guard spans.files.count > 1, Evaluator.isConstantName(name), let members = bindings.members[name] else { return nil }
        let others = members.filter { !spans.sameFile(bindings.all[$0].nameToken, use) }
        return others.isEmpty ? nil : combine(others, name: name, depth: depth)
    }

    /// `PRODUCT_ID`, `SKU`, `kProductID`: how a constant's name is spelled.
    static func isConstantName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        guard let first = utf8.first else { return false }
        if first >= 0x41, first <= 0x5A, utf8.allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }) { return true }
        return utf8.count >= 2 && first == 0x6B && utf8[1] >= 0x41 && utf8[1] <= 0x5A  // kName
    }

    /// Declarations of one name (one of them holds at a time) with the additions made to them.
    mutating func combine(_ indices: [Int], name: String, depth: Int) -> Value {
        var values: [Value] = []
        for index in indices.prefix(64) {
            let declared = valueOf(binding: index, depth: depth)
            let scope = bindings.all[index].scope
            var additions: [Value] = []
            for other in (bindings.additions[name] ?? []).prefix(256)
            where structure.encloses(scope, bindings.all[other].scope) && (scope != -1 || spans.sameFile(bindings.all[index].nameToken, bindings.all[other].nameToken)) {
                let (added, _) = expression(at: bindings.all[other].valueStart, depth: depth + 1)
                additions.append(added)
            }
            values.append(additions.isEmpty ? declared : .list([declared] + additions))
        }
        return values.count == 1 ? values[0] : .either(values)
    }

    private mutating func valueOf(binding index: Int, depth: Int) -> Value {
        if let value = memo[index] { return value }
        let binding = bindings.all[index]
        guard !inProgress.contains(index) else { return unknown(binding.nameToken, binding.nameToken + 1) }
        inProgress.insert(index)
        let outerLimit = limit
        limit = binding.valueEnd ?? Int.max
        let (value, end) = expression(at: binding.valueStart, depth: depth + 1)
        limit = outerLimit
        inProgress.remove(index)
        let complete = end > binding.valueStart && (binding.valueEnd.map { end == $0 } ?? true)
        let result = complete ? value : unknown(binding.nameToken, binding.nameToken + 1)
        memo[index] = result
        return result
    }
}
