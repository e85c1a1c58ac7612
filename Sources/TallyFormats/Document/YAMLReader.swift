import CYaml
import TallyModel

/// A streaming YAML reader over libyaml's events (the C library Yams is built on): no node tree,
/// each value located by line and column. Aliases are refused, so no document can expand.
public struct YAMLReader: DocumentReader {
    public let file: String
    private let parser: EventParser
    /// The next event, always read ahead so that `position` is where the next value starts.
    private var pending: Event?
    private var pendingError: FormatError?
    private var frames: [DocumentFrame] = []
    private var lastPosition = Position(line: 1, column: 1)
    private let maxDepth: Int
    public private(set) var keyPosition = Position.unknown

    public init(bytes: [UInt8], file: String, maxDepth: Int = 256) throws {
        self.file = file
        self.maxDepth = DocumentFrame.bounded(maxDepth)
        parser = EventParser(bytes: bytes, file: file)
        // STREAM-START, then DOCUMENT-START (or an empty stream).
        var event = try parser.next()
        if event.kind == .streamStart { event = try parser.next() }
        guard event.kind == .documentStart else {
            throw FormatError("the file is empty", file: file, position: Position(line: 1, column: 1))
        }
        pending = try parser.next()
        if pending?.kind == .documentEnd {
            throw FormatError("the file is empty", file: file, position: Position(line: 1, column: 1))
        }
    }

    public var position: Position { pending?.position ?? lastPosition }

    public var path: String { frames.compactMap(\.component).rendered }

    /// Checks that the document ends after the top-level value and no second one follows.
    public mutating func finish() throws {
        let end = try take()
        guard end.kind == .documentEnd else { throw error("unexpected content after the end of the document", at: end.position) }
        let next = try take()
        if next.kind == .documentStart {
            throw error("a second YAML document ('---') in the file: a catalogue is one document", at: next.position)
        }
    }

    public mutating func peekKind() throws -> ValueKind {
        let event = try peek()
        switch event.kind {
        case .mappingStart: return .object
        case .sequenceStart: return .array
        case .scalar: return event.valueKind
        case .alias: throw error("YAML aliases (*name) are not supported: write the value out", at: event.position)
        default: throw error("expected a value", at: event.position)
        }
    }

    public mutating func beginObject() throws {
        guard try peekKind() == .object else { throw try mismatch("an object") }
        try push(isObject: true)
    }

    public mutating func beginArray() throws {
        guard try peekKind() == .array else { throw try mismatch("an array") }
        try push(isObject: false)
    }

    public mutating func nextKey() throws -> String? {
        guard let last = frames.indices.last, frames[last].isObject else { throw error("internal: nextKey outside an object") }
        let event = try peek()
        if event.kind == .mappingEnd {
            _ = try take()
            frames.removeLast()
            return nil
        }
        guard event.kind == .scalar else { throw error("a mapping key must be a plain value", at: event.position) }
        _ = try take()
        keyPosition = event.position
        frames[last].count += 1
        frames[last].component = .key(event.text)
        return event.text
    }

    public mutating func nextElement() throws -> Bool {
        guard let last = frames.indices.last, !frames[last].isObject else { throw error("internal: nextElement outside an array") }
        if try peek().kind == .sequenceEnd {
            _ = try take()
            frames.removeLast()
            return false
        }
        frames[last].component = .index(frames[last].count)
        frames[last].count += 1
        return true
    }

    /// Any scalar reads as a string: `id: 123` is the ID "123".
    public mutating func readString() throws -> String {
        let kind = try peekKind()
        guard kind != .object, kind != .array, kind != .null else { throw try mismatch("a string") }
        return try take().text
    }

    public mutating func readNumberText() throws -> String {
        guard try peekKind() == .number else { throw try mismatch("a number") }
        return try take().text
    }

    public mutating func readBool() throws -> Bool {
        guard try peekKind() == .bool else { throw try mismatch("true or false") }
        return try take().text.lowercased() == "true"
    }

    public mutating func readNullIfPresent() throws -> Bool {
        guard try peekKind() == .null else { return false }
        _ = try take()
        return true
    }


    // MARK: - Events

    private mutating func peek() throws -> Event {
        if let pending { return pending }
        if let pendingError { throw pendingError }
        let event = try parser.next()
        pending = event
        return event
    }

    private mutating func take() throws -> Event {
        let event = try peek()
        lastPosition = event.position
        pending = nil
        if event.kind != .streamEnd {
            do { pending = try parser.next() } catch let error as FormatError { pendingError = error }
        }
        return event
    }

