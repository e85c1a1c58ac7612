import TallyModel

/// A JSON:API resource identifier: `{"type": "subscriptions", "id": "6444000001"}`.
struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
    var type: String
    var id: String

    var description: String { "\(type) \(id)" }
}

/// A scalar attribute value, or a list of strings (`marketSettings`); objects, and arrays of
/// anything but strings, among the attributes are skipped.
enum AttributeValue: Sendable, Hashable {
    case string(String)
    /// The literal text of a number.
    case number(String)
    case bool(Bool)
    case null
    case strings([String])
}

/// An attribute and where its value is written.
struct Attribute: Sendable, Hashable {
    var value: AttributeValue
    var position: Position

    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    var bool: Bool? {
        if case .bool(let flag) = value { return flag }
        return nil
    }

    /// A list of strings (API 4.5 `marketSettings`), nil for any other value.
    var strings: [String]? {
        if case .strings(let items) = value { return items }
        return nil
    }

    var int: Int? {
        switch value {
        case .number(let text), .string(let text): return Int(text)
        default: return nil
        }
    }
}

/// One resource object of a page (`data` or `included`), with positions in catalogue lines.
struct Resource: Sendable {
    var key: ResourceKey
    var attributes: [String: Attribute] = [:]
    /// Relationship name → the linked resources, for each relationship whose `data` is given
    /// (an empty list when `data` is `[]` or `null`: known to link nothing).
    var relationships: [String: [ResourceKey]] = [:]
    /// Where the resource object starts.
    var position: Position
    /// Whether it came from a page's `data` (rather than `included`).
    var isPrimary: Bool

    subscript(attribute name: String) -> Attribute? { attributes[name] }
}

/// What one saved page of an App Store Connect API response holds.
struct JSONAPIPage: Sendable {
    var resources: [Resource] = []
    /// `links.self`: the request the page answers, which names the parent of a related list
    /// (`/v1/subscriptions/6444000001/prices`).
    var selfLink: String?
    /// Keys of the page Tally neither reads nor skips on purpose, as `unknown-content` warnings.
    var issues: [SourceIssue] = []
    /// The keys of the resources in `data`, in order.
    var primaryKeys: [ResourceKey] { resources.filter(\.isPrimary).map(\.key) }
}

/// Reads one page with the streaming `JSONReader`, keeping every value's position.
enum JSONAPIPageReader {
    /// - Parameter firstLine: the catalogue line of the page's line 1 (pages are numbered in sequence).
    static func read(bytes: [UInt8], file: String, firstLine: Int, maxDepth: Int) throws -> JSONAPIPage {
        var reader = try JSONReader(bytes: bytes, file: file, maxDepth: maxDepth)
        let shift = firstLine - 1
        func global(_ position: Position) -> Position {
            Position(line: Int(position.line) + shift, column: Int(position.column))
        }
        guard try reader.peekKind() == .object else {
            throw reader.error("an App Store Connect API page is a JSON object with \"data\"; found \(try reader.peekKind().article)")
        }
        var page = JSONAPIPage()
        var sawData = false
        var account = KeyAccount()
        try reader.forEachKey { reader, key in
            switch key {
            case "data":
                sawData = true
                switch try reader.peekKind() {
                case .null: _ = try reader.readNullIfPresent()
                case .array:
                    try reader.forEachElement { reader, _ in page.resources.append(try readResource(&reader, primary: true, &account, global)) }
                case .object:
                    page.resources.append(try readResource(&reader, primary: true, &account, global))
                case let other:
                    throw reader.error("\"data\" must be a resource object or an array of them, found \(other.article)")
                }
            case "included":
                try reader.forEachElement { reader, _ in page.resources.append(try readResource(&reader, primary: false, &account, global)) }
            case "links":
                guard try !reader.readNullIfPresent() else { return }
                try reader.forEachKey { reader, name in
                    if name == "self", try reader.peekKind() == .string { page.selfLink = try reader.readString() } else {
                        try account.skip(name, ConnectPageVocabulary.links, &reader)
                    }
                }
            case "errors":
                let at = reader.position
                let summary = try errorSummary(&reader)
                throw reader.error("this page is an App Store Connect error response, not data: \(summary)", at: at)
            default:
                try account.skip(key, ConnectPageVocabulary.page, &reader)
            }
        }
        try reader.finish()
        page.issues = account.issues.map { issue in
            var issue = issue
            if issue.position.isKnown { issue.position = global(issue.position) }
            return issue
        }
        guard sawData else {
            throw FormatError("not an App Store Connect API page: the document has no \"data\" (save the API's JSON response as it is)",
                              file: file, position: Position(line: 1, column: 1))
        }
        return page
    }

