import SwiftSyntax
import TallyModel

/// Why a Swift string that looks like a product ID is not one: what the code does with it instead
/// (a bundle ID, an app group, a UserDefaults key, a notification name, a comparison).
enum SwiftRejection {
    /// Calls whose string arguments are never product IDs, beyond the token scanner's list.
    private static let swiftCalls: [(names: Set<String>, reason: String)] = [
        (["Bundle"], "a bundle ID"),
        (["CKContainer"], "an iCloud container identifier"),
        (["Name", "NSNotificationName"], "a notification name"),
        (["Logger", "OSLog"], "a logging subsystem or category"),
        (["DispatchQueue", "OperationQueue"], "a dispatch queue label"),
        (["UserDefaults", "set", "string", "bool", "integer", "object", "removeObject", "AppStorage", "SceneStorage"], "a UserDefaults key"),
        (["URL", "URLRequest"], "a URL"),
        (["NSLocalizedString", "LocalizedStringKey", "Text", "Label", "Button"], "text shown to the user"),
        (["BGTaskScheduler", "BGAppRefreshTaskRequest", "BGProcessingTaskRequest", "register"], "a background task identifier"),
        (["UIImage", "Image", "NSImage"], "an image name"),
    ]

    /// The operators of each sequence expression a string stands in, computed once per sequence
    /// (a 12,000-term `v == "…" || …` chain asked for them once per string: quadratic, issue 47).
    final class Operators {
        private var known: [SyntaxIdentifier: Set<String>] = [:]

        func of(_ sequence: SequenceExprSyntax) -> Set<String> {
            if let found = known[sequence.id] { return found }
            // An assignment counts as "=".
            let found = Set(sequence.elements.compactMap { $0.as(BinaryOperatorExprSyntax.self)?.operator.text ?? ($0.is(AssignmentExprSyntax.self) ? "=" : nil) })
            known[sequence.id] = found
            return found
        }
    }

    static func reason(for string: StringLiteralExprSyntax, operators cache: Operators = Operators()) -> String {
        var child = Syntax(string)
        var current = string.parent
        var levels = 0
        while let parent = current, levels < 12 {
            levels += 1
            if let argument = parent.as(LabeledExprSyntax.self), let call = argument.parent?.parent?.as(FunctionCallExprSyntax.self) {
                let callee = SwiftEvaluator.calleeName(call.calledExpression) ?? ""
                if let label = argument.label?.text {
                    if let reason = Rejections.selector(label) ?? labelReason(label) { return reason }
                }
                if let found = swiftCalls.first(where: { $0.names.contains(callee) }) { return found.reason }
                if let found = Rejections.callReasons.first(where: { $0.names.contains(callee) }) { return found.reason }
                if let label = argument.label?.text { return Rejections.named(label) ?? "an argument of \(callee)(\(label):), not of a purchase API" }
                if SwiftEvaluator.collectionTypes.contains(callee) { child = parent; current = parent.parent; continue }
                return "an argument of \(callee)(…), not of a purchase API"
            }
            if let element = parent.as(DictionaryElementSyntax.self), element.key.id == child.id { return "a dictionary or object key" }
            if let binding = parent.as(PatternBindingSyntax.self), let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text {
                if let reason = Rejections.named(name) { return reason }
                return child.is(InitializerClauseSyntax.self) && levels <= 2
                    ? "assigned to \(name), which no purchase API call uses"
                    : "in \(name), which no purchase API call uses"
            }
            if let element = parent.as(EnumCaseElementSyntax.self) {
                let owner = SwiftIndex.enclosingTypes(of: element).first.map { "\($0)." } ?? ""
                return "the raw value of \(owner)\(element.name.text), which no purchase API call uses"
            }
            if parent.is(SwitchCaseItemSyntax.self) || parent.is(ExpressionPatternSyntax.self) { return "compared with, not requested" }
            if let sequence = parent.as(SequenceExprSyntax.self) {
                let operators = cache.of(sequence)
                if operators.contains(where: { ["==", "!=", "~=", "===", "!=="].contains($0) }) { return "compared with, not requested" }
                if operators.contains("+") { return "part of a string built at run time" }
                if operators.contains("="), let first = sequence.elements.first {
                    let name = first.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? first.as(DeclReferenceExprSyntax.self)?.baseName.text
                    if let name { return Rejections.named(name) ?? "assigned to \(name), which no purchase API call uses" }
                }
            }
            if parent.is(ReturnStmtSyntax.self) || parent.is(CodeBlockItemSyntax.self) {
                if let name = enclosingDeclarationName(parent) { return Rejections.named(name) ?? "returned by \(name), which no purchase API call uses" }
                return "not passed to a purchase API"
            }
            if parent.is(AttributeSyntax.self) { return "an attribute's argument" }
            child = parent
            current = parent.parent
        }
        return "not passed to a purchase API"
    }

