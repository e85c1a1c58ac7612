extension ByteSink {
    /// Appends `string` as a JSON string literal: `"` and `\` escaped, `\n \r \t` (and, with
    /// `shortFormFeeds`, `\b \f` as Foundation's encoder writes them), other control characters
    /// as `\u00XX`; `/` and everything else as it is.
    /// - Parameter escapingInvisible: also write the bidirectional overrides, C1 controls and
    ///   invisible format characters `SafeText` names as `\uXXXX` (the same text to a parser,
    ///   nothing that reorders or hides what a terminal shows): for files `tally convert` writes.
    public mutating func appendJSONString(_ string: String, shortFormFeeds: Bool = false, escapingInvisible: Bool = false) {
        if escapingInvisible, string.unicodeScalars.contains(where: { $0.value >= 0x7F && SafeText.isUnsafe($0) }) {
            append(UInt8(ascii: "\""))
            var plain = ""
            for scalar in string.unicodeScalars {
                guard scalar.value >= 0x7F, SafeText.isUnsafe(scalar) else {
                    plain.unicodeScalars.append(scalar)
                    continue
                }
                appendJSONStringBody(plain, shortFormFeeds: shortFormFeeds)
                plain = ""
                let hex = String(scalar.value, radix: 16)
                append(utf8: "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex)
            }
            appendJSONStringBody(plain, shortFormFeeds: shortFormFeeds)
            append(UInt8(ascii: "\""))
            return
        }
        append(UInt8(ascii: "\""))
        appendJSONStringBody(string, shortFormFeeds: shortFormFeeds)
        append(UInt8(ascii: "\""))
    }

    /// A string's escaped text, without the quotes.
    private mutating func appendJSONStringBody(_ string: String, shortFormFeeds: Bool) {
        var string = string
        string.withUTF8 { bytes in
            var start = 0
            for (index, byte) in bytes.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x08 where shortFormFeeds: append("\\b")
                case 0x0C where shortFormFeeds: append("\\f")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                default:
                    append("\\u00")
                    append(Self.hexDigit(byte >> 4))
                    append(Self.hexDigit(byte & 0xF))
                }
                start = index + 1
            }
            append(UnsafeBufferPointer(rebasing: bytes[start...]))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