    private static func readResource(_ reader: inout JSONReader, primary: Bool, _ account: inout KeyAccount,
                                     _ global: (Position) -> Position) throws -> Resource {
        let start = reader.position
        var type: String?
        var id: String?
        var attributes: [String: Attribute] = [:]
        var relationships: [String: [ResourceKey]] = [:]
        try reader.forEachKey { reader, key in
            switch key {
            case "type": type = try reader.readString()
            case "id": id = try reader.readString()
            case "attributes":
                guard try !reader.readNullIfPresent() else { return }
                try reader.forEachKey { reader, name in
                    let at = global(reader.position)
                    switch try reader.peekKind() {
                    case .string: attributes[name] = Attribute(value: .string(try reader.readString()), position: at)
                    case .number: attributes[name] = Attribute(value: .number(try reader.readNumberText()), position: at)
                    case .bool: attributes[name] = Attribute(value: .bool(try reader.readBool()), position: at)
                    case .null:
                        _ = try reader.readNullIfPresent()
                        attributes[name] = Attribute(value: .null, position: at)
                    case .array:
                        var items: [String] = []
                        var onlyStrings = true
                        try reader.forEachElement { reader, _ in
                            if try reader.peekKind() == .string {
                                items.append(try reader.readString())
                            } else {
                                onlyStrings = false
                                try reader.skipValue()
                            }
                        }
                        if onlyStrings { attributes[name] = Attribute(value: .strings(items), position: at) }
                    case .object: try reader.skipValue()
                    }
                }
            case "relationships":
                guard try !reader.readNullIfPresent() else { return }
                try reader.forEachKey { reader, name in
                    if let linked = try readRelationship(&reader) { relationships[name] = linked }
                }
            default:
                try account.skip(key, ConnectPageVocabulary.resource, &reader)
            }
        }
        guard let type, !type.isEmpty, let id, !id.isEmpty else {
            throw FormatError("a resource object needs a \"type\" and an \"id\"", file: reader.file, position: start, path: reader.path)
        }
        return Resource(key: ResourceKey(type: type, id: id), attributes: attributes, relationships: relationships,
                        position: global(start), isPrimary: primary)
    }

    /// The linked resources of one relationship, or nil when it gives no `data` (links only).
    private static func readRelationship(_ reader: inout JSONReader) throws -> [ResourceKey]? {
        guard try !reader.readNullIfPresent() else { return nil }
        var linked: [ResourceKey]?
        try reader.forEachKey { reader, key in
            guard key == "data" else { return try reader.skipValue() }
            switch try reader.peekKind() {
            case .null:
                _ = try reader.readNullIfPresent()
                linked = []
            case .array:
                var keys: [ResourceKey] = []
                try reader.forEachElement { reader, _ in keys.append(try readIdentifier(&reader)) }
                linked = keys
            default:
                linked = [try readIdentifier(&reader)]
            }
        }
        return linked
    }

    private static func readIdentifier(_ reader: inout JSONReader) throws -> ResourceKey {
        let start = reader.position
        var type: String?
        var id: String?
        try reader.forEachKey { reader, key in
            switch key {
            case "type": type = try reader.readString()
            case "id": id = try reader.readString()
            default: try reader.skipValue()
            }
        }
        guard let type, let id else {
            throw reader.error("a relationship's data needs a \"type\" and an \"id\"", at: start)
        }
        return ResourceKey(type: type, id: id)
    }

    /// "409 ENTITY_ERROR: The resource ... (detail)" from the first error object.
    private static func errorSummary(_ reader: inout JSONReader) throws -> String {
        var parts: [String] = []
        try reader.forEachElement { reader, index in
            try reader.forEachKey { reader, key in
                guard index == 0, ["status", "code", "title", "detail"].contains(key), try reader.peekKind() == .string else {
                    return try reader.skipValue()
                }
                parts.append(try reader.readString())
            }
        }
        return parts.isEmpty ? "no details given" : parts.joined(separator: " ")
    }
}
