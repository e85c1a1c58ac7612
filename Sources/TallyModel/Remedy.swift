/// What a person can do about a diagnostic, as a value rather than as a command-line flag in
/// the message: `tally` renders it as its flag (`--max-input-mb`), `TallyTesting` as the argument
/// a test passes (`ReadOptions(maxBytes:)`), so that a library message never names a flag its
/// caller cannot pass.
public enum Remedy: String, Sendable, Hashable, Codable, CaseIterable {
    /// The file is over the input size limit.
    case raiseInputLimit
    /// The document nests deeper than the depth limit.
    case raiseDepthLimit
    /// A server file of its own shape needs a tally-mapping/1 file to be read.
    case useMapping
    /// The format could not be told from the name and content.
    case nameInputFormat
    /// A StoreKit configuration saved under another name: name its format.
    case readAsStoreKit
    /// A baseline file is missing, old or stale: record it again.
    case writeBaseline
    /// App Store price tiers need a tier table to become amounts.
    case givePriceTiers
    /// A Google Play default price (auto-filled prices) needs the developer's default territory
    /// (and currency) to become a territory's price.
    case givePlayDefaultTerritory
    /// An App Store Connect catalog report holds several apps' products: name the app to read.
    case nameReportApp

    /// The remedy in words that name no interface ("raise the input size limit").
    public var summary: String {
        switch self {
        case .raiseInputLimit: "raise the input size limit"
        case .raiseDepthLimit: "raise the nesting depth limit"
        case .useMapping: "describe the file with a tally-mapping/1 file (docs/mapping-format.md) and read it through that mapping"
        case .nameInputFormat: "name the format"
        case .readAsStoreKit: "read it as a StoreKit configuration"
        case .writeBaseline: "record the baseline again"
        case .givePriceTiers: "give a price-tier table so that tiers become amounts"
        case .givePlayDefaultTerritory: "name the Google Play developer's default territory (and currency) to read it as that territory's price"
        case .nameReportApp: "name the app (its APP_NAME or APP_APPLE_ID) whose rows to read"
        }
    }
}
