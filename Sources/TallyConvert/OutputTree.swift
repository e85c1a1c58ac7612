import Foundation
import TallyModel

/// A piece of a document to write: ordered keys, literal numbers, and comments for YAML. The
/// writers build one per product (or per group) and render it into a `ByteSink` at once, so that
/// JSON, YAML and Xcode's JSON all come from the same values and no tree of a whole file is held.
indirect enum OutputValue: Sendable, Equatable {
    case object([OutputMember])
    case array([OutputValue])
    case string(String)
    /// A number written as this text, unquoted (`1`, `0`).
    case number(String)
    case bool(Bool)
    case null

    var isScalar: Bool {
        switch self {
        case .object, .array: return false
        default: return true
        }
    }
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

    static func write(_ value: OutputValue, indent: Int, style: Style, to sink: inout ByteSink) {
        switch value {
        case .object(let members):
            if members.isEmpty {
                if style == .xcode {
                    sink.append("{\n\n")
                    sink.pad(indent)
                    sink.append("}")
                } else {
                    sink.append("{}")
                }
                return
            }
            if style == .catalog, inlineObject(members, to: &sink) { return }
            sink.append("{\n")
            for (index, member) in members.enumerated() {
                sink.pad(indent + 2)
                appendQuoted(member.key, to: &sink)
                sink.append(style == .xcode ? " : " : ": ")
                write(member.value, indent: indent + 2, style: style, to: &sink)
                sink.append(index == members.count - 1 ? "\n" : ",\n")
            }
            sink.pad(indent)
            sink.append("}")
        case .array(let elements):
            if elements.isEmpty {
                if style == .xcode {
                    sink.append("[\n\n")
                    sink.pad(indent)
                    sink.append("]")
                } else {
                    sink.append("[]")
                }
                return
            }
            sink.append("[\n")
            for (index, element) in elements.enumerated() {
                sink.pad(indent + 2)
                write(element, indent: indent + 2, style: style, to: &sink)
                sink.append(index == elements.count - 1 ? "\n" : ",\n")
            }
            sink.pad(indent)
            sink.append("]")
        case .string(let string): appendQuoted(string, to: &sink)
        case .number(let literal): sink.append(utf8: literal)
        case .bool(let flag): sink.append(flag ? "true" : "false")
        case .null: sink.append("null")
        }
    }

    /// `{"USA": "0.99", "JPN": "160"}` for an object of scalars that fits on a line (100
    /// characters); false, with nothing written, otherwise.
    private static func inlineObject(_ members: [OutputMember], to sink: inout ByteSink) -> Bool {
        let mark = sink.count
        sink.append("{")
        for (index, member) in members.enumerated() {
            guard member.value.isScalar else {
                sink.removeAll(after: mark)
                return false
            }
            if index > 0 { sink.append(", ") }
            appendQuoted(member.key, to: &sink)
            sink.append(": ")
            write(member.value, indent: 0, style: .catalog, to: &sink)
            // Characters only add up: a line already too long stays too long.
            if sink.count - mark > 100, sink.characterCount(after: mark) > 100 {
                sink.removeAll(after: mark)
                return false
            }
        }
        sink.append("}")
        if sink.count - mark > 100, sink.characterCount(after: mark) > 100 {
            sink.removeAll(after: mark)
            return false
        }
        return true
    }

    /// A JSON string literal; `/` is left alone, control characters escaped.
    static func quoted(_ string: String) -> String {
        var sink = ByteSink()
        appendQuoted(string, to: &sink)
        return sink.text
    }

    static func appendQuoted(_ string: String, to sink: inout ByteSink) {
        sink.appendJSONString(string, escapingInvisible: true)
    }
}

/// YAML text in block style, with comments; scalars in flow style where short.
enum YAMLText {
    static func writeHeader(_ header: [String], to sink: inout ByteSink) {
        for line in header {
            sink.append("# ")
            sink.append(utf8: SafeText.line(line))
            sink.append("\n")
        }
    }

    /// Members at `indent`; with `omittingFirstPad`, the first line's indentation is left out
    /// (it follows `- ` on the line before).
    static func writeMembers(_ members: [OutputMember], indent: Int, to sink: inout ByteSink,
                             topLevel: Bool = false, omittingFirstPad: Bool = false) {
        var omitPad = omittingFirstPad
        for (index, member) in members.enumerated() {
            writeMember(member, indent: indent, to: &sink, blankLineBefore: topLevel && index > 0, omitPad: &omitPad)
        }
    }

    /// `key: value`, after a blank line for a top-level list that is not the first member.
    static func writeMember(_ member: OutputMember, indent: Int, to sink: inout ByteSink, blankLineBefore: Bool) {
        var omitPad = false
        writeMember(member, indent: indent, to: &sink, blankLineBefore: blankLineBefore, omitPad: &omitPad)
    }

