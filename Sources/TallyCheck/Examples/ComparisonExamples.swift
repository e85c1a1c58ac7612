import TallyModel

// The cross-source rules' examples: the app's StoreKit configuration beside the server's
// catalogue (or two sources of one kind), as `tally check` takes them.
// Each rule owns its examples (`Rule.examples`); `RuleExampleTests` runs them and docs/rules.md shows them.

extension MissingInCatalogRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(products: [
                .product("com.example.gems.100", price: "0.99"),
                .product("com.example.gems.500", price: "3.99"),
            ]),
            .catalog(products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "0.99"}}"#])),
        .passes(
            .storeKit(products: [.product("com.example.gems.100", price: "0.99")]),
            .catalog(products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "0.99"}}"#])),
    ]
}

extension MissingInConfigRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(products: [.product("com.example.gems.100", price: "0.99")]),
            .catalog(products: [
                #"{id: com.example.gems.100, kind: consumable, prices: {USA: "0.99"}}"#,
                #"{id: com.example.gems.500, kind: consumable, prices: {USA: "3.99"}}"#,
            ])),
    ]
}

extension MissingInCopyRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(products: [
                .product("com.example.gems.100", price: "0.99"),
                .product("com.example.gems.500", price: "3.99"),
            ]),
            .storeKit("Other.storekit", products: [.product("com.example.gems.100", price: "0.99")])),
    ]
}

extension RenamedProductRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(groups: [
                .group(
                    .subscription("com.example.pro.annual", period: "P1Y", price: "39.99"),
                    .subscription("com.example.pro.monthly", level: 2)),
            ]),
            .catalog(subscriptions: [
                #"{id: com.example.pro.annual, period: P1Y, prices: {USA: "39.99"}}"#,
                #"{id: com.example.premium.1m, period: P1M, prices: {USA: "4.99"}}"#,
            ])),
    ]
}

