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
    public static let fuzzTargets = [FuzzTarget("csv", file: "prices.csv")]

    public static func sniff(_ head: String, file: String) -> Bool {
        var text = Substring(head)
        if text.hasPrefix("\u{FEFF}") { text = text.dropFirst() }
        return text.lowercased().hasPrefix("product_id") && !PlayConsoleCSV.sniff(head) && !CatalogReportReader.sniff(head, file: file)
    }

    /// The columns Tally reads, in the documented order.
    public static let columns = ["product_id", "kind", "group", "level", "period", "territory", "price",
                                 "intro_type", "intro_period", "intro_count", "intro_price"]

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        var scanner = try CSVScanner(bytes: bytes, file: file)
        return try read(&scanner)
    }

    /// Streams the file: rows are merged into products as they are read, so only a window of
    /// the file is held, never all of its rows.
    public static func read(path: String, options: ReadOptions) throws -> Catalog {
        try read(path: path, chunkSize: 1 << 20)
    }

    /// Streams the file through a window that starts at two chunks (tests use tiny ones).
    static func read(path: String, chunkSize: Int) throws -> Catalog {
        var scanner = try CSVScanner(path: path, file: path, chunkSize: chunkSize)
        return try read(&scanner)
    }

    private static func read(_ scanner: inout CSVScanner) throws -> Catalog {
        guard try scanner.advance(), !scanner.record.isBlank else {
            throw FormatError("the file has no header row (expected product_id,kind,... on the first line)",
                              file: scanner.file, position: Position(line: 1, column: 1))
        }
        let columns = try CSVColumns(header: scanner.record, file: scanner.file)
        var merger = CSVProductMerger(file: scanner.file, columns: columns, decimalComma: scanner.delimiter == UInt8(ascii: ";"))
        while try scanner.advance() {
            if scanner.record.isBlank { continue }
            try merger.add(scanner.record)
        }
        return try merger.catalog()
    }
}

/// Which header column holds which field.
struct CSVColumns {
    let file: String
    private var index: [String: Int] = [:]
    /// Columns without a name (a trailing separator from a spreadsheet): fine while they stay empty.
    private(set) var unnamed: [Int] = []
    let productID: Int
    let territory: Int?
    let price: Int?
    let introPrice: Int?
    /// `CSVProductMerger.productColumns`' columns, by their place in that list.
    let productColumns: [(slot: Int, column: Int)]

    init(header: CSVRecord, file: String) throws {
        self.file = file
        for offset in 0..<header.count {
            let name = header.text(offset)
            let key = name.lowercased()
            let at = header.position(offset)
            if name.isEmpty {
                unnamed.append(offset)
                continue
            }
            guard CSVCatalogReader.columns.contains(key) else {
                var message = "unknown column \"\(name)\" in the header"
                if let near = NearMatch.best(for: key, among: CSVCatalogReader.columns) { message += "; did you mean \"\(near)\"?" }
                message += " (Tally reads: \(CSVCatalogReader.columns.joined(separator: ", ")))"
                throw FormatError(message, file: file, position: at)
            }
            if index[key] != nil {
                throw FormatError("the column \"\(name)\" appears twice in the header", file: file, position: at)
            }
            index[key] = offset
        }
        guard let productID = index["product_id"] else {
            throw FormatError("the header has no product_id column (the only column Tally requires)", file: file,
                              position: Position(line: 1, column: 1))
        }
        self.productID = productID
        territory = index["territory"]
        price = index["price"]
        introPrice = index["intro_price"]
        let index = self.index
        productColumns = CSVProductMerger.productColumns.enumerated().compactMap { slot, name in index[name].map { (slot, $0) } }
    }

    func has(_ name: String) -> Bool { index[name] != nil }

    func column(_ name: String) -> Int? { index[name] }

    /// Throws when a column without a name holds a value in `row`.
    func checkUnnamed(_ row: CSVRecord) throws {
        for offset in unnamed where row.withTrimmedBytes(offset, { !$0.isEmpty }) {
            throw FormatError("row \(row.number) has a value in column \(offset + 1), which has no name in the header",
                              file: file, position: row.position(offset))
        }
    }
}
