import Foundation

/// A document to write: ordered keys, literal numbers, and comments for YAML. The writers build
/// one and render it, so that JSON, YAML and Xcode's JSON all come from the same values.
indirect enum OutputValue: Sendable, Equatable {
    case object([OutputMember])
    case array([OutputValue])
    case string(String)
    /// A number written as this text, unquoted (`1`, `0`).
    case number(String)
    case bool(Bool)
    case null
}

/// One key of an object, with an optional comment written above it in YAML.
struct OutputMember: Sendable, Equatable {
    var key: String
    var value: OutputValue
    var comment: String?

    init(_ key: String, _ value: OutputValue, comment: String? = nil) {
        self.key = key
        self.value = value
        self.comment = comment
    }
}

/// JSON text.
enum JSONText {
    enum Style {
        /// `"key": value`, short objects and lists of scalars kept on one line.
        case catalog
        /// Xcode's StoreKit style: `"key" : value`, every value on its own line, empty arrays as
        /// `[\n\n  ]` and empty objects as `{\n\n  }`.
        case xcode
    }

    static func render(_ value: OutputValue, style: Style) -> String {
        var text = ""
        write(value, indent: 0, style: style, into: &text)
        text += "\n"
        return text
    }

    private static func write(_ value: OutputValue, indent: Int, style: Style, into text: inout String) {
        let pad = String(repeating: " ", count: indent)
        let inner = String(repeating: " ", count: indent + 2)
        let colon = style == .xcode ? " : " : ": "
        switch value {
        case .object(let members):
            if members.isEmpty {
                text += style == .xcode ? "{\n\n\(pad)}" : "{}"
                return
            }
            if style == .catalog, let inline = inlineObject(members) {
                text += inline
                return
            }
            text += "{\n"
            for (index, member) in members.enumerated() {
                text += inner + quoted(member.key) + colon
                write(member.value, indent: indent + 2, style: style, into: &text)
                text += index == members.count - 1 ? "\n" : ",\n"
            }
            text += pad + "}"
        case .array(let elements):
            if elements.isEmpty {
                text += style == .xcode ? "[\n\n\(pad)]" : "[]"
                return
            }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += inner
                write(element, indent: indent + 2, style: style, into: &text)
                text += index == elements.count - 1 ? "\n" : ",\n"
            }
            text += pad + "]"
        case .string(let string): text += quoted(string)
        case .number(let literal): text += literal
        case .bool(let flag): text += flag ? "true" : "false"
        case .null: text += "null"
        }
    }

    /// `{"USA": "0.99", "JPN": "160"}` for an object of scalars that fits on a line.
    private static func inlineObject(_ members: [OutputMember]) -> String? {
        var parts: [String] = []
        for member in members {
            switch member.value {
            case .object, .array: return nil
            case let scalar:
                var text = ""
                write(scalar, indent: 0, style: .catalog, into: &text)
                parts.append("\(quoted(member.key)): \(text)")
            }
        }
        let line = "{" + parts.joined(separator: ", ") + "}"
        return line.count <= 100 ? line : nil
    }

    /// A JSON string literal; `/` is left alone, control characters escaped.
    static func quoted(_ string: String) -> String {
        var text = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let other where other.value < 0x20:
                text += String(format: "\\u%04x", other.value)
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}

/// YAML text in block style, with comments; scalars in flow style where short.
enum YAMLText {
    static func render(_ value: OutputValue, header: [String] = []) -> String {
        var text = header.map { "# \($0)\n" }.joined()
        guard case .object(let members) = value else { return text + scalar(value) + "\n" }
        writeMembers(members, indent: 0, into: &text, topLevel: true)
        return text
    }

    private static func writeMembers(_ members: [OutputMember], indent: Int, into text: inout String, topLevel: Bool = false) {
        let pad = String(repeating: " ", count: indent)
        for (index, member) in members.enumerated() {
            if topLevel, index > 0, case .array = member.value { text += "\n" }
            if let comment = member.comment {
                for line in comment.split(separator: "\n", omittingEmptySubsequences: false) { text += "\(pad)# \(line)\n" }
            }
            text += pad + key(member.key) + ":"
            writeValue(member.value, indent: indent, into: &text)
        }
    }

    /// The value after `key:` (or after `- `), ending with a newline.
    private static func writeValue(_ value: OutputValue, indent: Int, into text: inout String) {
        switch value {
        case .object(let members):
            if let flow = flow(value), flow.count + indent <= 110 {
                text += " \(flow)\n"
            } else {
                text += "\n"
                writeMembers(members, indent: indent + 2, into: &text)
            }
        case .array(let elements):
            if elements.isEmpty {
                text += " []\n"
                return
            }
            if let flow = flow(value), flow.count + indent <= 110, elements.allSatisfy(isScalar) {
                text += " \(flow)\n"
                return
            }
            text += "\n"
            let pad = String(repeating: " ", count: indent + 2)
            for element in elements {
                if case .object(let members) = element, !members.isEmpty, flow(element).map({ $0.count + indent > 90 }) ?? true {
                    // `- id: ...` with the rest of the object indented under it.
                    text += pad + "- "
                    var body = ""
                    writeMembers(members, indent: indent + 4, into: &body)
                    text += String(body.dropFirst(indent + 4))
                } else {
                    text += pad + "-"
                    writeValue(element, indent: indent + 2, into: &text)
                }
            }
        default:
            text += " " + scalar(value) + "\n"
        }
    }

    private static func isScalar(_ value: OutputValue) -> Bool {
        switch value {
        case .object, .array: return false
        default: return true
        }
    }

    /// `{name: "100 Coins", description: "..."}` or `[a, b]`, when every member is a scalar.
    private static func flow(_ value: OutputValue) -> String? {
        switch value {
        case .object(let members):
            var parts: [String] = []
            for member in members {
                guard isScalar(member.value), member.comment == nil else { return nil }
                parts.append("\(key(member.key)): \(scalar(member.value))")
            }
            return "{" + parts.joined(separator: ", ") + "}"
        case .array(let elements):
            guard elements.allSatisfy(isScalar) else { return nil }
            return "[" + elements.map(scalar).joined(separator: ", ") + "]"
        default:
            return nil
        }
    }

    private static func key(_ key: String) -> String {
        isPlain(key) ? key : JSONText.quoted(key)
    }

    static func scalar(_ value: OutputValue) -> String {
        switch value {
        case .string(let string): return isPlain(string) ? string : JSONText.quoted(string)
        case .number(let literal): return literal
        case .bool(let flag): return flag ? "true" : "false"
        case .null: return "null"
        case .object, .array: return ""
        }
    }

    /// Whether a string can be written without quotes and still read back as the same string:
    /// letters, digits, single spaces and `._-/()` only, not starting with a digit, `-` or `.`, and not a word
    /// YAML reads as something else (`true`, `null`, `yes`, ...).
    static func isPlain(_ string: String) -> Bool {
        guard let first = string.unicodeScalars.first, !reserved.contains(string.lowercased()) else { return false }
        guard first.isASCII, CharacterSet.letters.contains(first) || first == "_", string.last != " ", !string.contains("  ") else { return false }
        return string.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "._-/ ()".unicodeScalars.contains(scalar))
        }
    }

    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"]
}
