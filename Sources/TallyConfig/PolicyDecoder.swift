import Foundation
import TallyCheck
import TallyFormats
import TallyModel

/// Turns a `.tally.yml` tree into a `PolicyFile`. Strict: an unknown key, a misspelt rule or
/// severity, an ignore without a reason is an error naming the key and its line.
struct PolicyDecoder {
    let file: String
    private var result: PolicyFile

    static let topKeys = ["version", "sources", "fail_on", "rules", "ignore", "required_territories", "groups", "baseline"]
    static let ignoreKeys = ["rule", "product", "reason"]
    static let groupKeys = ["configuration", "catalog"]
    static let sourceKeys = ["path", "mapping"]

    init(file: String) {
        self.file = file
        result = PolicyFile(file: file)
    }

    mutating func decode(_ root: DocNode) throws -> PolicyFile {
        guard case .object(let members) = root.value else {
            throw FormatError("a policy file is a mapping of keys such as version, sources and rules", file: file, position: root.position)
        }
        try checkVersion(members, root: root)
        var reader = TreeReader(root: root, file: file)
        var seen = Set<String>()
        try reader.forEachKey { reader, key in
            guard seen.insert(key).inserted else { throw keyError("the key \"\(key)\" appears twice", reader) }
            switch key {
            case "version": try reader.skipValue()
            case "sources": result.sources = try readList(&reader) { try readSource(&$0) }
            case "fail_on": result.policy.failOn = try readFailOn(&reader)
            case "rules": try readRules(&reader)
            case "ignore": result.policy.ignores = try readList(&reader) { try readIgnore(&$0) }
            case "required_territories": result.policy.requiredTerritories = try readList(&reader) { try readTerritory(&$0) }
            case "groups": result.policy.groups = try readList(&reader) { try readGroup(&$0) }
            case "baseline": result.baseline = try nonEmptyString(&reader, "a baseline file path")
            default: throw unknownKey(key, in: "the policy file", allowed: Self.topKeys, reader)
            }
        }
        return result
    }

    /// A `sources:` entry: a glob, or `{path: GLOB, mapping: FILE}` for server files read through a mapping.
    private func readSource(_ reader: inout TreeReader) throws -> SourcePattern {
        let at = location(reader.position)
        guard try reader.peekKind() == .object else {
            return SourcePattern(try nonEmptyString(&reader, "a source glob"), location: at)
        }
        var path: String?
        var mapping: String?
        try reader.forEachKey { reader, key in
            switch key {
            case "path": path = try nonEmptyString(&reader, "a source glob")
            case "mapping": mapping = try nonEmptyString(&reader, "a tally-mapping/1 file path")
            default: throw unknownKey(key, in: "a source", allowed: Self.sourceKeys, reader)
            }
        }
        guard let path else { throw FormatError("a source written as a mapping needs path: GLOB (and may add mapping: FILE)", at: at) }
        return SourcePattern(path, mapping: mapping, location: at)
    }

    /// `version:` first, whatever its place: a newer file is refused before its keys are judged.
    private func checkVersion(_ members: [(key: String, node: DocNode)], root: DocNode) throws {
        guard let node = members.first(where: { $0.key == "version" })?.node else {
            throw FormatError("the policy file has no 'version: \(PolicyFile.currentVersion)'", file: file,
                              position: root.keyPositions.first ?? Position(line: 1, column: 1))
        }
        guard case .scalar(let text, _) = node.value, let version = Int(text) else {
            throw FormatError("version must be a whole number such as \(PolicyFile.currentVersion)", file: file, position: node.position, path: "version")
        }
        guard version <= PolicyFile.currentVersion else {
            throw FormatError("this policy file is version \(version), but this Tally reads version \(PolicyFile.currentVersion) only: upgrade Tally",
                              file: file, position: node.position, path: "version")
        }
        guard version >= 1 else {
            throw FormatError("version \(version) does not exist; write 'version: \(PolicyFile.currentVersion)'", file: file, position: node.position, path: "version")
        }
    }

    private mutating func readRules(_ reader: inout TreeReader) throws {
        if try reader.readNullIfPresent() { return }
        let known = RuleSet.descriptions.map(\.id)
        try reader.forEachKey { reader, rule in
            guard known.contains(rule) else { throw unknownRule(rule, reader, at: reader.keyPosition) }
            let at = reader.position
            let text = try reader.readString()
            guard let setting = RuleSetting(rawValue: text) else {
                throw reader.error("\"\(text)\" is not a severity for \(rule)\(Self.didYouMean(text, among: ["error", "warning", "off"])): use error, warning or off", at: at)
            }
            result.policy.rules[rule] = setting
        }
    }

    private func readFailOn(_ reader: inout TreeReader) throws -> Severity {
        let at = reader.position
        let text = try reader.readString()
        switch text {
        case "error": return .error
        case "warning": return .warning
        default: throw reader.error("fail_on is error or warning, not \"\(text)\"\(Self.didYouMean(text, among: ["error", "warning"]))", at: at)
        }
    }

