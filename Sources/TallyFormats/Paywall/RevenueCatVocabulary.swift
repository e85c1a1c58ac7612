/// The keys of RevenueCat's files, place by place: API v2 objects, v1 offerings and the hybrid
/// SDKs' offerings. The ones the reader reads and the ones it skips on purpose, with the reason;
/// any other key is an `unknown-content` warning.
enum RevenueCatVocabulary {
    // MARK: - API v2

    /// When an object was made, its name for people, the project it belongs to, its state
    /// (`active`, `archived`), and custom data the app keeps on it: none is a product's identity or terms.
    private static let bookkeeping: Set<String> = ["created_at", "display_name", "project_id", "state", "metadata", "name"]

    static let list = KeyVocabulary(
        "list", read: ["object", "items", "url"],
        // The next page's address (each page is a file of its own).
        ignored: ["next_page"])

    static let app = KeyVocabulary(
        "app", read: ["object", "id", "type"],
        // The store's own settings for the app (bundle ID, package name, Stripe and Web Billing
        // accounts, ...): which store a product is sold in comes from `type`.
        ignored: bookkeeping.union(["app_store", "mac_app_store", "play_store", "amazon", "stripe", "rc_billing", "roku", "paddle",
                                    "test_store"]))

    static let product = KeyVocabulary(
        "product", read: ["object", "id", "store_identifier", "type", "subscription", "one_time", "app_id", "app"],
        ignored: bookkeeping)

    static let productSubscription = KeyVocabulary(
        "product subscription", read: ["duration"],
        // How long a lapsed subscriber keeps access, and a trial RevenueCat describes (the store
        // sets the product's trial; RevenueCat's copy is not compared).
        ignored: ["grace_period_duration", "trial_duration"])

    static let productOneTime = KeyVocabulary("product one_time", read: ["is_consumable"])

    static let offering = KeyVocabulary(
        "offering", read: ["object", "id", "lookup_key", "is_current", "packages"], ignored: bookkeeping)

    static let package = KeyVocabulary(
        "package", read: ["object", "id", "lookup_key", "products"],
        // Where the paywall shows the package among the offering's.
        ignored: bookkeeping.union(["position"]))

    /// An entry of a package's expanded products: the product, and who may buy it.
    static let packageProduct = KeyVocabulary(
        "package product", read: ["product", "product_id"],
        // Which customers the package offers the product to (RevenueCat's targeting).
        ignored: ["eligibility_criteria"])

    static let entitlement = KeyVocabulary(
        "entitlement", read: ["object", "id", "lookup_key", "products"], ignored: bookkeeping)

    /// An expanded list inside an object (`packages`, `products`): its items and paging.
    static let expansion = KeyVocabulary("expanded list", read: ["object", "items", "url"], ignored: ["next_page"])

    // MARK: - v1 offerings

    static let v1Root = KeyVocabulary(
        nil, read: ["current_offering_id", "offerings"],
        // Which offering each placement shows and the targeting rule that chose them
        // (`placements`, `targeting`), and the paywalls' fonts, colours and texts (`ui_config`).
        ignored: ["placements", "targeting", "ui_config"])

    static let v1Offering = KeyVocabulary(
        "offering", read: ["identifier", "packages"],
        // Its description for people, custom data, and its paywall (v1 `paywall`, v2
        // `paywall_components`): what the paywall looks like, not what it sells.
        ignored: ["description", "metadata", "paywall", "paywall_components", "draft_paywall_components"])

    static let v1Package = KeyVocabulary(
        "package", read: ["identifier", "platform_product_identifier", "platform_product_plan_identifier"],
        // The web checkout for the package (RevenueCat Web Billing).
        ignored: ["web_checkout_url"])

    // MARK: - Hybrid SDKs' offerings

    static let hybridRoot = KeyVocabulary(nil, read: ["all", "current"])

    /// The packages the SDK names by their period (`annual`, `monthly`, ...) repeat packages of
    /// `availablePackages`; the description, custom data and web checkout are not products.
    static let hybridOffering = KeyVocabulary(
        "offering", read: ["identifier", "availablePackages"],
        ignored: ["serverDescription", "metadata", "webCheckoutUrl", "lifetime", "annual", "sixMonth", "threeMonth", "twoMonth",
                  "monthly", "weekly", "paywall"])

    static let hybridPackage = KeyVocabulary(
        "package", read: ["identifier", "product"],
        // The package's slot (`ANNUAL`, `$rc_monthly`; the product's own period is read), the
        // offering it repeats, the placement that showed it, and its web checkout.
        ignored: ["packageType", "offeringIdentifier", "presentedOfferingContext", "presentedOfferingIdentifier", "webCheckoutUrl"])

    static let hybridProduct = KeyVocabulary(
        "product", read: ["identifier", "productType", "subscriptionPeriod", "defaultOption", "subscriptionOptions"],
        // What the store told one device: its price, currency and price texts in that
        // storefront and locale, the title and description, the introductory and promotional
        // terms it showed (a paywall product has no price or offers to compare), the category
        // `productType` already gives, and the offering that presented it.
        ignored: ["title", "description", "price", "priceString", "currencyCode", "pricePerWeek", "pricePerWeekString", "pricePerMonth",
                  "pricePerMonthString", "pricePerYear", "pricePerYearString", "introPrice", "discounts", "productCategory",
                  "presentedOfferingIdentifier", "presentedOfferingContext"])
}
