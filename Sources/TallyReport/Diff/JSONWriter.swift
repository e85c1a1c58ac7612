/// Appends JSON text to a string: objects with keys in the order written (callers write them
/// sorted), strings escaped per RFC 8259. Used where a report can hold millions of values and
/// `JSONEncoder` would take minutes and gigabytes.
struct JSONWriter {
    private(set) var text = ""

    init(capacity: Int = 0) {
        text.reserveCapacity(capacity)
    }

    mutating func raw(_ fragment: String) { text += fragment }

    /// `"key": ` (with the separator before it unless it is the first key).
    mutating func key(_ name: String, first: Bool = false) {
        if !first { text += ", " }
        string(name)
        text += ": "
    }

    mutating func string(_ value: String?) {
        guard let value else { return text += "null" }
        text += "\""
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            text += value
        } else {
            for scalar in value.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case "\n": text += "\\n"
                case "\r": text += "\\r"
                case "\t": text += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }

    mutating func int(_ value: Int?) { text += value.map(String.init) ?? "null" }

    mutating func bool(_ value: Bool) { text += value ? "true" : "false" }

    mutating func strings(_ values: [String]) {
        text += "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += ", " }
            string(value)
        }
        text += "]"
    }
}
