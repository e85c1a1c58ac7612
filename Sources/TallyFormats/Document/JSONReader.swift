import Foundation
import TallyModel

/// A streaming JSON reader over raw bytes. It keeps each value's line and column and the
/// literal text of numbers (prices stay exact), and builds no tree. Reading from a file, it
/// holds only a window of the input (a megabyte or so) however large the file is.
public struct JSONReader: DocumentReader {
    public let file: String
    /// The window of input being read; `bytes[0]` is at offset `windowStart` of the document.
    /// A plain pointer and count (no class access, so no exclusivity checks in the hot loops),
    /// renewed from `storage` whenever the window moves.
    private var bytes: WindowView
    private let storage: Window
    private var index = 0
    private var windowStart = 0
    private var line = 1
    /// The document offset where the current line starts.
    private var lineStart = 0
    private var frames: [DocumentFrame] = []
    private let maxDepth: Int
    private let input: ChunkedInput?
    private let decimals = DecimalCache()
    public private(set) var keyPosition = Position.unknown

    /// Reads a document held in memory.
    /// - Parameter maxDepth: nesting deeper than this is an error, not a stack overflow.
    public init(bytes: [UInt8], file: String, maxDepth: Int = 256) throws {
        self.storage = Window(copying: bytes)
        self.bytes = storage.view
        self.file = file
        self.maxDepth = DocumentFrame.bounded(maxDepth)
        self.input = nil
        try start()
    }

