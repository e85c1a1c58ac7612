import TallyModel

/// The kind of the next value in a structured document.
public enum ValueKind: String, Sendable {
    case object, array, string, number, bool, null

    var article: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }
}

/// A pull reader over a JSON, YAML or property-list document. Format readers are written once
/// against this protocol, so each value's position and key path come for free, and large JSON
/// files are read as a stream without building a tree.
///
/// Protocol: `beginObject()` then `nextKey()` until nil, reading or skipping each value;
/// `beginArray()` then `nextElement()` until false.
public protocol DocumentReader {
    /// The file being read, as the user named it.
    var file: String { get }
    /// Where the next value starts.
    var position: Position { get }
    /// The key path of the value being read (`products[2].prices.USA`).
    var path: String { get }
    /// Where the key most recently returned by `nextKey()` is written.
    var keyPosition: Position { get }

    mutating func peekKind() throws -> ValueKind
    mutating func beginObject() throws
    /// The next key of the current object, or nil when the object ends.
    mutating func nextKey() throws -> String?
    mutating func beginArray() throws
    /// Whether the current array has another element.
    mutating func nextElement() throws -> Bool
    mutating func readString() throws -> String
    /// The literal text of a number (or, where the format allows, a numeric string).
    mutating func readNumberText() throws -> String
    mutating func readBool() throws -> Bool
    /// Consumes a null and returns true, or leaves any other value and returns false.
    mutating func readNullIfPresent() throws -> Bool
    mutating func skipValue() throws
    /// A price written as a string ("0.99") or a number (0.99), kept exact.
    mutating func readDecimal() throws -> DecimalValue
    /// Like `nextKey()`, for objects keyed by storefront code (`prices`): a key of three capital
    /// letters comes back as a `Territory` without building a string.
    mutating func nextTerritoryKey() throws -> TerritoryKey?
}

/// A key of an object keyed by territory.
public enum TerritoryKey: Sendable {
    case territory(Territory)
    /// Any other key, as written.
    case other(String)
}

extension DocumentReader {
    /// An error at the next value's position and path.
    public func error(_ message: String) -> FormatError {
        FormatError(message, file: file, position: position, path: path)
    }

    public func error(_ message: String, at position: Position) -> FormatError {
        FormatError(message, file: file, position: position, path: path)
    }

    /// A string, or nil for null.
    public mutating func readOptionalString() throws -> String? {
        try readNullIfPresent() ? nil : readString()
    }

    /// A whole number.
    public mutating func readInt() throws -> Int {
        let at = position
        let text = try readNumberText()
        guard let value = Int(text) else { throw error("expected a whole number, found \(text)", at: at) }
        return value
    }

    /// A decimal written as a string ("0.99") or a number (0.99), kept exact.
    /// Returns the literal text; the caller decides what an unparsable one means.
    public mutating func readDecimalText() throws -> String {
        switch try peekKind() {
        case .string: return try readString()
        case .number: return try readNumberText()
        case let other: throw error("expected a price as a string or number, found \(other.article)")
        }
    }

    /// Skips the next value, however deep (readers over a tree override it), without recursion:
    /// the containers open are a list, so a skipped value takes no stack for its depth.
    public mutating func skipValue() throws {
        // Whether each open container is an object.
        var open: [Bool] = []
        repeat {
            if let isObject = open.last {
                let more = isObject ? try nextKey() != nil : try nextElement()
                guard more else {
                    open.removeLast()
                    continue
                }
            }
            switch try peekKind() {
            case .object:
                try beginObject()
                open.append(true)
            case .array:
                try beginArray()
                open.append(false)
            case .string: _ = try readString()
            case .number: _ = try readNumberText()
            case .bool: _ = try readBool()
            case .null: _ = try readNullIfPresent()
            }
        } while !open.isEmpty
    }

    public mutating func nextTerritoryKey() throws -> TerritoryKey? {
        guard let key = try nextKey() else { return nil }
        return Territory(key).map(TerritoryKey.territory) ?? .other(key)
    }

    public mutating func readDecimal() throws -> DecimalValue {
        let text = try readDecimalText()
        return DecimalText.parse(text).map(DecimalValue.value) ?? .invalid(text)
    }

    /// Iterates an array, calling `body` for each element.
    public mutating func forEachElement(_ body: (inout Self, Int) throws -> Void) throws {
        try beginArray()
        var index = 0
        while try nextElement() {
            try body(&self, index)
            index += 1
        }
    }

    /// Iterates an object like `forEachKey`, refusing a key that appears twice (JSON parsers
    /// would silently keep one of the two values).
    public mutating func forEachUniqueKey(_ body: (inout Self, String) throws -> Void) throws {
        var seen: [String] = []
        try forEachKey { reader, key in
            if seen.contains(key) { throw reader.error("the key \"\(key)\" appears twice in the same object") }
            seen.append(key)
            try body(&reader, key)
        }
    }

    /// Iterates an object, calling `body` with each key and where the key's value starts.
    public mutating func forEachKey(_ body: (inout Self, String) throws -> Void) throws {
        try beginObject()
        while let key = try nextKey() {
            try body(&self, key)
        }
    }
}

/// One step of a key path.
enum PathComponent {
    case key(String)
    case territory(Territory)
    case index(Int)
}

extension Array where Element == PathComponent {
    var rendered: String {
        var text = ""
        for component in self {
            switch component {
            case .key(let key): text += text.isEmpty ? key : ".\(key)"
            case .territory(let territory): text += text.isEmpty ? territory.code : ".\(territory.code)"
            case .index(let index): text += "[\(index)]"
            }
        }
        return text
    }
}

/// One open container of a streaming document reader (JSON, YAML): whether it is an object,
/// how many members or elements it has had, and the path component of the current one.
struct DocumentFrame {
    var isObject: Bool
    var count = 0
    var component: PathComponent?

    /// A depth limit within what readers follow (`ReadOptions.maxDepthLimit`).
    static func bounded(_ maxDepth: Int) -> Int { min(max(maxDepth, 1), ReadOptions.maxDepthLimit) }

    /// The error for nesting past `maxDepth`, made by `error`: raising the limit helps unless it
    /// is already the most readers follow.
    static func tooDeep(_ maxDepth: Int, _ error: (String) -> FormatError) -> FormatError {
        guard maxDepth < ReadOptions.maxDepthLimit else {
            return error("nesting deeper than \(maxDepth) levels, the most Tally reads")
        }
        return error("nesting deeper than \(maxDepth) levels (the limit)").with(.raiseDepthLimit)
    }
}
