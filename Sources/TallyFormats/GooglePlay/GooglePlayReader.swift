import Foundation
import TallyModel

/// Reads Google Play products: Google Play Developer API (androidpublisher v3) responses saved
/// as JSON files as the API sent them (`subscriptions`, `subscriptionOffers`, `oneTimeProducts`,
/// the legacy `inappproducts`, list pages or single resources), and the Play Console's in-app
/// products CSV. A source is one such file or, usually, a directory of them (`tally fetch
/// google-play` writes one, and so does gradle-play-publisher: `play/products/`, `play/subscriptions/`
/// or the whole `play/` folder): its `.json` and `.csv` files, read in name order, are one source.
///
/// Product IDs are Google Play identities: `PRODUCT_ID:BASE_PLAN_ID` for a subscription's base
/// plan, the product ID for a one-time product. Regions (`US`, `GB`) become App Store storefronts
/// (`USA`, `GBR`) through `Territory(region:)`. Only what is for sale (ACTIVE) counts unless
/// `ReadOptions.includeStates` adds states.
public enum GooglePlayReader: DirectorySourceReader {
    public static let format = SourceFormat.googlePlay
    public static let extensions = ["json"]
    public static let fuzzTargets = [FuzzTarget("google-play", file: "play-page.json")]

    /// A key only Google Play pages have (`basePlans`, `oneTimeProducts`, ...), a Google API
    /// error response (`{"error": {"code", "message", "status"}}`), so that a saved error says so,
    /// or the keys of one of gradle-play-publisher's files (`PlayShapes.isGradlePlayPublisherFile`:
    /// `{"sku": ...}`, `{packageName, productId}`, a subscription's metadata).
    public static func sniff(_ head: String, file: String) -> Bool {
        PlayPageParser.markers.contains { head.contains($0) } || PlayPageParser.looksLikeInAppProduct(head)
            || (head.contains("\"error\"") && head.contains("\"status\"") && head.contains("\"message\""))
            || PlayShapes.isGradlePlayPublisherFile(head)
    }

    /// One file: a JSON page, or a Play Console CSV.
    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        var records = PlayRecords()
        try readPage(bytes: bytes, file: file, firstLine: 1, options: options, into: &records)
        return PlayCatalogBuilder(records: records, file: file, options: options).build(parts: [])
    }

    /// A directory with at least one file that is a Google Play page.
    public static func claims(directory path: String) -> Bool {
        // A `tally fetch google-play` snapshot says so in its manifest: its pages may all be `{}`
        // (Google's APIs leave out an empty list), which no page sniffing can tell (issue 47).
        if let head = try? SourceLoader.readBytes(path: (path as NSString).appendingPathComponent(SnapshotFolder.manifestName), maxBytes: 1 << 20),
           String(decoding: head, as: UTF8.self).contains("\"google-play\"") {
            return true
        }
        return pageNames(in: path).contains { name in
            let file = (path as NSString).appendingPathComponent(name)
            guard let head = try? SourceLoader.readBytes(path: file, prefix: 4096) else { return false }
            let text = String(decoding: head, as: UTF8.self)
            return sniff(text, file: file) || PlayConsoleCSV.sniff(text)
        }
    }

    public static func read(directory path: String, options: ReadOptions) throws -> Catalog {
        let names = pageNames(in: path)
        var records = PlayRecords()
        let (parts, display) = try SnapshotFolder.readPages(in: path, names: names, options: options) { bytes, file, firstLine in
            try readPage(bytes: bytes, file: file, firstLine: firstLine, options: options, into: &records)
        }
        return PlayCatalogBuilder(records: records, file: display, options: options).build(parts: parts)
    }

    private static func readPage(bytes: [UInt8], file: String, firstLine: Int, options: ReadOptions, into records: inout PlayRecords) throws {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        if PlayConsoleCSV.sniff(head) {
            try PlayConsoleCSV.read(bytes: bytes, file: file, firstLine: firstLine, options: options, into: &records)
        } else {
            try PlayPageParser.parse(bytes: bytes, file: file, firstLine: firstLine, maxDepth: options.maxDepth, into: &records)
        }
    }

    /// The `.json` and `.csv` files of a directory (not hidden ones, not a `tally fetch` snapshot's
    /// manifest), in name order, then those of gradle-play-publisher's `products/` and
    /// `subscriptions/` in it (a `play/` folder); a subscription's `NAME.metadata.json` is not a page.
    static func pageNames(in path: String) -> [String] {
        PlayShapes.pageNames(in: path)
    }
}

/// A Play Console in-app products CSV named on its own (`.csv`): read by `GooglePlayReader`.
public enum GooglePlayCSVReader: SourceReader {
    public static let format = SourceFormat.googlePlay
    public static let extensions = ["csv"]
    public static let fuzzTargets = [FuzzTarget("google-play-csv", file: "play-console.csv")]

    public static func sniff(_ head: String, file: String) -> Bool { PlayConsoleCSV.sniff(head) }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        try GooglePlayReader.read(bytes: bytes, file: file, options: options)
    }
}
