import TallyModel

/// Types as values (issue 49): a constructor call is an object of its parameters
/// (`ProductId("premium")` → `{value: "premium"}`), a Kotlin `object` is an object of its
/// constants, an enum's entries are objects of their constructor's parameters
/// (`Plan.entries`, `Plan.values()`, `Plan.MONTHLY`), so that `plan.productId` reads them.
extension Evaluator {
    /// The type bodies named `name`, in every file read.
    mutating func typeBodies(named name: String) -> [Int] {
        if typesByName == nil {
            var byName: [String: [Int]] = [:]
            for (body, type) in structure.typeNames { byName[type, default: []].append(body) }
            typesByName = byName.mapValues { $0.sorted() }
        }
        return typesByName?[name] ?? []
    }

    /// The constructor of a type: Kotlin's primary one, else one declared in the body with the
    /// type's name (`public Plan(String id) {`, Dart's `const Plan(this.id);`).
    func constructor(of body: Int) -> Callable? {
        if let primary = structure.callables[body] { return primary }
        guard let name = structure.typeNames[body], structure.partner[body] > body else { return nil }
        let close = structure.partner[body]
        var k = body + 1
        while k < close, k - body < 200_000 {
            if structure.partner[k] > k, !tokens[k].isPunctuation("(") { k = structure.partner[k] + 1; continue }
            if tokens[k].isIdentifier(name), k + 1 < close, tokens[k + 1].isPunctuation("("), structure.partner[k + 1] > k + 1,
               k == 0 || !tokens[k - 1].isPunctuation(".") && !tokens[k - 1].isIdentifier("new") && !tokens[k - 1].isIdentifier("return") {
                return Callable(name: name, nameToken: k,
                                parameters: Structure.parameterList(k + 1, structure.partner[k + 1], tokens: tokens, partner: structure.partner))
            }
            k += 1
        }
        return nil
    }

    /// `Name(…)` as an object of the constructor's parameters, when `Name` is a class read here.
    mutating func constructed(_ name: String, open: Int, close: Int, depth: Int) -> Value? {
        guard let first = name.utf8.first, first >= 0x41, first <= 0x5A else { return nil }  // a type's name
        for body in typeBodies(named: name) where !structure.enumBodies.contains(body) {
            guard let callable = constructor(of: body) else { continue }
            return object(callable, open: open, close: close, depth: depth)
        }
        if let key = structure.bodilessClasses[name], let callable = structure.callables[key] {
            return object(callable, open: open, close: close, depth: depth)
        }
        return nil
    }

    /// The arguments of a call, each under its parameter's name.
    mutating func object(_ callable: Callable, open: Int, close: Int, depth: Int) -> Value {
        let args = arguments(open: open, close: close)
        var positional = args.filter { $0.label == nil }[...]
        var entries: [Value.ObjectEntry] = []
        for parameter in callable.parameters {
            if let labelled = args.first(where: { $0.label == parameter.name }) {
                entries.append(.init(key: parameter.name, keyToken: nil, value: value(of: labelled, depth: depth + 1)))
                continue
            }
            guard let argument = positional.popFirst() else { break }
            entries.append(.init(key: parameter.name, keyToken: nil, value: value(of: argument, depth: depth + 1)))
        }
        return .object(entries, open..<(close + 1))
    }

    /// An enum's entries with their values: constructor arguments as objects, or `A = "x"`.
    mutating func enumEntries(_ body: Int, depth: Int) -> [(name: String, value: Value)] {
        let close = structure.partner[body]
        guard close > body else { return [] }
        let constructor = constructor(of: body)
        var entries: [(name: String, value: Value)] = []
        var k = body + 1
        while k < close, entries.count < 512 {
            while isPunctuation(k, "@"), k + 1 < close {  // annotations: `@SerializedName("x") A(…)`
                k += 2
                if isPunctuation(k, "("), structure.partner[k] > k { k = structure.partner[k] + 1 }
            }
            guard let t = token(k), t.kind == .identifier else { break }
            let name = t.text
            k += 1
            var value: Value = .nothing
            if isPunctuation(k, "("), structure.partner[k] > k {
                let end = structure.partner[k]
                if let constructor { value = object(constructor, open: k, close: end, depth: depth) }
                k = end + 1
            } else if isPunctuation(k, "=") {
                let (assigned, end) = expression(at: k + 1, depth: depth + 1)
                value = assigned
                k = max(end, k + 1)
            }
            if isPunctuation(k, "{"), structure.partner[k] > k { k = structure.partner[k] + 1 }  // an entry's own body
            entries.append((name, value))
            guard isPunctuation(k, ",") else { break }
            k += 1
        }
        return entries
    }

