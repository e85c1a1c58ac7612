import TallyModel

/// The keys of an App Store Connect API page and of its resources, and the resource types an
/// export holds: the ones the reader reads and the ones it skips on purpose, with the reason.
/// Anything else is an `unknown-content` warning. A resource's relationships are links, read
/// where the reader follows them; attributes are accounted for on the product resources
/// (`inAppPurchases`, `subscriptions`).
enum ConnectPageVocabulary {
    static let page = KeyVocabulary(
        nil, read: ["data", "included", "links", "errors"],
        // The page's paging totals, and the JSON:API version object.
        ignored: ["meta", "jsonapi"])

    static let links = KeyVocabulary(
        "links", read: ["self"],
        // The addresses of the other pages and of related lists: each saved page is read on its own.
        ignored: ["next", "first", "prev", "last", "related"])

    static let resource = KeyVocabulary(
        "resource", read: ["type", "id", "attributes", "relationships"],
        // The resource's own address.
        ignored: ["links"])

    /// The resource types of an export.
    static let types = KeyVocabulary(
        "resource", noun: "type",
        read: ["inAppPurchases", "subscriptions", "subscriptionGroups", "subscriptionPrices", "subscriptionPricePoints",
               "subscriptionIntroductoryOffers", "subscriptionPromotionalOffers", "subscriptionPromotionalOfferPrices",
               "inAppPurchasePriceSchedules", "inAppPurchasePrices", "inAppPurchasePricePoints", "territories",
               "inAppPurchaseLocalizations", "subscriptionLocalizations", "subscriptionGroupLocalizations",
               "inAppPurchaseVersions", "subscriptionVersions", "subscriptionGroupVersions",
               "inAppPurchaseAvailabilities", "subscriptionAvailabilities", "subscriptionPlanAvailabilities",
               // API 3.6's win-back offers and API 2.0's subscription offer codes, with their prices (issue 50).
               "winBackOffers", "winBackOfferPrices", "subscriptionOfferCodes", "subscriptionOfferCodePrices"],
        // The app the export belongs to, and what App Review and the App Store page are shown
        // (review screenshots, promotional images, promoted purchases) or what Apple hosts
        // (`inAppPurchaseContents`): not a product's identity, price or terms.
        // The codes of an offer code (one-time-use batches, custom codes) are codes, not terms; an in-app
        // purchase's offer codes (API 4.2) discount a one-time purchase that no `.storekit` file or
        // catalogue states an offer for: named here, not read.
        ignored: ["apps", "inAppPurchaseAppStoreReviewScreenshots", "subscriptionAppStoreReviewScreenshots", "inAppPurchaseImages",
                  "subscriptionImages", "promotedPurchases", "inAppPurchaseContents",
                  "subscriptionOfferCodeOneTimeUseCodes", "subscriptionOfferCodeCustomCodes",
                  "inAppPurchaseOfferCodes", "inAppPurchaseOfferPrices", "inAppPurchaseOfferCodeOneTimeUseCodes", "inAppPurchaseOfferCodeCustomCodes"])

    /// Review material: the note for App Review, and whether Apple hosts the purchase's content.
    private static let reviewMaterial: Set<String> = ["reviewNote", "contentHosting"]

    /// `inAppPurchases` (v2, and the legacy v1's `referenceName`).
    static let purchaseAttributes = KeyVocabulary(
        "in-app purchase attribute", read: ["name", "referenceName", "productId", "inAppPurchaseType", "state", "familySharable"],
        ignored: reviewMaterial)

    static let subscriptionAttributes = KeyVocabulary(
        "subscription attribute",
        read: ["name", "productId", "familySharable", "state", "subscriptionPeriod", "groupLevel", "multiSeatStatus", "marketSettings"],
        // Besides review material: API 1.x's flag for every territory, replaced by the availability resource.
        ignored: reviewMaterial.union(["availableInAllTerritories"]))
}

extension KeyAccount {
    /// Every attribute of a resource that `vocabulary` does not know, in the order they are written.
    mutating func check(_ resource: Resource, _ vocabulary: KeyVocabulary) {
        let unknown = resource.attributes.filter { !vocabulary.knows($0.key) }
            .sorted { ($0.value.position.line, $0.value.position.column, $0.key) < ($1.value.position.line, $1.value.position.column, $1.key) }
        for (name, attribute) in unknown {
            let entries: Int
            if case .strings(let items) = attribute.value { entries = items.count } else { entries = 0 }
            note(name, in: vocabulary, entries: entries, at: attribute.position)
        }
    }
}