extension KindRule {
    public static let examples = RuleExample.fires(
        .storeKit(products: [.product("com.example.starter", "Consumable", price: "2.99")]),
        .catalog(products: [#"{id: com.example.starter, kind: non-consumable, prices: {USA: "2.99"}}"#])
    ).andPasses(replacing: #""type": "Consumable""#, with: #""type": "NonConsumable""#)
}

extension PriceRule {
    public static let examples = RuleExample.fires(
        .storeKit(products: [.product("com.example.gems.100", price: "0.99")]),
        .catalog(products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "1.99"}}"#])
    ).andPasses(replacing: #"{USA: "1.99"}"#, with: #"{USA: "0.99", GBR: "0.99"}"#)
}

extension PriceTierRule {
    public static let examples = RuleExample.fires(
        .file("Products.plist", """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
              <key>Products</key>
              <array>
                <dict>
                  <key>ProductId</key><string>com.example.gems.100</string>
                  <key>Type</key><string>Consumable</string>
                  <key>Tier</key><integer>1</integer>
                </dict>
              </array>
            </dict>
            </plist>
            """),
        .file("metadata.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://apple.com/itunes/importer" version="software5.9">
              <software>
                <software_metadata>
                  <in_app_purchases>
                    <in_app_purchase>
                      <product_id>com.example.gems.100</product_id>
                      <type>consumable</type>
                      <products>
                        <product>
                          <cleared_for_sale>true</cleared_for_sale>
                          <wholesale_price_tier>2</wholesale_price_tier>
                        </product>
                      </products>
                    </in_app_purchase>
                  </in_app_purchases>
                </software_metadata>
              </software>
            </package>
            """)
    ).andPasses(replacing: "<key>Tier</key><integer>1</integer>", with: "<key>Tier</key><integer>2</integer>")
}

extension PeriodRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(groups: [.group(.subscription("com.example.pro", period: "P1M"))]),
            .catalog(subscriptions: [#"{id: com.example.pro, period: P1Y, prices: {USA: "4.99"}}"#])),
    ]
}

extension IntroOfferRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(groups: [.group(.subscription("com.example.pro", extra: Self.freeWeek))]),
            .catalog(subscriptions: [#"{id: com.example.pro, period: P1M, prices: {USA: "4.99"}}"#])),
        .passes(
            .storeKit(groups: [.group(.subscription("com.example.pro", extra: Self.freeWeek))]),
            .catalog(subscriptions: [
                """
                id: com.example.pro
                period: P1M
                prices: {USA: "4.99"}
                introductory_offer: {type: free-trial, period: P1W}
                """,
            ])),
    ]

    private static let freeWeek = #""introductoryOffer": {"paymentMode": "free", "subscriptionPeriod": "P1W"}"#
}

extension PromotionalOfferRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(groups: [
                .group(.subscription("com.example.pro", extra: #""adHocOffers": [{"offerID": "winback", "paymentMode": "payUpFront", "subscriptionPeriod": "P1M", "numberOfPeriods": 1, "displayPrice": "1.99"}]"#)),
            ]),
            .catalog(subscriptions: [
                """
                id: com.example.pro
                period: P1M
                prices: {USA: "4.99"}
                promotional_offers:
                  - {id: winback, type: pay-up-front, period: P1M, price: "2.99"}
                """,
            ])),
    ]
}

extension WinbackOfferRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(groups: [
                .group(.subscription("com.example.pro", extra: #""winbackOffers": [{"offerID": "comeback", "paymentMode": "free", "subscriptionPeriod": "P1W", "referenceName": "Come back"}]"#)),
            ]),
            .file("app-store-connect.json", """
                {"data": [{"type": "subscriptions", "id": "6450000001",
                           "attributes": {"productId": "com.example.pro", "name": "Pro", "state": "APPROVED", "subscriptionPeriod": "ONE_MONTH", "groupLevel": 1},
                           "relationships": {"winBackOffers": {"data": [{"type": "winBackOffers", "id": "7a1"}]}}}],
                 "included": [{"type": "winBackOffers", "id": "7a1",
                               "attributes": {"referenceName": "Come back", "offerId": "comeback", "offerMode": "FREE_TRIAL", "duration": "ONE_MONTH",
                                              "periodCount": 1, "priority": "HIGH", "startDate": "2026-01-01", "endDate": null}}]}
                """)),
    ]
}

extension GroupRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(groups: [
                .group(
                    .subscription("com.example.pro.monthly"),
                    .subscription("com.example.pro.annual", period: "P1Y", price: "39.99")),
            ]),
            .catalog(groups: [
                CatalogExample.group("pro_monthly", [#"{id: com.example.pro.monthly, period: P1M, prices: {USA: "4.99"}}"#]),
                CatalogExample.group("pro_annual", [#"{id: com.example.pro.annual, period: P1Y, prices: {USA: "39.99"}}"#]),
            ])),
    ]
}

extension PlayGroupSplitRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog(subscriptions: [
                #"{id: com.example.pro.monthly, google_play: "pro_monthly:monthly", period: P1M, prices: {USA: "4.99"}}"#,
                #"{id: com.example.pro.annual, google_play: "pro_annual:annual", period: P1Y, prices: {USA: "39.99"}}"#,
            ]),
            PlayExample.file(
                PlayExample.subscription("pro_monthly", PlayExample.basePlan("monthly", period: "P1M", units: "4")),
                PlayExample.subscription("pro_annual", PlayExample.basePlan("annual", period: "P1Y", units: "39")))),
        .passes(
            .catalog(subscriptions: [
                #"{id: com.example.pro.monthly, google_play: "pro:monthly", period: P1M, prices: {USA: "4.99"}}"#,
                #"{id: com.example.pro.annual, google_play: "pro:annual", period: P1Y, prices: {USA: "39.99"}}"#,
            ]),
            PlayExample.file(
                PlayExample.subscription(
                    "pro", PlayExample.basePlan("monthly", period: "P1M", units: "4"),
                    PlayExample.basePlan("annual", period: "P1Y", units: "39")))),
    ]
}

extension LevelRule {
    public static let examples: [RuleExample] = [
        .fires(
            Self.familyAboveSingle,
            .catalog(subscriptions: [
                #"{id: com.example.pro, level: 1, period: P1M, prices: {USA: "4.99"}}"#,
                #"{id: com.example.pro.family, level: 2, period: P1M, prices: {USA: "9.99"}}"#,
            ])),
    ]

    /// The app's configuration: the family plan above the single one (StoreKit's level 1 is the highest).
    static let familyAboveSingle: RuleExample.File = .storeKit(groups: [
        .group(
            .subscription("com.example.pro.family", price: "9.99", level: 1),
            .subscription("com.example.pro", level: 2)),
    ])
}

extension LevelNumberRule {
    public static let examples: [RuleExample] = [
        .fires(
            LevelRule.familyAboveSingle,
            .catalog(subscriptions: [
                #"{id: com.example.pro.family, level: 1, period: P1M, prices: {USA: "9.99"}}"#,
                #"{id: com.example.pro, level: 3, period: P1M, prices: {USA: "4.99"}}"#,
            ])),
    ]
}

extension FamilySharingRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(products: [.product("com.example.lifetime", "NonConsumable", price: "49.99", familyShareable: true)]),
            .catalog(products: [#"{id: com.example.lifetime, kind: non-consumable, family_shareable: false, prices: {USA: "49.99"}}"#])),
    ]
}

extension PricesNotComparedRule {
    public static let examples: [RuleExample] = [
        .fires(
            .storeKit(products: [.product("com.example.gems.100", price: "0.99")]),
            .storeKit("Colombia.storekit", storefront: "COL", products: [.product("com.example.gems.100", price: "4900")])),
    ]
}

extension BillingPlanRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog("a.yaml", subscriptions: [Self.annual + "\n  - {type: MONTHLY, prices: {USA: \"5.99\"}, commitment: P12M}"]),
            .catalog("b.yaml", subscriptions: [Self.annual])),
    ]

    /// The annual subscription with its up-front plan, which both catalogues have.
    private static let annual = """
        id: com.example.pro.annual
        period: P1Y
        prices: {USA: "59.99"}
        billing_plans:
          - {type: UPFRONT, prices: {USA: "59.99"}}
        """
}

extension SuiteMembersRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog("a.yaml", subscriptions: Self.members + [
                #"{id: com.example.suite, kind: subscription-suite, period: P1M, members: [com.example.pro, com.example.music]}"#,
            ]),
            .catalog("b.yaml", subscriptions: Self.members + [
                #"{id: com.example.suite, kind: subscription-suite, period: P1M, members: [com.example.pro]}"#,
            ])),
    ]

    private static let members = ["{id: com.example.pro, period: P1M}", "{id: com.example.music, period: P1M}"]
}

extension SeatTierRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog("a.yaml", group: "teams", subscriptions: [Self.teams(volumePrice: "7.99")]),
            .catalog("b.yaml", group: "teams", subscriptions: [Self.teams(volumePrice: "6.99")])),
    ]

    private static func teams(volumePrice: String) -> String {
        """
        id: com.example.teams
        period: P1M
        multi_seat: true
        seat_tiers:
          - {min_seats: 1, max_seats: 9, prices: {USA: "9.99"}}
          - {min_seats: 10, prices: {USA: "\(volumePrice)"}}
        """
    }
}

extension MultiSeatRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog("a.yaml", group: "teams", subscriptions: ["{id: com.example.teams, period: P1M, multi_seat: true}"]),
            .catalog("b.yaml", group: "teams", subscriptions: ["{id: com.example.teams, period: P1M, multi_seat: false}"])),
    ]
}

extension PricedTerritoriesRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog("a.yaml", products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "0.99", GBR: "0.99", DEU: "1.09"}}"#]),
            .catalog("b.yaml", products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "0.99", GBR: "0.99"}}"#])),
    ]
}
