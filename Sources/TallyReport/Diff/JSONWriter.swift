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

    mutating func raw(_ fragment: String) { bytes.append(contentsOf: fragment.utf8) }

    /// Hands the JSON written so far to `output` once it exceeds `threshold` bytes.
    mutating func flush<Output: TextOutputStream>(into output: inout Output, over threshold: Int = 1 << 20) {
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
        guard var value else { return raw("null") }
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[start..<index])
                bytes.append(contentsOf: Self.escape(byte).utf8)
                start = index + 1
            }
            bytes.append(contentsOf: utf8[start...])
        }
        bytes.append(UInt8(ascii: "\""))
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

    mutating func int(_ value: Int?) { raw(value.map(String.init) ?? "null") }

    mutating func bool(_ value: Bool) { raw(value ? "true" : "false") }

    mutating func strings(_ values: [String]) {
        raw("[")
        for (index, value) in values.enumerated() {
            if index > 0 { raw(", ") }
            string(value)
        }
        raw("]")
    }
}
