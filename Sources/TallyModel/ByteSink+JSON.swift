extension ByteSink {
    /// Appends `string` as a JSON string literal: `"` and `\` escaped, `\n \r \t` (and, with
    /// `shortFormFeeds`, `\b \f` as Foundation's encoder writes them), other control characters
    /// as `\u00XX`; `/` and everything else as it is.
    public mutating func appendJSONString(_ string: String, shortFormFeeds: Bool = false) {
        var string = string
        string.withUTF8 { bytes in
            append(UInt8(ascii: "\""))
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
            append(UInt8(ascii: "\""))
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
