import Foundation
import TallyModel

/// Qonversion's SDK fallback file (`qonversion_ios_fallbacks.json`, Android's
/// `qonversion_fallbacks.json` in the app's assets): `{products [{id, store_id, type, duration,
/// base_plan_id}], offerings [{id, tag, products [copies]}], products_permissions {id:
/// [permission]}, remote_config_list}`.
///
/// `type` and `duration` are integers, as Qonversion's SDKs name them (iOS `QONProductType`,
/// `QONProductDuration`; Android `QProductType`): type 0 a subscription with a trial, 1 a
/// subscription, 2 a one-time product (consumable or not: the files give non-consumables 2
/// too), 3 a non-consumable (Android SDK 8); duration 0 a week, 1 a month, 2 three months, 3
/// six months, 4 a year, 5 lifetime. Each offering is an offering, each product copy in it a
/// package (named by the product's Qonversion ID); the copy's own `store_id` is what the SDK
/// loads, so a copy that names another store product than `products[]` is a product of its own.
/// A permission is an entitlement. The store is the file's (`android`/`ios` in the name; a
/// product with a base plan is Google Play's), else each product is looked up in every source.
enum QonversionFallback {
    static func read(_ root: LocatedNode, file: String) throws -> Catalog {
        guard let list = root["products"], list.isArray else {
            throw FormatError("expected Qonversion's fallback file: an object with a products list", file: file, position: root.position)
        }
        let name = (file as NSString).lastPathComponent.lowercased()
        let fileStore: Store? = name.contains("android") ? .googlePlay : name.contains("ios") ? .appStore : nil
        var paywall = Paywall(platform: "Qonversion")
        var productIndex: [String: Int] = [:]
        /// The product keys each Qonversion product ID stands for (its entry and its copies).
        var keysByID: [String: [String]] = [:]
        var account = KeyAccount()
        account.check(root, rootKeys)

        func add(_ node: LocatedNode) throws -> (id: String, key: String?) {
            guard node.isObject, let id = node["id"]?.nonEmptyText else {
                throw FormatError("a Qonversion product without id", file: file, position: node.position, path: node.path)
            }
            account.check(node, productKeys)
            // A product with no store ID is not sold on this file's platform.
            guard let storeIDNode = node["store_id"], let storeProduct = storeIDNode.nonEmptyText else { return (id, nil) }
            let (kind, period) = try kindAndPeriod(node, id: id, file: file)
            let basePlan = node["base_plan_id"]?.nonEmptyText
            let store = fileStore ?? (basePlan != nil ? .googlePlay : nil)
            // On Google Play a subscription is named with its base plan; a one-time product's
            // `base_plan_id` is a purchase option, not part of its ID.
            let isOneTime = kind == .oneTime || kind == .nonConsumable || kind == .consumable
            let storeID = basePlan.map { isOneTime ? storeProduct : "\(storeProduct):\($0)" } ?? storeProduct
            // One Qonversion product per store product: two products naming one store product
            // with different types or durations are each checked as written.
            let key = "\(id) \(store?.rawValue ?? "") \(storeID)"
            if productIndex[key] == nil {
                productIndex[key] = paywall.products.count
                paywall.products.append(PaywallProduct(
                    key: key, storeID: storeID, store: store, kind: kind, period: period, position: storeIDNode.position,
                    kindPosition: kind == nil ? .unknown : node["type"]?.position ?? .unknown,
                    periodPosition: period == nil ? .unknown : node["duration"]?.position ?? .unknown))
            }
            if keysByID[id, default: []].contains(key) == false { keysByID[id, default: []].append(key) }
            return (id, key)
        }

        for node in list.elements { _ = try add(node) }
        for entry in root["offerings"]?.elements ?? [] {
            guard entry.isObject, let key = entry["id"]?.nonEmptyText else {
                throw FormatError("a Qonversion offering without id", file: file, position: entry.position, path: entry.path)
            }
            account.check(entry, offeringKeys)
            var offering = PaywallOffering(key: key, isCurrent: entry["tag"]?.int == 1, position: entry.position)
            for node in entry["products"]?.elements ?? [] {
                let (id, productKey) = try add(node)
                offering.packages.append(PaywallPackage(key: id, productKeys: productKey.map { [$0] } ?? [], position: node.position))
            }
            paywall.offerings.append(offering)
        }
        if let permissions = root["products_permissions"], case .object(let members) = permissions.node.value {
            var entitlements: [PaywallEntitlement] = []
            for member in members {
                guard let granted = permissions[member.key] else { continue }
                for permission in granted.elements {
                    guard let name = permission.nonEmptyText else { continue }
                    let keys = keysByID[member.key] ?? []
                    if let index = entitlements.firstIndex(where: { $0.key == name }) {
                        entitlements[index].productKeys += keys.filter { !entitlements[index].productKeys.contains($0) }
                    } else {
                        entitlements.append(PaywallEntitlement(key: name, productKeys: keys, position: permission.position))
                    }
                }
            }
            paywall.entitlements = entitlements
        }
        return PaywallCatalog.build(paywall, file: file, format: .qonversion, issues: account.issues)
    }

    static let rootKeys = KeyVocabulary(
        nil, read: ["products", "offerings", "products_permissions"],
        // Remote configs and experiments: what the app shows, not its products.
        ignored: ["remote_config_list"])

    static let productKeys = KeyVocabulary("product", read: ["id", "store_id", "type", "duration", "base_plan_id"])
    static let offeringKeys = KeyVocabulary("offering", read: ["id", "tag", "products"])

    /// The product's kind and period from its integer `type` and `duration` (null: not stated).
    static func kindAndPeriod(_ node: LocatedNode, id: String, file: String) throws -> (PaywallKind?, Period?) {
        var kind: PaywallKind?
        if let typeNode = node["type"] {
            switch typeNode.int {
            case 0?, 1?: kind = .subscription
            case 2?: kind = .oneTime
            case 3?: kind = .nonConsumable
            default:
                throw FormatError("product \(id) has type \(typeNode.text ?? "?"); Qonversion's product types are 0 (trial), "
                                  + "1 (subscription), 2 (one-time) and 3 (non-consumable)", file: file, position: typeNode.position, path: typeNode.path)
            }
        }
        var period: Period?
        if let durationNode = node["duration"] {
            switch durationNode.int {
            case 0?: period = Period(iso8601: "P1W")
            case 1?: period = Period(iso8601: "P1M")
            case 2?: period = Period(iso8601: "P3M")
            case 3?: period = Period(iso8601: "P6M")
            case 4?: period = Period(iso8601: "P1Y")
            case 5?: period = nil  // Lifetime: no period.
            default:
                throw FormatError("product \(id) has duration \(durationNode.text ?? "?"); Qonversion's durations are 0 (weekly), "
                                  + "1 (monthly), 2 (3 months), 3 (6 months), 4 (annual) and 5 (lifetime)",
                                  file: file, position: durationNode.position, path: durationNode.path)
            }
        }
        return (kind, period)
    }
}
