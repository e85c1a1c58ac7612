/// Escaping for markup (XML 1.0 and HTML): one loop, the two languages differ only in the
/// apostrophe's entity and in which characters become character references.
enum MarkupText {
    /// Escapes markup characters and shows control characters visibly.
    ///
    /// `& < > "` become entities and `'` becomes `apostrophe`. A scalar in `references` becomes
    /// its reference; other tabs and newlines stay as they are. Other control characters (C0,
    /// DEL, C1), and scalars `alsoVisible` names, become a visible `\u{1B}`.
    static func escape(_ text: String, apostrophe: String, references: [Unicode.Scalar: String] = [:],
                       alsoVisible: (Unicode.Scalar) -> Bool = { _ in false }) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += apostrophe
            default:
                if let reference = references[scalar] {
                    out += reference
                } else if scalar != "\t", scalar != "\n", FindingText.isControl(scalar) || alsoVisible(scalar) {
                    out += FindingText.escaped(scalar)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}

/// Escaping for XML 1.0 text and attribute values.
enum XMLText {
    /// Escapes markup characters and makes every character legal XML.
    ///
    /// `& < > " '` become entities. Control characters XML cannot hold (and the discouraged DEL
    /// and C1 controls) become a visible `\u{1B}`, as do U+FFFE and U+FFFF. In attributes, tab,
    /// newline and carriage return become character references so parsers keep them.
    static func escape(_ text: String, attribute: Bool = false) -> String {
        MarkupText.escape(text, apostrophe: "&apos;",
                          references: attribute ? ["\r": "&#13;", "\n": "&#10;", "\t": "&#9;"] : ["\r": "&#13;"],
                          alsoVisible: { $0.value == 0xFFFE || $0.value == 0xFFFF })
    }
}
