import Foundation
import TallyCheck
import TallyCode
import TallyFormats
import TallyModel

/// Turns a `.tally.yml` tree into a `PolicyFile`. Strict: an unknown key, a misspelt rule or
/// severity, an ignore without a reason is an error naming the key and its line.
///
/// Like the catalogue reader, it reports every mistake of the file in one run (up to
/// `FormatError.limit`): a wrong entry is reported and stepped over, and the read goes on. Only a
/// file that is not a mapping, or whose version this Tally cannot read, stops it at once.
struct PolicyDecoder {
    let file: String
    private var result: PolicyFile

    static let topKeys = ["version", "sources", "fail_on", "require_compared", "rules", "ignore", "required_territories", "required_locales", "groups", "baseline", "code"]
    static let codeKeys = ["paths", "ids", "exclude"]
    static let ignoreKeys = ["rule", "product", "reason"]
    static let groupKeys = ["configuration", "catalog"]
    static let sourceKeys = ["path", "mapping", "copy"]

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
        var log = FormatErrorLog()
        do {
            try forEachKey(&reader, &log) { key, reader, log in try readTop(key, &reader, &log) }
        } catch is FormatErrorLog.Stop {
            throw FormatError.combining(log.sorted, stoppedAtLimit: true)
        }
        if let error = log.combined() { throw error }
        return result
    }

    private mutating func readTop(_ key: String, _ reader: inout TreeReader, _ log: inout FormatErrorLog) throws {
        switch key {
        case "version": try reader.skipValue()
        case "sources": result.sources = try readList(&reader, &log) { reader, log in try readSource(&reader, &log) }
        case "fail_on": result.policy.failOn = try readFailOn(&reader)
        case "require_compared": result.policy.requireCompared = try readRequireCompared(&reader)
        case "rules": result.policy.rules = try readRules(&reader, &log)
        case "ignore": result.policy.ignores = try readList(&reader, &log) { reader, log in try readIgnore(&reader, &log) }
        case "required_territories": result.policy.requiredTerritories = try readList(&reader, &log) { reader, _ in try readTerritory(&reader) }
        case "required_locales": result.policy.requiredLocales = try readList(&reader, &log) { reader, _ in try readLocale(&reader) }
        case "groups": result.policy.groups = try readList(&reader, &log) { reader, log in try readGroup(&reader, &log) }
        case "baseline": result.baseline = try nonEmptyString(&reader, "a baseline file path")
        case "code": try readCode(&reader, &log)
        default: throw unknownKey(key, in: "the policy file", allowed: Self.topKeys, reader)
        }
    }

    /// A `sources:` entry: a glob, or `{path: GLOB, mapping: FILE}` for server files read through a mapping.
    private func readSource(_ reader: inout TreeReader, _ log: inout FormatErrorLog) throws -> SourcePattern? {
        let at = location(reader.position)
        guard try reader.peekKind() == .object else {
            return SourcePattern(try nonEmptyString(&reader, "a source glob"), location: at)
        }
        let (values, seen) = try readTexts(&reader, &log, in: "a source", ["path": "a source glob", "mapping": "a tally-mapping/1 file path",
                                                                         "copy": "the name of the copy its files together form"])
        guard let path = values["path"] else {
            if missing("path", seen, allowed: Self.sourceKeys) { try log.report(FormatError("a source written as a mapping needs path: GLOB (and may add mapping: FILE)", at: at)) }
            return nil
        }
        return SourcePattern(path, mapping: values["mapping"], location: at, copy: values["copy"])
    }

    /// `code:`: a glob, a list of globs, or `{paths: GLOB or [GLOBS], ids: REGEX}`: the app's code
    /// files (read together as one source) and, for apps that build their IDs another way, a
    /// regular expression every product ID in the code matches whole.
    private mutating func readCode(_ reader: inout TreeReader, _ log: inout FormatErrorLog) throws {
        func globs(_ reader: inout TreeReader, _ log: inout FormatErrorLog) throws -> [SourcePattern] {
            if try reader.peekKind() == .array {
                return try readList(&reader, &log) { reader, _ in
                    let at = location(reader.position)
                    return SourcePattern(try nonEmptyString(&reader, "a code glob"), location: at)
                }
            }
            let at = location(reader.position)
            return [SourcePattern(try nonEmptyString(&reader, "a code glob such as App/**/*.swift"), location: at)]
        }
        guard try reader.peekKind() == .object else {
            result.code = try globs(&reader, &log)
            return
        }
        var paths: [SourcePattern] = []
        var ids: String?
        var exclude: [SourcePattern] = []
        let at = reader.position
        try forEachKey(&reader, &log) { key, reader, log in
            switch key {
            case "paths": paths = try globs(&reader, &log)
            case "exclude": exclude = try globs(&reader, &log)
            case "ids":
                let position = reader.position
                let pattern = try nonEmptyString(&reader, "a regular expression product IDs match")
                guard (try? Regex(pattern)) != nil else {
                    throw reader.error("ids: \"\(Elision.value(pattern, limit: 80))\" is not a regular expression Tally can read", at: position)
                }
                if let risk = IDPattern.backtrackingRisk(pattern) {
                    throw reader.error("ids: \"\(Elision.value(pattern, limit: 80))\" is refused: \(risk); write it without the nested repetition", at: position)
                }
                ids = pattern
            default: throw unknownKey(key, in: "code", allowed: Self.codeKeys, reader)
            }
        }
        guard !paths.isEmpty else {
            throw FormatError("code: needs paths: GLOB (the app's code files, such as App/**/*.swift)", file: file, position: at, path: "code")
        }
        result.code = paths
        result.codeIDs = ids
        result.codeExclude = exclude.map(\.pattern)
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

    /// `rule: severity` pairs; an unknown rule or severity is reported and the others are read.
    private func readRules(_ reader: inout TreeReader, _ log: inout FormatErrorLog) throws -> [RuleID: RuleSetting] {
        var rules: [RuleID: RuleSetting] = [:]
        if try reader.readNullIfPresent() { return rules }
        try forEachKey(&reader, &log) { name, reader, _ in
            guard let rule = RuleID.named(name) else { throw unknownRule(name, reader, at: reader.keyPosition) }
            let at = reader.position
            let text = try reader.readString()
            guard let setting = RuleSetting(rawValue: text) else {
                throw reader.error("\"\(text)\" is not a severity for \(rule)\(Self.didYouMean(text, among: ["error", "warning", "off"])): use error, warning or off", at: at)
            }
            rules[rule] = setting
        }
        return rules
    }

    private func readRequireCompared(_ reader: inout TreeReader) throws -> CoverageRequirement {
        let at = reader.position
        let text = try reader.readString()
        guard let requirement = CoverageRequirement(rawValue: text) else {
            throw reader.error("require_compared is some or all, not \"\(text)\"\(Self.didYouMean(text, among: ["some", "all"]))", at: at)
        }
        return requirement
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

    /// One ignore; each wrong or missing key is reported, and an incomplete ignore is left out.
    private func readIgnore(_ reader: inout TreeReader, _ log: inout FormatErrorLog) throws -> Ignore? {
        let start = reader.position
        var rule: RuleID??
        var product: String?
        var reason: String?
        let seen = try forEachKey(&reader, &log) { key, reader, _ in
            switch key {
            case "rule":
                let at = reader.keyPosition
                let id = try nonEmptyString(&reader, "a rule ID")
                if id == "*" {
                    rule = .some(nil)
                } else if let known = RuleID.named(id) {
                    rule = known
                } else {
                    throw unknownRule(id, reader, at: at)
                }
            case "product": product = try nonEmptyString(&reader, "a product ID or glob")
            case "reason": reason = try nonEmptyString(&reader, "the reason")
            default: throw unknownKey(key, in: "an ignore", allowed: Self.ignoreKeys, reader)
            }
        }
        if missing("rule", seen, allowed: Self.ignoreKeys) {
            try log.report(reader.error("this ignore has no rule: name one ('rule: price') or '*' for every rule", at: start))
        }
        if missing("product", seen, allowed: Self.ignoreKeys) {
            try log.report(reader.error("this ignore has no product: name an ID or a glob ('product: com.example.legacy.*', or '*' for every product)", at: start))
        }
        if missing("reason", seen, allowed: Self.ignoreKeys) {
            try log.report(reader.error("this ignore has no reason: say why these findings are accepted ('reason: ...')", at: start))
        }
        guard let rule, let product, let reason else { return nil }
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

    /// A locale as the stores write it: `en_US`, `en-US`, `de`, `zh-Hans`.
    private func readLocale(_ reader: inout TreeReader) throws -> String {
        let at = reader.position
        let text = try reader.readString()
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }),
              parts.dropFirst().allSatisfy({ (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }) else {
            throw reader.error("\"\(text)\" is not a locale like en_US, en-US or de", at: at)
        }
        return text
    }

    /// One group pair; each wrong key is reported, and an incomplete pair is left out.
    private func readGroup(_ reader: inout TreeReader, _ log: inout FormatErrorLog) throws -> GroupCorrespondence? {
        let start = reader.position
        let (values, seen) = try readTexts(&reader, &log, in: "a group pair", ["configuration": "a group ID or name", "catalog": "a group ID or name"])
        guard missing("configuration", seen, allowed: Self.groupKeys) || missing("catalog", seen, allowed: Self.groupKeys) else {
            guard let configuration = values["configuration"], let catalog = values["catalog"] else { return nil }
            return GroupCorrespondence(configuration: configuration, catalog: catalog, location: location(start))
        }
        try log.report(reader.error("a group pair names both sides: 'configuration:' (the StoreKit group's name or ID) and 'catalog:' (the catalogue's)", at: start))
        return nil
    }

    // MARK: - Helpers

    /// A small mapping of text values (a group pair, a source with its mapping), its keys those of
    /// `keys` (key → what its value is, for messages): the values read, and every key written.
    private func readTexts(
        _ reader: inout TreeReader, _ log: inout FormatErrorLog, in place: String, _ keys: KeyValuePairs<String, String>
    ) throws -> (values: [String: String], seen: Set<String>) {
        var values: [String: String] = [:]
        let seen = try forEachKey(&reader, &log) { key, reader, _ in
            guard let what = keys.first(where: { $0.key == key })?.value else {
                throw unknownKey(key, in: place, allowed: keys.map(\.key), reader)
            }
            values[key] = try nonEmptyString(&reader, what)
        }
        return (values, seen)
    }

    /// Whether a required key is missing, and not only misspelt: a misspelling (`products` for
    /// `product`) is reported once, as the unknown key with its did-you-mean.
    private func missing(_ key: String, _ seen: Set<String>, allowed: [String]) -> Bool {
        guard !seen.contains(key) else { return false }
        return !seen.contains { !allowed.contains($0) && NearMatch.best(for: $0, among: allowed) == key }
    }

    /// Each key of a mapping, read by `body`: a repeated key is reported and its value skipped; a
    /// mistake in a value is reported and the value stepped over. Returns the keys seen.
    @discardableResult
    private func forEachKey(
        _ reader: inout TreeReader, _ log: inout FormatErrorLog, _ body: (String, inout TreeReader, inout FormatErrorLog) throws -> Void
    ) throws -> Set<String> {
        var seen = Set<String>()
        try reader.forEachKey { reader, key in
            guard seen.insert(key).inserted else {
                try log.report(keyError("the key \"\(key)\" appears twice", reader))
                return try reader.skipValue()
            }
            let start = reader
            do {
                try body(key, &reader, &log)
            } catch {
                try log.recover(error, &reader, from: start)
            }
        }
        return seen
    }

    /// A list; null reads as empty. A wrong element is reported and left out, and the list goes on.
    private func readList<T>(
        _ reader: inout TreeReader, _ log: inout FormatErrorLog, _ element: (inout TreeReader, inout FormatErrorLog) throws -> T?
    ) throws -> [T] {
        if try reader.readNullIfPresent() { return [] }
        guard try reader.peekKind() == .array else { throw reader.error("expected a list (one '- item' per line, or [a, b])") }
        var items: [T] = []
        try reader.forEachElement { reader, _ in
            let start = reader
            do {
                if let item = try element(&reader, &log) { items.append(item) }
            } catch {
                try log.recover(error, &reader, from: start)
            }
        }
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
        if let near = NearMatch.best(for: rule, among: RuleID.all.map(\.rawValue)) { message += "; did you mean \"\(near)\"?" }
        message += " ('tally rules' lists every rule)"
        return FormatError(message, file: file, position: position, path: reader.path)
    }
}
