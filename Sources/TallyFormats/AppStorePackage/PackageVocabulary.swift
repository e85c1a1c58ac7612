/// The elements of an App Store package's `<in_app_purchases>`, place by place: the ones the
/// reader reads and the ones it skips on purpose, with the reason. Any other element is an
/// `unknown-content` warning with how many elements it holds. What stands outside
/// `<in_app_purchases>` (the app's versions, price, Game Center) is the app's, not its in-app
/// purchases', and is not walked.
extension PackageDecoder {
    /// The children of `<in_app_purchases>`.
    static let listElements = KeyVocabulary("<in_app_purchases>", noun: "element", read: ["in_app_purchase", "subscription_group", "family"])

    static let purchaseElements = KeyVocabulary(
        "<in_app_purchase>", noun: "element",
        read: ["product_id", "reference_name", "type", "duration", "bonus_duration", "free_trial_duration", "cleared_for_sale", "products",
               "locales"],
        // What App Review is shown (its screenshot and notes): review material, not the product.
        ignored: ["review_screenshot", "review_notes"])

    /// A subscription group (5.9) or family (5.0).
    static let groupElements = KeyVocabulary("<subscription_group>", noun: "element", read: ["in_app_purchase", "locales", "free_trial_duration"])

    static let productsElements = KeyVocabulary("<products>", noun: "element", read: ["product"])
    static let productElements = KeyVocabulary("<products><product>", noun: "element", read: ["cleared_for_sale", "wholesale_price_tier", "intervals"])
    static let intervalElements = KeyVocabulary("<interval>", noun: "element", read: ["start_date", "end_date", "wholesale_price_tier"])
    static let localesElements = KeyVocabulary("<locales>", noun: "element", read: ["locale"])
    static let localeElements = KeyVocabulary("<locale>", noun: "element", read: ["title", "description"])

    static let groupLocaleElements = KeyVocabulary(
        "<subscription_group><locale>", noun: "element",
        read: ["title"],
        // The app name shown with the group in the subscription settings: not a product's text.
        ignored: ["app_name"])
}

extension KeyAccount {
    /// Every child element of `element` that `vocabulary` does not know, with how many elements it holds.
    mutating func check(_ element: XMLElementNode, _ vocabulary: KeyVocabulary) {
        for child in element.children where !vocabulary.knows(child.name) {
            note(child.name, in: vocabulary, entries: child.children.count, at: child.position)
        }
    }
}