    private static func writeMember(_ member: OutputMember, indent: Int, to sink: inout ByteSink, blankLineBefore: Bool, omitPad: inout Bool) {
        if blankLineBefore, case .array = member.value { sink.append("\n") }
        if let comment = member.comment {
            for line in comment.split(separator: "\n", omittingEmptySubsequences: false) {
                if omitPad { omitPad = false } else { sink.pad(indent) }
                sink.append("# ")
                sink.append(utf8: String(line))
                sink.append("\n")
            }
        }
        if omitPad { omitPad = false } else { sink.pad(indent) }
        appendKey(member.key, to: &sink)
        sink.append(":")
        writeValue(member.value, indent: indent, to: &sink)
    }

    /// The value after `key:` (or after `- `), ending with a newline.
    static func writeValue(_ value: OutputValue, indent: Int, to sink: inout ByteSink) {
        switch value {
        case .object(let members):
            if appendFlow(value, prefix: " ", limit: 110 - indent, to: &sink) {
                sink.append("\n")
            } else {
                sink.append("\n")
                writeMembers(members, indent: indent + 2, to: &sink)
            }
        case .array(let elements):
            if elements.isEmpty {
                sink.append(" []\n")
                return
            }
            if appendFlow(value, prefix: " ", limit: 110 - indent, to: &sink) {
                sink.append("\n")
                return
            }
            sink.append("\n")
            for element in elements { writeElement(element, indent: indent, to: &sink) }
        default:
            sink.append(" ")
            appendScalar(value, to: &sink)
            sink.append("\n")
        }
    }

    /// One element of a block list under a key at `indent`.
    static func writeElement(_ element: OutputValue, indent: Int, to sink: inout ByteSink) {
        if case .object(let members) = element, !members.isEmpty {
            // On one line when it fits in 90 characters; else `- id: ...` with the rest of the object indented under it.
            let mark = sink.count
            sink.pad(indent + 2)
            sink.append("-")
            if appendFlow(element, prefix: " ", limit: 90 - indent, to: &sink) {
                sink.append("\n")
                return
            }
            sink.removeAll(after: mark)
            sink.pad(indent + 2)
            sink.append("- ")
            writeMembers(members, indent: indent + 4, to: &sink, omittingFirstPad: true)
        } else {
            sink.pad(indent + 2)
            sink.append("-")
            writeValue(element, indent: indent + 2, to: &sink)
        }
    }

    /// `prefix` and `{name: "100 Coins", description: "..."}` or `[a, b]`, when every member is
    /// a scalar (and has no comment) and the flow text is at most `limit` characters; false, with
    /// nothing written, otherwise.
    private static func appendFlow(_ value: OutputValue, prefix: StaticString, limit: Int, to sink: inout ByteSink) -> Bool {
        let outer = sink.count
        sink.append(prefix)
        let mark = sink.count
        func tooLong() -> Bool { sink.count - mark > limit && sink.characterCount(after: mark) > limit }
        switch value {
        case .object(let members):
            sink.append("{")
            for (index, member) in members.enumerated() {
                guard member.value.isScalar, member.comment == nil, !tooLong() else {
                    sink.removeAll(after: outer)
                    return false
                }
                if index > 0 { sink.append(", ") }
                appendKey(member.key, to: &sink)
                sink.append(": ")
                appendScalar(member.value, to: &sink)
            }
            sink.append("}")
        case .array(let elements):
            sink.append("[")
            for (index, element) in elements.enumerated() {
                guard element.isScalar, !tooLong() else {
                    sink.removeAll(after: outer)
                    return false
                }
                if index > 0 { sink.append(", ") }
                appendScalar(element, to: &sink)
            }
            sink.append("]")
        default:
            sink.removeAll(after: outer)
            return false
        }
        if tooLong() {
            sink.removeAll(after: outer)
            return false
        }
        return true
    }

    static func appendKey(_ key: String, to sink: inout ByteSink) {
        if isPlain(key) { sink.append(utf8: key) } else { JSONText.appendQuoted(key, to: &sink) }
    }

    static func appendScalar(_ value: OutputValue, to sink: inout ByteSink) {
        switch value {
        case .string(let string): if isPlain(string) { sink.append(utf8: string) } else { JSONText.appendQuoted(string, to: &sink) }
        case .number(let literal): sink.append(utf8: literal)
        case .bool(let flag): sink.append(flag ? "true" : "false")
        case .null: sink.append("null")
        case .object, .array: break
        }
    }

    /// Whether a string can be written without quotes and still read back as the same string:
    /// letters, digits, single spaces and `._-/()` only, not starting with a digit, `-` or `.`, and not a word
    /// YAML reads as something else (`true`, `null`, `yes`, ...). ASCII only, so judged by byte.
    static func isPlain(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            guard let first = bytes.first, isLetter(first) || first == UInt8(ascii: "_"), bytes.last != UInt8(ascii: " ") else { return false }
            var previous: UInt8 = 0
            for byte in bytes {
                guard isLetter(byte) || (48...57).contains(byte) || plainPunctuation.contains(byte) else { return false }
                if byte == UInt8(ascii: " "), previous == byte { return false }
                previous = byte
            }
            guard bytes.count <= 5 else { return true }
            let lowered = String(decoding: bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
            return !reserved.contains(lowered)
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }

    private static let plainPunctuation: [UInt8] = Array("._-/ ()".utf8)

    private static let reserved: Set<String> = ["true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"]
}
