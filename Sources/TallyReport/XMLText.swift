/// Escaping for XML 1.0 text and attribute values.
enum XMLText {
    /// Escapes markup characters and makes every character legal XML.
    ///
    /// `& < > " '` become entities. Control characters XML cannot hold (and the discouraged DEL
    /// and C1 controls) become a visible `\u{1B}`, as do U+FFFE and U+FFFF. In attributes, tab,
    /// newline and carriage return become character references so parsers keep them.
    static func escape(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\r": out += "&#13;"
            case "\n": out += attribute ? "&#10;" : "\n"
            case "\t": out += attribute ? "&#9;" : "\t"
            default:
                if FindingText.isControl(scalar) || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += FindingText.escaped(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
