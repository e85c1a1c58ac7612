import SwiftParser
import SwiftSyntax
import TallyModel

/// A string literal an ID position receives: its text and where it is written.
struct SwiftLiteral: Hashable {
    var text: String
    var location: CodeLocation
    /// Which literal it is (its file and offset): the same in each parse of the file.
    var key: SwiftUnit.Key
}

/// What a Swift expression is, as far as the module tells.
indirect enum SwiftValue {
    case literal(SwiftLiteral)
    case list([SwiftValue])
    /// One of these: a parameter's arguments at each call site, the branches of `c ? a : b`.
    case either([SwiftValue])
    /// A `String` enum's case (its raw value when it is used as an ID).
    case enumCase(type: String, name: String)
    /// A value of a type the module declares, with the arguments it was made with (`Tier(id: "…")`).
    case instance(type: String, arguments: [(label: String?, value: SwiftValue)])
    case dictionary(keys: [SwiftValue], values: [SwiftValue])
    /// Not known here: a parameter nobody passes, a server's answer, a string built at run time.
    case unknown([Syntax])
    case nothing
}

/// Follows an expression to the string literals it stands for, through the declarations of the
/// whole module: constants, arrays, sets, dictionaries' keys and values, `String` enums' raw
/// values (`allCases`, `.rawValue`), `map`, computed properties, a function's returns, a stored
/// property's assignments, and a parameter's arguments at the function's call sites.
final class SwiftEvaluator {
    let index: SwiftIndex
    /// Steps left for the current call: a module whose names refer to each other endlessly ends in `unknown`.
    private var budget = 0
    /// Whether the last `value(of:)` ran out of steps (its unknown parts may be IDs Tally did not
    /// follow to the end: the caller says where it stopped).
    private(set) var exhausted = false
    static let steps = 20_000
    private var inProgress = Set<SyntaxIdentifier>()
    private var cache: [SyntaxIdentifier: SwiftValue] = [:]
    static let maxDepth = 40

    struct Environment {
        var selfValue: SwiftValue?
        var closure: [String: SwiftValue] = [:]
        var isEmpty: Bool { selfValue == nil && closure.isEmpty }
    }

    init(index: SwiftIndex) { self.index = index }

    /// The value of the argument of one purchase call.
    func value(of expression: ExprSyntax) -> SwiftValue {
        budget = Self.steps
        exhausted = false
        inProgress = []
        return evaluate(expression, Environment(), 0)
    }

    // MARK: - expressions

    func evaluate(_ expression: ExprSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        guard depth < Self.maxDepth, budget > 0 else {
            if budget <= 0 { exhausted = true }
            return .unknown([Syntax(expression)])
        }
        budget -= 1
        let cacheable = env.isEmpty
        if cacheable, let cached = cache[expression.id] { return cached }
        let value = compute(expression, env, depth)
        if cacheable { cache[expression.id] = value }
        return value
    }

