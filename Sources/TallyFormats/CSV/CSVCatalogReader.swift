import Foundation
import TallyModel

/// Reads a CSV catalogue: one row per product and territory, under the header
/// `product_id,kind,group,level,period,territory,price,intro_type,intro_period,intro_count,intro_price`.
///
/// Only `product_id` is required; a column left out is a field the catalogue does not know, and
/// is not compared. The rows of one product are merged into one product: prices per territory,
/// everything else must agree between its rows. Values use Tally's words (`consumable`,
/// `non-consumable`, `non-renewing-subscription`, `auto-renewable-subscription`; `free-trial`,
/// `pay-as-you-go`, `pay-up-front`) and ISO 8601 periods. Prices are exact decimals; in a
/// `;`-separated file a decimal comma (`1,99`) is read as a decimal point. An empty territory is
/// the default territory, USA. Without a `kind` column, a product with a period or a group is an
/// auto-renewable subscription. Errors name the row, the column and the cell's line and column.
public enum CSVCatalogReader: SourceReader {
    public static let format = SourceFormat.csv
    public static let extensions = ["csv", "tsv"]

    public static func sniff(_ head: String, file: String) -> Bool {
        var text = Substring(head)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        return text.lowercased().hasPrefix("product_id") && !PlayConsoleCSV.sniff(head)
    }

    /// The columns Tally reads, in the documented order.
    public static let columns = ["product_id", "kind", "group", "level", "period", "territory", "price",
                                 "intro_type", "intro_period", "intro_count", "intro_price"]

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let table = try CSVTable(bytes: bytes, file: file)
        let columns = try CSVColumns(table: table)
        var merger = CSVProductMerger(table: table, columns: columns)
        for row in table.rows { try merger.add(row) }
        return try merger.catalog()
    }
}

/// Which header column holds which field.
struct CSVColumns {
    private var index: [String: Int] = [:]

    init(table: CSVTable) throws {
        for (offset, name) in table.header.enumerated() {
            let key = name.lowercased()
            let at = Position(line: 1, column: offset < table.headerColumns.count ? table.headerColumns[offset] : 1)
            if name.isEmpty {
                // A column without a name (a trailing separator from a spreadsheet) is fine while it stays empty.
                if let row = table.rows.first(where: { offset < $0.fields.count && !$0.fields[offset].trimmingCharacters(in: .whitespaces).isEmpty }) {
                    throw FormatError("row \(row.number) has a value in column \(offset + 1), which has no name in the header",
                                      file: table.file, position: table.position(row, offset))
                }
                continue
            }
            guard CSVCatalogReader.columns.contains(key) else {
                var message = "unknown column \"\(name)\" in the header"
                if let near = NearMatch.best(for: key, among: CSVCatalogReader.columns) { message += "; did you mean \"\(near)\"?" }
                message += " (Tally reads: \(CSVCatalogReader.columns.joined(separator: ", ")))"
                throw FormatError(message, file: table.file, position: at)
            }
            if index[key] != nil {
                throw FormatError("the column \"\(name)\" appears twice in the header", file: table.file, position: at)
            }
            index[key] = offset
        }
        guard index["product_id"] != nil else {
            throw FormatError("the header has no product_id column (the only column Tally requires)", file: table.file,
                              position: Position(line: 1, column: 1))
        }
    }

    func has(_ name: String) -> Bool { index[name] != nil }

    func column(_ name: String) -> Int? { index[name] }

    /// The trimmed cell of `name` in `row`, nil when the column is absent or the cell empty.
    func value(_ name: String, in row: CSVTable.Row) -> String? {
        guard let column = index[name], column < row.fields.count else { return nil }
        let text = row.fields[column].trimmingCharacters(in: .whitespaces)
        return text.isEmpty ? nil : text
    }
}
