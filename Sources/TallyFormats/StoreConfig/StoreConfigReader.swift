import TallyModel

/// Reads storeconfig's export of an app's App Store Connect configuration (`storeconfig fetch`,
/// schema `schemaVersion` 1.x): `{schemaVersion, appId, inAppPurchases[], subscriptionGroups[]}`,
/// with no mapping file. See docs/formats-builtin.md for what is read and what is not.
///
/// - `inAppPurchases[]`: `productId`, `type` (CONSUMABLE, NON_CONSUMABLE,
///   NON_RENEWING_SUBSCRIPTION), `referenceName`, `familySharable`, `pricing.prices[] {territory,
///   price}`, `localizations[] {locale, name, description}`;
/// - prices as storeconfig wrote them before its schema settled (mid-2025, same `schemaVersion`
///   1.0.0): `priceSchedule.prices[]` on in-app purchases, a bare `prices[]` on subscriptions and
///   their offers;
/// - `subscriptionGroups[] {referenceName, subscriptions[]}`: the same plus `groupLevel`,
///   `subscriptionPeriod` (ONE_WEEK … ONE_YEAR), `introductoryOffers[]` and
///   `promotionalOffers[]` (`type`, `duration`, `numberOfPeriods`, `pricing`).
///
/// A value it cannot read drops that value or that offer (a `SourceIssue`, named on standard
/// error), never the file. A pay-as-you-go offer has no `duration` in storeconfig: its period is
/// the subscription's, as in App Store Connect.
public enum StoreConfigReader: SourceReader {
    public static let format = SourceFormat.storeConfig
    public static let extensions = ["json"]
    public static let fuzzTargets = [FuzzTarget("storeconfig", file: "storeconfig.json")]

    /// storeconfig's top-level `schemaVersion` and `appId`, with products.
    public static func sniff(_ head: String, file: String) -> Bool {
        head.contains("\"schemaVersion\"") && head.contains("\"appId\"")
            && (head.contains("\"inAppPurchases\"") || head.contains("\"subscriptionGroups\"") || head.contains("\"pricing\"") || head.contains("\"priceSchedule\""))
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let root = try LocatedNode.root(bytes: bytes, file: file, maxDepth: options.maxDepth)
        guard root.isObject, root["schemaVersion"] != nil else {
            throw FormatError("expected storeconfig's export: an object with schemaVersion, appId, inAppPurchases and subscriptionGroups",
                              file: file, position: root.position)
        }
        var builder = StoreConfigBuilder(file: file)
        return try builder.catalog(root)
    }
}