    private mutating func push(isObject: Bool) throws {
        guard frames.count < maxDepth else { throw DocumentFrame.tooDeep(maxDepth) { error($0) } }
        _ = try take()
        frames.append(DocumentFrame(isObject: isObject))
    }

    private mutating func mismatch(_ expected: String) throws -> FormatError {
        error("expected \(expected), found \(try peekKind().article)")
    }
}

/// One libyaml event, copied out of the C structure.
private struct Event {
    enum Kind { case streamStart, streamEnd, documentStart, documentEnd, mappingStart, mappingEnd, sequenceStart, sequenceEnd, scalar, alias }
    var kind: Kind
    var text = ""
    var isPlain = false
    var position: Position

    /// YAML 1.2 core schema resolution for plain scalars; quoted scalars are strings.
    var valueKind: ValueKind {
        guard isPlain else { return .string }
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE", "false", "False", "FALSE": return .bool
        default: return Event.looksNumeric(text) ? .number : .string
        }
    }

    static func looksNumeric(_ text: String) -> Bool {
        var digits = 0, dots = 0
        for (offset, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: "-"), UInt8(ascii: "+"): if offset != 0 { return false }
            default: return false
            }
        }
        return digits > 0 && dots <= 1
    }
}

/// Owns the libyaml parser and the input it reads.
private final class EventParser {
    private var parser = yaml_parser_t()
    private let input: UnsafeMutablePointer<UInt8>
    private let file: String

    init(bytes: [UInt8], file: String) {
        self.file = file
        input = .allocate(capacity: Swift.max(bytes.count, 1))
        bytes.withUnsafeBufferPointer { if let base = $0.baseAddress { input.update(from: base, count: bytes.count) } }
        yaml_parser_initialize(&parser)
        yaml_parser_set_input_string(&parser, input, bytes.count)
    }

    deinit {
        yaml_parser_delete(&parser)
        input.deallocate()
    }

    func next() throws -> Event {
        var event = yaml_event_t()
        guard yaml_parser_parse(&parser, &event) == 1 else { throw failure() }
        defer { yaml_event_delete(&event) }
        let position = Position(line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
        switch event.type {
        case YAML_STREAM_START_EVENT: return Event(kind: .streamStart, position: position)
        case YAML_STREAM_END_EVENT: return Event(kind: .streamEnd, position: position)
        case YAML_DOCUMENT_START_EVENT: return Event(kind: .documentStart, position: position)
        case YAML_DOCUMENT_END_EVENT: return Event(kind: .documentEnd, position: position)
        case YAML_MAPPING_START_EVENT: return Event(kind: .mappingStart, position: position)
        case YAML_MAPPING_END_EVENT: return Event(kind: .mappingEnd, position: position)
        case YAML_SEQUENCE_START_EVENT: return Event(kind: .sequenceStart, position: position)
        case YAML_SEQUENCE_END_EVENT: return Event(kind: .sequenceEnd, position: position)
        case YAML_ALIAS_EVENT: return Event(kind: .alias, position: position)
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            let text = scalar.value.map { String(decoding: UnsafeBufferPointer(start: $0, count: scalar.length), as: UTF8.self) } ?? ""
            // An explicit tag (`!!str 123`) makes a plain scalar a string.
            let plain = scalar.style == YAML_PLAIN_SCALAR_STYLE && scalar.tag == nil
            return Event(kind: .scalar, text: text, isPlain: plain, position: position)
        default:
            throw FormatError("invalid YAML: unexpected event", file: file, position: position)
        }
    }

    private func failure() -> FormatError {
        let problem = parser.problem.map { String(cString: $0) } ?? "cannot parse"
        let context = parser.context.map { " (\(String(cString: $0)))" } ?? ""
        let mark = parser.problem_mark
        return FormatError("invalid YAML: \(problem)\(context)", file: file,
                           position: Position(line: Int(mark.line) + 1, column: Int(mark.column) + 1))
    }
}

extension YAMLReader {
    /// A whole YAML document as a tree with every value's position, for files read by key path
    /// (mapping files, server files read through a mapping). UTF-8 only, like every YAML source.
    public static func tree(bytes: [UInt8], file: String, maxDepth: Int = 256) throws -> DocNode {
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw FormatError("the file is UTF-16 encoded; save it as UTF-8", file: file, position: Position(line: 1, column: 1))
        }
        guard String(validating: bytes, as: UTF8.self) != nil else {
            throw FormatError("the file is not valid UTF-8", file: file, position: Position(line: 1, column: 1))
        }
        var reader = try YAMLReader(bytes: bytes, file: file, maxDepth: maxDepth)
        let root = try DocNode.read(from: &reader)
        try reader.finish()
        return root
    }
}
