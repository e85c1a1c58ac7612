import TallyModel

// The lint rules' examples: one source on its own, with the policy where the rule needs a setting.
// Each rule owns its examples (`Rule.examples`); `RuleExampleTests` runs them and docs/rules.md shows them.

extension DuplicateIDRule {
    public static let examples: [RuleExample] = [
        .fires(.catalog(products: ["{id: com.example.gems.100, kind: consumable}", "{id: com.example.gems.100, kind: consumable}"])),
        .passes(.catalog(products: ["{id: com.example.gems.100, kind: consumable}", "{id: com.example.gems.500, kind: consumable}"])),
    ]
}

extension InvalidIDRule {
    public static let examples = RuleExample.fires(
        .catalog(products: [#"{id: "com.example.gems 100", kind: consumable}"#])
    ).andPasses(replacing: #""com.example.gems 100""#, with: "com.example.gems_100")
}

extension SubscriptionWithoutGroupRule {
    public static let examples: [RuleExample] = [
        .fires(.storeKit(groups: [.group(id: "", .subscription("com.example.pro", groupID: ""))])),
    ]
}

extension GroupIDMismatchRule {
    public static let examples = RuleExample.fires(
        .storeKit(groups: [.group(id: "1A2B3C4D", .subscription("com.example.pro", groupID: "9F8E7D6C"))])
    ).andPasses(replacing: #""subscriptionGroupID": "9F8E7D6C""#, with: #""subscriptionGroupID": "1A2B3C4D""#)
}

extension DisallowedPeriodRule {
    public static let examples = RuleExample.fires(
        .catalog(subscriptions: [#"{id: com.example.pro, period: P2W, prices: {USA: "2.99"}}"#])
    ).andPasses(replacing: "period: P2W", with: "period: P1W")
}

extension InvalidPeriodRule {
    public static let examples: [RuleExample] = [
        .fires(.catalog(subscriptions: [#"{id: com.example.pro, period: monthly, prices: {USA: "4.99"}}"#])),
    ]
}

extension InvalidPriceRule {
    public static let examples = RuleExample.fires(
        .catalog(products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "0,99"}}"#])
    ).andPasses(replacing: #""0,99""#, with: #""0.99""#)
}

extension NegativePriceRule {
    public static let examples: [RuleExample] = [
        .fires(.catalog(products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "-0.99"}}"#])),
    ]
}

extension FreeTrialWithPriceRule {
    public static let examples = RuleExample.fires(
        .catalog(subscriptions: [
            """
            id: com.example.pro
            period: P1M
            prices: {USA: "4.99"}
            introductory_offer: {type: free-trial, period: P1W, price: "0.99"}
            """,
        ])
    ).andPasses(replacing: #", price: "0.99""#, with: "")
}

extension InvalidOfferRule {
    public static let examples: [RuleExample] = [
        .fires(.storeKit(groups: [
            .group(.subscription("com.example.pro", extra: #""introductoryOffer": {"paymentMode": "halfPrice", "subscriptionPeriod": "P1W"}"#)),
        ])),
    ]
}

extension UnpricedTerritoryRule {
    public static let examples = RuleExample.fires(
        .catalog(products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "0.99"}}"#]),
        policy: """
            version: 1
            required_territories: [USA, GBR]
            """
    ).andPasses(replacing: #"{USA: "0.99"}"#, with: #"{USA: "0.99", GBR: "0.99"}"#)
}

extension MissingLocaleRule {
    public static let examples: [RuleExample] = [
        .fires(
            .catalog(products: [gems(namedInEnglish: "100 Gems")]),
            policy: """
                version: 1
                required_locales: [en_US, de_DE]
                """),
    ]
}

extension LocalizationTextRule {
    public static let examples = RuleExample.fires(
        .catalog(products: [gems(namedInEnglish: "A Really Rather Large Pouch of 100 Gems")]),
        policy: """
            version: 1
            required_locales: [en_US]
            """
    ).andPasses(replacing: #""A Really Rather Large Pouch of 100 Gems""#, with: #""100 Gems""#)
}

/// The 100 gems in a catalogue, named in `en_US` only.
private func gems(namedInEnglish name: String) -> String {
    """
    id: com.example.gems.100
    kind: consumable
    localizations:
      en_US: {name: "\(name)", description: "A pouch of 100 gems."}
    """
}

extension PricePointRule {
    public static let examples = RuleExample.fires(
        .catalog(products: [#"{id: com.example.gems.100, kind: consumable, prices: {USA: "1.49"}}"#]),
        .file("asc/01-inAppPurchasesV2.json", """
            {
              "data": [
                {"type": "inAppPurchases", "id": "6444000001", "attributes": {"productId": "com.example.gems.100", "name": "Gems 100", "inAppPurchaseType": "CONSUMABLE", "state": "APPROVED"}}
              ]
            }
            """),
        .file("asc/price-points.json", """
            {
              "format": "tally-price-points/1",
              "readAt": "2026-11-20T09:30:00Z",
              "lists": [
                {"territory": "USA", "currency": "USD", "type": "inAppPurchasePricePoints", "points": [
                  {"customerPrice": "0.99"}, {"customerPrice": "1.29"}, {"customerPrice": "1.99"}
                ]}
              ],
              "products": [
                {"type": "inAppPurchases", "id": "6444000001", "territories": {"USA": 0}}
              ]
            }
            """)
    ).andPasses(replacing: #"{USA: "1.49"}"#, with: #"{USA: "1.29"}"#)
}

extension StoreStateRule {
    public static let examples = RuleExample.fires(
        .file("in-app-purchases.txt", """
            Apple_ID\tREFERENCE_NAME\tPRODUCT_ID\tADDON_TYPE\tADDON_ITC_STATUS\tAUTO_RENEWABLE_DURATION\tFREE_TRIAL_DURATION\tMARKETING_OPTIN_INCENTIVE_DURATION\tCLEARED_FOR_SALE\tAPP_NAME\tAPP_APPLE_ID\tLOCALE
            6740000104\tGems 500\tcom.example.gems.500\tConsumable\tMissing Metadata\t\t\t\tNo\tExample\t6740000001\ten-US
            """)
    ).andPasses(replacing: "Missing Metadata\t\t\t\tNo", with: "Approved\t\t\t\tYes")
}

extension SuiteMemberRule {
    public static let examples: [RuleExample] = [
        .fires(.catalog(subscriptions: [
            "{id: com.example.pro, period: P1M}",
            "{id: com.example.suite, kind: subscription-suite, period: P1M, members: [com.example.pro, com.example.music]}",
        ])),
    ]
}

extension IDCaseRule {
    public static let examples: [RuleExample] = [
        .fires(.catalog(products: ["{id: com.example.Gems, kind: consumable}", "{id: com.example.gems, kind: consumable}"])),
    ]
}

extension DuplicateGroupIDRule {
    public static let examples: [RuleExample] = [
        .fires(.storeKit(groups: [
            .group(.subscription("com.example.pro")),
            .group(name: "Music", .subscription("com.example.music")),
        ])),
    ]
}

extension UnknownContentRule {
    public static let examples = RuleExample.fires(
        .storeKit(products: [.product("com.example.gems.100", price: "0.99", extra: #""colour": "blue""#)])
    ).andPasses(replacing: #", "colour": "blue""#, with: "")
}

extension SubscriptionWithoutLevelRule {
    public static let examples = RuleExample.fires(
        .file("subscriptions.json", """
            {
              "data": [
                {
                  "type": "subscriptions",
                  "id": "6450000301",
                  "attributes": {"productId": "com.example.pro.monthly", "name": "Pro Monthly", "state": "APPROVED", "subscriptionPeriod": "ONE_MONTH", "groupLevel": null},
                  "relationships": {"group": {"data": {"type": "subscriptionGroups", "id": "21000001"}}}
                }
              ]
            }
            """)
    ).andPasses(replacing: #""groupLevel": null"#, with: #""groupLevel": 1"#)
}

extension CommitmentPriceRule {
    public static let examples = RuleExample.fires(
        .catalog(subscriptions: [
            """
            id: com.example.pro.annual
            period: P1Y
            prices: {USA: "59.99"}
            billing_plans:
              - {type: UPFRONT, prices: {USA: "59.99"}}
              - {type: MONTHLY, prices: {USA: "5.99"}, commitment: P12M, commitment_price: "59.99"}
            """,
        ])
    ).andPasses(replacing: #"commitment_price: "59.99""#, with: #"commitment_price: "71.88""#)
}

extension SchemeStoreKitRule {
    /// An Xcode scheme as Xcode writes it (the LaunchAction's StoreKit reference, the rest cut).
    static func scheme(_ identifier: String) -> RuleExample.File {
        .repository("App.xcodeproj/xcshareddata/xcschemes/App.xcscheme", """
            <?xml version="1.0" encoding="UTF-8"?>
            <Scheme
               LastUpgradeVersion = "1600"
               version = "1.7">
               <LaunchAction
                  buildConfiguration = "Debug"
                  launchStyle = "0">
                  <StoreKitConfigurationFileReference
                     identifier = "\(identifier)">
                  </StoreKitConfigurationFileReference>
               </LaunchAction>
            </Scheme>
            """)
    }

    public static let examples = [
        // The file was renamed to App.storekit; the scheme still names Products.storekit.
        RuleExample.fires(.storeKit(products: [.product("com.example.gems.100", price: "0.99")]), scheme("../../Products.storekit")),
        RuleExample.passes(.storeKit(products: [.product("com.example.gems.100", price: "0.99")]), scheme("../../App.storekit")),
    ]
}

extension PromotionalImageRule {
    static let configuration = """
        {
          "products": [
            {"displayPrice": "0.99", "familyShareable": false, "internalID": "6444000001", "localizations": [{"description": "100 gems", "displayName": "Gems", "locale": "en_US"}], "productID": "com.example.gems.100", "promotionalImageID": "D0F96D04", "referenceName": "Gems", "type": "Consumable"}
          ],
          "settings": {"_storefront": "USA"},
          "subscriptionGroups": [],
          "version": {"major": 4, "minor": 0}
        }
        """

    public static let examples = [
        // The package's Assets folder lost the image the product names.
        RuleExample.fires(.file("App.storekit/Configuration.storekit", configuration)),
        RuleExample.passes(.file("App.storekit/Configuration.storekit", configuration), .file("App.storekit/Assets/D0F96D04.png", "(the image)")),
    ]
}