    /// A path that starts with a type read here: `Plan.entries`, `Plan.MONTHLY.productId`,
    /// `OurSku.Iap.PRO_UPGRADE` (a Kotlin object), `Ids.Sub.MONTHLY`; nil when no type is named.
    mutating func typePath(_ names: [String], use: Int, depth: Int) -> Value? {
        guard let first = names.first, let firstByte = first.utf8.first, firstByte >= 0x41, firstByte <= 0x5A else { return nil }
        var bodies = typeBodies(named: first)
        guard !bodies.isEmpty else { return nil }
        var index = 1
        var value: Value?
        while index < names.count, value == nil {
            let name = names[index]
            // A nested type: `OurSku.Iap`.
            let nested = bodies.flatMap { body in typeBodies(named: name).filter { structure.parent[$0] != -1 && structure.encloses(body, $0) && $0 != body } }
            if !nested.isEmpty {
                bodies = nested
                index += 1
                continue
            }
            if let body = bodies.first(where: { structure.enumBodies.contains($0) }) {
                let entries = enumEntries(body, depth: depth)
                if ["entries", "values", "allCases", "Values"].contains(name) {
                    value = .list(entries.map(\.value))
                } else if let entry = entries.first(where: { $0.name == name }) {
                    value = entry.value
                }
            }
            if value == nil {
                // A constant of the type: `Ids.PRO` (a member binding declared in that body).
                let members = (bindings.members[name] ?? []).filter { index in bodies.contains { structure.parent[bindings.all[index].nameToken] == $0 } }
                guard !members.isEmpty else { return nil }
                value = combine(members, name: name, depth: depth)
            }
            index += 1
        }
        if value == nil {
            // The path names a type itself: a Kotlin object is an object of its constants.
            guard let body = bodies.first(where: { structure.objectBodies.contains($0) }) else { return nil }
            value = objectValue(body, depth: depth)
        }
        for name in names[index...] {
            guard let member = value?.member(name) else { return nil }
            value = member
        }
        return value
    }

    /// A Kotlin `object`'s constants as an object (`object PRO : Sku { override val id = "pro" }`).
    mutating func objectValue(_ body: Int, depth: Int) -> Value {
        var entries: [Value.ObjectEntry] = []
        for (name, indices) in bindings.members {
            let own = indices.filter { structure.parent[bindings.all[$0].nameToken] == body }
            guard !own.isEmpty else { continue }
            entries.append(.init(key: name, keyToken: nil, value: combine(own, name: name, depth: depth)))
        }
        return .object(entries.sorted { $0.key < $1.key }, body..<(max(structure.partner[body], body) + 1))
    }
}

/// Function results (issue 49): `SubscriptionConstants.getProductIds('ios')` is what the
/// function returns, every `return` of its body (or its expression body), a `switch` on a
/// parameter narrowed to the cases the call's argument names.
extension Evaluator {
    /// Named functions by name, once built (constructors and type bodies aside).
    mutating func functions(named name: String) -> [Int] {
        if functionsByName == nil {
            var byName: [String: [Int]] = [:]
            let constructors = Set(structure.bodilessClasses.values)
            for (key, callable) in structure.callables where !structure.typeBodies.contains(key) && !constructors.contains(key) {
                byName[callable.name, default: []].append(key)
            }
            functionsByName = byName.mapValues { $0.sorted() }
        }
        return functionsByName?[name] ?? []
    }

    /// What a call of a function read here returns; nil when no such function is read (or it returns nothing known).
    mutating func returned(_ names: [String], open: Int, close: Int, depth: Int, only: [Int]? = nil) -> Value? {
        guard let name = names.last, depth < Evaluator.maxDepth - 6 else { return nil }
        var keys = only ?? functions(named: name).filter { structure.callables[$0]?.isGetter == false }
        if names.count >= 2 {
            // `Constants.getIds()`: a function of that type when one is read.
            let qualified = keys.filter { structure.enclosingTypes(of: structure.callables[$0]?.nameToken ?? -1).contains(names[names.count - 2]) }
            if !qualified.isEmpty { keys = qualified }
        }
        var values: [Value] = []
        for key in keys.prefix(8) where !returning.contains(key) {
            guard let callable = structure.callables[key] else { continue }
            returning.insert(key)
            defer { returning.remove(key) }
            let outerLimit = limit
            limit = Int.max
            defer { limit = outerLimit }
            if !tokens[key].isPunctuation("{") {
                let (value, _) = expression(at: key + 1, depth: depth + 1)  // `fun ids() = listOf(…)`, `ids() => […]`
                values.append(value)
                continue
            }
            let narrowed = open >= 0 ? switchArguments(callable, open: open, close: close, depth: depth) : [:]
            for statement in returns(in: key) {
                if let (parameter, labels) = caseLabels(of: statement, in: key), let known = narrowed[parameter], !labels.isEmpty {
                    // A `case` whose label the call never passes is not taken (`default` is taken when none matches).
                    let isDefault = labels.contains("default")
                    let matches = labels.contains { known.contains($0) }
                    let anyMatch = known.contains { value in caseLabelsOfSwitch(of: statement, in: key).contains(value) }
                    guard matches || (isDefault && !anyMatch) else { continue }
                }
                let (value, _) = expression(at: statement + 1, depth: depth + 1)
                values.append(value)
            }
        }
        guard !values.isEmpty else { return nil }
        return values.count == 1 ? values[0] : .either(values)
    }