    private func readIgnore(_ reader: inout TreeReader) throws -> Ignore {
        let start = reader.position
        var rule: String?
        var product: String?
        var reason: String?
        var seen = Set<String>()
        try reader.forEachKey { reader, key in
            guard seen.insert(key).inserted else { throw keyError("the key \"\(key)\" appears twice", reader) }
            switch key {
            case "rule":
                let at = reader.keyPosition
                let id = try nonEmptyString(&reader, "a rule ID")
                guard id == "*" || RuleSet.description(of: id) != nil else { throw unknownRule(id, reader, at: at) }
                rule = id
            case "product": product = try nonEmptyString(&reader, "a product ID or glob")
            case "reason": reason = try nonEmptyString(&reader, "the reason")
            default: throw unknownKey(key, in: "an ignore", allowed: Self.ignoreKeys, reader)
            }
        }
        guard let rule else { throw reader.error("this ignore has no rule: name one ('rule: price') or '*' for every rule", at: start) }
        guard let product else {
            throw reader.error("this ignore has no product: name an ID or a glob ('product: com.example.legacy.*', or '*' for every product)", at: start)
        }
        guard let reason else { throw reader.error("this ignore has no reason: say why these findings are accepted ('reason: ...')", at: start) }
        return Ignore(rule: rule, products: ProductPattern(product), reason: reason, location: location(start))
    }

    private func readTerritory(_ reader: inout TreeReader) throws -> Territory {
        let at = reader.position
        let code = try reader.readString()
        guard let territory = Territory(code) else {
            var message = Territory.notAStorefront(code)
            if let near = Territory.suggestion(for: code) { message += "; did you mean \(near)?" }
            throw reader.error(message, at: at)
        }
        return territory
    }

    private func readGroup(_ reader: inout TreeReader) throws -> GroupCorrespondence {
        let start = reader.position
        var configuration: String?
        var catalog: String?
        var seen = Set<String>()
        try reader.forEachKey { reader, key in
            guard seen.insert(key).inserted else { throw keyError("the key \"\(key)\" appears twice", reader) }
            switch key {
            case "configuration": configuration = try nonEmptyString(&reader, "a group ID or name")
            case "catalog": catalog = try nonEmptyString(&reader, "a group ID or name")
            default: throw unknownKey(key, in: "a group pair", allowed: Self.groupKeys, reader)
            }
        }
        guard let configuration, let catalog else {
            throw reader.error("a group pair names both sides: 'configuration:' (the StoreKit group's name or ID) and 'catalog:' (the catalogue's)", at: start)
        }
        return GroupCorrespondence(configuration: configuration, catalog: catalog, location: location(start))
    }

    // MARK: - Helpers

    /// A list; null reads as empty.
    private func readList<T>(_ reader: inout TreeReader, _ element: (inout TreeReader) throws -> T) throws -> [T] {
        if try reader.readNullIfPresent() { return [] }
        guard try reader.peekKind() == .array else { throw reader.error("expected a list (one '- item' per line, or [a, b])") }
        var items: [T] = []
        try reader.forEachElement { reader, _ in items.append(try element(&reader)) }
        return items
    }

    private func nonEmptyString(_ reader: inout TreeReader, _ what: String) throws -> String {
        let at = reader.position
        guard try reader.peekKind() != .null else { throw reader.error("expected \(what), found nothing", at: at) }
        let text = try reader.readString()
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw reader.error("expected \(what), found an empty string", at: at) }
        return text
    }

    private func location(_ position: Position) -> SourceLocation {
        position.isKnown ? SourceLocation(file: file, line: Int(position.line), column: Int(position.column)) : SourceLocation(file: file)
    }

    private func keyError(_ message: String, _ reader: TreeReader) -> FormatError {
        FormatError(message, file: file, position: reader.keyPosition, path: reader.path)
    }

    private func unknownKey(_ key: String, in place: String, allowed: [String], _ reader: TreeReader) -> FormatError {
        var message = "unknown key \"\(key)\" in \(place)"
        if let near = NearMatch.best(for: key, among: allowed) { message += "; did you mean \"\(near)\"?" }
        message += " (allowed: \(allowed.joined(separator: ", ")))"
        return keyError(message, reader)
    }

    /// `; did you mean "error"?`, or nothing when no value is near.
    private static func didYouMean(_ text: String, among values: [String]) -> String {
        NearMatch.best(for: text, among: values).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    private func unknownRule(_ rule: String, _ reader: TreeReader, at position: Position) -> FormatError {
        var message = "unknown rule \"\(rule)\""
        if let near = NearMatch.best(for: rule, among: RuleSet.descriptions.map(\.id)) { message += "; did you mean \"\(near)\"?" }
        message += " ('tally rules' lists every rule)"
        return FormatError(message, file: file, position: position, path: reader.path)
    }
}
