import TallyModel

// The cross-source rules' examples: the app's StoreKit configuration beside the server's
// catalogue (or two sources of one kind), as `tally check` takes them.
// Each rule owns its examples (`Rule.examples`); `RuleExampleTests` runs them and docs/rules.md shows them.

extension MissingInCatalogRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []},
                    {"productID": "com.example.gems.500", "type": "Consumable", "displayPrice": "3.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.gems.100, kind: consumable, prices: {USA: "0.99"}}
                """)),
        .passes(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.gems.100, kind: consumable, prices: {USA: "0.99"}}
                """)),
    ]
}

extension MissingInConfigRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.gems.100, kind: consumable, prices: {USA: "0.99"}}
                  - {id: com.example.gems.500, kind: consumable, prices: {USA: "3.99"}}
                """)),
    ]
}

extension MissingInCopyRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []},
                    {"productID": "com.example.gems.500", "type": "Consumable", "displayPrice": "3.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("Other.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """)),
    ]
}

extension RenamedProductRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [
                    {"id": "1A2B3C4D", "name": "Pro", "localizations": [], "subscriptions": [
                      {"productID": "com.example.pro.annual", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1Y", "displayPrice": "39.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []},
                      {"productID": "com.example.pro.monthly", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99", "groupNumber": 2, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []}
                    ]}
                  ],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro.annual, period: P1Y, prices: {USA: "39.99"}}
                      - {id: com.example.premium.1m, period: P1M, prices: {USA: "4.99"}}
                """)),
    ]
}

extension KindRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.starter", "type": "Consumable", "displayPrice": "2.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.starter, kind: non-consumable, prices: {USA: "2.99"}}
                """)),
        .passes(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.starter", "type": "NonConsumable", "displayPrice": "2.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.starter, kind: non-consumable, prices: {USA: "2.99"}}
                """)),
    ]
}

extension PriceRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.gems.100, kind: consumable, prices: {USA: "1.99"}}
                """)),
        .passes(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.gems.100, kind: consumable, prices: {USA: "0.99", GBR: "0.99"}}
                """)),
    ]
}

extension PriceTierRule {
    public static let examples: [RuleExample] = [
        .fires(
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
                """)),
        .passes(
            .file("Products.plist", """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0">
                <dict>
                  <key>Products</key>
                  <array>
                    <dict>
                      <key>ProductId</key><string>com.example.gems.100</string>
                      <key>Type</key><string>Consumable</string>
                      <key>Tier</key><integer>2</integer>
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
                """)),
    ]
}

extension PeriodRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [
                    {"id": "1A2B3C4D", "name": "Pro", "localizations": [], "subscriptions": [
                      {"productID": "com.example.pro", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []}
                    ]}
                  ],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro, period: P1Y, prices: {USA: "4.99"}}
                """)),
    ]
}

extension IntroOfferRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [
                    {"id": "1A2B3C4D", "name": "Pro", "localizations": [], "subscriptions": [
                      {"productID": "com.example.pro", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": [], "introductoryOffer": {"paymentMode": "free", "subscriptionPeriod": "P1W"}}
                    ]}
                  ],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro, period: P1M, prices: {USA: "4.99"}}
                """)),
        .passes(
            .file("App.storekit", """
                {
                  "products": [],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [
                    {"id": "1A2B3C4D", "name": "Pro", "localizations": [], "subscriptions": [
                      {"productID": "com.example.pro", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": [], "introductoryOffer": {"paymentMode": "free", "subscriptionPeriod": "P1W"}}
                    ]}
                  ],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - id: com.example.pro
                        period: P1M
                        prices: {USA: "4.99"}
                        introductory_offer: {type: free-trial, period: P1W}
                """)),
    ]
}

extension PromotionalOfferRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [
                    {"id": "1A2B3C4D", "name": "Pro", "localizations": [], "subscriptions": [
                      {"productID": "com.example.pro", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": [], "adHocOffers": [{"offerID": "winback", "paymentMode": "payUpFront", "subscriptionPeriod": "P1M", "numberOfPeriods": 1, "displayPrice": "1.99"}]}
                    ]}
                  ],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - id: com.example.pro
                        period: P1M
                        prices: {USA: "4.99"}
                        promotional_offers:
                          - {id: winback, type: pay-up-front, period: P1M, price: "2.99"}
                """)),
    ]
}

extension GroupRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [
                    {"id": "1A2B3C4D", "name": "Pro", "localizations": [], "subscriptions": [
                      {"productID": "com.example.pro.monthly", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []},
                      {"productID": "com.example.pro.annual", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1Y", "displayPrice": "39.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []}
                    ]}
                  ],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro_monthly
                    subscriptions:
                      - {id: com.example.pro.monthly, period: P1M, prices: {USA: "4.99"}}
                  - id: pro_annual
                    subscriptions:
                      - {id: com.example.pro.annual, period: P1Y, prices: {USA: "39.99"}}
                """)),
    ]
}

