/// The keys of Adapty's fallback files, place by place (every shape from version 1 to 11; the
/// SDK's `adapty.fallback_file.cue` for 11): the ones the reader reads and the ones it skips on
/// purpose, with the reason. Any other key is an `unknown-content` warning.
enum AdaptyVocabulary {
    /// The `meta.version`s Tally reads.
    static let versions = 1...11

    static let root = KeyVocabulary(
        nil, read: ["meta", "data"],
        // The paywall builder's layouts (screens, texts, colours): what a paywall looks like.
        ignored: ["ui_builder"])

    static let meta = KeyVocabulary(
        "meta", read: ["version", "products"],
        // The placements' IDs (each is a key of `data`, read there) and when Adapty exported the file.
        ignored: ["developer_ids", "response_created_at"])

    /// A placement of version 8 and later: `{meta, data}`.
    static let placement = KeyVocabulary("placement", read: ["meta", "data"])

    static let placementMeta = KeyVocabulary(
        "placement meta", read: [],
        // Who sees the placement and in which A/B test and revision (`placement`), and when it
        // was exported: not which products it shows.
        ignored: ["placement", "response_created_at"])

    /// A JSON:API resource wrapping a paywall (versions 1 to 6): `{type, id, attributes}`.
    static let resource = KeyVocabulary("resource", read: ["attributes"], ignored: ["type", "id"])

    /// What a paywall says besides its products and names: its variation, revision, A/B test,
    /// weight and update time; its remote config, custom payload and builder switches (what the
    /// app shows); its web purchase URL and cross-placement link. None is a product's terms.
    private static let paywallSettings: Set<String> = [
        "variation_id", "revision", "ab_test_name", "paywall_updated_at", "weight", "is_promo", "visual_paywall", "custom_payload",
        "remote_config", "remote_configs", "use_paywall_builder", "paywall_builder", "paywall_builder_id", "web_purchase_url",
        "cross_placement_info", "placement_audience_version_id", "audience_name",
    ]

    static let paywall = KeyVocabulary("paywall", read: ["developer_id", "paywall_id", "paywall_name", "products"], ignored: paywallSettings)

    /// A flow of version 11: its paywalls are `variations`.
    static let flow = KeyVocabulary(
        "flow", read: ["variations"],
        // The flow's identity and layouts (`ui_schema`), besides a paywall's settings.
        ignored: paywallSettings.union(["flow_id", "flow_name", "flow_version_id", "ui_schema"]))

    static let product = KeyVocabulary(
        "product",
        read: ["vendor_product_id", "adapty_product_id", "access_level_id", "product_type", "base_plan_id", "is_consumable"],
        // The title Adapty shows for it; the offer a paywall applies at purchase (promotional,
        // win-back, a Google Play base plan's `offer_id`) and whether the customer is eligible
        // (the customer's, not the product's); the flow's own product key; when it last changed.
        ignored: ["title", "promotional_offer_id", "win_back_offer_id", "offer_id", "introductory_offer_eligibility",
                  "promotional_offer_eligibility", "flow_product_id", "timestamp"])
}
