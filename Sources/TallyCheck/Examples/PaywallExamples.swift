import TallyModel

// The paywall rules' examples: a paywall platform's export (Qonversion's products, RevenueCat's
// offerings) beside the stores' sources.
// Each rule owns its examples (`Rule.examples`); `RuleExampleTests` runs them and docs/rules.md shows them.

extension PaywallMissingInStoreRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog(subscriptions: [#"{id: com.example.pro.monthly, period: P1M, prices: {USA: "4.99"}}"#]),
            .qonversionProducts(Self.monthly, Self.annual)),
        .passes(
            .catalog(subscriptions: [#"{id: com.example.pro.monthly, period: P1M, prices: {USA: "4.99"}}"#]),
            .qonversionProducts(Self.monthly)),
    ]

    static let monthly = #"{"object": "product", "id": "pro_monthly", "type": "subscription", "duration": "P1M", "apple_product_id": "com.example.pro.monthly"}"#
    static let annual = #"{"object": "product", "id": "pro_annual", "type": "subscription", "duration": "P1Y", "apple_product_id": "com.example.pro.annual"}"#
}

extension PaywallMissingInAppRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(groups: [.group(.subscription("com.example.pro.monthly"))]),
            .qonversionProducts(PaywallMissingInStoreRule.monthly, PaywallMissingInStoreRule.annual)),
    ]
}

extension PaywallKindRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog(products: [#"{id: com.example.lifetime, kind: non-consumable, prices: {USA: "49.99"}}"#]),
            .qonversionProducts(#"{"object": "product", "id": "lifetime", "type": "subscription", "duration": "P1Y", "apple_product_id": "com.example.lifetime"}"#)),
    ]
}

extension PaywallPeriodRule {
    public static let examples = RuleExample.fires(
        .catalog(subscriptions: [#"{id: com.example.pro, period: P1M, prices: {USA: "4.99"}}"#]),
        .qonversionProducts(#"{"object": "product", "id": "pro", "type": "subscription", "duration": "P1Y", "apple_product_id": "com.example.pro"}"#)
    ).andPasses(replacing: #""duration": "P1Y""#, with: #""duration": "P1M""#)
}

extension PaywallBasePlanRule {
    public static let examples = RuleExample.fires(
        PlayExample.file(
            PlayExample.subscription(
                "pro", PlayExample.basePlan("monthly", period: "P1M", units: "4"),
                PlayExample.basePlan("annual", period: "P1Y", units: "39"))),
        .qonversionProducts(#"{"object": "product", "id": "pro", "type": "subscription", "duration": "P1M", "google_product_id": "pro", "google_base_plan_id": null}"#)
    ).andPasses(replacing: #""google_base_plan_id": null"#, with: #""google_base_plan_id": "monthly""#)
}

extension PaywallNotEntitledRule {
    public static let examples = RuleExample.fires(
        .catalog(subscriptions: [
            #"{id: com.example.pro.monthly, period: P1M, prices: {USA: "4.99"}}"#,
            #"{id: com.example.pro.annual, period: P1Y, prices: {USA: "39.99"}}"#,
        ]),
        .file("qonversion_ios_fallbacks.json", """
            {
              "products": [
                {"id": "pro_monthly", "store_id": "com.example.pro.monthly", "type": 1, "duration": 1},
                {"id": "pro_annual", "store_id": "com.example.pro.annual", "type": 1, "duration": 4}
              ],
              "offerings": [
                {"id": "main", "tag": 1, "products": [
                  {"id": "pro_monthly", "store_id": "com.example.pro.monthly", "type": 1, "duration": 1},
                  {"id": "pro_annual", "store_id": "com.example.pro.annual", "type": 1, "duration": 4}
                ]}
              ],
              "products_permissions": {"pro_monthly": ["premium"]}
            }
            """)
    ).andPasses(replacing: #"{"pro_monthly": ["premium"]}"#, with: #"{"pro_monthly": ["premium"], "pro_annual": ["premium"]}"#)
}

extension PaywallEmptyOfferingRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(groups: [.group(.subscription("com.example.pro.monthly"))]),
            .file("offerings.json", """
                {
                  "current_offering_id": "default",
                  "offerings": [
                    {"identifier": "default", "packages": [{"identifier": "$rc_monthly", "platform_product_identifier": "com.example.pro.monthly"}]},
                    {"identifier": "holiday", "packages": []}
                  ]
                }
                """)),
    ]
}

extension PaywallNoCurrentOfferingRule {
    public static let examples = RuleExample.fires(
        .storeKit(groups: [.group(.subscription("com.example.pro.monthly"))]),
        .file("offerings.json", """
            {
              "current_offering_id": null,
              "offerings": [
                {"identifier": "default", "packages": [{"identifier": "$rc_monthly", "platform_product_identifier": "com.example.pro.monthly"}]}
              ]
            }
            """)
    ).andPasses(replacing: #""current_offering_id": null"#, with: #""current_offering_id": "default""#)
}

extension PaywallUnofferedProductRule {
    public static let examples = RuleExample.fires(
        .catalog(subscriptions: [
            #"{id: com.example.pro.monthly, period: P1M, prices: {USA: "4.99"}}"#,
            #"{id: com.example.pro.annual, period: P1Y, prices: {USA: "39.99"}}"#,
        ]),
        .file("revenuecat/01-apps.json", """
            {"object": "list", "items": [
              {"object": "app", "id": "app1", "name": "Example", "type": "app_store", "app_store": {"bundle_id": "com.example.app"}}
            ], "next_page": null, "url": "/v2/projects/proj1/apps"}
            """),
        .file("revenuecat/02-products.json", """
            {"object": "list", "items": [
              {"object": "product", "id": "prod1", "store_identifier": "com.example.pro.monthly", "type": "subscription", "app_id": "app1"},
              {"object": "product", "id": "prod2", "store_identifier": "com.example.pro.annual", "type": "subscription", "app_id": "app1"}
            ], "next_page": null, "url": "/v2/projects/proj1/products"}
            """),
        .file("revenuecat/03-offerings.json", """
            {"object": "list", "items": [
              {"object": "offering", "id": "ofrng1", "lookup_key": "default", "is_current": true,
               "packages": {"object": "list", "items": [
            \(Self.monthlyPackage)
               ]}}
            ], "next_page": null, "url": "/v2/projects/proj1/offerings"}
            """)
    ).andPasses(replacing: Self.monthlyPackage, with: Self.monthlyPackage + ",\n" + Self.annualPackage)

    /// The offering's packages, as they stand in it.
    private static let monthlyPackage = """
             {"object": "package", "id": "pkge1", "lookup_key": "$rc_monthly",
              "products": {"object": "list", "items": [{"product": {"object": "product", "id": "prod1", "store_identifier": "com.example.pro.monthly", "type": "subscription", "app_id": "app1"}}]}}
        """
    private static let annualPackage = """
             {"object": "package", "id": "pkge2", "lookup_key": "$rc_annual",
              "products": {"object": "list", "items": [{"product": {"object": "product", "id": "prod2", "store_identifier": "com.example.pro.annual", "type": "subscription", "app_id": "app1"}}]}}
        """
}
