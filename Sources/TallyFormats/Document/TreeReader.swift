import TallyModel

/// A parsed document value with its position, for formats whose parser builds a tree
/// (YAML through Yams, property lists through Foundation).
public struct DocNode: Sendable {
    public indirect enum Value: Sendable {
        case object([(key: String, node: DocNode)])
        case array([DocNode])
        /// A scalar with the kind it resolves to; the text is the source's literal.
        case scalar(String, ValueKind)
    }

    public var value: Value
    public var position: Position
    /// For an object: where each member's key is written, in member order (empty when the
    /// parser does not say; the member's value position stands in then).
    public var keyPositions: [Position]

    public init(_ value: Value, position: Position = .unknown, keyPositions: [Position] = []) {
        self.value = value
        self.position = position
        self.keyPositions = keyPositions
    }

    var kind: ValueKind {
        switch value {
        case .object: return .object
        case .array: return .array
        case .scalar(_, let kind): return kind
        }
    }
}

/// A `DocumentReader` over a `DocNode` tree.
public struct TreeReader: DocumentReader {
    public let file: String
    private var pending: DocNode?
    private var frames: [Frame] = []
    private var lastPosition: Position
    /// Where the key most recently returned by `nextKey()` is written.
    public private(set) var keyPosition: Position = .unknown

    private struct Frame {
        var members: [(key: String, node: DocNode)]
        var keyPositions: [Position] = []
        var elements: [DocNode]
        var isObject: Bool
        var next = 0
        var component: PathComponent?
    }

    public init(root: DocNode, file: String) {
        self.file = file
        self.pending = root
        self.lastPosition = root.position
    }

    public var position: Position { pending?.position ?? lastPosition }

    /// Whether a value is waiting to be read (false once it is read or skipped).
    public var isAtValue: Bool { pending != nil }

    public var path: String {
        frames.compactMap(\.component).rendered
    }

    public mutating func peekKind() throws -> ValueKind {
        guard let pending else { throw error("internal: no value to read") }
        return pending.kind
    }

    public mutating func beginObject() throws {
        guard let node = pending, case .object(let members) = node.value else { throw try mismatch("an object") }
        frames.append(Frame(members: members, keyPositions: node.keyPositions, elements: [], isObject: true))
        pending = nil
        lastPosition = node.position
    }

    public mutating func beginArray() throws {
        guard let node = pending, case .array(let elements) = node.value else { throw try mismatch("an array") }
        frames.append(Frame(members: [], elements: elements, isObject: false))
        pending = nil
        lastPosition = node.position
    }

    public mutating func nextKey() throws -> String? {
        guard let last = frames.indices.last, frames[last].isObject else { throw error("internal: nextKey outside an object") }
        let next = frames[last].next
        guard next < frames[last].members.count else {
            frames.removeLast()
            pending = nil
            return nil
        }
        let member = frames[last].members[next]
        frames[last].next += 1
        frames[last].component = .key(member.key)
        keyPosition = next < frames[last].keyPositions.count ? frames[last].keyPositions[next] : member.node.position
        pending = member.node
        return member.key
    }

    public mutating func nextElement() throws -> Bool {
        guard let last = frames.indices.last, !frames[last].isObject else { throw error("internal: nextElement outside an array") }
        let next = frames[last].next
        guard next < frames[last].elements.count else {
            frames.removeLast()
            pending = nil
            return false
        }
        frames[last].component = .index(next)
        frames[last].next += 1
        pending = frames[last].elements[next]
        return true
    }

    /// Any scalar reads as a string: YAML's `id: 123` is the ID "123".
    public mutating func readString() throws -> String {
        guard let node = pending, case .scalar(let text, let kind) = node.value, kind != .null else { throw try mismatch("a string") }
        consume(node)
        return text
    }

    public mutating func readNumberText() throws -> String {
        guard let node = pending, case .scalar(let text, let kind) = node.value, kind == .number else { throw try mismatch("a number") }
        consume(node)
        return text
    }

    public mutating func readBool() throws -> Bool {
        guard let node = pending, case .scalar(let text, .bool) = node.value else { throw try mismatch("true or false") }
        consume(node)
        return text.lowercased() == "true"
    }

    public mutating func readNullIfPresent() throws -> Bool {
        guard let node = pending, case .scalar(_, .null) = node.value else { return false }
        consume(node)
        return true
    }

    public mutating func skipValue() throws {
        guard let node = pending else { throw error("internal: no value to skip") }
        consume(node)
    }

    private mutating func consume(_ node: DocNode) {
        lastPosition = node.position
        pending = nil
    }

    private func mismatch(_ expected: String) throws -> FormatError {
        error("expected \(expected), found \(pending?.kind.article ?? "nothing")")
    }
}
