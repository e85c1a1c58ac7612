import Foundation
import TallyModel

/// App Store Connect's in-app purchases catalog report: the tab-delimited text file a team
/// downloads from App Store Connect (Help: "In-app purchases catalog report",
/// https://developer.apple.com/help/app-store-connect/reference/in-app-purchases-catalog-report),
/// one row per in-app purchase of every app in the account, with a header row naming the columns:
/// `Apple_ID`, `REFERENCE_NAME`, `PRODUCT_ID`, `ADDON_TYPE`, `ADDON_ITC_STATUS`,
/// `AUTO_RENEWABLE_DURATION`, `FREE_TRIAL_DURATION`, `MARKETING_OPTIN_INCENTIVE_DURATION`,
/// `CLEARED_FOR_SALE`, `APP_NAME`, `APP_APPLE_ID`, `LOCALE` (locales separated by `|`).
///
/// Apple documents the columns but not the spelling of their values, so the file is recognised by
/// its header (the required columns, in any order and any case) and each value is read by its
/// column's name; a value Tally cannot read (a type, status or duration it does not know) stops
/// the file with its line and column rather than being guessed. The report holds no prices,
/// territories, groups or texts: a team without API keys can still check which products the
/// store holds, their kinds, states, periods, free trials and locales.
///
/// Only products for sale (status Approved, cleared for sale) count unless
/// `ReadOptions.includeStates` adds states, as for a snapshot.
public enum CatalogReportReader: SourceReader {
    public static let format = SourceFormat.appStoreConnectReport
    public static let extensions = ["txt", "tsv"]
    public static let fuzzTargets = [FuzzTarget("app-store-connect-report", file: "in-app-purchases.txt")]
    public static let sniffedExtensions = ["txt"]

    /// The columns without which the file is not read as a catalog report.
    static let required = ["PRODUCT_ID", "ADDON_TYPE", "ADDON_ITC_STATUS"]

    public static func sniff(_ head: String, file: String) -> Bool {
        // A UTF-16 head read as UTF-8 holds NULs between the letters.
        let text = head.replacingOccurrences(of: "\0", with: "")
        guard let first = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).first else { return false }
        let names = Set(first.split(separator: "\t").map { Self.columnName(String($0)) })
        return required.allSatisfy(names.contains)
    }

    /// A header cell as a column name: trimmed, upper-cased, without a byte order mark or quotes.
    static func columnName(_ cell: String) -> String {
        cell.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: "\u{FEFF}\u{FFFD}\""))).uppercased()
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let table = try TabSeparatedRows(bytes: bytes, file: file)
        guard let header = table.rows.first else {
            throw FormatError("the file holds no header row: not an in-app purchases catalog report", file: file, position: .unknown)
        }
        var columns: [String: Int] = [:]
        for (index, cell) in header.fields.enumerated() {
            let name = columnName(cell.text)
            guard !name.isEmpty else { continue }
            if columns[name] != nil {
                throw FormatError("the header names the column \(name) twice", file: file, position: cell.position)
            }
            columns[name] = index
        }
        let missing = required.filter { columns[$0] == nil }
        guard missing.isEmpty else {
            let found = header.fields.map(\.text).filter { !$0.isEmpty }.prefix(12).joined(separator: ", ")
            throw FormatError("not an in-app purchases catalog report: the header row lacks \(missing.joined(separator: ", ")) "
                              + "(it has: \(found.isEmpty ? "nothing" : found)); App Store Connect's report starts with a tab-separated header row "
                              + "naming \(required.joined(separator: ", ")) among its columns",
                              file: file, position: Position(line: header.line, column: 1))
        }
        var builder = CatalogReportRows(file: file, columns: columns, width: header.fields.count, options: options)
        for row in table.rows.dropFirst() { try builder.add(row) }
        var catalog = try builder.catalog()
        // A column Tally neither reads nor skips on purpose is named, with how many rows fill it.
        var account = KeyAccount()
        for (index, cell) in header.fields.enumerated() {
            let name = columnName(cell.text)
            guard !name.isEmpty, !Self.columns.knows(name) else { continue }
            let filled = table.rows.dropFirst().filter { !($0.field(index)?.text ?? "").trimmingCharacters(in: .whitespaces).isEmpty }.count
            account.note(cell.text, in: Self.columns, entries: filled, at: cell.position)
        }
        catalog.issues += account.issues
        return catalog
    }

    /// The report's columns (upper-cased), as App Store Connect's help names them.
    static let columns = KeyVocabulary(
        "catalog report", noun: "column",
        read: ["PRODUCT_ID", "ADDON_TYPE", "ADDON_ITC_STATUS", "REFERENCE_NAME", "AUTO_RENEWABLE_DURATION", "FREE_TRIAL_DURATION",
               "MARKETING_OPTIN_INCENTIVE_DURATION", "CLEARED_FOR_SALE", "APP_NAME", "APP_APPLE_ID", "LOCALE"],
        // App Store Connect's numeric ID of the in-app purchase: the store's own key, not the product ID apps use.
        ignored: ["APPLE_ID"])
}
