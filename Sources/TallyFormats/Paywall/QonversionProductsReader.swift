import Foundation
import TallyModel

/// Reads Qonversion's REST API v4 products list (`GET /v4/products`) saved as a file: its items
/// (`data` or `items`) are products `{object: "product", id, type (subscription_with_promo,
/// subscription, consumable, lifetime), duration (ISO 8601), apple_product_id,
/// google_product_id, google_base_plan_id, ...}`. A products list has no offerings: every
/// product stands in one offering, "all products", one package per product, holding its App
/// Store and its Google Play product (`google_product_id:google_base_plan_id`). Qonversion's SDK
/// fallback file (`products[]` with `store_id`, offerings by tag) is read by `QonversionFallback`.
/// See docs/paywall.md.
public enum QonversionProductsReader: SourceReader {
    public static let format = SourceFormat.qonversion
    public static let extensions = ["json"]
    public static let fuzzTargets = [FuzzTarget("qonversion", file: "products.json")]

    /// The REST products list, or the SDK fallback file (products with `store_id`, beside its
    /// offerings or permissions).
    public static func sniff(_ head: String, file: String) -> Bool {
        if (head.contains("\"apple_product_id\"") || head.contains("\"google_product_id\"")) && head.contains("\"object\"")
            && (head.contains("\"product\"") || head.contains("/v4/products")) {
            return true
        }
        return head.contains("\"products\"") && head.contains("\"store_id\"")
            && (head.contains("\"offerings\"") || head.contains("\"products_permissions\"") || head.contains("\"duration\""))
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let root = try LocatedNode.root(bytes: bytes, file: file, maxDepth: options.maxDepth)
        if root.isObject, root["products"]?.isArray == true, root["data"] == nil, root["items"] == nil {
            return try QonversionFallback.read(root, file: file)
        }
        let list = root.isArray ? root : (root["data"] ?? root["items"])
        guard let list, list.isArray else {
            throw FormatError("expected Qonversion's products list: an object with a data list of products", file: file, position: root.position)
        }
        var paywall = Paywall(platform: "Qonversion")
        var offering = PaywallOffering(key: "all products", position: list.position)
        var account = KeyAccount()
        account.check(root, rootKeys)
        for node in list.elements {
            guard node.isObject, let id = node["id"]?.nonEmptyText ?? node["uid"]?.nonEmptyText else {
                throw FormatError("a Qonversion product without id", file: file, position: node.position, path: node.path)
            }
            account.check(node, productKeys)
            var kind: PaywallKind?
            var period: Period?
            if let typeNode = node["type"], let type = typeNode.text {
                switch type {
                case "subscription", "subscription_with_promo": kind = .subscription
                case "consumable": kind = .consumable
                case "lifetime": kind = .nonConsumable
                default:
                    throw FormatError("product \(id) has type \"\(type)\"; Qonversion's types are subscription_with_promo, subscription, "
                                      + "consumable and lifetime", file: file, position: typeNode.position, path: typeNode.path)
                }
            }
            if let durationNode = node["duration"], let text = durationNode.nonEmptyText {
                guard let value = Period(iso8601: text) else {
                    throw FormatError("product \(id) has duration \"\(text)\", which is not an ISO 8601 duration (P1M, P1Y)",
                                      file: file, position: durationNode.position, path: durationNode.path)
                }
                period = value
            }
            var package = PaywallPackage(key: id, position: node.position)
            var stores: [(Store, String, LocatedNode)] = []
            if let apple = node["apple_product_id"], let value = apple.nonEmptyText { stores.append((.appStore, value, apple)) }
            if let google = node["google_product_id"], let value = google.nonEmptyText {
                stores.append((.googlePlay, node["google_base_plan_id"]?.nonEmptyText.map { "\(value):\($0)" } ?? value, google))
            }
            for (store, storeID, idNode) in stores {
                let key = "\(id) \(store.rawValue)"
                paywall.products.append(PaywallProduct(key: key, storeID: storeID, store: store, kind: kind, period: period, position: idNode.position,
                                                       kindPosition: node["type"]?.position ?? .unknown,
                                                       periodPosition: node["duration"]?.position ?? .unknown))
                package.productKeys.append(key)
            }
            offering.packages.append(package)
        }
        paywall.offerings = [offering]
        return PaywallCatalog.build(paywall, file: file, format: .qonversion, issues: account.issues)
    }

    /// A list response: its items (`data`, or `items`) and its paging.
    static let rootKeys = KeyVocabulary(
        nil, read: ["data", "items"],
        // The resource kind, the request's URL and paging.
        ignored: ["object", "url", "has_more", "next_page", "next_cursor"])

    static let productKeys = KeyVocabulary(
        "product",
        read: ["id", "uid", "type", "duration", "apple_product_id", "google_product_id", "google_base_plan_id"],
        // The resource kind and its URL; the Stripe product, a store Tally does not compare.
        ignored: ["object", "url", "stripe_product_id"])
}
