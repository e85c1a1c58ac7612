import Foundation
import Testing
import TallyFormats
import TallyModel

/// The paywall platforms' files in every shape their vendors have shipped, written here with
/// this project's own product IDs in the shapes of the real files (Adapty's dashboard exports
/// and SDK test files, Qonversion's SDK fallbacks, RevenueCat's v1 offerings, the hybrid SDKs'
/// offerings map): each read exactly, or refused by name. The real files themselves are walked by
/// `PaywallRealFilesTests` (TallyCLITests).
@Suite struct AdaptyFallbackShapesTests {
    /// JSON:API, `meta.version` 4: paywalls in `data[]`, the app's products in `meta.products[]`.
    static let jsonAPI = """
        {
          "data": [
            {"type": "adapty_inapps_fallback_paywalls", "id": "p1", "attributes": {
              "developer_id": "onboarding", "variation_id": "v1", "paywall_id": "pw1", "paywall_name": "Onboarding",
              "products": [
                {"title": "Weekly", "is_consumable": false, "adapty_product_id": "a1", "vendor_product_id": "com.lumen.pro.weekly",
                 "base_plan_id": null, "offer_id": null},
                {"title": "Coins", "is_consumable": true, "adapty_product_id": "a2", "vendor_product_id": "com.lumen.coins.100",
                 "base_plan_id": null, "offer_id": null}
              ]}}
          ],
          "meta": {
            "products": [
              {"title": "Weekly", "is_consumable": false, "vendor_product_id": "com.lumen.pro.weekly"},
              {"title": "Coins", "is_consumable": true, "vendor_product_id": "com.lumen.coins.100"},
              {"title": "Lifetime", "is_consumable": false, "vendor_product_id": "com.lumen.lifetime"}
            ],
            "version": 4
          }
        }
        """

    @Test func theJSONAPIShapeReadsItsPaywallsAndItsCatalogue() throws {
        let catalog = try Fixtures.load(Self.jsonAPI, as: "fallback_ios.json")
        #expect(catalog.format == .adapty)
        let paywall = try #require(catalog.paywall)
        #expect(paywall.offerings.map(\.key) == ["onboarding"])
        #expect(paywall.offerings[0].packages.map(\.key) == ["a1", "a2"])
        // The catalogue's product no paywall shows is a product all the same.
        #expect(catalog.products.map(\.id) == ["com.lumen.pro.weekly", "com.lumen.coins.100", "com.lumen.lifetime"])
        #expect(paywall.products.allSatisfy { $0.store == .appStore })
        // Only is_consumable: true says a kind; the others are not stated, and show says so.
        #expect(paywall.products.map(\.kind) == [nil, .consumable, nil])
        #expect(catalog.statedKind(of: catalog.products[1]) == .consumable)
        #expect(catalog.statedKind(of: catalog.products[0]) == nil)
        // No access levels in files of this age: entitlements are not known, not empty.
        #expect(paywall.entitlements == nil)
    }

    @Test func theOldestShapeHasNoVersion() throws {
        let text = """
            {"data": [{"type": "adapty_inapps_fallback_paywalls", "id": "p1", "attributes": {"developer_id": "main", "revision": 1,
              "variation_id": "v1", "paywall_name": "Main", "products": [{"vendor_product_id": "pro_annual", "title": null}]}}],
             "meta": {"products": [{"vendor_product_id": "pro_annual"}, {"vendor_product_id": "coins_50"}]}}
            """
        let catalog = try Fixtures.load(text, as: "fallback_paywalls.json")
        #expect(catalog.format == .adapty)
        #expect(catalog.products.map(\.id) == ["pro_annual", "coins_50"])
        // No platform in the name: each product is looked up in every source.
        #expect(catalog.paywall?.products.allSatisfy { $0.store == nil } == true)
    }

    @Test func aCatalogueEntryOfASubscriptionAPaywallNamesWithABasePlanIsThatProduct() throws {
        let text = """
            {"data": [{"type": "adapty_inapps_fallback_paywalls", "id": "p1", "attributes": {"developer_id": "main",
              "paywall_name": "Main", "products": [{"vendor_product_id": "pro", "base_plan_id": "monthly"}]}}],
             "meta": {"products": [{"vendor_product_id": "pro"}, {"vendor_product_id": "coins"}], "version": 3}}
            """
        let catalog = try Fixtures.load(text, as: "fallback_android.json")
        #expect(catalog.products.map(\.id) == ["pro:monthly", "coins"])
        #expect(catalog.products.allSatisfy { $0.isSoldOnly(in: .googlePlay) })
    }

