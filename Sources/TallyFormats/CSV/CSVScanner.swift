import Foundation
import TallyModel

/// A streaming CSV reader over raw bytes: one record at a time, each field with the line and
/// column it starts at, holding only a window of the file (the largest record decides its size).
///
/// The dialect is the one spreadsheets write (RFC 4180): fields in double quotes may hold
/// separators, line breaks and doubled quotes; a UTF-8 byte order mark is skipped; `\n`, `\r\n`
/// and `\r` end a line. Blank space before a field and after a closing quote is not part of
/// it. The separator is the first `,`, `;` or tab on the first line outside quotes (`,` when
/// there is none). Rows are numbered as a spreadsheet shows them, blank lines included.
struct CSVScanner {
    let file: String
    let delimiter: UInt8
    private let input: CSVWindow
    /// Where the next record starts in the window, and its line.
    private var next = 0
    private var line = 1
    private var rowNumber = 0
    /// The record read last; its fields point into the window until the next call to `advance()`.
    private(set) var record = CSVRecord()

    /// Reads a file as a stream.
    init(path: String, file: String, chunkSize: Int = 1 << 20) throws {
        try self.init(input: CSVWindow(path: path, file: file, chunkSize: chunkSize), file: file)
    }

    /// Reads bytes already in memory.
    init(bytes: [UInt8], file: String) throws {
        try self.init(input: CSVWindow(bytes: bytes, file: file), file: file)
    }

    private init(input: CSVWindow, file: String) throws {
        self.input = input
        self.file = file
        // Enough of the head to see a byte order mark and the first line (where the separator is
        // guessed), and no more: the rest streams.
        while !input.atEnd, input.count < 4096, !Self.holdsLineBreak(input), try input.refill(dropping: 0) {}
        let head = UnsafeBufferPointer(start: input.base, count: input.count)
        if head.count >= 2, (head[0] == 0xFF && head[1] == 0xFE) || (head[0] == 0xFE && head[1] == 0xFF) {
            throw FormatError("the file is UTF-16 encoded; save it as UTF-8 CSV", file: file, position: Position(line: 1, column: 1))
        }
        if head.count >= 3, head[0] == 0xEF, head[1] == 0xBB, head[2] == 0xBF { next = 3 }
        delimiter = Self.guessDelimiter(UnsafeBufferPointer(rebasing: head[next...]))
    }

    private static func holdsLineBreak(_ input: CSVWindow) -> Bool {
        UnsafeBufferPointer(start: input.base, count: input.count).contains { $0 == 0x0A || $0 == 0x0D }
    }

