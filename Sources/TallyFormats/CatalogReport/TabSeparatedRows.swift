import Foundation
import TallyModel

/// The rows of a tab-separated text file, each field with the line and column it starts at.
///
/// App Store Connect writes its catalog reports as tab-delimited text with a header row. What a
/// spreadsheet makes of such a file is read too: a UTF-8 byte order mark is skipped, a UTF-16
/// file (Excel's "Unicode Text") is decoded, `\r\n` and `\r` end lines like `\n`, and a field that
/// starts with a double quote runs to the closing quote (tabs and line breaks inside it are
/// text, `""` is one quote). A quote anywhere else is an ordinary character. Blank lines are skipped.
struct TabSeparatedRows {
    struct Field {
        var text: String
        var position: Position
    }

    struct Row {
        var fields: [Field]
        /// The line the row starts on.
        var line: Int

        /// The field at `index`, or an empty one (placed after the row's last field) past its end.
        func field(_ index: Int?) -> Field? {
            guard let index else { return nil }
            if index < fields.count { return fields[index] }
            return nil
        }
    }

    let rows: [Row]

    init(bytes: [UInt8], file: String) throws {
        let utf8 = try Self.utf8(bytes, file: file)
        rows = try Self.split(utf8, file: file)
    }

    /// The file as UTF-8 bytes without a byte order mark.
    private static func utf8(_ bytes: [UInt8], file: String) throws -> [UInt8] {
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            guard bytes.count % 2 == 0, let text = String(data: Data(bytes), encoding: .utf16) else {
                throw FormatError("the file starts as UTF-16 (Excel's \"Unicode Text\") but is not valid UTF-16; save it as UTF-8 text",
                                  file: file, position: Position(line: 1, column: 1))
            }
            return Array(text.utf8)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return Array(bytes[3...]) }
        return bytes
    }

    private static func split(_ bytes: [UInt8], file: String) throws -> [Row] {
        var rows: [Row] = []
        var fields: [Field] = []
        var line = 1, lineStart = 0, rowLine = 1
        var index = 0
        let count = bytes.count
        let quote = UInt8(ascii: "\""), tab = UInt8(ascii: "\t")

        // The last column computed, so that a long line is counted once.
        var counted = (offset: 0, column: 1)
        func column(_ offset: Int) -> Int {
            // Characters, not bytes: UTF-8 continuation bytes do not start one.
            if counted.offset < lineStart || counted.offset > offset { counted = (lineStart, 1) }
            var probe = counted.offset, characters = counted.column
            while probe < offset {
                if bytes[probe] & 0xC0 != 0x80 { characters += 1 }
                probe += 1
            }
            counted = (offset, characters)
            return characters
        }
        func text(_ slice: ArraySlice<UInt8>, at position: Position) throws -> String {
            guard let text = String(validating: slice, as: UTF8.self) else {
                throw FormatError("the text is not valid UTF-8 (nor UTF-16 with a byte order mark); save the report as UTF-8 text",
                                  file: file, position: position)
            }
            return text
        }
        /// Consumes a line break at `index`, if one is there.
        func lineBreak() -> Bool {
            guard index < count else { return false }
            if bytes[index] == 0x0A { index += 1 } else if bytes[index] == 0x0D {
                index += index + 1 < count && bytes[index + 1] == 0x0A ? 2 : 1
            } else {
                return false
            }
            line += 1
            lineStart = index
            return true
        }

        while index < count {
            let position = Position(line: line, column: column(index))
            if fields.isEmpty { rowLine = line }
            if bytes[index] == quote {
                // A quoted field: to the closing quote, doubled quotes standing for one.
                var value: [UInt8] = []
                index += 1
                var closed = false
                while index < count {
                    let byte = bytes[index]
                    if byte == quote {
                        if index + 1 < count, bytes[index + 1] == quote {
                            value.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    if byte == 0x0A || byte == 0x0D {
                        value.append(0x0A)
                        _ = lineBreak()
                        continue
                    }
                    value.append(byte)
                    index += 1
                }
                guard closed else {
                    throw FormatError("a quoted field is never closed (its closing '\"' is missing)", file: file, position: position)
                }
                if index < count, bytes[index] != tab, bytes[index] != 0x0A, bytes[index] != 0x0D {
                    throw FormatError("text follows the closing quote of a quoted field (a quote inside a quoted field is written twice: \"\")",
                                      file: file, position: Position(line: line, column: column(index)))
                }
                fields.append(Field(text: try text(value[...], at: position), position: position))
            } else {
                let start = index
                while index < count, bytes[index] != tab, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
                fields.append(Field(text: try text(bytes[start..<index], at: position), position: position))
            }
            if index < count, bytes[index] == tab {
                index += 1
                if index == count || bytes[index] == 0x0A || bytes[index] == 0x0D {
                    // A tab ends the line: the last field is empty.
                    fields.append(Field(text: "", position: Position(line: line, column: column(index))))
                }
                if index < count, bytes[index] != 0x0A, bytes[index] != 0x0D { continue }
            }
            _ = lineBreak()
            if !(fields.count == 1 && fields[0].text.allSatisfy({ $0 == " " })) {
                rows.append(Row(fields: fields, line: rowLine))
            }
            fields = []
        }
        if !fields.isEmpty { rows.append(Row(fields: fields, line: rowLine)) }
        return rows
    }
}