    @Test func version5PlacementsAreListsOfPaywallsOrTheirJSONInAString() throws {
        let list = #"[{"developer_id": "main", "paywall_name": "A", "variation_id": "v1", "products": [{"vendor_product_id": "pro.month"}]}, {"developer_id": "main", "paywall_name": "B", "variation_id": "v2", "products": [{"vendor_product_id": "pro.year"}]}]"#
        let escaped = list.replacingOccurrences(of: "\"", with: "\\\"")
        let text = """
            {"data": {"main": \(list), "promo": "\(escaped)"}, "meta": {"version": 5}}
            """
        let catalog = try Fixtures.load(text, as: "fallbacks.json")
        let paywall = try #require(catalog.paywall)
        #expect(paywall.offerings.map(\.key) == ["main/A", "main/B", "promo/A", "promo/B"])
        #expect(catalog.products.map(\.id) == ["pro.month", "pro.year"])
        // The string's products are placed where the string is written.
        let inString = paywall.offerings[2...].flatMap(\.packages).map(\.position)
        #expect(inString.allSatisfy { $0.isKnown && $0 == paywall.offerings[2].position }, "\(inString)")
    }

    @Test func version6PlacementsAreListsOfJSONAPIVariations() throws {
        let text = """
            {"data": {"main": [{"type": "adapty_in_apps_paywall_variation", "id": "v1", "attributes": {"developer_id": "main",
              "paywall_name": "A", "products": [{"vendor_product_id": "pro.month", "base_plan_id": null}]}}]},
             "meta": {"version": 6, "developer_ids": ["main"], "response_created_at": 1721206865980}}
            """
        let catalog = try Fixtures.load(text, as: "fallbacks.json")
        #expect(catalog.paywall?.offerings.map(\.key) == ["main"])
        #expect(catalog.products.map(\.id) == ["pro.month"])
    }

    @Test func version8ReadsPaywallsAndStepsOverOnboardings() throws {
        let text = """
            {"data": {
              "welcome": {"meta": {"placement": {"developer_id": "welcome"}}, "data": [{"variation_id": "v0", "onboarding_id": "o1",
                "onboarding_name": "Welcome", "onboarding_builder": {"config_url": "https://example.com/o1"}, "weight": 100}]},
              "paywall": {"meta": {"placement": {"developer_id": "paywall"}}, "data": [{"variation_id": "v1", "paywall_id": "pw1",
                "paywall_name": "Default", "weight": 100, "products": [{"adapty_product_id": "a1", "vendor_product_id": "pro.month",
                "base_plan_id": null, "offer_id": null, "win_back_offer_id": null, "is_consumable": false}]}]}},
             "meta": {"version": 8, "developer_ids": ["welcome", "paywall"], "response_created_at": 1747759592106}}
            """
        let catalog = try Fixtures.load(text, as: "fallback.json")
        #expect(catalog.paywall?.offerings.map(\.key) == ["paywall"])
        #expect(catalog.products.map(\.id) == ["pro.month"])
    }

    @Test func anEntryThatIsNoPaywallFlowOrOnboardingIsRefusedWhereItIs() throws {
        let text = """
            {"data": {"main": {"meta": {}, "data": [{"variation_id": "v1", "screens": []}]}},
             "meta": {"version": 11, "developer_ids": ["main"], "response_created_at": 0}}
            """
        let error = try #require(Fixtures.error(text, as: "ios_fallback.json"))
        #expect(error.message.contains("neither a paywall (products), a flow (variations) nor an onboarding"), "\(error.message)")
    }

    @Test func thePlaceholderIsRefusedByName() throws {
        let error = try #require(Fixtures.error("{\n  \"version\": \"1.0\",\n  \"paywalls\": []\n}\n", as: "ios_fallback.json"))
        #expect(error.message.hasPrefix("this is Adapty's placeholder fallback file"), "\(error.message)")
        #expect(error.message.contains("holds no placements, paywalls or products"))
    }
}

