/// Text from a source file (product IDs, group names, the file's name) written into code: as a
/// string literal that means exactly that text, or inside a comment it cannot end.
enum CodeText {
    /// How a language writes a string literal.
    enum Literal {
        /// `"…"` with `\u{…}` (Swift).
        case swift
        /// `"…"` with `\$` and UTF-16 `\uXXXX` (Kotlin).
        case kotlin
        /// `'…'` with `\$` and `\u{…}` (Dart).
        case dart
        /// `'…'` with UTF-16 `\uXXXX`, which every ECMAScript version reads (TypeScript).
        case typeScript
    }

    /// Whether a character is written escaped in a literal and as `\u{…}` in a comment: controls,
    /// line and paragraph separators, format characters (bidirectional overrides, zero-width
    /// joiners), spaces other than U+0020, private-use, surrogate and unassigned code points.
    static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator, .privateUse, .surrogate, .unassigned: return true
        case .spaceSeparator: return scalar != " "
        default: return false
        }
    }

    static func literal(_ text: String, _ language: Literal) -> String {
        let quote: Unicode.Scalar = language == .swift || language == .kotlin ? "\"" : "'"
        var result = String(quote)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case quote: result += "\\" + String(quote)
            case "$" where language == .kotlin || language == .dart: result += "\\$"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isInvisible(scalar):
                switch language {
                case .swift, .dart: result += "\\u{\(hex(scalar.value))}"
                case .kotlin, .typeScript: result += String(scalar).utf16.map { "\\u" + hex(UInt32($0), digits: 4) }.joined()
                }
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + String(quote)
    }

    /// The text on one comment line, safe in `//`, `///` and `/** … */` comments of every
    /// language written: invisible characters as `\u{…}`, and no `*/` to end a block comment or
    /// `/*` to open a nested one (Kotlin nests them).
    static func comment(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            if isInvisible(scalar) {
                result += "\\u{\(hex(scalar.value))}"
            } else if scalar == "/", result.unicodeScalars.last == "*" {
                result += " /"
            } else if scalar == "*", result.unicodeScalars.last == "/" {
                result += " *"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func hex(_ value: UInt32, digits: Int = 1) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
