import Foundation

/// App Store Connect API pages for tests that rebuild a public report as files: one subscription
/// group page with its subscriptions, their prices (price points and territories included),
/// localizations and availability, in the shapes `tally fetch app-store-connect` saves
/// (JSON:API resources with `included`, as in `examples/review-readiness/snapshot`).
struct ConnectPages {
    struct Subscription {
        var productID: String
        var state = "APPROVED"
        var period = "ONE_YEAR"
        /// `groupLevel`; nil writes `"groupLevel": null` (a subscription created through the API without one).
        var level: Int? = 1
        /// (territory, customer price, currency) of the up-front plan.
        var prices: [(String, String, String)] = [("USA", "59.99", "USD")]
        /// (territory, monthly price, currency) of the monthly plan (API 4.4 `planType: MONTHLY`).
        var monthlyPrices: [(String, String, String)] = []
        /// The territories it is sold in (its `subscriptionAvailability`); nil leaves availability out.
        var sold: [String]? = nil
        /// Localized names, by locale (`en-US`); empty writes none.
        var locales: [String] = ["en-US"]
    }

    var groupID = "21000001"
    var groupName = "Premium"
    var subscriptions: [Subscription]

    /// The page, as `tally fetch` would save the group list with everything included.
    var json: String {
        var included: [[String: Any]] = []
        var territories = Set<String>()
        var members: [[String: Any]] = []
        for (index, subscription) in subscriptions.enumerated() {
            let id = "\(6_700_000_001 + index)"
            members.append(["type": "subscriptions", "id": id])
            var relationships: [String: Any] = ["group": ["data": ["type": "subscriptionGroups", "id": groupID]]]
            var prices: [[String: String]] = []
            for (plan, list) in [("UPFRONT", subscription.prices), ("MONTHLY", subscription.monthlyPrices)] {
                for (territory, price, currency) in list {
                    let priceID = "\(id)-\(plan)-\(territory)", pointID = "\(priceID)-\(price)"
                    prices.append(["type": "subscriptionPrices", "id": priceID])
                    included.append(["type": "subscriptionPrices", "id": priceID,
                                     "attributes": ["startDate": NSNull(), "preserved": false, "planType": plan],
                                     "relationships": ["subscriptionPricePoint": ["data": ["type": "subscriptionPricePoints", "id": pointID]],
                                                       "territory": ["data": ["type": "territories", "id": territory]]]])
                    included.append(["type": "subscriptionPricePoints", "id": pointID, "attributes": ["customerPrice": price],
                                     "relationships": ["territory": ["data": ["type": "territories", "id": territory]]]])
                    if territories.insert(territory).inserted {
                        included.append(["type": "territories", "id": territory, "attributes": ["currency": currency]])
                    }
                }
            }
            relationships["prices"] = ["data": prices]
            relationships["subscriptionLocalizations"] = ["data": subscription.locales.map { ["type": "subscriptionLocalizations", "id": "\(id)-\($0)"] }]
            for locale in subscription.locales {
                included.append(["type": "subscriptionLocalizations", "id": "\(id)-\(locale)",
                                 "attributes": ["locale": locale, "name": subscription.productID, "description": "All of \(groupName)", "state": "APPROVED"]])
            }
            if let sold = subscription.sold {
                relationships["subscriptionAvailability"] = ["data": ["type": "subscriptionAvailabilities", "id": id]]
                included.append(["type": "subscriptionAvailabilities", "id": id, "attributes": ["availableInNewTerritories": false],
                                 "relationships": ["availableTerritories": ["data": sold.map { ["type": "territories", "id": $0] }]]])
            }
            let attributes: [String: Any] = ["name": subscription.productID, "productId": subscription.productID, "familySharable": false,
                                             "state": subscription.state, "subscriptionPeriod": subscription.period,
                                             "groupLevel": subscription.level.map { $0 as Any } ?? NSNull()]
            included.insert(["type": "subscriptions", "id": id, "attributes": attributes, "relationships": relationships], at: 0)
        }
        let page: [String: Any] = [
            "data": [["type": "subscriptionGroups", "id": groupID, "attributes": ["referenceName": groupName],
                      "relationships": ["subscriptions": ["data": members]]]],
            "included": included,
            "links": ["self": "https://api.appstoreconnect.apple.com/v1/apps/1700000001/subscriptionGroups?include=subscriptions&limit=200"],
        ]
        let data = (try? JSONSerialization.data(withJSONObject: page, options: [.prettyPrinted, .sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// 175 storefront codes, USA first: "the app sells in 170+ territories".
    static let everyStorefront: [String] = {
        let others = ["AFG", "AGO", "AIA", "ALB", "AND", "ARE", "ARG", "ARM", "ATG", "AUS", "AUT", "AZE", "BEL", "BEN", "BFA", "BGD", "BGR", "BHR",
                      "BHS", "BIH", "BLR", "BLZ", "BMU", "BOL", "BRA", "BRB", "BRN", "BTN", "BWA", "CAF", "CAN", "CHE", "CHL", "CHN", "CIV", "CMR",
                      "COD", "COG", "COL", "CPV", "CRI", "CYM", "CYP", "CZE", "DEU", "DMA", "DNK", "DOM", "DZA", "ECU", "EGY", "ESP", "EST", "ETH",
                      "FIN", "FJI", "FRA", "FSM", "GAB", "GBR", "GEO", "GHA", "GMB", "GNB", "GRC", "GRD", "GTM", "GUY", "HKG", "HND", "HRV", "HUN",
                      "IDN", "IND", "IRL", "IRQ", "ISL", "ISR", "ITA", "JAM", "JOR", "JPN", "KAZ", "KEN", "KGZ", "KHM", "KNA", "KOR", "KWT", "LAO",
                      "LBN", "LBR", "LBY", "LCA", "LKA", "LTU", "LUX", "LVA", "MAC", "MAR", "MDA", "MDG", "MDV", "MEX", "MKD", "MLI", "MLT", "MMR",
                      "MNE", "MNG", "MOZ", "MRT", "MSR", "MUS", "MWI", "MYS", "NAM", "NER", "NGA", "NIC", "NLD", "NOR", "NPL", "NRU", "NZL", "OMN",
                      "PAK", "PAN", "PER", "PHL", "PLW", "PNG", "POL", "PRT", "PRY", "QAT", "ROU", "RUS", "RWA", "SAU", "SEN", "SGP", "SLB", "SLE",
                      "SLV", "SRB", "STP", "SUR", "SVK", "SVN", "SWE", "SWZ", "SYC", "TCA", "TCD", "THA", "TJK", "TKM", "TON", "TTO", "TUN", "TUR",
                      "TWN", "TZA", "UGA", "UKR", "URY", "UZB", "VCT", "VEN", "VGB", "VNM", "VUT", "YEM", "ZAF", "ZMB", "ZWE"]
        return ["USA"] + others.prefix(174)
    }()
}

/// A folder of files written for one test, removed by `remove()`.
struct Scratch {
    let root: URL

    init(_ files: [String: String]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-incident-\(UUID().uuidString)")
        for (path, text) in files { try write(path, text) }
    }

    func write(_ path: String, _ text: String) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func run(_ arguments: [String]) throws -> CLIRunner.Output { try CLIRunner.run(arguments, in: root) }
    func remove() { try? FileManager.default.removeItem(at: root) }
}

/// A StoreKit configuration for such tests: one subscription group, its subscriptions with their
/// storefront price and, in StoreKit 5.0, their billing plans.
struct StoreKitFile {
    struct Subscription {
        var productID: String
        var period = "P1Y"
        var price = "59.99"
        var level = 1
        /// (monthly price, commitment price) of a MONTHLY plan beside the up-front plan; nil: no plans written.
        var monthlyPlan: (price: String, commitment: String)? = nil
    }

    var storefront = "USA"
    var groupName = "Premium"
    var subscriptions: [Subscription]

    var json: String {
        let entries = subscriptions.enumerated().map { index, subscription -> String in
            var plans = ""
            if let monthly = subscription.monthlyPlan {
                plans = """
                      "billingPlans": [
                        {"billingPlanType": "BILLED_UPFRONT", "commitmentDisplayPrice": "\(subscription.price)", "displayPrice": "\(subscription.price)", "internalID": "P\(index)U", "isEnabled": true},
                        {"billingPlanType": "MONTHLY", "commitmentDisplayPrice": "\(monthly.commitment)", "displayPrice": "\(monthly.price)", "internalID": "P\(index)M", "isEnabled": true}
                      ],

                """
            }
            return """
                    {
                      "adHocOffers": [], "codeOffers": [], "winbackOffers": [],
                \(plans)      "displayPrice": "\(subscription.price)", "familyShareable": false, "groupNumber": \(subscription.level),
                      "internalID": "S\(index)", "localizations": [{"description": "All of \(groupName)", "displayName": "\(subscription.productID)", "locale": "en_US"}],
                      "productID": "\(subscription.productID)", "recurringSubscriptionPeriod": "\(subscription.period)", "referenceName": "\(subscription.productID)",
                      "subscriptionGroupID": "G1", "type": "RecurringSubscription"
                    }
            """
        }
        let major = subscriptions.contains { $0.monthlyPlan != nil } ? 5 : 3
        return """
        {
          "identifier": "A1B2C3D4", "nonRenewingSubscriptions": [], "products": [],
          "settings": {"_storefront": "\(storefront)"},
          "subscriptionGroups": [
            {"id": "G1", "localizations": [], "name": "\(groupName)", "subscriptions": [
        \(entries.joined(separator: ",\n"))
            ]}
          ],
          "version": {"major": \(major), "minor": 0}
        }
        """
    }
}

/// The message of a report's first finding ("" when it has none).
func firstMessage(_ report: [String: Any]) -> String {
    let message = findingRecords(report).first?["message"] as? String
    return message ?? ""
}