@Suite struct QonversionFallbackShapesTests {
    /// The shape of Qonversion's SDK fallback file (`qonversion_fallbacks.json`).
    static let fallback = """
        {
          "products": [
            {"id": "weekly", "duration": 0, "store_id": "pro", "type": 1, "base_plan_id": "weekly"},
            {"id": "annual", "duration": 4, "store_id": "pro", "type": 0, "base_plan_id": "annual"},
            {"id": "coins", "duration": null, "store_id": "coins_100", "type": 2, "base_plan_id": "buy"},
            {"id": "draft", "duration": null, "store_id": "draft_sub", "type": null},
            {"id": "web_only", "duration": 1, "store_id": null, "type": 1}
          ],
          "offerings": [
            {"id": "main", "tag": 1, "products": [
              {"id": "weekly", "duration": 0, "store_id": "pro", "type": 1, "base_plan_id": "weekly"},
              {"id": "annual", "duration": 4, "store_id": "pro_legacy", "type": 0}
            ]},
            {"id": "discounted_offer", "tag": 0, "products": []}
          ],
          "products_permissions": {"weekly": ["plus"], "annual": ["plus", "premium"], "coins": []},
          "remote_config_list": []
        }
        """

    @Test func productsOfferingsAndPermissionsAreRead() throws {
        let catalog = try Fixtures.load(Self.fallback, as: "qonversion_fallbacks.json")
        #expect(catalog.format == .qonversion)
        let paywall = try #require(catalog.paywall)
        // A one-time product's base_plan_id is a purchase option, not part of its ID; the
        // offering's copy naming another store product is a product of its own.
        #expect(catalog.products.map(\.id) == ["pro:weekly", "pro:annual", "coins_100", "draft_sub", "pro_legacy"])
        let byID = Dictionary(paywall.products.map { ($0.storeID, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byID["pro:weekly"]?.kind == .subscription && byID["pro:weekly"]?.period == Period(iso8601: "P1W"))
        #expect(byID["pro:annual"]?.period == Period(iso8601: "P1Y"))
        #expect(byID["coins_100"]?.kind == .oneTime)
        #expect(byID["draft_sub"]?.kind == nil)
        // Base plans say Google Play even where the name does not.
        #expect(byID["pro:weekly"]?.store == .googlePlay && byID["draft_sub"]?.store == nil)
        #expect(paywall.offerings.map(\.key) == ["main", "discounted_offer"])
        #expect(paywall.offerings[0].isCurrent)
        #expect(paywall.shown.map(\.product.storeID) == ["pro:weekly", "pro_legacy"])
        let entitlements = try #require(paywall.entitlements)
        #expect(entitlements.map(\.key) == ["plus", "premium"])
        #expect(entitlements[0].productKeys.count == 3)  // weekly, and annual's two store products
    }

    @Test func theFileNameGivesTheStore() throws {
        let catalog = try Fixtures.load(Self.fallback, as: "qonversion_ios_fallbacks.json")
        #expect(catalog.paywall?.products.allSatisfy { $0.store == .appStore } == true)
    }

    @Test func anIntegerQonversionDoesNotUseIsAnErrorAtItsLine() throws {
        let text = #"{"products": [{"id": "x", "store_id": "x", "type": 7, "duration": 1}], "offerings": []}"#
        let error = try #require(Fixtures.error(text, as: "qonversion_fallbacks.json"))
        #expect(error.message.contains("product x has type 7; Qonversion's product types are 0 (trial)"), "\(error.message)")
    }

    @Test func aFallbackFileIsNotReadAsATallyCatalogue() throws {
        let head = Array(Self.fallback.utf8)
        #expect(try SourceLoader.detect(bytes: head, file: "app/src/main/assets/qonversion_fallbacks.json") == QonversionProductsReader.self)
    }
}

@Suite struct RevenueCatShapesTests {
    @Test func aV1PackageWithAPlanIsAGooglePlaySubscription() throws {
        let text = """
            {"offerings": [{"identifier": "default", "description": "d", "packages": [
              {"identifier": "$rc_monthly", "platform_product_identifier": "pro", "platform_product_plan_identifier": "monthly"},
              {"identifier": "$rc_lifetime", "platform_product_identifier": "lifetime"}]}],
             "current_offering_id": "default"}
            """
        let catalog = try Fixtures.load(text, as: "offerings.json")
        let paywall = try #require(catalog.paywall)
        #expect(catalog.products.map(\.id) == ["pro:monthly", "lifetime"])
        #expect(paywall.products[0].store == .googlePlay && paywall.products[0].kind == .subscription)
        #expect(catalog.products[0].isSoldOnly(in: .googlePlay))
        #expect(catalog.statedKind(of: catalog.products[0]) == .autoRenewableSubscription)
        // The package without a plan says nothing of its product's store or kind.
        #expect(paywall.products[1].store == nil && catalog.statedKind(of: catalog.products[1]) == nil)
        #expect(paywall.shown.map(\.product.storeID) == ["pro:monthly", "lifetime"])
    }

    /// The hybrid SDKs' offerings map, as the iOS side of purchases-hybrid-common writes it.
    static let hybrid = """
        {
          "all": {
            "default": {
              "identifier": "default", "serverDescription": "Default", "metadata": {},
              "annual": {"identifier": "$rc_annual", "packageType": "ANNUAL", "product": {"identifier": "com.lumen.pro.annual"}},
              "availablePackages": [
                {"identifier": "$rc_annual", "packageType": "ANNUAL", "offeringIdentifier": "default",
                 "product": {"identifier": "com.lumen.pro.annual", "productCategory": "SUBSCRIPTION",
                             "productType": "AUTO_RENEWABLE_SUBSCRIPTION", "subscriptionPeriod": "P1Y", "price": 39.99, "discounts": []}},
                {"identifier": "coins", "packageType": "CUSTOM", "offeringIdentifier": "default",
                 "product": {"identifier": "com.lumen.coins.100", "productCategory": "NON_SUBSCRIPTION",
                             "productType": "CONSUMABLE", "subscriptionPeriod": null, "price": 0.99, "discounts": []}}
              ]
            },
            "sale": {"identifier": "sale", "availablePackages": [
              {"identifier": "$rc_lifetime", "packageType": "LIFETIME",
               "product": {"identifier": "com.lumen.lifetime", "productType": "NON_CONSUMABLE", "subscriptionPeriod": null}}]}
          },
          "current": {"identifier": "default", "availablePackages": []}
        }
        """

    @Test func theHybridOfferingsMapIsRead() throws {
        let catalog = try Fixtures.load(Self.hybrid, as: "offerings-snapshot.json")
        #expect(catalog.format == .revenueCat)
        let paywall = try #require(catalog.paywall)
        #expect(paywall.offerings.map(\.key) == ["default", "sale"])
        #expect(paywall.offerings.map(\.isCurrent) == [true, false])
        #expect(paywall.offerings[0].packages.map(\.key) == ["$rc_annual", "coins"])
        #expect(catalog.products.map(\.id) == ["com.lumen.pro.annual", "com.lumen.coins.100", "com.lumen.lifetime"])
        #expect(paywall.products.map(\.kind) == [.subscription, .consumable, .nonConsumable])
        #expect(paywall.products[0].period == Period(iso8601: "P1Y"))
        #expect(paywall.entitlements == nil)
    }

    @Test func androidsConsumableIsAnyOneTimeProduct() throws {
        let text = """
            {"all": {"default": {"identifier": "default", "availablePackages": [{"identifier": "lifetime", "packageType": "LIFETIME",
              "product": {"identifier": "lifetime", "productType": "CONSUMABLE", "defaultOption": null, "subscriptionOptions": null}}]}},
             "current": null}
            """
        let catalog = try Fixtures.load(text, as: "offerings.json")
        #expect(catalog.paywall?.products.first?.kind == .oneTime)
        #expect(catalog.paywall?.offerings.first?.isCurrent == false)
    }

    @Test func aProductDetailsResponseIsRefusedByName() throws {
        let text = """
            {"product_details": [{"identifier": "pro_monthly", "product_type": "subscription", "title": "Monthly",
              "default_purchase_option_id": "base", "purchase_options": {"base": {"base": {"period_duration": "P1M"}}}}]}
            """
        let error = try #require(Fixtures.error(text, as: "products.json"))
        #expect(error.message.hasPrefix("this is a RevenueCat product_details response"), "\(error.message)")
    }
}
