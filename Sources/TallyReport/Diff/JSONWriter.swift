/// Appends JSON to a byte buffer: objects with keys in the order written (callers write them
/// sorted), strings escaped per RFC 8259. Used where a report can hold millions of values and
/// `JSONEncoder` would take minutes and gigabytes.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int = 0) {
        bytes.reserveCapacity(capacity)
    }

    /// The JSON written so far, as text.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A fragment of JSON written in the source (no escaping, no conversion).
    mutating func raw(_ fragment: StaticString) {
        fragment.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// JSON made earlier (a value's text, escaped once).
    mutating func raw(_ fragment: [UInt8]) { bytes.append(contentsOf: fragment) }

    mutating func raw(_ fragment: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: fragment) }

    /// Hands the JSON written so far to `output` once it exceeds `threshold` bytes. Pieces stay
    /// below the allocator's threshold for mapping fresh pages (128 KB in glibc): the `String`
    /// each piece becomes then reuses memory instead of having the kernel clear new pages.
    mutating func flush<Output: TextOutputStream>(into output: inout Output, over threshold: Int = 96 << 10) {
        guard bytes.count > threshold else { return }
        output.write(text)
        bytes.removeAll(keepingCapacity: true)
    }

    /// `"key": ` (with the separator before it unless it is the first key).
    mutating func key(_ name: String, first: Bool = false) {
        if !first { raw(", ") }
        string(name)
        raw(": ")
    }

    mutating func string(_ value: String?) {
        guard let value else { return raw("null") }
        bytes.append(contentsOf: Self.quoted(value))
    }

    /// `value` as a JSON string, quotes included.
    static func quoted(_ value: String) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "\"")]
        bytes.reserveCapacity(value.utf8.count + 2)
        for byte in value.utf8 {
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: escape(byte).utf8)
            } else {
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return bytes
    }

    private static func escape(_ byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "\""): return "\\\""
        case UInt8(ascii: "\\"): return "\\\\"
        case UInt8(ascii: "\n"): return "\\n"
        case UInt8(ascii: "\r"): return "\\r"
        case UInt8(ascii: "\t"): return "\\t"
        default:
            let hex = String(byte, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// A whole number in decimal digits (no `String` on the way), or `null`.
    mutating func int(_ value: Int?) {
        guard let value else { return raw("null") }
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits, written from the end
        withUnsafeMutableBytes(of: &digits) { buffer in
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[index...])
        }
    }

    mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

    mutating func strings(_ values: [String]) {
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { raw(", ") }
            string(value)
        }
        raw("]")
    }
}
