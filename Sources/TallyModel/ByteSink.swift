import Foundation

/// Bytes on their way out of a writer: appended to a buffer that is handed on in pieces, so that
/// a writer never holds its whole output (`tally convert` and `tally show --format json` write
/// catalogues of hundreds of megabytes). The library hands the pieces to a closure; only the
/// `tally` target decides where they go (a file, standard output). A sink made with `init()`
/// keeps everything, for callers that want the output as one value.
public struct ByteSink {
    @usableFromInline var buffer: [UInt8] = []
    @usableFromInline let threshold: Int
    @usableFromInline let deliver: ((UnsafeRawBufferPointer) -> Bool)?
    /// False once a piece could not be delivered (a full disk, a reader that went away): what
    /// follows is dropped, and writers may stop early.
    public private(set) var isOpen = true

    /// A sink that hands on pieces of about `threshold` bytes (under the allocator's threshold for
    /// fresh pages, so that one buffer is reused); `deliver` returns false when it cannot take more.
    public init(threshold: Int = 64 << 10, deliver: @escaping (UnsafeRawBufferPointer) -> Bool) {
        self.threshold = threshold
        self.deliver = deliver
        buffer.reserveCapacity(threshold + 4096)
    }

    /// A sink that keeps every byte (`bytes`, `text`).
    public init() {
        threshold = .max
        deliver = nil
    }

    /// What a keeping sink holds (for a delivering one: what is not yet handed on).
    public var bytes: [UInt8] { buffer }
    public var text: String { String(decoding: buffer, as: UTF8.self) }

    @inlinable public mutating func append(_ byte: UInt8) { buffer.append(byte) }

    @inlinable public mutating func append(_ bytes: [UInt8]) { buffer.append(contentsOf: bytes) }

    @inlinable public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) { buffer.append(contentsOf: bytes) }

    @inlinable public mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// A string's UTF-8 bytes, as they are (no escaping).
    @inlinable public mutating func append(utf8 text: String) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    @inlinable public mutating func append(repeating byte: UInt8, count: Int) {
        guard count > 0 else { return }
        buffer.append(contentsOf: repeatElement(byte, count: count))
    }

    /// `count` spaces (indentation).
    @inlinable public mutating func pad(_ count: Int) { append(repeating: UInt8(ascii: " "), count: count) }

    /// A whole number in decimal digits.
    @inlinable public mutating func append(integer value: Int) {
        if value >= 0, value < 10 {
            buffer.append(UInt8(ascii: "0") &+ UInt8(value))
        } else {
            append(utf8: String(value))
        }
    }

    /// The bytes not yet handed on: a mark to come back to within one value (pieces are handed
    /// on only by `flushIfFull` and `finish`).
    public var count: Int { buffer.count }

    /// Drops what was written after `mark` (a value that turned out not to fit on one line).
    public mutating func removeAll(after mark: Int) {
        buffer.removeSubrange(mark...)
    }

    /// The number of characters written after `mark` (its bytes when they are all ASCII).
    public func characterCount(after mark: Int) -> Int {
        let written = buffer[mark...]
        return written.allSatisfy { $0 < 0x80 } ? written.count : String(decoding: written, as: UTF8.self).count
    }

    /// Hands on what the buffer holds once it is past the threshold; writers call it between values.
    @inlinable public mutating func flushIfFull() {
        if buffer.count >= threshold { flush() }
    }

    /// Hands on everything written so far (a delivering sink); call once at the end.
    public mutating func finish() { flush() }

    @usableFromInline mutating func flush() {
        guard let deliver, !buffer.isEmpty else { return }
        if isOpen {
            isOpen = buffer.withUnsafeBytes { deliver($0) }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}

/// The texts of decimals, each made once: a catalogue repeats a few hundred price points
/// millions of times, and `NSDecimalString` is slow. Keyed by the value's bytes (a direct-mapped
/// table: a collision only costs making the text again), so equal bytes always give one text.
public struct DecimalTexts<Text> {
    @usableFromInline struct Key: Equatable {
        @usableFromInline var low: UInt64
        @usableFromInline var high: UInt64
        @usableFromInline var head: UInt32

        @inlinable init(_ value: Decimal) {
            (low, high, head) = withUnsafeBytes(of: value) { raw in
                (raw.loadUnaligned(fromByteOffset: 4, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 12, as: UInt64.self),
                 raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
            }
        }
    }

    @usableFromInline var keys: [Key?]
    @usableFromInline var texts: [Text?]
    @usableFromInline let make: (Decimal) -> Text
    @inlinable static var slots: Int { 1 << 14 }

    /// `make` turns a value into its text (for example `Money.plain`, then quoted).
    public init(_ make: @escaping (Decimal) -> Text) {
        self.make = make
        keys = Array(repeating: nil, count: Self.slots)
        texts = Array(repeating: nil, count: Self.slots)
    }

    @inlinable public mutating func text(_ value: Decimal) -> Text {
        // The table reads the value's 20 bytes; a layout of another size is not cached.
        guard MemoryLayout<Decimal>.size == 20 else { return make(value) }
        let key = Key(value)
        var hash = key.low &* 0x9E37_79B9_7F4A_7C15
        hash ^= key.high &* 0xC2B2_AE3D_27D4_EB4F
        hash ^= UInt64(key.head) &* 0x1656_67B1_9E37_79F9
        let slot = Int(truncatingIfNeeded: hash >> 50) & (Self.slots - 1)
        if keys[slot] == key, let text = texts[slot] { return text }
        let text = make(value)
        keys[slot] = key
        texts[slot] = text
        return text
    }
}