    /// Reads a file as a stream, a window at a time.
    public init(path: String, file: String? = nil, maxDepth: Int = 256, chunkSize: Int = 1 << 20) throws {
        let name = file ?? path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FormatError("cannot open the file for reading (permissions?)", file: name, position: .unknown)
        }
        self.file = name
        self.maxDepth = DocumentFrame.bounded(maxDepth)
        self.input = ChunkedInput(handle: handle, chunkSize: chunkSize, file: name)
        self.storage = Window(capacity: chunkSize * 2)
        self.bytes = storage.view
        var mark = 0
        _ = try refill(keeping: &mark)
        try start()
    }

    private mutating func start() throws {
        try ensure(3)
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw FormatError("the file is UTF-16 encoded; save it as UTF-8", file: file, position: Position(line: 1, column: 1))
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
        try skipWhitespace()
        guard try available() else {
            throw FormatError("the file is empty", file: file, position: Position(line: 1, column: 1))
        }
    }

    public var position: Position { Position(line: line, column: windowStart + index - lineStart + 1) }

    public var path: String {
        var components: [PathComponent] = []
        components.reserveCapacity(frames.count)
        for frame in frames { if let component = frame.component { components.append(component) } }
        return components.rendered
    }

    /// Checks that nothing but white space follows the top-level value.
    public mutating func finish() throws {
        try skipWhitespace()
        if try available() {
            throw error("unexpected \(describe(bytes[index])) after the end of the document")
        }
    }

    public mutating func peekKind() throws -> ValueKind {
        guard try available() else { throw truncated() }
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
        guard let last = try nextInContainer(isObject: true) else { return nil }
        guard bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a key in double quotes, found \(describe(bytes[index]))")
        }
        keyPosition = position
        let key = try scanString()
        try skipWhitespace()
        guard try available() else { throw truncated() }
        guard bytes[index] == UInt8(ascii: ":") else {
            throw error("expected ':' after the key \"\(key)\", found \(describe(bytes[index]))")
        }
        index += 1
        try skipWhitespace()
        frames[last].count += 1
        frames[last].component = .key(key)
        return key
    }

    public mutating func nextTerritoryKey() throws -> TerritoryKey? {
        // The fast path: [',' white space] `"ABC"` [spaces] ':' all in the window; anything else
        // (an unusual key, the end of the object, the end of the window) takes the general path.
        guard index + 16 <= bytes.count, let last = frames.indices.last, frames[last].isObject else {
            return try slowTerritoryKey()
        }
        var at = index
        var lines = 0
        var newLineStart = lineStart
        if frames[last].count > 0 {
            guard bytes[at] == UInt8(ascii: ",") else { return try slowTerritoryKey() }
            at += 1
            while at < bytes.count {
                let byte = bytes[at]
                if byte == UInt8(ascii: "\n") {
                    lines += 1
                    newLineStart = windowStart + at + 1
                } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") {
                    break
                }
                at += 1
            }
        }
        guard at + 6 <= bytes.count, bytes[at] == UInt8(ascii: "\""), bytes[at + 4] == UInt8(ascii: "\""),
              let territory = Territory(bytes: bytes[at + 1], bytes[at + 2], bytes[at + 3]) else {
            return try slowTerritoryKey()
        }
        var after = at + 5
        while after < bytes.count, bytes[after] == UInt8(ascii: " ") { after += 1 }
        guard after < bytes.count, bytes[after] == UInt8(ascii: ":") else { return try slowTerritoryKey() }
        line += lines
        lineStart = newLineStart
        keyPosition = Position(line: line, column: windowStart + at - lineStart + 1)
        index = after + 1
        try skipWhitespace()
        frames[last].count += 1
        frames[last].component = .territory(territory)
        return .territory(territory)
    }

    private mutating func slowTerritoryKey() throws -> TerritoryKey? {
        guard let key = try nextKey() else { return nil }
        return Territory(key).map(TerritoryKey.territory) ?? .other(key)
    }

    public mutating func nextElement() throws -> Bool {
        guard let last = try nextInContainer(isObject: false) else { return false }
        frames[last].component = .index(frames[last].count)
        frames[last].count += 1
        return true
    }

    /// Steps to the next member (`isObject`) or element of the innermost container: its frame's
    /// index, past the `,` after an earlier one; nil, the container closed, at its closing bracket.
    private mutating func nextInContainer(isObject: Bool) throws -> Int? {
        guard let last = frames.indices.last, frames[last].isObject == isObject else {
            throw error(isObject ? "internal: nextKey outside an object" : "internal: nextElement outside an array")
        }
        let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        guard try available() else { throw truncated() }
        if bytes[index] == closing {
            try endContainer()
            return nil
        }
        if frames[last].count > 0 {
            guard bytes[index] == UInt8(ascii: ",") else {
                let after = isObject ? "an object member" : "an array element"
                throw error("expected ',' or '\(Character(Unicode.Scalar(closing)))' after \(after), found \(describe(bytes[index]))")
            }
            index += 1
            try skipWhitespace()
            guard try available() else { throw truncated() }
            if bytes[index] == closing { throw error("trailing comma before '\(Character(Unicode.Scalar(closing)))'") }
        }
        return last
    }

    public mutating func readString() throws -> String {
        guard try available() else { throw truncated() }
        guard bytes[index] == UInt8(ascii: "\"") else { throw try mismatch("a string") }
        let value = try scanString()
        try skipWhitespace()
        return value
    }

    public mutating func readNumberText() throws -> String {
        var start = index
        let range = try scanNumber(&start)
        let text = String(decoding: bytes.buffer(range), as: UTF8.self)
        try skipWhitespace()
        return text
    }

    /// A decimal straight from the bytes of a string or number, without building a `String`
    /// on the way (the common case in large catalogues).
    public mutating func readDecimal() throws -> DecimalValue {
        guard try available() else { throw truncated() }
        var start = index
        let range: Range<Int>
        if bytes[index] == UInt8(ascii: "\"") {
            // The common case, "4.99": digits with at most one '.', up to the closing quote, parsed
            // in place; catalogues repeat a few price points, so the Decimal usually comes from a cache.
            var end = index + 1
            var mantissa: UInt64 = 0
            var digits = 0
            var scale = -1
            while end < bytes.count {
                let byte = bytes[end]
                if byte >= 48 && byte <= 57 {
                    mantissa = mantissa &* 10 &+ UInt64(byte - 48)
                    digits += 1
                    if scale >= 0 { scale += 1 }
                } else if byte == UInt8(ascii: "."), scale < 0, digits > 0 {
                    scale = 0
                } else {
                    break
                }
                end += 1
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""), digits > 0, digits <= 17, scale != 0 {
                let value = decimals.value(mantissa: mantissa, scale: Swift.max(scale, 0))
                index = end + 1
                try skipWhitespace()
                return .value(value)
            }
            while end < bytes.count, bytes[end] == UInt8(ascii: ".") || bytes[end] == UInt8(ascii: "-") || (bytes[end] >= 48 && bytes[end] <= 57) {
                end += 1
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""), let value = DecimalText.parse(bytes.buffer((index + 1)..<end)) {
                index = end + 1
                try skipWhitespace()
                return .value(value)
            }
            let text = try scanString()
            try skipWhitespace()
            return DecimalText.parse(text).map(DecimalValue.value) ?? .invalid(text)
        }
        guard bytes[index] == UInt8(ascii: "-") || (bytes[index] >= 48 && bytes[index] <= 57) else {
            throw error("expected a price as a string or number, found \(try peekKind().article)")
        }
        range = try scanNumber(&start)
        let value = DecimalText.parse(bytes.buffer(range))
        let result = value.map(DecimalValue.value) ?? .invalid(String(decoding: bytes.buffer(range), as: UTF8.self))
        try skipWhitespace()
        return result
    }

    public mutating func readBool() throws -> Bool {
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw try mismatch("true or false")
    }

    public mutating func readNullIfPresent() throws -> Bool {
        guard try available() else { throw truncated() }
        guard bytes[index] == UInt8(ascii: "n") else { return false }
        if try literal("null") { return true }
        throw error("unexpected \(describe(bytes[index])) where a value should start")
    }

}

