import Foundation

/// Files rebuilt from public incident reports (issue 36): StoreKit configurations, RevenueCat
/// API v2 pages, Google Play subscription pages and tally catalogues, written from the report's
/// own IDs, prices and periods.
enum IncidentFiles {
    /// A subscription in a StoreKit file or catalogue: ID, ISO period, USA price, reference name.
    struct Plan {
        let id: String
        let period: String
        let price: String
        var name: String = ""
    }

    /// A StoreKit 4.0 configuration (USA storefront) selling `plans` in one group and
    /// `nonConsumables` (ID, price).
    static func storeKit(group: String, plans: [Plan], nonConsumables: [(String, String)] = []) -> String {
        let subscriptions = plans.enumerated().map { index, plan in
            """
                {"adHocOffers": [], "codeOffers": [], "displayPrice": "\(plan.price)", "familyShareable": false, "groupNumber": \(index + 1),
                 "internalID": "S\(index)", "localizations": [{"description": "d", "displayName": "\(plan.name.isEmpty ? plan.id : plan.name)", "locale": "en_US"}],
                 "productID": "\(plan.id)", "recurringSubscriptionPeriod": "\(plan.period)", "referenceName": "\(plan.name.isEmpty ? plan.id : plan.name)",
                 "subscriptionGroupID": "6EC4630C", "type": "RecurringSubscription", "winbackOffers": []}
            """
        }
        let products = nonConsumables.enumerated().map { index, item in
            """
                {"displayPrice": "\(item.1)", "familyShareable": false, "internalID": "N\(index)",
                 "localizations": [{"description": "d", "displayName": "\(item.0)", "locale": "en_US"}],
                 "productID": "\(item.0)", "referenceName": "\(item.0)", "type": "NonConsumable"}
            """
        }
        let groups = plans.isEmpty ? "" : """
            {"id": "6EC4630C", "localizations": [], "name": "\(group)", "subscriptions": [
            \(subscriptions.joined(separator: ",\n"))
            ]}
            """
        return """
            {"identifier": "87ABD4D5", "nonRenewingSubscriptions": [], "products": [
            \(products.joined(separator: ",\n"))
            ], "settings": {"_storefront": "USA"}, "subscriptionGroups": [\(groups)],
             "version": {"major": 4, "minor": 0}}
            """
    }

    /// A tally catalogue: `plans` in one group (each with its Google Play identity, if any).
    static func catalog(group: String, plans: [(plan: Plan, googlePlay: String?)]) -> String {
        var text = """
            format: tally-catalog/1
            default_territory: USA
            subscription_groups:
              - id: \(group.lowercased().replacingOccurrences(of: " ", with: "_"))
                name: \(group)
                subscriptions:

            """
        for (index, entry) in plans.enumerated() {
            text += """
                      - id: \(entry.plan.id)
                        name: "\(entry.plan.name.isEmpty ? entry.plan.id : entry.plan.name)"
                        level: \(index + 1)
                        period: \(entry.plan.period)
                        prices: {USA: "\(entry.plan.price)"}

                """
            if let play = entry.googlePlay { text += "        google_play: \"\(play)\"\n" }
        }
        return text
    }

    /// A RevenueCat product: its RevenueCat key, store ID, type and duration.
    struct RCProduct {
        let key: String
        let id: String
        var type = "subscription"
        var duration: String?

        var json: String {
            let subscription = duration.map { ", \"subscription\": {\"duration\": \"\($0)\", \"grace_period_duration\": null, \"trial_duration\": null}" } ?? ""
            return """
                {"object": "product", "id": "\(key)", "store_identifier": "\(id)", "type": "\(type)"\(subscription),
                 "created_at": 1732000000000, "app_id": "app1", "display_name": "\(id)", "state": "active"}
                """
        }
    }

    /// An offering: its lookup key, whether it is current, its packages (lookup key, product key).
    struct RCOffering {
        let key: String
        var current = true
        let packages: [(String, String)]
    }

