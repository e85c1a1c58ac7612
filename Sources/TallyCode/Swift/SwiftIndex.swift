import SwiftParser
import SwiftSyntax
import TallyModel

/// One parsed Swift file of the module.
struct SwiftUnit {
    let file: CodeFile
    let tree: SourceFileSyntax
    let converter: SourceLocationConverter

    init(_ file: CodeFile) {
        self.file = file
        tree = Parser.parse(source: file.text)
        converter = SourceLocationConverter(fileName: file.path, tree: tree)
    }

    /// A node named by its file and offset: the same in each parse of the file (a module too big
    /// to keep whole is parsed twice, issue 47), where a `SyntaxIdentifier` is not.
    struct Key: Hashable {
        var path: String
        var offset: Int
    }

    func key(_ node: some SyntaxProtocol) -> Key {
        Key(path: file.path, offset: node.positionAfterSkippingLeadingTrivia.utf8Offset)
    }

    func location(_ node: some SyntaxProtocol) -> CodeLocation {
        location(at: node.positionAfterSkippingLeadingTrivia)
    }

    func location(at position: AbsolutePosition) -> CodeLocation {
        let place = converter.location(for: position)
        return CodeLocation(file: file.path, position: Position(line: place.line, column: place.column))
    }
}

/// A type the module declares (its extensions' members included): a `String` enum's cases with
/// their raw values, stored and computed properties, methods, initializers, and the values its
/// code assigns to stored properties.
struct SwiftType {
    var name: String
    var isEnum = false
    var isStringEnum = false
    /// A `String` enum's cases in order: the case's name, and its raw value's literal (nil: the
    /// raw value is the name, located at the name).
    var cases: [(name: String, element: EnumCaseElementSyntax)] = []
    var properties: [String: [PatternBindingSyntax]] = [:]
    var methods: [String: [FunctionDeclSyntax]] = [:]
    var initializers: [InitializerDeclSyntax] = []
    /// `self.name = value` and `name = value` inside the type's code.
    var assignments: [String: [ExprSyntax]] = [:]
}

/// What every file of the module declares, for following a name from a call to its literals.
struct SwiftIndex {
    var units: [SwiftUnit] = []
    var unitOfRoot: [SyntaxIdentifier: Int] = [:]
    var types: [String: SwiftType] = [:]
    var globals: [String: [PatternBindingSyntax]] = [:]
    var functions: [String: [FunctionDeclSyntax]] = [:]
    /// Every call, by the callee's last name (`load` for `store.load(…)`), for following a parameter to its arguments.
    var calls: [String: [FunctionCallExprSyntax]] = [:]
    /// String enums by case name, for an implicit member (`.monthly`) whose type the file does not say.
    var enumsWithCase: [String: [String]] = [:]
    /// The names a file declares that another file may look up: its types (an extension's too),
    /// their members and cases, its top-level constants and functions, and `init` when it has an
    /// initializer (called `.init(…)` elsewhere). Two files that share one of these names, declared
    /// in one and written in the other, are read together (`SwiftScanner.components`).
    static func declaredNames(_ unit: SwiftUnit) -> Set<String> {
        let collector = Collector(viewMode: .sourceAccurate)
        collector.walk(unit.tree)
        var names = Set(collector.globals.keys).union(collector.functions.keys)
        for (name, type) in collector.types {
            names.insert(name)
            names.formUnion(type.properties.keys)
            names.formUnion(type.methods.keys)
            names.formUnion(type.assignments.keys)
            names.formUnion(type.cases.map(\.name))
            if !type.initializers.isEmpty { names.insert("init") }
        }
        return names
    }

    /// Each enum's cases by name (`caseElement`).
    private var caseElements: [String: [String: EnumCaseElementSyntax]] = [:]

    init(_ files: [CodeFile]) {
        for file in files {
            let unit = SwiftUnit(file)
            unitOfRoot[unit.tree.root.id] = units.count
            units.append(unit)
            let collector = Collector(viewMode: .sourceAccurate)
            collector.walk(unit.tree)
            for (name, type) in collector.types { merge(type, into: name) }
            globals.merge(collector.globals) { $0 + $1 }
            functions.merge(collector.functions) { $0 + $1 }
            calls.merge(collector.calls) { $0 + $1 }
        }
        for type in types.values where type.isEnum {
            for item in type.cases {
                enumsWithCase[item.name, default: []].append(type.name)
                if caseElements[type.name]?[item.name] == nil { caseElements[type.name, default: [:]][item.name] = item.element }
            }
        }
    }

    /// A case of an enum the module declares, by the enum's and the case's names (the first one
    /// declared): looked up, not searched (80,000 cases, issue 47).
    func caseElement(_ type: String, _ name: String) -> EnumCaseElementSyntax? {
        caseElements[type]?[name]
    }

    private mutating func merge(_ type: SwiftType, into name: String) {
        guard var existing = types[name] else { types[name] = type; return }
        existing.isEnum = existing.isEnum || type.isEnum
        existing.isStringEnum = existing.isStringEnum || type.isStringEnum
        existing.cases += type.cases
        existing.properties.merge(type.properties) { $0 + $1 }
        existing.methods.merge(type.methods) { $0 + $1 }
        existing.initializers += type.initializers
        existing.assignments.merge(type.assignments) { $0 + $1 }
        types[name] = existing
    }