// MARK: - Input window

extension JSONReader {
    /// Whether a byte is available at `index`, reading more input if needed.
    @inline(__always)
    private mutating func available() throws -> Bool {
        if index < bytes.count { return true }
        var mark = index
        return try refill(keeping: &mark)
    }

    /// Like `available()`, keeping the bytes from `mark` on (a token being scanned) in the window.
    @inline(__always)
    private mutating func available(keeping mark: inout Int) throws -> Bool {
        if index < bytes.count { return true }
        return try refill(keeping: &mark)
    }

    /// Makes at least `count` bytes available from `index` where the input has them.
    private mutating func ensure(_ count: Int) throws {
        var mark = index
        while bytes.count - index < count, try refill(keeping: &mark) {}
    }

    /// Drops the bytes before `mark` (and `index`) and appends the next chunk of input.
    private mutating func refill(keeping mark: inout Int) throws -> Bool {
        guard let input else { return false }
        let keep = Swift.min(mark, index)
        if keep > 0 {
            storage.dropFirst(keep)
            windowStart += keep
            index -= keep
            mark -= keep
        }
        let more = try input.read(appendingTo: storage)
        bytes = storage.view
        return more
    }
}

/// A read-only view of the window: what the scanning loops index.
private struct WindowView {
    let base: UnsafeMutablePointer<UInt8>
    let count: Int

    @inline(__always)
    subscript(index: Int) -> UInt8 { base[index] }

    func buffer(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    /// A copy of a range, for the rare string with escapes.
    func array(_ range: Range<Int>) -> [UInt8] { Array(buffer(range)) }
}

/// The bytes of the input window, in memory Tally manages itself: reading them costs no
/// bounds checks and no reference counting (the hot loop of every JSON source).
private final class Window {
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    convenience init(copying bytes: [UInt8]) {
        self.init(capacity: bytes.count)
        bytes.withUnsafeBufferPointer { source in
            if let address = source.baseAddress { base.update(from: address, count: source.count) }
        }
        count = bytes.count
    }

    deinit { base.deallocate() }

    var view: WindowView { WindowView(base: base, count: count) }

    /// Forgets the first `n` bytes, moving the rest to the front.
    func dropFirst(_ n: Int) {
        base.update(from: base + n, count: count - n)
        count -= n
    }

    /// Room for at least `extra` more bytes; returns where they go.
    func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity {
            let grown = Swift.max(capacity * 2, count + extra)
            let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
            fresh.update(from: base, count: count)
            base.deallocate()
            base = fresh
            capacity = grown
        }
        return base + count
    }

    func didAppend(_ n: Int) { count += n }
}

/// Decimals by (mantissa, scale), direct-mapped: building a `Decimal` costs more than finding
/// one that a catalogue's repeated price points already made. Shared by the JSON and CSV readers.
final class DecimalCache {
    // Pointers, not arrays: no copy-on-write or exclusivity checks on the hot path.
    private let keys: UnsafeMutablePointer<UInt64> = {
        let pointer = UnsafeMutablePointer<UInt64>.allocate(capacity: 4096)
        pointer.initialize(repeating: .max, count: 4096)
        return pointer
    }()
    private let values: UnsafeMutablePointer<Decimal> = {
        let pointer = UnsafeMutablePointer<Decimal>.allocate(capacity: 4096)
        pointer.initialize(repeating: 0, count: 4096)
        return pointer
    }()

    deinit {
        keys.deallocate()
        values.deinitialize(count: 4096)
        values.deallocate()
    }

    func value(mantissa: UInt64, scale: Int) -> Decimal {
        let key = mantissa << 5 | UInt64(scale)
        let slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 52)
        if keys[slot] == key { return values[slot] }
        var value = Decimal(mantissa)
        if scale > 0 { value = Decimal(sign: .plus, exponent: -scale, significand: value) }
        keys[slot] = key
        values[slot] = value
        return value
    }
}

/// Reads a file a chunk at a time.
private final class ChunkedInput {
    let handle: FileHandle
    let chunkSize: Int
    let file: String
    var atEnd = false

    init(handle: FileHandle, chunkSize: Int, file: String) {
        self.handle = handle
        self.chunkSize = chunkSize
        self.file = file
    }