extension PlayGroupSplitRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro.monthly, google_play: "pro_monthly:monthly", period: P1M, prices: {USA: "4.99"}}
                      - {id: com.example.pro.annual, google_play: "pro_annual:annual", period: P1Y, prices: {USA: "39.99"}}
                """),
            .file("subscriptions.json", """
                {
                  "subscriptions": [
                    {
                      "productId": "pro_monthly",
                      "basePlans": [
                        {"basePlanId": "monthly", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"},
                         "regionalConfigs": [{"regionCode": "US", "price": {"currencyCode": "USD", "units": "4", "nanos": 990000000}}]}
                      ]
                    },
                    {
                      "productId": "pro_annual",
                      "basePlans": [
                        {"basePlanId": "annual", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1Y"},
                         "regionalConfigs": [{"regionCode": "US", "price": {"currencyCode": "USD", "units": "39", "nanos": 990000000}}]}
                      ]
                    }
                  ]
                }
                """)),
        .passes(
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro.monthly, google_play: "pro:monthly", period: P1M, prices: {USA: "4.99"}}
                      - {id: com.example.pro.annual, google_play: "pro:annual", period: P1Y, prices: {USA: "39.99"}}
                """),
            .file("subscriptions.json", """
                {
                  "subscriptions": [
                    {
                      "productId": "pro",
                      "basePlans": [
                        {"basePlanId": "monthly", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1M"},
                         "regionalConfigs": [{"regionCode": "US", "price": {"currencyCode": "USD", "units": "4", "nanos": 990000000}}]},
                        {"basePlanId": "annual", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "P1Y"},
                         "regionalConfigs": [{"regionCode": "US", "price": {"currencyCode": "USD", "units": "39", "nanos": 990000000}}]}
                      ]
                    }
                  ]
                }
                """)),
    ]
}

extension LevelRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [
                    {"id": "1A2B3C4D", "name": "Pro", "localizations": [], "subscriptions": [
                      {"productID": "com.example.pro.family", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "9.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []},
                      {"productID": "com.example.pro", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99", "groupNumber": 2, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []}
                    ]}
                  ],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro, level: 1, period: P1M, prices: {USA: "4.99"}}
                      - {id: com.example.pro.family, level: 2, period: P1M, prices: {USA: "9.99"}}
                """)),
    ]
}

extension LevelNumberRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [
                    {"id": "1A2B3C4D", "name": "Pro", "localizations": [], "subscriptions": [
                      {"productID": "com.example.pro.family", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "9.99", "groupNumber": 1, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []},
                      {"productID": "com.example.pro", "type": "RecurringSubscription", "recurringSubscriptionPeriod": "P1M", "displayPrice": "4.99", "groupNumber": 2, "subscriptionGroupID": "1A2B3C4D", "familyShareable": false, "localizations": []}
                    ]}
                  ],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro.family, level: 1, period: P1M, prices: {USA: "9.99"}}
                      - {id: com.example.pro, level: 3, period: P1M, prices: {USA: "4.99"}}
                """)),
    ]
}

extension FamilySharingRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.lifetime", "type": "NonConsumable", "displayPrice": "49.99", "familyShareable": true, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("catalog.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.lifetime, kind: non-consumable, family_shareable: false, prices: {USA: "49.99"}}
                """)),
    ]
}

extension PricesNotComparedRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("App.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "0.99", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "USA"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """),
            .file("Colombia.storekit", """
                {
                  "products": [
                    {"productID": "com.example.gems.100", "type": "Consumable", "displayPrice": "4900", "familyShareable": false, "localizations": []}
                  ],
                  "settings": {"_storefront": "COL"},
                  "subscriptionGroups": [],
                  "version": {"major": 3, "minor": 0}
                }
                """)),
    ]
}

extension BillingPlanRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("a.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - id: com.example.pro.annual
                        period: P1Y
                        prices: {USA: "59.99"}
                        billing_plans:
                          - {type: UPFRONT, prices: {USA: "59.99"}}
                          - {type: MONTHLY, prices: {USA: "5.99"}, commitment: P12M}
                """),
            .file("b.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - id: com.example.pro.annual
                        period: P1Y
                        prices: {USA: "59.99"}
                        billing_plans:
                          - {type: UPFRONT, prices: {USA: "59.99"}}
                """)),
    ]
}

extension SuiteMembersRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("a.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro, period: P1M}
                      - {id: com.example.music, period: P1M}
                      - {id: com.example.suite, kind: subscription-suite, period: P1M, members: [com.example.pro, com.example.music]}
                """),
            .file("b.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: pro
                    subscriptions:
                      - {id: com.example.pro, period: P1M}
                      - {id: com.example.music, period: P1M}
                      - {id: com.example.suite, kind: subscription-suite, period: P1M, members: [com.example.pro]}
                """)),
    ]
}

extension SeatTierRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("a.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: teams
                    subscriptions:
                      - id: com.example.teams
                        period: P1M
                        multi_seat: true
                        seat_tiers:
                          - {min_seats: 1, max_seats: 9, prices: {USA: "9.99"}}
                          - {min_seats: 10, prices: {USA: "7.99"}}
                """),
            .file("b.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: teams
                    subscriptions:
                      - id: com.example.teams
                        period: P1M
                        multi_seat: true
                        seat_tiers:
                          - {min_seats: 1, max_seats: 9, prices: {USA: "9.99"}}
                          - {min_seats: 10, prices: {USA: "6.99"}}
                """)),
    ]
}

extension MultiSeatRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("a.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: teams
                    subscriptions:
                      - {id: com.example.teams, period: P1M, multi_seat: true}
                """),
            .file("b.yaml", """
                format: tally-catalog/1
                subscription_groups:
                  - id: teams
                    subscriptions:
                      - {id: com.example.teams, period: P1M, multi_seat: false}
                """)),
    ]
}

extension PricedTerritoriesRule {
    public static let examples: [RuleExample] = [
        .fires(
            .file("a.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.gems.100, kind: consumable, prices: {USA: "0.99", GBR: "0.99", DEU: "1.09"}}
                """),
            .file("b.yaml", """
                format: tally-catalog/1
                products:
                  - {id: com.example.gems.100, kind: consumable, prices: {USA: "0.99", GBR: "0.99"}}
                """)),
    ]
}