    /// The first `,`, `;` or tab outside quotes on the first line that is not blank.
    static func guessDelimiter(_ head: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var index = 0
        while index < head.count, [0x20, 0x0A, 0x0D].contains(head[index]) { index += 1 }
        var quoted = false
        while index < head.count {
            let byte = head[index]
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if !quoted {
                if byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "\t") { return byte }
                if byte == 0x0A || byte == 0x0D { break }
            }
            index += 1
        }
        return UInt8(ascii: ",")
    }

    /// Reads the next record into `record`; false at the end of the file.
    mutating func advance() throws -> Bool {
        while true {
            if next >= input.count {
                if input.atEnd { return false }
                _ = try input.refill(dropping: next)
                next = 0
                continue
            }
            if try parse(from: next) { return true }
            // The record runs past the window (which is never at the end here): keep it, read on,
            // and parse it again from its start.
            _ = try input.refill(dropping: next)
            next = 0
        }
    }

    private enum Outcome { case field, record, more }

    /// Parses one record starting at `start`; false when the window ends before the record does.
    private mutating func parse(from start: Int) throws -> Bool {
        let bytes = input.base, count = input.count, atEnd = input.atEnd
        let delimiter = self.delimiter
        let quote = UInt8(ascii: "\"")
        var index = start
        var lineNumber = line
        var lineStart = start
        var lastLine = line
        record.fields.removeAll(keepingCapacity: true)

        @inline(__always) func isBlank(_ byte: UInt8) -> Bool { (byte == 0x20 || byte == 0x09) && byte != delimiter }

        fields: while true {
            let cell = index
            while index < count, isBlank(bytes[index]) { index += 1 }
            var field = CSVRecord.Field(cell: cell, start: index, end: index, lineStart: lineStart, line: lineNumber, escaped: false)
            if index < count, bytes[index] == quote {
                index += 1
                field.start = index
                while true {
                    while index < count, bytes[index] != quote {
                        let byte = bytes[index]
                        if byte == 0x0A || (byte == 0x0D && index + 1 < count && bytes[index + 1] != 0x0A) {
                            lineNumber += 1
                            lineStart = index + 1
                        } else if byte == 0x0D, index + 1 == count, !atEnd {
                            return false
                        }
                        index += 1
                    }
                    if index == count {
                        guard atEnd else { return false }
                        throw FormatError("row \(rowNumber + 1): a quoted field is never closed (its closing '\"' is missing)",
                                          file: file, position: position(of: field))
                    }
                    if index + 1 == count, !atEnd { return false }
                    if index + 1 < count, bytes[index + 1] == quote {
                        field.escaped = true
                        index += 2
                        continue
                    }
                    break
                }
                field.end = index
                index += 1
                while index < count, isBlank(bytes[index]) { index += 1 }
                if index == count, !atEnd { return false }
                if index < count, bytes[index] != delimiter, bytes[index] != 0x0A, bytes[index] != 0x0D {
                    throw quoteOutOfPlace(field)
                }
            } else {
                while index < count {
                    let byte = bytes[index]
                    if byte == delimiter || byte == 0x0A || byte == 0x0D { break }
                    if byte == quote {
                        // A doubled quote inside an unquoted field is a quote; a single one is out of place.
                        if index + 1 == count, !atEnd { return false }
                        guard index + 1 < count, bytes[index + 1] == quote else { throw quoteOutOfPlace(field) }
                        field.escaped = true
                        index += 1
                    }
                    index += 1
                }
                if index == count, !atEnd { return false }
                field.end = index
            }
            record.fields.append(field)
            // What ends the field: a separator, a line break, or the end of the file.
            lastLine = lineNumber
            if index == count { break fields }
            let byte = bytes[index]
            if byte == delimiter {
                index += 1
                if index == count, !atEnd { return false }
                continue fields
            }
            if byte == 0x0D {
                if index + 1 == count, !atEnd { return false }
                index += index + 1 < count && bytes[index + 1] == 0x0A ? 2 : 1
            } else {
                index += 1
            }
            lineNumber += 1
            break fields
        }
        var high: UInt8 = 0
        for offset in start..<index { high |= bytes[offset] }
        rowNumber += 1
        record.base = UnsafePointer(bytes)
        record.number = rowNumber
        record.line = line
        record.lastLine = lastLine
        record.ascii = high < 0x80
        if !record.ascii, String(validating: UnsafeBufferPointer(start: bytes + start, count: index - start), as: UTF8.self) == nil {
            throw FormatError("row \(rowNumber) is not valid UTF-8; save the file as UTF-8 CSV", file: file,
                              position: Position(line: line, column: 1))
        }
        line = lineNumber
        next = index
        return true
    }

    private func quoteOutOfPlace(_ field: CSVRecord.Field) -> FormatError {
        FormatError("row \(rowNumber + 1): a quote is out of place (a field that holds a quote must be quoted, and the quote doubled: \"say \"\"hi\"\"\")",
                    file: file, position: position(of: field))
    }

    /// Where a field of a record still being read starts (its bytes not yet checked as ASCII).
    private func position(of field: CSVRecord.Field) -> Position {
        var probe = CSVRecord()
        probe.base = UnsafePointer(input.base)
        probe.ascii = false
        return probe.position(field)
    }
}

/// One record of a CSV file: its fields as byte ranges in the scanner's window (valid until the
/// scanner advances), with where each starts.
struct CSVRecord {
    struct Field {
        /// Where the cell starts (after the separator), for its column.
        var cell: Int
        /// The field's bytes, without surrounding quotes or leading blanks.
        var start: Int
        var end: Int
        /// Where the line the cell is on starts, and its number.
        var lineStart: Int
        var line: Int
        /// Holds doubled quotes that stand for one.
        var escaped: Bool
    }

