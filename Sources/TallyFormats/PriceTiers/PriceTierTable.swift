import Foundation
import TallyModel

/// Amounts for App Store price tiers (`--price-tiers FILE`): a CSV file with a header row naming
/// the columns `tier`, `territory` and `price` (in any order; other columns are ignored), one row
/// per tier and territory. Commas, semicolons or tabs separate the fields; quotes, a byte-order
/// mark and CRLF line ends are fine. It is read by the same byte-level reader as CSV catalogues.
///
/// ```csv
/// tier,territory,price
/// 1,USA,0.99
/// 1,JPN,160
/// ```
///
/// The table is the only way a tier becomes an amount: Tally never guesses one.
public struct PriceTierTable: Sendable, Hashable {
    /// One amount for one tier in one territory, with the CSV line it came from.
    public struct Entry: Sendable, Hashable {
        public var territory: Territory
        public var amount: Decimal
        public var line: Int
    }

    /// The file the table was read from.
    public let file: String
    private let entries: [Int: [Entry]]

    /// The tiers the table prices.
    public var tiers: [Int] { entries.keys.sorted() }

    /// The amounts for a tier in every territory the table lists, in file order; nil when the
    /// table does not list the tier.
    public func entries(tier: Int) -> [Entry]? { entries[tier] }

    /// Reads and checks the table; every problem is a `FormatError` naming the line and column.
    public static func load(path: String, maxBytes: Int = ReadOptions().maxBytes) throws -> PriceTierTable {
        let bytes = try SourceLoader.readBytes(path: path, maxBytes: maxBytes)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw FormatError("the price-tier table is not valid UTF-8 text", file: path, position: Position(line: 1, column: 1))
        }
        return try parse(text: text, file: path)
    }

    /// Parses the text of a table, as if read from `file`.
    public static func parse(text: String, file: String) throws -> PriceTierTable {
        var scanner = try CSVScanner(bytes: Array(text.utf8), file: file)
        guard try scanner.advance() else {
            throw FormatError("the price-tier table is empty; it needs a header row: tier,territory,price", file: file, position: .unknown)
        }
        let names = (0..<scanner.record.count).map { scanner.record.text($0) }
        let header = names.map { $0.lowercased() }
        guard !header.allSatisfy(\.isEmpty) else {
            throw FormatError("the price-tier table is empty; it needs a header row: tier,territory,price", file: file, position: .unknown)
        }
        guard let tierColumn = header.firstIndex(of: "tier"), let territoryColumn = header.firstIndex(of: "territory"),
              let priceColumn = header.firstIndex(of: "price") else {
            throw FormatError("the price-tier table needs a header row naming the columns tier, territory and price; found: \(names.joined(separator: ", "))",
                              file: file, position: Position(line: 1, column: 1))
        }
        var entries: [Int: [Entry]] = [:]
        var firstLine: [String: Int] = [:]
        while try scanner.advance() {
            let row = scanner.record
            // Numbered as before: the row number (the line, unless a quoted field spans lines).
            let line = row.number
            guard (0..<row.count).contains(where: { !row.text($0).isEmpty }) else { continue }
            func failure(_ column: Int, _ message: String) -> FormatError {
                FormatError(message, at: SourceLocation(file: file, line: line, path: "row \(line - 1), column \(header[column])"))
            }
            guard let tier = Int(row.text(tierColumn)), tier >= 0 else {
                throw failure(tierColumn, "the tier \"\(row.text(tierColumn))\" is not a whole number (0 or more)")
            }
            guard let territory = Territory(row.text(territoryColumn)) else {
                throw failure(territoryColumn, "\"\(row.text(territoryColumn))\" is not an App Store storefront code (three capital letters, like USA)")
            }
            guard let amount = DecimalText.parse(row.text(priceColumn)), amount >= 0 else {
                throw failure(priceColumn, "the price \"\(row.text(priceColumn))\" is not a decimal number like 0.99 (a dot, no currency sign)")
            }
            let key = "\(tier) \(territory)"
            if let earlier = firstLine[key] {
                throw failure(territoryColumn, "tier \(tier) in \(territory) is priced twice (first on line \(earlier))")
            }
            firstLine[key] = line
            entries[tier, default: []].append(Entry(territory: territory, amount: amount, line: line))
        }
        guard !entries.isEmpty else {
            throw FormatError("the price-tier table has a header but no rows", file: file, position: Position(line: 1, column: 1))
        }
        return PriceTierTable(file: file, entries: entries)
    }

    private init(file: String, entries: [Int: [Entry]]) {
        self.file = file
        self.entries = entries
    }
}