    func unit(of node: some SyntaxProtocol) -> SwiftUnit? {
        unitOfRoot[node.root.id].map { units[$0] }
    }

    /// The raw value of a `String` enum's case, as a literal located where it is written.
    func rawValue(of element: EnumCaseElementSyntax) -> SwiftLiteral? {
        guard let unit = unit(of: element), let owner = SwiftIndex.enclosingTypes(of: element).first, types[owner]?.isStringEnum == true else { return nil }
        if let raw = element.rawValue?.value {
            guard let string = raw.as(StringLiteralExprSyntax.self), let text = string.representedLiteralValue else { return nil }
            return SwiftLiteral(text: text, location: unit.location(string), key: unit.key(string))
        }
        return SwiftLiteral(text: element.name.text, location: unit.location(element.name), key: unit.key(element))
    }

    /// The type declaration a node stands in, innermost first (`Outer.Inner` gives Inner, then Outer).
    static func enclosingTypes(of node: some SyntaxProtocol) -> [String] {
        var names: [String] = []
        var current = node.parent
        while let parent = current {
            if let name = typeName(of: parent) { names.append(name) }
            current = parent.parent
        }
        return names
    }

    static func typeName(of node: Syntax) -> String? {
        if let decl = node.as(StructDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ClassDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(EnumDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ActorDeclSyntax.self) { return decl.name.text }
        if let decl = node.as(ExtensionDeclSyntax.self) { return lastName(of: decl.extendedType) }
        return nil
    }

    /// `Outer.Inner` → Inner; `Set<String>` → Set.
    static func lastName(of type: TypeSyntax) -> String? {
        if let simple = type.as(IdentifierTypeSyntax.self) { return simple.name.text }
        if let member = type.as(MemberTypeSyntax.self) { return member.name.text }
        return nil
    }
}

/// Collects one file's declarations.
private final class Collector: SyntaxVisitor {
    var types: [String: SwiftType] = [:]
    var globals: [String: [PatternBindingSyntax]] = [:]
    var functions: [String: [FunctionDeclSyntax]] = [:]
    var calls: [String: [FunctionCallExprSyntax]] = [:]

    /// Updates the type in place: a copy taken out of the dictionary and put back copied its
    /// `cases` on every case (80,000 cases: quadratic, issue 47).
    private func type(_ name: String, update: (inout SwiftType) -> Void) {
        update(&types[name, default: SwiftType(name: name)])
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        let inherited = node.inheritanceClause?.inheritedTypes.compactMap { SwiftIndex.lastName(of: $0.type) } ?? []
        type(node.name.text) { type in
            type.isEnum = true
            if inherited.contains("String") { type.isStringEnum = true }
        }
        return .visitChildren
    }

    override func visit(_ node: EnumCaseDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let owner = SwiftIndex.enclosingTypes(of: node).first else { return .skipChildren }
        type(owner) { type in
            for element in node.elements where element.parameterClause == nil { type.cases.append((element.name.text, element)) }
        }
        return .visitChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        let owner = Collector.memberOwner(node)
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            switch owner {
            case .type(let typeName): type(typeName) { $0.properties[name, default: []].append(binding) }
            case .global: globals[name, default: []].append(binding)
            case .local: break
            }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        switch Collector.memberOwner(node) {
        case .type(let typeName): type(typeName) { $0.methods[node.name.text, default: []].append(node) }
        case .global: functions[node.name.text, default: []].append(node)
        case .local: break
        }
        return .visitChildren
    }

    override func visit(_ node: InitializerDeclSyntax) -> SyntaxVisitorContinueKind {
        if case .type(let typeName) = Collector.memberOwner(node) { type(typeName) { $0.initializers.append(node) } }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let name = SwiftEvaluator.calleeName(node.calledExpression) { calls[name, default: []].append(node) }
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        if elements.count == 3, elements[1].is(AssignmentExprSyntax.self), let owner = SwiftIndex.enclosingTypes(of: node).first {
            var name: String?
            if let reference = elements[0].as(DeclReferenceExprSyntax.self) { name = reference.baseName.text }
            if let member = elements[0].as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self" {
                name = member.declName.baseName.text
            }
            if let name { type(owner) { $0.assignments[name, default: []].append(elements[2]) } }
        }
        return .visitChildren
    }

    enum Owner { case type(String), global, local }

    /// Whether a declaration is a type's member, the file's own, or local to a body.
    static func memberOwner(_ node: some SyntaxProtocol) -> Owner {
        var current = node.parent
        while let parent = current {
            if parent.is(CodeBlockSyntax.self) || parent.is(ClosureExprSyntax.self) || parent.is(AccessorBlockSyntax.self) { return .local }
            if parent.is(MemberBlockSyntax.self) {
                return parent.parent.flatMap { SwiftIndex.typeName(of: $0) }.map { .type($0) } ?? .local
            }
            if parent.is(SourceFileSyntax.self) { return .global }
            current = parent.parent
        }
        return .global
    }
}