    private static func labelReason(_ label: String) -> String? {
        switch label {
        case "forKey", "key", "defaultsKey": return "a dictionary or UserDefaults key"
        case "suiteName", "forSecurityApplicationGroupIdentifier", "appGroup": return "an app group or defaults suite name"
        case "subsystem", "category": return "a logging subsystem or category"
        case "label": return "a dispatch queue label"
        case "containerIdentifier": return "an iCloud container identifier"
        case "forResource", "withExtension", "named": return "a resource name"
        default: return nil
        }
    }

    /// The property or function whose body holds a node.
    private static func enclosingDeclarationName(_ node: Syntax) -> String? {
        var current = node.parent
        while let parent = current {
            if let binding = parent.as(PatternBindingSyntax.self) { return binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text }
            if let function = parent.as(FunctionDeclSyntax.self) { return function.name.text }
            if parent.is(ClosureExprSyntax.self) || parent.is(MemberBlockSyntax.self) { return nil }
            current = parent.parent
        }
        return nil
    }

    /// Quoted strings in comments that look like IDs: commented-out code asks for nothing.
    static func quotedInComments(_ unit: SwiftUnit, skipping: Set<String>) -> [RejectedString] {
        var rejected: [RejectedString] = []
        for token in unit.tree.tokens(viewMode: .sourceAccurate) {
            var offset = token.position.utf8Offset
            scan(token.leadingTrivia, from: &offset, unit: unit, skipping: skipping, into: &rejected)
            offset = token.endPositionBeforeTrailingTrivia.utf8Offset
            scan(token.trailingTrivia, from: &offset, unit: unit, skipping: skipping, into: &rejected)
        }
        return rejected
    }

    private static func scan(_ trivia: Trivia, from offset: inout Int, unit: SwiftUnit, skipping: Set<String>, into rejected: inout [RejectedString]) {
        for piece in trivia {
            defer { offset += piece.sourceLength.utf8Length }
            let text: String
            switch piece {
            case .lineComment(let comment), .blockComment(let comment), .docLineComment(let comment), .docBlockComment(let comment): text = comment
            default: continue
            }
            let bytes = Array(text.utf8)
            var i = 0
            while i < bytes.count {
                let quote = bytes[i]
                guard quote == 0x22 else { i += 1; continue }
                var j = i + 1
                while j < bytes.count, j - i <= 201, bytes[j] != quote, bytes[j] != 0x0A { j += 1 }
                guard j < bytes.count, bytes[j] == quote else { i += 1; continue }
                let quoted = String(decoding: bytes[(i + 1)..<j], as: UTF8.self)
                if TokenScanner.looksLikeProductID(quoted), !skipping.contains(quoted) {
                    rejected.append(RejectedString(text: quoted, location: unit.location(at: AbsolutePosition(utf8Offset: offset + i)), reason: "in a comment"))
                }
                i = j + 1
            }
        }
    }
}