    /// A RevenueCat project's pages as `tally fetch revenuecat` saves them: apps, products,
    /// offerings (expanded) and entitlements (key, product keys).
    static func revenueCat(products: [RCProduct], offerings: [RCOffering], entitlements: [(String, [String])]) -> [String: String] {
        let byKey = Dictionary(products.map { ($0.key, $0) }, uniquingKeysWith: { a, _ in a })
        let apps = """
            {"object": "list", "items": [{"object": "app", "id": "app1", "name": "App (iOS)", "created_at": 1732000000000,
             "type": "app_store", "project_id": "proj1", "app_store": {"bundle_id": "com.example.app"}}],
             "next_page": null, "url": "/v2/projects/proj1/apps"}
            """
        let productsPage = """
            {"object": "list", "items": [\(products.map(\.json).joined(separator: ",\n"))],
             "next_page": null, "url": "/v2/projects/proj1/products"}
            """
        let offeringItems = offerings.enumerated().map { index, offering in
            let packages = offering.packages.enumerated().map { number, package in
                """
                    {"object": "package", "id": "pkg\(index)_\(number)", "lookup_key": "\(package.0)", "display_name": "\(package.0)",
                     "position": \(number + 1), "created_at": 1732000000000,
                     "products": {"object": "list", "items": [{"product": \(byKey[package.1]?.json ?? "{}"), "eligibility_criteria": "all"}],
                                  "next_page": null, "url": "/v2/projects/proj1/packages/pkg\(index)_\(number)/products"}}
                """
            }
            return """
                {"object": "offering", "id": "ofrng\(index)", "lookup_key": "\(offering.key)", "display_name": "\(offering.key)",
                 "is_current": \(offering.current), "created_at": 1732000000000, "project_id": "proj1", "metadata": null,
                 "packages": {"object": "list", "items": [\(packages.joined(separator: ",\n"))], "next_page": null,
                              "url": "/v2/projects/proj1/offerings/ofrng\(index)/packages"}}
                """
        }
        let offeringsPage = """
            {"object": "list", "items": [\(offeringItems.joined(separator: ",\n"))],
             "next_page": null, "url": "/v2/projects/proj1/offerings"}
            """
        let entitlementItems = entitlements.enumerated().map { index, entitlement in
            """
                {"object": "entitlement", "id": "entl\(index)", "lookup_key": "\(entitlement.0)", "display_name": "\(entitlement.0)",
                 "created_at": 1732000000000, "project_id": "proj1",
                 "products": {"object": "list", "items": [\(entitlement.1.compactMap { byKey[$0]?.json }.joined(separator: ",\n"))],
                              "next_page": null, "url": "/v2/projects/proj1/entitlements/entl\(index)/products"}}
            """
        }
        let entitlementsPage = """
            {"object": "list", "items": [\(entitlementItems.joined(separator: ",\n"))],
             "next_page": null, "url": "/v2/projects/proj1/entitlements"}
            """
        return ["revenuecat/01-apps.json": apps, "revenuecat/02-products.json": productsPage,
                "revenuecat/03-offerings.json": offeringsPage, "revenuecat/04-entitlements.json": entitlementsPage]
    }

    /// A Google Play subscriptions page: each subscription with its base plans (ID, period, USD price).
    static func playSubscriptions(_ subscriptions: [(String, [(String, String, String)])]) -> String {
        let items = subscriptions.map { subscription in
            let plans = subscription.1.map { plan in
                let parts = plan.2.split(separator: ".")
                let units = parts.first.map(String.init) ?? "0"
                let nanos = parts.count > 1 ? String(parts[1]).padding(toLength: 9, withPad: "0", startingAt: 0) : "0"
                return """
                    {"basePlanId": "\(plan.0)", "state": "ACTIVE", "autoRenewingBasePlanType": {"billingPeriodDuration": "\(plan.1)"},
                     "regionalConfigs": [{"regionCode": "US", "price": {"currencyCode": "USD", "units": "\(units)", "nanos": \(Int(nanos) ?? 0)}}]}
                    """
            }
            return """
                {"packageName": "com.example.app", "productId": "\(subscription.0)", "listings": [{"languageCode": "en-US", "title": "\(subscription.0)"}],
                 "basePlans": [\(plans.joined(separator: ",\n"))]}
                """
        }
        return "{\"subscriptions\": [\(items.joined(separator: ",\n"))]}"
    }
}
