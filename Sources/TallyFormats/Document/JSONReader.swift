import TallyModel

/// A streaming JSON reader over raw bytes. It keeps each value's line and column and the
/// literal text of numbers (prices stay exact), and builds no tree: large catalogues are read
/// in one pass.
public struct JSONReader: DocumentReader {
    public let file: String
    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var frames: [Frame] = []
    private let maxDepth: Int

    private struct Frame {
        var isObject: Bool
        var count = 0
        var component: PathComponent?
    }

    /// - Parameters:
    ///   - maxDepth: nesting deeper than this is an error, not a stack overflow.
    public init(bytes: [UInt8], file: String, maxDepth: Int = 256) throws {
        self.bytes = bytes
        self.file = file
        self.maxDepth = maxDepth
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw FormatError("the file is UTF-16 encoded; save it as UTF-8", file: file, position: Position(line: 1, column: 1))
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
        skipWhitespace()
        if index >= bytes.count {
            throw FormatError("the file is empty", file: file, position: Position(line: 1, column: 1))
        }
    }

    public var position: Position { Position(line: line, column: index - lineStart + 1) }

    public var path: String {
        var components: [PathComponent] = []
        components.reserveCapacity(frames.count)
        for frame in frames { if let component = frame.component { components.append(component) } }
        return components.rendered
    }

