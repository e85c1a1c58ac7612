import TallyModel

/// The keys one kind of object of a format holds, as its reader sees them: the keys it reads and
/// the keys it skips on purpose (each with its reason beside the list). Any other key is unknown,
/// and a `KeyAccount` names it.
struct KeyVocabulary: Sendable {
    /// What the object is, for messages (`product`, `offer`); nil for the top of the file.
    let place: String?
    /// What its keys are called: `key`, `element` (XML), `column` (CSV).
    let noun: String
    /// Keys the reader reads.
    let read: Set<String>
    /// Keys the reader knows and skips on purpose.
    let ignored: Set<String>

    init(_ place: String?, noun: String = "key", read: Set<String>, ignored: Set<String> = []) {
        self.place = place
        self.noun = noun
        self.read = read
        self.ignored = ignored
    }

    /// Whether the reader reads or skips `key` on purpose.
    func knows(_ key: String) -> Bool { read.contains(key) || ignored.contains(key) }
}

/// What a reader met in one file and does not account for: each key neither read nor skipped on
/// purpose, by where it stands, with how often it was seen, how many entries it held (a future
/// `subscriptionXGroups` may hold products) and where it was first written. Named once per key
/// and file as an `unknown-content` warning, never dropped in silence.
struct KeyAccount {
    private struct Unknown {
        var place: String?
        var noun: String
        var key: String
        var times: Int
        var entries: Int
        var position: Position
        var path: String?
    }

    private var unknown: [Unknown] = []
    private var index: [String: Int] = [:]

    /// Whether every key met so far is accounted for.
    var isEmpty: Bool { unknown.isEmpty }

    /// Remembers a key Tally neither reads nor skips on purpose.
    /// - Parameter entries: how many elements or members its value holds (0 for a single value).
    mutating func note(_ key: String, in vocabulary: KeyVocabulary, entries: Int = 0, at position: Position, path: String? = nil) {
        let name = "\(vocabulary.place ?? "")\u{0}\(vocabulary.noun)\u{0}\(key)"
        if let at = index[name] {
            unknown[at].times += 1
            unknown[at].entries += entries
        } else {
            index[name] = unknown.count
            unknown.append(Unknown(place: vocabulary.place, noun: vocabulary.noun, key: key, times: 1, entries: entries, position: position, path: path))
        }
    }

    /// Every member of a tree's object that `vocabulary` does not know (nothing for a value that
    /// is not an object).
    /// - Parameter shift: lines to move positions down by (a page of a folder read as one source).
    mutating func check(_ node: LocatedNode, _ vocabulary: KeyVocabulary, shift: Int = 0) {
        guard case .object(let members) = node.node.value else { return }
        check(members, at: node.path, vocabulary, shift: shift)
    }

    /// Every member of an object at `path` (its key path, "" for the root) that `vocabulary` does not know.
    mutating func check(_ members: [(key: String, node: DocNode)], at path: String, _ vocabulary: KeyVocabulary, shift: Int = 0) {
        for member in members where !vocabulary.knows(member.key) {
            let position = member.node.position
            note(member.key, in: vocabulary, entries: Self.entries(of: member.node),
                 at: position.isKnown && shift != 0 ? Position(line: Int(position.line) + shift, column: Int(position.column)) : position,
                 path: PathMatch.render(path, key: member.key))
        }
    }

    /// Skips the value of `key` in a streamed document, noting the key unless `vocabulary` skips
    /// it on purpose. Call it for every key the reader does not read (a key the vocabulary says
    /// is read and that arrives here is noted too: the reader forgot it).
    mutating func skip<R: DocumentReader>(_ key: String, _ vocabulary: KeyVocabulary, _ reader: inout R) throws {
        guard !vocabulary.ignored.contains(key) else { return try reader.skipValue() }
        let position = reader.position
        let path = reader.path
        var entries = 0
        switch try reader.peekKind() {
        case .array: try reader.forEachElement { reader, _ in entries += 1; try reader.skipValue() }
        case .object: try reader.forEachKey { reader, _ in entries += 1; try reader.skipValue() }
        default: try reader.skipValue()
        }
        note(key, in: vocabulary, entries: entries, at: position, path: path.isEmpty ? nil : path)
    }

    /// One `unknown-content` warning per unknown key, in the order the keys were first met.
    var issues: [SourceIssue] {
        unknown.map { entry in
            let key = "\"\(Elision.value(entry.key, limit: 80))\""
            var message = entry.place.map { "the \($0) \(entry.noun) \(key)" } ?? "the \(entry.noun) \(key) at the top of the file"
            message += " is not one Tally knows"
            if entry.noun == "type" {
                message += ": \(entry.times) \(entry.place ?? "value")\(entry.times == 1 ? "" : "s") of it, which may be products Tally does not read"
                return SourceIssue(rule: .unknownContent, productID: nil, field: .kind, message: message, position: entry.position, path: entry.path)
            }
            if entry.times > 1 { message += " (\(entry.times) times in the file)" }
            if entry.noun == "column" {
                message += "; its values (in \(entry.entries) row\(entry.entries == 1 ? "" : "s")) are not read"
            } else if entry.entries > 0 {
                message += " and holds \(entry.entries) entr\(entry.entries == 1 ? "y" : "ies"), which may be products Tally does not read"
            } else {
                message += "; its value is not read"
            }
            return SourceIssue(rule: .unknownContent, productID: nil, field: .id, message: message, position: entry.position, path: entry.path)
        }
    }

    /// How many elements or members a value holds.
    static func entries(of node: DocNode) -> Int {
        switch node.value {
        case .array(let items): return items.count
        case .object(let members): return members.count
        case .scalar: return 0
        }
    }

    /// The warning for a format version newer (or other) than the reader knows: the file is read
    /// as the newest it knows, and the keys it does not know are named.
    static func unknownVersion(_ format: String, found: String, known: String, at position: Position, path: String? = nil) -> SourceIssue {
        SourceIssue(rule: .unknownContent, productID: nil, field: .kind,
                    message: "\(format) version \(Elision.value(found, limit: 40)) is not one Tally knows (it knows \(known)): read as the newest it knows; keys it does not know are named",
                    position: position, path: path)
    }
}
