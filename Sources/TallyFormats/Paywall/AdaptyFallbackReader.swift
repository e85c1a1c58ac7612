import Foundation
import TallyModel

/// Reads Adapty's fallback file (`ios_fallback.json`, `android_fallback.json`: the placements'
/// paywalls as the Adapty dashboard exports them for the SDK to bundle). `{meta {version,
/// developer_ids, response_created_at}, data {PLACEMENT: {meta, data [paywall | flow
/// {variations [paywall]}]}}}`; a paywall `{paywall_id, paywall_name, variation_id, products
/// [{vendor_product_id, adapty_product_id, access_level_id, product_type, base_plan_id?}]}`.
///
/// Each paywall of a placement is an offering (`placement` or `placement/paywall name` when a
/// placement has several), each product a package; `access_level_id` is the entitlement the
/// product grants. The file is per platform: a name with `android` speaks of Google Play, one
/// with `ios` of the App Store (else products are looked up in every source). See docs/paywall.md.
public enum AdaptyFallbackReader: SourceReader {
    public static let format = SourceFormat.adapty
    public static let extensions = ["json"]

    public static func sniff(_ head: String, file: String) -> Bool {
        head.contains("\"meta\"") && head.contains("\"data\"") && (head.contains("\"developer_ids\"") || head.contains("\"response_created_at\""))
            && !head.contains("\"object\"")
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let root = try LocatedNode.root(bytes: bytes, file: file, maxDepth: options.maxDepth)
        guard root.isObject, root["meta"]?.isObject == true, let placements = root["data"], case .object(let members) = placements.node.value else {
            throw FormatError("expected Adapty's fallback file: an object with meta and data (placements by ID)", file: file, position: root.position)
        }
        let name = (file as NSString).lastPathComponent.lowercased()
        let store: Store? = name.contains("android") ? .googlePlay : name.contains("ios") ? .appStore : nil
        var paywall = Paywall(platform: "Adapty", entitlements: [])
        var productIndex: [String: Int] = [:]
        var grants: [String: (position: Position, keys: [String])] = [:]
        var grantOrder: [String] = []
        for member in members {
            guard let placement = placements[member.key] else { continue }
            var paywalls: [LocatedNode] = []
            for entry in placement["data"]?.elements ?? [] {
                if entry["products"] != nil { paywalls.append(entry) }
                paywalls += (entry["variations"]?.elements ?? []).filter { $0["products"] != nil }
            }
            for item in paywalls {
                let paywallName = item["paywall_name"]?.nonEmptyText ?? item["paywall_id"]?.nonEmptyText ?? "?"
                var offering = PaywallOffering(key: paywalls.count > 1 ? "\(member.key)/\(paywallName)" : member.key, position: item.position)
                for (index, node) in (item["products"]?.elements ?? []).enumerated() {
                    guard let vendor = node["vendor_product_id"]?.nonEmptyText else {
                        throw FormatError("a paywall product without vendor_product_id", file: file, position: node.position, path: node.path)
                    }
                    let storeID = node["base_plan_id"]?.nonEmptyText.map { "\(vendor):\($0)" } ?? vendor
                    let key = "\(store?.rawValue ?? "") \(storeID)"
                    if productIndex[key] == nil {
                        productIndex[key] = paywall.products.count
                        var product = PaywallProduct(key: key, storeID: storeID, store: store, position: node.position)
                        if let type = node["product_type"] {
                            (product.kind, product.period) = Self.kind(type.text)
                            product.kindPosition = type.position
                            product.periodPosition = type.position
                        }
                        paywall.products.append(product)
                    }
                    offering.packages.append(PaywallPackage(key: node["adapty_product_id"]?.nonEmptyText ?? "#\(index + 1)",
                                                            productKeys: [key], position: node.position))
                    if let level = node["access_level_id"]?.nonEmptyText {
                        if grants[level] == nil { grantOrder.append(level); grants[level] = (node.position, []) }
                        grants[level]?.keys.append(key)
                    }
                }
                paywall.offerings.append(offering)
            }
        }
        paywall.entitlements = grantOrder.map { PaywallEntitlement(key: $0, productKeys: grants[$0]?.keys ?? [], position: grants[$0]?.position ?? .unknown) }
        return PaywallCatalog.build(paywall, file: file, format: .adapty)
    }

    /// Adapty's product period names; nil for a name Tally does not know (its kind is then not compared).
    static func kind(_ type: String?) -> (PaywallKind?, Period?) {
        switch type {
        case "weekly": (.subscription, Period(iso8601: "P1W"))
        case "monthly": (.subscription, Period(iso8601: "P1M"))
        case "two_months": (.subscription, Period(iso8601: "P2M"))
        case "trimonthly": (.subscription, Period(iso8601: "P3M"))
        case "semiannual": (.subscription, Period(iso8601: "P6M"))
        case "annual": (.subscription, Period(iso8601: "P1Y"))
        case "lifetime": (.nonConsumable, nil)
        case "consumable": (.consumable, nil)
        case "nonsubscriptions": (.oneTime, nil)
        default: (nil, nil)
        }
    }
}
