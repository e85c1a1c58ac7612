import Foundation
import TallyModel

/// Reads App Store Connect API exports: JSON:API documents saved as the API sent them, one file
/// per page. A source is one page (a `.json` file) or, usually, a directory holding every page
/// of one export (its `.json` files, read in name order). The pages are joined through their
/// relationships and through the related-list URLs in their `links.self`:
///
/// - `inAppPurchases` (v2: `name`, `inAppPurchaseType`, `familySharable`, `state`; legacy v1:
///   `referenceName` and the AUTOMATICALLY_RENEWABLE_SUBSCRIPTION and FREE_SUBSCRIPTION types),
///   priced through `inAppPurchasePriceSchedules` → `manualPrices`/`automaticPrices` →
///   `inAppPurchasePrices` → `inAppPurchasePricePoints`;
/// - `subscriptionGroups` and `subscriptions` (`subscriptionPeriod`, `groupLevel`), priced through
///   `subscriptionPrices` → `subscriptionPricePoints`;
/// - `subscriptionIntroductoryOffers` (`offerMode`, `duration`, `numberOfPeriods`);
/// - `subscriptionPromotionalOffers` (`offerCode`, `offerMode`, `duration`, `numberOfPeriods`),
///   priced through `subscriptionPromotionalOfferPrices` → `subscriptionPricePoints`;
/// - `winBackOffers` (`offerId`, `offerMode`, `duration`, `periodCount`, `endDate`) and
///   `subscriptionOfferCodes` (`name`, `customerEligibilities`, `offerMode`, `duration`,
///   `numberOfPeriods`, `active`), priced through `winBackOfferPrices` and
///   `subscriptionOfferCodePrices` → `subscriptionPricePoints`;
/// - `territories` (`currency`), and localizations.
///
/// Only products for sale (state APPROVED) count unless `ReadOptions.includeStates` adds states.
/// Dated prices and offers count when they are in force on `ReadOptions.today`.
public enum AppStoreConnectReader: DirectorySourceReader {
    public static let format = SourceFormat.appStoreConnect
    public static let extensions = ["json"]
    public static let fuzzTargets = [FuzzTarget("app-store-connect", file: "page.json")]

    /// Resource types whose presence marks a page of an export.
    static let resourceTypes = [
        "inAppPurchases", "subscriptions", "subscriptionGroups", "subscriptionPrices", "subscriptionPricePoints",
        "subscriptionIntroductoryOffers", "inAppPurchasePrices", "inAppPurchasePricePoints", "inAppPurchasePriceSchedules",
        "subscriptionPromotionalOffers", "subscriptionPromotionalOfferPrices", "winBackOffers", "subscriptionOfferCodes",
    ]

    /// A `"data"` key and a resource of an export's types (`"type": "subscriptions"`): StoreKit
    /// files also have `"subscriptionGroups"`, but as a key, never as a `type` value.
    public static func sniff(_ head: String, file: String) -> Bool {
        guard head.contains("\"data\"") else { return false }
        var rest = Substring(head)
        while let found = rest.range(of: "\"type\"") {
            rest = rest[found.upperBound...].drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard rest.first == ":" else { continue }
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
            guard rest.first == "\"", let close = rest.dropFirst().firstIndex(of: "\"") else { continue }
            if resourceTypes.contains(String(rest[rest.index(after: rest.startIndex)..<close])) { return true }
        }
        return false
    }

    /// One page on its own.
    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        var store = ResourceStore()
        store.add(try JSONAPIPageReader.read(bytes: bytes, file: file, firstLine: 1, maxDepth: options.maxDepth))
        var builder = ConnectCatalogBuilder(store: store, file: file, parts: [], options: options)
        return try builder.build()
    }

    /// A directory with at least one `.json` file (and no `metadata.xml`: that is an App Store package).
    public static func claims(directory path: String) -> Bool {
        !pageNames(in: path).isEmpty && !AppStorePackageReader.claims(directory: path)
    }

    /// Every page of the directory, as one catalogue whose file is the directory.
    public static func read(directory path: String, options: ReadOptions) throws -> Catalog {
        let names = pageNames(in: path)
        guard !names.isEmpty else {
            throw FormatError("no .json pages in this directory: save each App Store Connect API response here as a .json file",
                              file: path, position: .unknown)
        }
        var store = ResourceStore()
        let (parts, display) = try SnapshotFolder.readPages(in: path, names: names, options: options) { bytes, file, firstLine in
            store.add(try JSONAPIPageReader.read(bytes: bytes, file: file, firstLine: firstLine, maxDepth: options.maxDepth))
        }
        var builder = ConnectCatalogBuilder(store: store, file: display, parts: parts, options: options)
        var catalog = try builder.build()
        catalog.pricePoints = try pricePoints(in: path, store: store, options: options)
        return catalog
    }

    /// The price points a fetch saved beside the pages (`price-points.json`), by product ID; nil
    /// when the folder holds none. A malformed file is an error at its line and column.
    static func pricePoints(in path: String, store: ResourceStore, options: ReadOptions) throws -> PricePoints? {
        let file = (path as NSString).appendingPathComponent(PricePointsFile.name)
        guard FileManager.default.fileExists(atPath: file) else { return nil }
        let bytes = try SourceLoader.readBytes(path: file, maxBytes: options.maxBytes)
        guard !bytes.isEmpty else { throw FormatError("the price points file is empty (0 bytes)", file: file, position: .unknown) }
        return try PricePointsFile.read(bytes: bytes, file: file, maxDepth: options.maxDepth)
            .pricePoints(file: file, store: store, today: options.today)
    }

    /// The `.json` files of a directory (not hidden ones, not a `tally fetch` snapshot's manifest), in name order.
    static func pageNames(in path: String) -> [String] {
        SnapshotFolder.pageNames(in: path, extensions: ["json"])
    }
}