    fileprivate(set) var base = UnsafePointer<UInt8>(bitPattern: 1)!
    fileprivate(set) var fields: [Field] = []
    /// 1-based row number as a spreadsheet shows it (the header is row 1; blank lines count).
    fileprivate(set) var number = 0
    /// The lines the record starts and ends on (they differ after a line break inside quotes).
    fileprivate(set) var line = 0
    fileprivate(set) var lastLine = 0
    /// Every byte of the record is ASCII (so a column is a byte offset).
    fileprivate(set) var ascii = true

    var count: Int { fields.count }

    /// A blank line (or one holding only blanks): no values at all.
    var isBlank: Bool { fields.count == 1 && fields[0].start == fields[0].end }

    /// The field's text, trimmed of white space; "" past the end of the record.
    func text(_ index: Int) -> String {
        guard index < fields.count else { return "" }
        if let text = withTrimmedASCIIEdges(index, { String(decoding: $0, as: UTF8.self) }) { return text }
        return untrimmed(index).trimmingCharacters(in: .whitespaces)
    }

    /// The field without trimming (doubled quotes made single).
    func untrimmed(_ index: Int) -> String {
        guard index < fields.count else { return "" }
        let field = fields[index]
        let raw = UnsafeBufferPointer(start: base + field.start, count: field.end - field.start)
        guard field.escaped else { return String(decoding: raw, as: UTF8.self) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var offset = 0
        while offset < raw.count {
            bytes.append(raw[offset])
            offset += raw[offset] == UInt8(ascii: "\"") && offset + 1 < raw.count && raw[offset + 1] == UInt8(ascii: "\"") ? 2 : 1
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with the field's trimmed bytes (empty past the end of the record).
    @inline(__always)
    func withTrimmedBytes<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        guard index < fields.count else { return try body(UnsafeBufferPointer(start: base, count: 0)) }
        if let result = try withTrimmedASCIIEdges(index, body) { return result }
        var text = text(index)
        return try text.withUTF8(body)
    }

    /// The fast path: a field without doubled quotes whose trimmed ends are ASCII (then trimming
    /// spaces and tabs is all `.whitespaces` would do). Nil otherwise.
    @inline(__always)
    private func withTrimmedASCIIEdges<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        let field = fields[index]
        guard !field.escaped else { return nil }
        var start = field.start, end = field.end
        while start < end, base[start] == 0x20 || base[start] == 0x09 { start += 1 }
        while end > start, base[end - 1] == 0x20 || base[end - 1] == 0x09 { end -= 1 }
        if start < end, base[start] >= 0x80 || base[end - 1] >= 0x80 { return nil }
        return try body(UnsafeBufferPointer(start: base + start, count: end - start))
    }

    /// Where a cell is: the line it starts on and its column there (in characters).
    func position(_ index: Int) -> Position {
        guard index < fields.count else { return Position(line: line, column: 1) }
        return position(fields[index])
    }

    /// Where a field's text starts: after an opening quote and leading blanks, where `untrimmed`
    /// begins. Offsets into that text then give the position of a part of the cell.
    func textPosition(_ index: Int) -> Position {
        guard index < fields.count else { return Position(line: line, column: 1) }
        let field = fields[index]
        var line = field.line
        var lineStart = field.lineStart
        for offset in field.cell..<field.start where base[offset] == UInt8(ascii: "\n") {
            line += 1
            lineStart = offset + 1
        }
        let prefix = UnsafeBufferPointer(start: base + lineStart, count: field.start - lineStart)
        let column = ascii ? prefix.count + 1 : String(decoding: prefix, as: UTF8.self).count + 1
        return Position(line: line, column: column)
    }

    fileprivate func position(_ field: Field) -> Position {
        if ascii { return Position(line: field.line, column: field.cell - field.lineStart + 1) }
        let prefix = UnsafeBufferPointer(start: base + field.lineStart, count: field.cell - field.lineStart)
        return Position(line: field.line, column: String(decoding: prefix, as: UTF8.self).count + 1)
    }
}