    /// What a getter of that name returns (`plan.iosProductId`, `PremiumPlan.monthly.productId`),
    /// when one is read: every value it may return, whichever object it is asked of.
    mutating func getter(_ name: String, depth: Int) -> Value? {
        let keys = functions(named: name).filter { structure.callables[$0]?.isGetter == true }
        guard !keys.isEmpty else { return nil }
        return returned([name], open: -1, close: -1, depth: depth, only: keys)
    }

    /// The `return` tokens of a function body, not those of functions or lambdas inside it.
    func returns(in body: Int) -> [Int] {
        let close = structure.partner[body]
        guard close > body else { return [] }
        var found: [Int] = []
        var k = body + 1
        while k < close, found.count < 64 {
            if tokens[k].isPunctuation("{"), k != body, structure.partner[k] > k, structure.parameters[k] != nil || structure.typeBodies.contains(k) {
                k = structure.partner[k] + 1  // a nested function, lambda or type
                continue
            }
            if tokens[k].isIdentifier("return"), k + 1 < close, !tokens[k + 1].isPunctuation(";") { found.append(k) }
            k += 1
        }
        return found
    }

    /// For each parameter a `switch` of the body tests, the string literals the call passes it (when all are known).
    mutating func switchArguments(_ callable: Callable, open: Int, close: Int, depth: Int) -> [String: Set<String>] {
        let args = arguments(open: open, close: close)
        var known: [String: Set<String>] = [:]
        var positional = args.filter { $0.label == nil }[...]
        for parameter in callable.parameters {
            let argument = args.first { $0.label == parameter.name } ?? positional.popFirst()
            guard let argument else { break }
            let flat = value(of: argument, depth: depth + 1).flattened()
            guard flat.unknown.isEmpty, !flat.literals.isEmpty else { continue }
            known[parameter.name] = Set(flat.literals.map { text(of: $0) })
        }
        return known
    }

    /// The `switch (parameter)` a `return` stands in, and the labels of its `case` section.
    func caseLabels(of statement: Int, in body: Int) -> (String, Set<String>)? {
        guard let (subject, switchBody) = enclosingSwitch(of: statement, in: body) else { return nil }
        var labels: Set<String> = []
        var k = statement - 1
        // Back to the section's labels: `case 'ios':`, `case "a": case "b":`, `default:`.
        while k > switchBody {
            if structure.partner[k] >= 0, structure.partner[k] < k, structure.partner[k] > switchBody { k = structure.partner[k] - 1; continue }
            let t = tokens[k]
            if t.isIdentifier("default"), structure.parent[k] == switchBody { labels.insert("default") }
            if t.isIdentifier("case"), structure.parent[k] == switchBody {
                if k + 1 < tokens.count, tokens[k + 1].isLiteralString { labels.insert(tokens[k + 1].text) } else { labels.insert("\u{0}other") }
            }
            if (t.isIdentifier("break") || t.isIdentifier("return")) && structure.parent[k] == switchBody && !labels.isEmpty { break }
            if t.isIdentifier("return"), structure.parent[k] == switchBody, labels.isEmpty, k != statement { break }
            k -= 1
        }
        return labels.isEmpty ? nil : (subject, labels)
    }

    /// Every string label of the switch a `return` stands in.
    func caseLabelsOfSwitch(of statement: Int, in body: Int) -> Set<String> {
        guard let (_, switchBody) = enclosingSwitch(of: statement, in: body) else { return [] }
        var labels: Set<String> = []
        for k in (switchBody + 1)..<max(switchBody + 1, structure.partner[switchBody]) where tokens[k].isIdentifier("case") && structure.parent[k] == switchBody {
            if k + 1 < tokens.count, tokens[k + 1].isLiteralString { labels.insert(tokens[k + 1].text) }
        }
        return labels
    }

    /// `switch (name) {` around a token inside `body`: the name and the switch's `{`.
    func enclosingSwitch(of statement: Int, in body: Int) -> (String, Int)? {
        var scope = structure.parent[statement], steps = 0
        while scope > body, steps < 16 {
            if tokens[scope].isPunctuation("{"), scope >= 4, tokens[scope - 1].isPunctuation(")"),
               structure.partner[scope - 1] == scope - 3, tokens[scope - 2].kind == .identifier, tokens[scope - 4].isIdentifier("switch") {
                return (tokens[scope - 2].text, scope)
            }
            scope = structure.parent[scope]
            steps += 1
        }
        return nil
    }
}
