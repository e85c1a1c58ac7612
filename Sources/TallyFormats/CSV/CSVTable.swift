import Foundation
import SwiftCSV
import TallyModel

/// A CSV file parsed by SwiftCSV, with what the library does not keep: the line each row starts
/// on and the column each field starts at, so that every error and finding points at a cell.
///
/// Quoted fields (with separators, doubled quotes and line breaks inside), a UTF-8 byte order
/// mark, CRLF line ends and `;` or tab separators are handled; the separator is guessed from the
/// header line.
struct CSVTable {
    let file: String
    let header: [String]
    /// Where each header name starts on line 1.
    let headerColumns: [Int]
    /// Data rows (the header excluded); blank lines are left out.
    let rows: [Row]
    let delimiter: Character

    struct Row {
        /// 1-based row number as a spreadsheet shows it (the header is row 1).
        var number: Int
        /// The line the row starts on (differs from `number` after a field with a line break).
        var line: Int
        var fields: [String]
        /// Where each field starts on `line` (1-based column), when the row's start can be mapped.
        var columns: [Int]
    }

    init(bytes: [UInt8], file: String) throws {
        self.file = file
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            throw FormatError("the file is UTF-16 encoded; save it as UTF-8 CSV", file: file, position: Position(line: 1, column: 1))
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw FormatError("the file is not valid UTF-8; save it as UTF-8 CSV", file: file, position: Position(line: 1, column: 1))
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let delimiter = CSVDelimiter.guessed(string: text)
        self.delimiter = delimiter.rawValue
        let rawLines = Self.physicalLines(text)

        var parsed: [[String]] = []
        do {
            // rowLimit 0: SwiftCSV reads only the header here; the rows are streamed below.
            let csv = try EnumeratedCSV(string: text, delimiter: delimiter, loadColumns: false, rowLimit: 0)
            try csv.enumerateAsArray(startAt: 0, rowLimit: nil) { fields in parsed.append(fields) }
        } catch {
            let line = Self.linesUsed(by: parsed).reduce(1, +)
            throw FormatError("row \(parsed.count + 1): a quote is out of place (a field that holds a quote must be quoted, and the quote doubled: \"say \"\"hi\"\"\")",
                              file: file, position: Position(line: line, column: 1))
        }
        guard let first = parsed.first, first.contains(where: { !$0.isEmpty }) else {
            throw FormatError("the file has no header row (expected product_id,kind,... on the first line)",
                              file: file, position: Position(line: 1, column: 1))
        }
        header = first.map { $0.trimmingCharacters(in: .whitespaces) }
        headerColumns = Self.fieldColumns(rawLines.first ?? "", delimiter: delimiter.rawValue, count: first.count)
        var rows: [Row] = []
        var line = 1 + Self.linesUsed(by: [first])[0]
        for (offset, fields) in parsed.enumerated().dropFirst() {
            let used = Self.linesUsed(by: [fields])[0]
            defer { line += used }
            if fields.count == 1, fields[0].isEmpty { continue }
            let raw = line <= rawLines.count ? rawLines[line - 1] : ""
            let columns = used == 1 ? Self.fieldColumns(raw, delimiter: delimiter.rawValue, count: fields.count) : Array(repeating: 1, count: fields.count)
            rows.append(Row(number: offset + 1, line: line, fields: fields, columns: columns))
        }
        if text.filter({ $0 == "\"" }).count % 2 == 1 {
            let last = rows.last.map { Position(line: $0.line, column: 1) } ?? Position(line: 1, column: 1)
            throw FormatError("a quoted field is never closed: the file has an odd number of '\"' characters", file: file, position: last)
        }
        self.rows = rows
    }

    /// Lines each row spans: one, plus the line breaks inside its quoted fields.
    private static func linesUsed(by rows: [[String]]) -> [Int] {
        rows.map { fields in 1 + fields.reduce(0) { $0 + $1.reduce(0) { $0 + (isLineBreak($1) ? 1 : 0) } } }
    }

    private static func isLineBreak(_ character: Character) -> Bool {
        character == "\n" || character == "\r\n" || character == "\r"
    }

    private static func physicalLines(_ text: String) -> [Substring] {
        text.split(omittingEmptySubsequences: false, whereSeparator: isLineBreak)
    }

    /// The 1-based column where each of the first `count` fields starts on a one-line row,
    /// skipping separators inside quotes.
    private static func fieldColumns(_ line: Substring, delimiter: Character, count: Int) -> [Int] {
        var columns = [1]
        var quoted = false
        var column = 1
        for character in line {
            column += 1
            if character == "\"" {
                quoted.toggle()
            } else if character == delimiter, !quoted {
                columns.append(column)
            }
        }
        while columns.count < count { columns.append(column) }
        return columns
    }

    /// Where a cell is: its row's line and the column its field starts at.
    func position(_ row: Row, _ index: Int) -> Position {
        Position(line: row.line, column: index < row.columns.count ? row.columns[index] : 1)
    }
}
