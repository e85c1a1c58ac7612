/// The keys of a storeconfig export (its zod schema, `AppStoreModelSchema`, schema 1.0.0), place
/// by place: the ones the reader reads and the ones it skips on purpose, with the reason. Any
/// other key is an `unknown-content` warning.
extension StoreConfigBuilder {
    static let rootKeys = KeyVocabulary(
        nil,
        read: ["schemaVersion", "inAppPurchases", "subscriptionGroups"],
        // The app itself, not its products: its ID, copyright, primary locale, price and
        // territories, version and App Store listing.
        ignored: ["appId", "copyright", "primaryLocale", "pricing", "availableTerritories", "versionString", "localizations"])

    /// Where a product is sold (`availability`): skipped, because storeconfig lists only the
    /// prices set by hand (App Store Connect equalises the rest from the base territory), so
    /// every other territory of the availability would look unpriced. The note for App Review
    /// (`reviewNote`) is review metadata Tally does not compare.
    private static let productIgnored: Set<String> = ["availability", "reviewNote"]

    static let purchaseKeys = KeyVocabulary(
        "in-app purchase",
        read: ["productId", "type", "referenceName", "familySharable", "pricing", "priceSchedule", "prices", "localizations"],
        ignored: productIgnored)

    static let subscriptionKeys = KeyVocabulary(
        "subscription",
        read: ["productId", "referenceName", "familySharable", "pricing", "priceSchedule", "prices", "localizations", "groupLevel",
               "subscriptionPeriod", "introductoryOffers", "promotionalOffers"],
        ignored: productIgnored)

    static let groupKeys = KeyVocabulary("subscription group", read: ["referenceName", "localizations", "subscriptions"])

    static let localizationKeys = KeyVocabulary("localization", read: ["locale", "name", "description"])

    static let groupLocalizationKeys = KeyVocabulary(
        "group localization",
        read: ["locale", "name"],
        // The app name shown with the group in the subscription settings: not a product's text.
        ignored: ["customName"])

    static let scheduleKeys = KeyVocabulary("price schedule", read: ["baseTerritory", "prices"])
    static let priceKeys = KeyVocabulary("price", read: ["territory", "price"])

    static let introductoryOfferKeys = KeyVocabulary(
        "introductory offer",
        read: ["type", "duration", "numberOfPeriods", "pricing", "priceSchedule", "prices", "availableTerritories"])

    static let promotionalOfferKeys = KeyVocabulary(
        "promotional offer",
        read: ["id", "referenceName", "type", "duration", "numberOfPeriods", "pricing", "priceSchedule", "prices"])
}