    private func compute(_ expression: ExprSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        let next = depth + 1
        if let string = expression.as(StringLiteralExprSyntax.self) {
            guard let text = string.representedLiteralValue, let unit = index.unit(of: string) else { return .unknown([Syntax(string)]) }
            return .literal(SwiftLiteral(text: text, location: unit.location(string), key: unit.key(string)))
        }
        if let array = expression.as(ArrayExprSyntax.self) {
            return .list(array.elements.map { evaluate($0.expression, env, next) })
        }
        if let dictionary = expression.as(DictionaryExprSyntax.self) {
            guard case .elements(let elements) = dictionary.content else { return .dictionary(keys: [], values: []) }
            return .dictionary(keys: elements.map { evaluate($0.key, env, next) }, values: elements.map { evaluate($0.value, env, next) })
        }
        if let tuple = expression.as(TupleExprSyntax.self), tuple.elements.count == 1, let only = tuple.elements.first, only.label == nil {
            return evaluate(only.expression, env, next)
        }
        if let inner = expression.as(TryExprSyntax.self) { return evaluate(inner.expression, env, next) }
        if let inner = expression.as(AwaitExprSyntax.self) { return evaluate(inner.expression, env, next) }
        if let inner = expression.as(ForceUnwrapExprSyntax.self) { return evaluate(inner.expression, env, next) }
        if let inner = expression.as(OptionalChainingExprSyntax.self) { return evaluate(inner.expression, env, next) }
        if let inner = expression.as(AsExprSyntax.self) { return evaluate(inner.expression, env, next) }
        if expression.is(NilLiteralExprSyntax.self) { return .nothing }
        if let ternary = expression.as(TernaryExprSyntax.self) {
            return .either([evaluate(ternary.thenExpression, env, next), evaluate(ternary.elseExpression, env, next)])
        }
        if let sequence = expression.as(SequenceExprSyntax.self) { return self.sequence(sequence, env, next) }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return resolve(reference, env, next) }
        if let member = expression.as(MemberAccessExprSyntax.self) { return self.member(member, env, next) }
        if let call = expression.as(FunctionCallExprSyntax.self) { return self.call(call, env, next) }
        if let switchExpression = expression.as(SwitchExprSyntax.self) { return switchValue(switchExpression, env, next) }
        if let ifExpression = expression.as(IfExprSyntax.self) { return ifValue(ifExpression, env, next) }
        return .unknown([Syntax(expression)])
    }

    /// An unfolded operator sequence: `a + b` of lists, `c ? a : b`, `a ?? b`, `x as [String]`.
    private func sequence(_ sequence: SequenceExprSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        let elements = Array(sequence.elements)
        if let ternary = elements.firstIndex(where: { $0.is(UnresolvedTernaryExprSyntax.self) }),
           let then = elements[ternary].as(UnresolvedTernaryExprSyntax.self)?.thenExpression, ternary + 1 < elements.count {
            let rest = elements[(ternary + 1)...]
            let otherwise = rest.count == 1 ? evaluate(rest[rest.startIndex], env, depth) : .unknown(rest.map { Syntax($0) })
            return .either([evaluate(then, env, depth), otherwise])
        }
        if elements.count == 3, elements[1].is(UnresolvedAsExprSyntax.self) { return evaluate(elements[0], env, depth) }
        guard elements.count >= 3, elements.count % 2 == 1 else { return .unknown([Syntax(sequence)]) }
        let operators = stride(from: 1, to: elements.count, by: 2).map { elements[$0].as(BinaryOperatorExprSyntax.self)?.operator.text }
        let operands = stride(from: 0, to: elements.count, by: 2).map { evaluate(elements[$0], env, depth) }
        if operators.allSatisfy({ $0 == "??" }) { return .either(operands) }
        if operators.allSatisfy({ $0 == "+" }) {
            // Lists joined are a list; a string joined with anything is built at run time.
            if operands.allSatisfy({ $0.isCollection }) { return .list(operands) }
        }
        return .unknown([Syntax(sequence)])
    }

    private func switchValue(_ switchExpression: SwitchExprSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        var values: [SwiftValue] = []
        for case .switchCase(let item) in switchExpression.cases where selects(item, switchExpression, env) {
            if let last = item.statements.last, let expression = last.item.as(ExprSyntax.self) {
                values.append(evaluate(expression, env, depth))
            } else if let last = item.statements.last, let statement = last.item.as(ReturnStmtSyntax.self), let expression = statement.expression {
                values.append(evaluate(expression, env, depth))
            }
        }
        return values.count == 1 ? values[0] : .either(values)
    }

    /// Whether a `switch self` case applies to the enum case `self` stands for (every case when it is not known).
    func selects(_ item: SwitchCaseSyntax, _ switchExpression: SwitchExprSyntax, _ env: Environment) -> Bool {
        guard case .enumCase(let type, let name)? = env.selfValue,
              switchExpression.subject.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" else { return true }
        switch item.label {
        case .default:
            // The default applies when no other case names this one.
            let named = switchExpression.cases.contains { element in
                guard case .switchCase(let other) = element, case .case(let label) = other.label else { return false }
                return label.caseItems.contains { Self.caseName($0.pattern) == name }
            }
            return !named
        case .case(let label):
            _ = type
            return label.caseItems.contains { Self.caseName($0.pattern) == name }
        }
    }

    private static func caseName(_ pattern: PatternSyntax) -> String? {
        guard let expression = pattern.as(ExpressionPatternSyntax.self)?.expression else { return nil }
        return expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    private func ifValue(_ ifExpression: IfExprSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        var values: [SwiftValue] = []
        if let last = ifExpression.body.statements.last?.item.as(ExprSyntax.self) { values.append(evaluate(last, env, depth)) }
        switch ifExpression.elseBody {
        case .ifExpr(let other): values.append(ifValue(other, env, depth))
        case .codeBlock(let block): if let last = block.statements.last?.item.as(ExprSyntax.self) { values.append(evaluate(last, env, depth)) }
        case nil: break
        }
        return .either(values)
    }

    // MARK: - names

    private func resolve(_ reference: DeclReferenceExprSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        let name = reference.baseName.text
        if let bound = env.closure[name] { return bound }
        if name == "self" { return env.selfValue ?? SwiftIndex.enclosingTypes(of: reference).first.map { .instance(type: $0, arguments: []) } ?? .unknown([Syntax(reference)]) }
        // Locals, loop variables and parameters, innermost scope first.
        var child = Syntax(reference)
        var current = reference.parent
        while let parent = current {
            if let items = parent.as(CodeBlockItemListSyntax.self) {
                for item in items {
                    if item.position >= child.position { break }
                    guard let variable = item.item.as(VariableDeclSyntax.self) else { continue }
                    if let binding = variable.bindings.last(where: { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name }) {
                        let value = bindingValue(binding, owner: nil, env, depth)
                        guard variable.bindingSpecifier.text == "var" else { return value }
                        // `var ids = base; ids.insert(x); ids += more`: what is added before the reference.
                        let added = mutations(of: name, in: items, after: item.position, before: child.position).map { evaluate($0, env, depth) }
                        return added.isEmpty ? value : .list([value] + added)
                    }
                }
            }
            if let loop = parent.as(ForStmtSyntax.self), loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name,
               child.id == loop.body.id {
                return .either(evaluate(loop.sequence, env, depth).items)
            }
            if let closure = parent.as(ClosureExprSyntax.self), Self.closureParameters(closure).contains(name) {
                return .unknown([Syntax(reference)])
            }
            if let function = parent.as(FunctionDeclSyntax.self), let parameter = function.signature.parameterClause.parameters.first(where: { Self.name(of: $0) == name }) {
                return argumentValues(parameter, of: Syntax(function), env, depth)
            }
            if let initializer = parent.as(InitializerDeclSyntax.self), let parameter = initializer.signature.parameterClause.parameters.first(where: { Self.name(of: $0) == name }) {
                return argumentValues(parameter, of: Syntax(initializer), env, depth)
            }
            if let type = SwiftIndex.typeName(of: parent) {
                // `rawValue` or a property inside a computed property of the case or instance `self` stands for.
                if let selfValue = env.selfValue {
                    let applied = apply(selfValue, name, Syntax(reference), depth)
                    if !applied.isUnknown { return applied }
                }
                if let value = typeMember(type, name, env, depth) { return value }
            }
            child = parent
            current = parent.parent
        }
        if let bindings = index.globals[name], let binding = bindings.first { return bindingValue(binding, owner: nil, env, depth) }
        if index.types[name] != nil { return .unknown([Syntax(reference)]) }
        return .unknown([Syntax(reference)])
    }

    /// The values statements between two positions add to a local collection: `insert`, `append`,
    /// `formUnion`, `+=`, or assign to it.
    private func mutations(of name: String, in items: CodeBlockItemListSyntax, after start: AbsolutePosition, before end: AbsolutePosition) -> [ExprSyntax] {
        var added: [ExprSyntax] = []
        for item in items where item.position > start && item.position < end {
            let expression = item.item.as(ExprSyntax.self) ?? item.item.as(ExpressionStmtSyntax.self)?.expression
            guard let expression else { continue }
            if let call = expression.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == name,
               ["insert", "append", "formUnion", "update"].contains(member.declName.baseName.text), let first = call.arguments.first {
                added.append(first.expression)
            }
            if let sequence = expression.as(SequenceExprSyntax.self) {
                let elements = Array(sequence.elements)
                if elements.count == 3, elements[0].as(DeclReferenceExprSyntax.self)?.baseName.text == name,
                   elements[1].is(AssignmentExprSyntax.self) || elements[1].as(BinaryOperatorExprSyntax.self)?.operator.text == "+=" {
                    added.append(elements[2])
                }
            }
            if added.count >= 64 { break }
        }
        return added
    }

    static func name(of parameter: FunctionParameterSyntax) -> String {
        (parameter.secondName ?? parameter.firstName).text
    }

    static func closureParameters(_ closure: ClosureExprSyntax) -> [String] {
        switch closure.signature?.parameterClause {
        case .simpleInput(let list): return list.map(\.name.text)
        case .parameterClause(let clause): return clause.parameters.map { ($0.secondName ?? $0.firstName).text }
        case nil: return []
        }
    }

    /// A declared property's value: its initializer, its getter's result, or what the type's code assigns to it.
    private func bindingValue(_ binding: PatternBindingSyntax, owner: String?, _ env: Environment, _ depth: Int) -> SwiftValue {
        guard inProgress.insert(binding.id).inserted else { return .unknown([Syntax(binding)]) }
        defer { inProgress.remove(binding.id) }
        if let value = binding.initializer?.value { return evaluate(value, env, depth) }
        if let accessors = binding.accessorBlock {
            switch accessors.accessors {
            case .getter(let statements): return body(statements, env, depth)
            case .accessors(let list):
                if let getter = list.first(where: { $0.accessorSpecifier.text == "get" }), let statements = getter.body?.statements {
                    return body(statements, env, depth)
                }
                return .unknown([Syntax(binding)])
            }
        }
        if let owner, let assigned = index.types[owner]?.assignments[binding.pattern.trimmedDescription], !assigned.isEmpty {
            return .either(assigned.prefix(16).map { evaluate($0, env, depth) })
        }
        return .unknown([Syntax(binding)])
    }

    /// What a body gives back: its one expression, or each `return` (those of a `switch self`
    /// that apply to the case `self` stands for).
    func body(_ statements: CodeBlockItemListSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        if statements.count == 1, let only = statements.first?.item.as(ExprSyntax.self) { return evaluate(only, env, depth) }
        if statements.count == 1, let only = statements.first?.item.as(ExpressionStmtSyntax.self) { return evaluate(only.expression, env, depth) }
        let finder = ReturnFinder(viewMode: .sourceAccurate)
        finder.walk(statements)
        var values: [SwiftValue] = []
        for statement in finder.returns.prefix(64) {
            guard let expression = statement.expression else { continue }
            if let (item, switchExpression) = Self.switchCase(around: statement, within: statements), !selects(item, switchExpression, env) { continue }
            values.append(evaluate(expression, env, depth))
        }
        if values.isEmpty { return .unknown([Syntax(statements)]) }
        return values.count == 1 ? values[0] : .either(values)
    }

    private static func switchCase(around node: some SyntaxProtocol, within limit: CodeBlockItemListSyntax) -> (SwitchCaseSyntax, SwitchExprSyntax)? {
        var current = node.parent
        while let parent = current, parent.id != limit.id {
            if let item = parent.as(SwitchCaseSyntax.self), let switchExpression = item.parent?.parent?.as(SwitchExprSyntax.self) {
                return (item, switchExpression)
            }
            current = parent.parent
        }
        return nil
    }

    /// A parameter's value: the arguments the module's calls of its function pass, and its default.
    private func argumentValues(_ parameter: FunctionParameterSyntax, of function: Syntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        guard inProgress.insert(parameter.id).inserted else { return .unknown([Syntax(parameter)]) }
        defer { inProgress.remove(parameter.id) }
        let parameters: FunctionParameterListSyntax
        let callNames: [String]
        if let decl = function.as(FunctionDeclSyntax.self) {
            parameters = decl.signature.parameterClause.parameters
            callNames = [decl.name.text]
        } else if let decl = function.as(InitializerDeclSyntax.self) {
            parameters = decl.signature.parameterClause.parameters
            callNames = (SwiftIndex.enclosingTypes(of: decl).first.map { [$0] } ?? []) + ["init"]
        } else {
            return .unknown([Syntax(parameter)])
        }
        let label = parameter.firstName.text == "_" ? nil : parameter.firstName.text
        let position = Array(parameters).filter { $0.firstName.text == "_" }.firstIndex { $0.id == parameter.id }
        var values: [SwiftValue] = []
        for name in callNames {
            // Every call site: the step budget bounds the work, and says so when it runs out.
            for call in index.calls[name] ?? [] {
                let unlabeled = Array(call.arguments).filter { $0.label == nil }
                let argument: LabeledExprSyntax?
                if let label {
                    argument = call.arguments.first { $0.label?.text == label }
                } else if let position, position < unlabeled.count {
                    argument = unlabeled[position]
                } else {
                    argument = nil
                }
                // A call that passes other labels is another function of the same name.
                guard let argument else { continue }
                values.append(evaluate(argument.expression, Environment(), depth))
            }
        }
        if let fallback = parameter.defaultValue?.value { values.append(evaluate(fallback, env, depth)) }
        if values.isEmpty { return .unknown([Syntax(parameter)]) }
        return values.count == 1 ? values[0] : .either(values)
    }

    // MARK: - members

    /// A member of a type the module declares: a case, `allCases`, a property.
    private func typeMember(_ type: String, _ name: String, _ env: Environment, _ depth: Int) -> SwiftValue? {
        guard let declared = index.types[type] else { return nil }
        if declared.isEnum, index.caseElement(type, name) != nil { return .enumCase(type: type, name: name) }
        if let binding = declared.properties[name]?.first {
            return bindingValue(binding, owner: type, env, depth)
        }
        if name == "allCases", declared.isEnum {
            return .list(declared.cases.map { .enumCase(type: type, name: $0.name) })
        }
        return nil
    }

    private func member(_ member: MemberAccessExprSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        let name = member.declName.baseName.text
        guard let base = member.base else {
            // `.monthly`: the enum of the surrounding type, else the one String enum with that case.
            for type in SwiftIndex.enclosingTypes(of: member) where index.types[type]?.isEnum == true {
                if index.caseElement(type, name) != nil { return .enumCase(type: type, name: name) }
            }
            if let owners = index.enumsWithCase[name], Set(owners).count == 1 { return .enumCase(type: owners[0], name: name) }
            return .unknown([Syntax(member)])
        }
        if let reference = base.as(DeclReferenceExprSyntax.self) {
            let baseName = reference.baseName.text
            if baseName == "Self", let type = SwiftIndex.enclosingTypes(of: member).first {
                return typeMember(type, name, Environment(), depth) ?? .unknown([Syntax(member)])
            }
            if index.types[baseName] != nil {
                return typeMember(baseName, name, Environment(), depth) ?? .unknown([Syntax(member)])
            }
        }
        // `Outer.Inner.name`: the inner type.
        if let inner = base.as(MemberAccessExprSyntax.self), inner.declName.baseName.text.first?.isUppercase == true,
           index.types[inner.declName.baseName.text] != nil, index.types[inner.declName.baseName.text]?.isEnum == true || index.types[inner.declName.baseName.text]?.properties[name] != nil {
            return typeMember(inner.declName.baseName.text, name, Environment(), depth) ?? .unknown([Syntax(member)])
        }
        return apply(evaluate(base, env, depth), name, Syntax(member), depth)
    }

    /// A member of a value: an enum case's `rawValue`, a dictionary's `keys`, an instance's property.
    func apply(_ value: SwiftValue, _ name: String, _ node: Syntax, _ depth: Int) -> SwiftValue {
        switch value {
        case .list(let items): return .list(items.map { apply($0, name, node, depth) })
        case .either(let items): return .either(items.map { apply($0, name, node, depth) })
        case .enumCase(let type, let caseName):
            if name == "rawValue", index.types[type]?.isStringEnum == true, let element = index.caseElement(type, caseName),
               let literal = index.rawValue(of: element) {
                return .literal(literal)
            }
            return typeMember(type, name, Environment(selfValue: value), depth) ?? .unknown([node])
        case .instance(let type, let arguments):
            if let argument = arguments.first(where: { $0.label == name }) { return argument.value }
            return typeMember(type, name, Environment(selfValue: value), depth) ?? .unknown([node])
        case .dictionary(let keys, let values):
            if name == "keys" { return .list(keys) }
            if name == "values" { return .list(values) }
            return .unknown([node])
        case .literal:
            // `ProductID(rawValue: "…")!.rawValue` and `"…".description` stay the literal.
            return name == "rawValue" || name == "description" ? value : .unknown([node])
        case .unknown(let nodes): return .unknown(nodes)
        case .nothing: return .nothing
        }
    }

    // MARK: - calls

    static let passThrough: Set<String> = ["sorted", "shuffled", "reversed", "filter", "uniqued", "prefix", "suffix", "dropFirst",
                                           "dropLast", "lowercased", "removingDuplicates", "unique", "distinct"]
    static let collectionTypes: Set<String> = ["Set", "Array", "NSSet", "NSArray", "NSMutableSet", "NSOrderedSet", "ContiguousArray", "OrderedSet"]

    static func calleeName(_ callee: ExprSyntax) -> String? {
        if let reference = callee.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        if let member = callee.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text }
        if let generic = callee.as(GenericSpecializationExprSyntax.self) { return calleeName(generic.expression) }
        return nil
    }

    private func call(_ call: FunctionCallExprSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        let callee = call.calledExpression
        let arguments = Array(call.arguments)
        // `Set(x)`, `Array(x)`, `Set<String>(x)`, `[String](x)`, `NSSet(array: x)`, `Set(arrayLiteral: a, b)`.
        if let name = Self.calleeName(callee), Self.collectionTypes.contains(name), !(callee.is(MemberAccessExprSyntax.self)) || name == "init" {
            return collection(arguments, env, depth) ?? .unknown([Syntax(call)])
        }
        // `static let ids: Set<String> = { var ids = …; ids.insert(…); return ids }()`.
        if let closure = callee.as(ClosureExprSyntax.self), arguments.isEmpty {
            return body(closure.statements, env, depth)
        }
        if callee.is(ArrayExprSyntax.self) || callee.is(DictionaryExprSyntax.self) {
            return collection(arguments, env, depth) ?? .unknown([Syntax(call)])
        }
        if let member = callee.as(MemberAccessExprSyntax.self), let base = member.base {
            let name = member.declName.baseName.text
            if name == "init", let type = (base.as(DeclReferenceExprSyntax.self)?.baseName.text), Self.collectionTypes.contains(type) {
                return collection(arguments, env, depth) ?? .unknown([Syntax(call)])
            }
            if ["map", "compactMap", "flatMap"].contains(name) {
                return map(evaluate(base, env, depth), transform: transform(of: call), env, depth, Syntax(call))
            }
            if Self.passThrough.contains(name) { return evaluate(base, env, depth) }
            if ["union", "appending", "formUnion"].contains(name), let first = arguments.first {
                return .list([evaluate(base, env, depth), evaluate(first.expression, env, depth)])
            }
            // A method of a type the module declares: what it returns.
            if let reference = base.as(DeclReferenceExprSyntax.self) {
                let typeName = reference.baseName.text == "Self" || reference.baseName.text == "self"
                    ? SwiftIndex.enclosingTypes(of: call).first : reference.baseName.text
                if let typeName, let method = index.types[typeName]?.methods[name]?.first, let body = method.body {
                    return functionResult(method, body, env, depth)
                }
                if let typeName, index.types[typeName] != nil, name == "init" { return instance(typeName, arguments, env, depth) }
            }
            let receiver = evaluate(base, env, depth)
            if case .instance(let type, _) = receiver, let method = index.types[type]?.methods[name]?.first, let body = method.body {
                return functionResult(method, body, Environment(selfValue: receiver), depth)
            }
            if case .enumCase(let type, _) = receiver, let method = index.types[type]?.methods[name]?.first, let body = method.body {
                return functionResult(method, body, Environment(selfValue: receiver), depth)
            }
            return .unknown([Syntax(call)])
        }
        if let reference = callee.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            if let type = index.types[name] {
                // `ProductID(rawValue: "…")`: the case with that raw value, or the literal itself.
                if type.isStringEnum, let raw = arguments.first(where: { $0.label?.text == "rawValue" }) {
                    return evaluate(raw.expression, env, depth)
                }
                return instance(name, arguments, env, depth)
            }
            if let method = SwiftIndex.enclosingTypes(of: call).lazy.compactMap({ self.index.types[$0]?.methods[name]?.first }).first, let body = method.body {
                return functionResult(method, body, env, depth)
            }
            if let function = index.functions[name]?.first, let body = function.body {
                return functionResult(function, body, Environment(), depth)
            }
        }
        return .unknown([Syntax(call)])
    }

    private func functionResult(_ function: FunctionDeclSyntax, _ body: CodeBlockSyntax, _ env: Environment, _ depth: Int) -> SwiftValue {
        guard inProgress.insert(function.id).inserted else { return .unknown([Syntax(function)]) }
        defer { inProgress.remove(function.id) }
        return self.body(body.statements, env, depth)
    }

    private func instance(_ type: String, _ arguments: [LabeledExprSyntax], _ env: Environment, _ depth: Int) -> SwiftValue {
        .instance(type: type, arguments: arguments.prefix(32).map { ($0.label?.text, evaluate($0.expression, env, depth)) })
    }

    private func collection(_ arguments: [LabeledExprSyntax], _ env: Environment, _ depth: Int) -> SwiftValue? {
        if arguments.isEmpty { return .list([]) }
        if arguments.allSatisfy({ ["arrayLiteral", "objects"].contains($0.label?.text) || $0.label == nil }), arguments.count > 1 || arguments.first?.label != nil {
            return .list(arguments.map { evaluate($0.expression, env, depth) })
        }
        if arguments.count == 1, let only = arguments.first, [nil, "array", "set", "arrayLiteral", "objects", "contentsOf"].contains(only.label?.text) {
            let value = evaluate(only.expression, env, depth)
            if only.label?.text == "arrayLiteral" || only.label?.text == "objects", case .literal = value { return .list([value]) }
            return value
        }
        return nil
    }

    /// The closure or key path given to `map`.
    private enum Transform {
        case member(String)
        case closure(ClosureExprSyntax)
        case unknown
    }

    private func transform(of call: FunctionCallExprSyntax) -> Transform {
        let expression = call.trailingClosure.map { ExprSyntax($0) } ?? call.arguments.first?.expression
        if let keyPath = expression?.as(KeyPathExprSyntax.self), keyPath.components.count == 1,
           case .property(let property) = keyPath.components.first?.component {
            return .member(property.declName.baseName.text)
        }
        if let closure = expression?.as(ClosureExprSyntax.self) { return .closure(closure) }
        return .unknown
    }

    private func map(_ value: SwiftValue, transform: Transform, _ env: Environment, _ depth: Int, _ node: Syntax) -> SwiftValue {
        let items: [SwiftValue]
        switch value {
        case .dictionary(let keys, let values):
            items = zip(keys, values).map { .instance(type: "", arguments: [("key", $0.0), ("value", $0.1)]) }
        case .unknown: return value
        default: items = value.items
        }
        switch transform {
        case .member(let name): return .list(items.map { apply($0, name, node, depth) })
        case .closure(let closure):
            let parameter = Self.closureParameters(closure).first ?? "$0"
            let statements = closure.statements
            return .list(items.prefix(512).map { item in
                var inner = env
                inner.closure[parameter] = item
                return body(statements, inner, depth)
            })
        case .unknown: return .unknown([node])
        }
    }
}

extension SwiftValue {
    /// The values a collection holds, or the value itself.
    var items: [SwiftValue] {
        switch self {
        case .list(let items), .either(let items): return items.flatMap(\.items)
        case .dictionary(let keys, _): return keys
        case .nothing: return []
        default: return [self]
        }
    }

    var isUnknown: Bool {
        if case .unknown = self { return true }
        return false
    }

    var isCollection: Bool {
        switch self {
        case .list, .dictionary: return true
        case .either(let items): return items.allSatisfy(\.isCollection)
        default: return false
        }
    }
}

/// The `return` statements of a body, not of the closures and functions inside it.
final class ReturnFinder: SyntaxVisitor {
    var returns: [ReturnStmtSyntax] = []
    override func visit(_ node: ReturnStmtSyntax) -> SyntaxVisitorContinueKind { returns.append(node); return .skipChildren }
    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
}