    deinit { try? handle.close() }

    func read(appendingTo bytes: Window) throws -> Bool {
        guard !atEnd else { return false }
        let target = bytes.reserve(chunkSize)
        let got = try SourceLoader.readChunk(handle.fileDescriptor, into: target, count: chunkSize, file: file)
        if got == 0 {
            atEnd = true
            return false
        }
        bytes.didAppend(got)
        return true
    }
}

// MARK: - Scanning

extension JSONReader {
    private mutating func expectContainer(_ open: UInt8, isObject: Bool, name: String) throws {
        guard try available() else { throw truncated() }
        guard bytes[index] == open else { throw try mismatch(name) }
        guard frames.count < maxDepth else { throw DocumentFrame.tooDeep(maxDepth) { error($0) } }
        index += 1
        frames.append(DocumentFrame(isObject: isObject))
        try skipWhitespace()
    }

    private mutating func endContainer() throws {
        frames.removeLast()
        index += 1
        try skipWhitespace()
    }

    private mutating func skipWhitespace() throws {
        while true {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    index += 1
                case UInt8(ascii: "\n"):
                    index += 1
                    line += 1
                    lineStart = windowStart + index
                default:
                    return
                }
            }
            guard try available() else { return }
        }
    }

    private mutating func literal(_ text: String) throws -> Bool {
        let word = Array(text.utf8)
        try ensure(word.count)
        guard index + word.count <= bytes.count else {
            if index < bytes.count, bytes[index] == word[0] { throw truncated() }
            return false
        }
        for offset in 0..<word.count where bytes[index + offset] != word[offset] { return false }
        index += word.count
        try skipWhitespace()
        return true
    }

    /// Scans a JSON number from `index`; returns its range in the window (valid until the next read).
    private mutating func scanNumber(_ start: inout Int) throws -> Range<Int> {
        guard try available() else { throw truncated() }
        start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        // Offsets from `start`: the window may move under a long number.
        let intOffset = index - start
        var digits = 0
        while try available(keeping: &start), isDigit(bytes[index]) {
            digits += 1
            index += 1
        }
        if digits == 0 {
            index = start
            throw try mismatch("a number")
        }
        if bytes[start + intOffset] == UInt8(ascii: "0"), digits > 1 {
            index = start
            throw error("a number may not start with 0")
        }
        if try available(keeping: &start), bytes[index] == UInt8(ascii: ".") {
            index += 1
            var fraction = 0
            while try available(keeping: &start), isDigit(bytes[index]) { index += 1; fraction += 1 }
            if fraction == 0 { throw error("expected digits after the decimal point") }
        }
        if try available(keeping: &start), bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if try available(keeping: &start), bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            var exponent = 0
            while try available(keeping: &start), isDigit(bytes[index]) { index += 1; exponent += 1 }
            if exponent == 0 { throw error("expected digits in the exponent") }
        }
        return start..<index
    }

    /// Reads a string starting at the opening quote; leaves the index after the closing quote.
    private mutating func scanString() throws -> String {
        var quote = index
        index += 1
        var ascii = true
        while try available(keeping: &quote) {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let range = (quote + 1)..<index
                let text: String
                if ascii {
                    text = String(decoding: bytes.buffer(range), as: UTF8.self)
                } else {
                    guard let valid = String(validating: bytes.buffer(range), as: UTF8.self) else {
                        index = quote
                        throw error("the string is not valid UTF-8")
                    }
                    text = valid
                }
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { return try scanEscapedString(quote: &quote) }
            if byte < 0x20 {
                throw error(byte == 0x0A ? "unterminated string (a line break inside quotes)" : "a control character inside a string must be escaped")
            }
            if byte >= 0x80 { ascii = false }
            index += 1
        }
        index = quote
        throw truncated("unterminated string")
    }

    private mutating func scanEscapedString(quote: inout Int) throws -> String {
        var buffer = bytes.array((quote + 1)..<index)
        while try available(keeping: &quote) {
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
                guard try available(keeping: &quote) else { break }
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
                    var scalar = try hex4(keeping: &quote)
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard try available(keeping: &quote), bytes[index] == UInt8(ascii: "\\") else {
                            throw error("a lone UTF-16 surrogate in a \\u escape")
                        }
                        index += 1
                        guard try available(keeping: &quote), bytes[index] == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate in a \\u escape")
                        }
                        index += 1
                        let low = try hex4(keeping: &quote)
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

    private mutating func hex4(keeping mark: inout Int) throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard try available(keeping: &mark) else { throw truncated() }
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

    @inline(__always)
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