    /// Checks that nothing but white space follows the top-level value.
    public mutating func finish() throws {
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected \(describe(bytes[index])) after the end of the document")
        }
    }

    public mutating func peekKind() throws -> ValueKind {
        guard index < bytes.count else { throw truncated() }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case let byte: throw error("unexpected \(describe(byte)) where a value should start")
        }
    }

    public mutating func beginObject() throws {
        try expectContainer(UInt8(ascii: "{"), isObject: true, name: "an object")
    }

    public mutating func beginArray() throws {
        try expectContainer(UInt8(ascii: "["), isObject: false, name: "an array")
    }

    public mutating func nextKey() throws -> String? {
        guard let last = frames.indices.last, frames[last].isObject else {
            throw error("internal: nextKey outside an object")
        }
        guard index < bytes.count else { throw truncated() }
        if bytes[index] == UInt8(ascii: "}") {
            endContainer()
            return nil
        }
        if frames[last].count > 0 {
            guard bytes[index] == UInt8(ascii: ",") else {
                throw error("expected ',' or '}' after an object member, found \(describe(bytes[index]))")
            }
            index += 1
            skipWhitespace()
            guard index < bytes.count else { throw truncated() }
            if bytes[index] == UInt8(ascii: "}") { throw error("trailing comma before '}'") }
        }
        guard bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a key in double quotes, found \(describe(bytes[index]))")
        }
        let key = try scanString()
        skipWhitespace()
        guard index < bytes.count else { throw truncated() }
        guard bytes[index] == UInt8(ascii: ":") else {
            throw error("expected ':' after the key \"\(key)\", found \(describe(bytes[index]))")
        }
        index += 1
        skipWhitespace()
        frames[last].count += 1
        frames[last].component = .key(key)
        return key
    }

    public mutating func nextElement() throws -> Bool {
        guard let last = frames.indices.last, !frames[last].isObject else {
            throw error("internal: nextElement outside an array")
        }
        guard index < bytes.count else { throw truncated() }
        if bytes[index] == UInt8(ascii: "]") {
            endContainer()
            return false
        }
        if frames[last].count > 0 {
            guard bytes[index] == UInt8(ascii: ",") else {
                throw error("expected ',' or ']' after an array element, found \(describe(bytes[index]))")
            }
            index += 1
            skipWhitespace()
            guard index < bytes.count else { throw truncated() }
            if bytes[index] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
        }
        frames[last].component = .index(frames[last].count)
        frames[last].count += 1
        return true
    }

    public mutating func readString() throws -> String {
        guard index < bytes.count else { throw truncated() }
        guard bytes[index] == UInt8(ascii: "\"") else { throw try mismatch("a string") }
        let value = try scanString()
        skipWhitespace()
        return value
    }

    public mutating func readNumberText() throws -> String {
        guard index < bytes.count else { throw truncated() }
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let intStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        if index == intStart {
            index = start
            throw try mismatch("a number")
        }
        if bytes[intStart] == UInt8(ascii: "0"), index - intStart > 1 {
            index = start
            throw error("a number may not start with 0")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let fraction = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            if index == fraction { throw error("expected digits after the decimal point") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponent = index
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
            if index == exponent { throw error("expected digits in the exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        skipWhitespace()
        return text
    }

    public mutating func readBool() throws -> Bool {
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw try mismatch("true or false")
    }

    public mutating func readNullIfPresent() throws -> Bool {
        guard index < bytes.count else { throw truncated() }
        guard bytes[index] == UInt8(ascii: "n") else { return false }
        if try literal("null") { return true }
        throw error("unexpected \(describe(bytes[index])) where a value should start")
    }

    public mutating func skipValue() throws {
        switch try peekKind() {
        case .object:
            try beginObject()
            while try nextKey() != nil { try skipValue() }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .string: _ = try readString()
        case .number: _ = try readNumberText()
        case .bool: _ = try readBool()
        case .null: _ = try readNullIfPresent()
        }
    }

    // MARK: - Scanning

    private mutating func expectContainer(_ open: UInt8, isObject: Bool, name: String) throws {
        guard index < bytes.count else { throw truncated() }
        guard bytes[index] == open else { throw try mismatch(name) }
        guard frames.count < maxDepth else {
            throw error("nesting deeper than \(maxDepth) levels (the limit for this reader)")
        }
        index += 1
        frames.append(Frame(isObject: isObject))
        skipWhitespace()
    }

    private mutating func endContainer() {
        frames.removeLast()
        index += 1
        skipWhitespace()
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: "\n"):
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private mutating func literal(_ text: String) throws -> Bool {
        let word = Array(text.utf8)
        let count = word.count
        guard index + count <= bytes.count else {
            if index < bytes.count, bytes[index] == word[0] { throw truncated() }
            return false
        }
        for offset in 0..<count where bytes[index + offset] != word[offset] { return false }
        index += count
        skipWhitespace()
        return true
    }

    /// Reads a string starting at the opening quote; leaves the index after the closing quote.
    private mutating func scanString() throws -> String {
        let quote = index
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[start..<index], as: UTF8.self) else {
                    index = quote
                    throw error("the string is not valid UTF-8")
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try scanEscapedString(from: start, quote: quote) }
            if byte < 0x20 {
                throw error(byte == 0x0A ? "unterminated string (a line break inside quotes)" : "a control character inside a string must be escaped")
            }
            index += 1
        }
        index = quote
        throw truncated("unterminated string")
    }

    private mutating func scanEscapedString(from start: Int, quote: Int) throws -> String {
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: buffer, as: UTF8.self) else {
                    index = quote
                    throw error("the string is not valid UTF-8")
                }
                index += 1
                return text
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(escape)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw error("a lone UTF-16 surrogate in a \\u escape")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    buffer.append(contentsOf: Array(String(Character(unicode)).utf8))
                default:
                    index -= 2
                    throw error("invalid escape \\\(describeRaw(escape)) in a string")
                }
            default:
                if byte < 0x20 { throw error("a control character inside a string must be escaped") }
                buffer.append(byte)
                index += 1
            }
        }
        index = quote
        throw truncated("unterminated string")
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw truncated() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - 87)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - 55)
            default: throw error("invalid \\u escape: expected four hex digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    private mutating func mismatch(_ expected: String) throws -> FormatError {
        let found = (try? peekKind())?.article ?? (index < bytes.count ? describe(bytes[index]) : "the end of the file")
        return error("expected \(expected), found \(found)")
    }

    private func truncated(_ what: String = "unexpected end of the file") -> FormatError {
        error("\(what) (is the file truncated?)")
    }

    private func describe(_ byte: UInt8) -> String { "'\(describeRaw(byte))'" }

    private func describeRaw(_ byte: UInt8) -> String {
        guard !(0x21...0x7E).contains(byte) else { return String(UnicodeScalar(byte)) }
        let hex = String(byte, radix: 16, uppercase: true)
        return "byte 0x" + (hex.count < 2 ? "0" + hex : hex)
    }
}
