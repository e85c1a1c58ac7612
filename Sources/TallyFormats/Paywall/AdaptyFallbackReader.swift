import Foundation
import TallyModel

/// Reads Adapty's fallback file (`ios_fallback.json`, `android_fallback.json`: the placements'
/// paywalls as the Adapty dashboard exports them for the SDK to bundle), in every shape Adapty's
/// dashboard and SDKs have used (docs/paywall.md):
///
/// - `meta.version` 8 to 11: `{meta {version, developer_ids, response_created_at}, data
///   {PLACEMENT: {meta, data [paywall | flow {variations [paywall]} | onboarding]}}}`;
/// - `meta.version` 5 and 6: `data {PLACEMENT: [paywall | {type, id, attributes: paywall}]}`, a
///   placement's list also written as a string of JSON;
/// - no `meta.version`, and 1 to 4: JSON:API, `data [{type: "adapty_inapps_fallback_paywalls",
///   attributes {developer_id, paywall_name, products}}]` with the app's products in
///   `meta.products[]`.
///
/// A paywall `{paywall_id, paywall_name, variation_id, products [{vendor_product_id,
/// adapty_product_id, access_level_id, product_type, base_plan_id}]}`; older files have fewer of
/// the product's keys (`is_consumable` instead of `product_type`, no access levels).
///
/// Each paywall of a placement is an offering (`placement` or `placement/paywall name` when a
/// placement has several), each product a package; `access_level_id` is the entitlement the
/// product grants. The file is per platform: a name with `android` speaks of Google Play, one
/// with `ios` of the App Store (else a product with a base plan is Google Play's, and the others
/// are looked up in every source). Adapty's placeholder `{version, paywalls: []}` is refused by
/// name: it is no fallback file Adapty's SDKs read.
public enum AdaptyFallbackReader: SourceReader {
    public static let format = SourceFormat.adapty
    public static let extensions = ["json"]
    public static let fuzzTargets = [FuzzTarget("adapty", file: "ios_fallback.json")]

    /// `meta` often comes after `data`, past the head of a large file: the head's paywall keys
    /// (escaped, in a placement written as a string of JSON) say Adapty as well.
    public static func sniff(_ head: String, file: String) -> Bool {
        if AdaptyPlaceholder.matches(head) { return true }
        guard head.contains("\"data\""), !head.contains("\"object\"") else { return false }
        if head.contains("\"adapty_inapps_fallback_paywalls\"") || head.contains("\"adapty_in_apps_paywall_variation\"") { return true }
        if head.contains("\"meta\""), head.contains("\"developer_ids\"") || head.contains("\"response_created_at\"") { return true }
        return head.contains("vendor_product_id") && head.contains("variation_id")
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let root = try LocatedNode.root(bytes: bytes, file: file, maxDepth: options.maxDepth)
        if AdaptyPlaceholder.matches(root) {
            throw FormatError(AdaptyPlaceholder.refusal, file: file, position: root.position)
        }
        guard root.isObject, let meta = root["meta"], meta.isObject, let data = root["data"] else {
            throw FormatError("expected Adapty's fallback file: an object with meta and data (placements by ID, or a list of paywalls)",
                              file: file, position: root.position)
        }
        var builder = AdaptyFallbackBuilder(file: file, options: options)
        builder.account.check(root, AdaptyVocabulary.root)
        builder.account.check(meta, AdaptyVocabulary.meta)
        if let version = meta["version"], version.int.map({ !AdaptyVocabulary.versions.contains($0) }) ?? true {
            builder.issues.append(KeyAccount.unknownVersion("Adapty fallback file", found: version.text ?? version.article,
                                                            known: "1 to \(AdaptyVocabulary.versions.upperBound)", at: version.position, path: version.path))
        }
        if data.isArray {
            try builder.addJSONAPI(data)
            try builder.addCatalogue(meta["products"])
        } else if case .object(let members) = data.node.value {
            for member in members {
                guard let placement = data[member.key] else { continue }
                try builder.addPlacement(member.key, placement)
            }
        } else {
            throw FormatError("the data of Adapty's fallback file is \(data.article); expected the placements (an object) or a list of paywalls",
                              file: file, position: data.position, path: data.path)
        }
        return builder.catalog()
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

/// Adapty's placeholder fallback, `{"version": "1.0", "paywalls": []}`, as Adapty's Capacitor
/// and React Native example apps ship it: no `meta`, no placements.
enum AdaptyPlaceholder {
    static let refusal = "this is Adapty's placeholder fallback file ({version, paywalls: []}, as Adapty's example apps ship it), "
        + "not a fallback file the Adapty dashboard exports: it holds no placements, paywalls or products, and Adapty's SDKs do "
        + "not read it; export the fallback file from the Adapty dashboard (Placements → Fallbacks) and check that"

    /// Whether the whole file (its head is all of it) is the placeholder.
    static func matches(_ head: String) -> Bool {
        guard head.contains("\"paywalls\""), head.contains("\"version\""),
              let object = try? JSONSerialization.jsonObject(with: Data(head.utf8)) as? [String: Any] else { return false }
        return Set(object.keys) == ["version", "paywalls"] && object["paywalls"] is [Any]
    }

    static func matches(_ root: LocatedNode) -> Bool {
        guard case .object(let members) = root.node.value else { return false }
        return Set(members.map(\.key)) == ["version", "paywalls"] && root["paywalls"]?.isArray != false
    }
}

/// The paywalls of an Adapty fallback file, gathered shape by shape.
private struct AdaptyFallbackBuilder {
    let file: String
    let options: ReadOptions
    /// The store the file's name gives (`android`, `ios`).
    let store: Store?
    var paywall = Paywall(platform: "Adapty")
    var productIndex: [String: Int] = [:]
    /// Vendor product IDs some paywall names with a base plan, so that the catalogue's entry of
    /// the same subscription (without one) is not a second product.
    var vendorsWithPlans = Set<String>()
    var grants: [String: (position: Position, keys: [String])] = [:]
    var grantOrder: [String] = []
    /// Whether any product carries `access_level_id` (files before version 8 have none: their
    /// entitlements are not known).
    var statesAccessLevels = false
    /// Keys of the file Tally neither reads nor skips on purpose.
    var account = KeyAccount()
    var issues: [SourceIssue] = []

    init(file: String, options: ReadOptions) {
        self.file = file
        self.options = options
        let name = (file as NSString).lastPathComponent.lowercased()
        store = name.contains("android") ? .googlePlay : name.contains("ios") ? .appStore : nil
    }

    /// Versions before 5: `data [{type, id, attributes {developer_id, paywall_name, products}}]`.
    mutating func addJSONAPI(_ list: LocatedNode) throws {
        var byPlacement: [(key: String, paywalls: [LocatedNode])] = []
        for entry in list.elements {
            account.check(entry, AdaptyVocabulary.resource)
            guard let attributes = entry["attributes"], attributes.isObject else {
                throw FormatError("a paywall of Adapty's fallback file without attributes", file: file, position: entry.position, path: entry.path)
            }
            guard let placement = attributes["developer_id"]?.nonEmptyText else {
                throw FormatError("a paywall of Adapty's fallback file without developer_id (its placement)",
                                  file: file, position: attributes.position, path: attributes.path)
            }
            if let index = byPlacement.firstIndex(where: { $0.key == placement }) {
                byPlacement[index].paywalls.append(attributes)
            } else {
                byPlacement.append((placement, [attributes]))
            }
        }
        for (key, paywalls) in byPlacement {
            try addPaywalls(paywalls, placement: key)
        }
    }

    /// `meta.products[]` of the JSON:API shapes: every product of the app, shown or not.
    mutating func addCatalogue(_ list: LocatedNode?) throws {
        for node in list?.elements ?? [] {
            guard let vendor = node["vendor_product_id"]?.nonEmptyText else {
                throw FormatError("a product of meta.products without vendor_product_id", file: file, position: node.position, path: node.path)
            }
            account.check(node, AdaptyVocabulary.product)
            if node["base_plan_id"]?.nonEmptyText == nil, vendorsWithPlans.contains(vendor) { continue }
            _ = try addProduct(node, vendor: vendor)
        }
    }

    /// One placement's value: `{meta, data [...]}` (8 and later), a list of paywalls (5, 6), or
    /// that list written as a string of JSON (5).
    mutating func addPlacement(_ key: String, _ value: LocatedNode) throws {
        var value = value
        if case .scalar(let text, .string) = value.node.value {
            let inner = try LocatedNode.root(bytes: Array(text.utf8), file: file, maxDepth: options.maxDepth)
            value = LocatedNode(node: Self.relocated(inner.node, to: value.position), path: value.path)
        }
        var paywalls: [LocatedNode] = []
        let entries: [LocatedNode]
        if value.isArray {
            entries = value.elements
        } else if value.isObject, let data = value["data"], data.isArray {
            account.check(value, AdaptyVocabulary.placement)
            if let meta = value["meta"] { account.check(meta, AdaptyVocabulary.placementMeta) }
            entries = data.elements
        } else {
            throw FormatError("placement \(key) is \(value.article) without a data list; expected its paywalls",
                              file: file, position: value.position, path: value.path)
        }
        for entry in entries {
            let item = entry["attributes"].flatMap { $0.isObject ? $0 : nil } ?? entry
            if item.path != entry.path { account.check(entry, AdaptyVocabulary.resource) }
            if item.node.member("products") != nil {
                paywalls.append(item)
            } else if let variations = item["variations"] {
                account.check(item, AdaptyVocabulary.flow)
                paywalls += variations.elements
            } else if item["onboarding_id"] != nil || item["onboarding_builder"] != nil {
                continue  // An onboarding: screens, no products.
            } else {
                throw FormatError("an entry of placement \(key) that is neither a paywall (products), a flow (variations) nor an onboarding",
                                  file: file, position: entry.position, path: entry.path)
            }
        }
        try addPaywalls(paywalls, placement: key)
    }

    private mutating func addPaywalls(_ paywalls: [LocatedNode], placement: String) throws {
        for item in paywalls {
            account.check(item, AdaptyVocabulary.paywall)
            let paywallName = item["paywall_name"]?.nonEmptyText ?? item["paywall_id"]?.nonEmptyText ?? "?"
            var offering = PaywallOffering(key: paywalls.count > 1 ? "\(placement)/\(paywallName)" : placement, position: item.position)
            for (index, node) in (item["products"]?.elements ?? []).enumerated() {
                guard let vendor = node["vendor_product_id"]?.nonEmptyText else {
                    throw FormatError("a paywall product without vendor_product_id", file: file, position: node.position, path: node.path)
                }
                account.check(node, AdaptyVocabulary.product)
                if node["base_plan_id"]?.nonEmptyText != nil { vendorsWithPlans.insert(vendor) }
                let key = try addProduct(node, vendor: vendor)
                offering.packages.append(PaywallPackage(key: node["adapty_product_id"]?.nonEmptyText ?? "#\(index + 1)",
                                                        productKeys: [key], position: node.position))
                if node.node.member("access_level_id") != nil { statesAccessLevels = true }
                if let level = node["access_level_id"]?.nonEmptyText {
                    if grants[level] == nil { grantOrder.append(level); grants[level] = (node.position, []) }
                    if grants[level]?.keys.contains(key) == false { grants[level]?.keys.append(key) }
                }
            }
            paywall.offerings.append(offering)
        }
    }

    /// Adds a product (once per store ID) and returns its key.
    private mutating func addProduct(_ node: LocatedNode, vendor: String) throws -> String {
        let basePlan = node["base_plan_id"]?.nonEmptyText
        let store = self.store ?? (basePlan != nil ? .googlePlay : nil)
        let storeID = basePlan.map { "\(vendor):\($0)" } ?? vendor
        let key = "\(store?.rawValue ?? "") \(storeID)"
        guard productIndex[key] == nil else { return key }
        productIndex[key] = paywall.products.count
        var product = PaywallProduct(key: key, storeID: storeID, store: store, position: node.position)
        if let type = node["product_type"] {
            (product.kind, product.period) = AdaptyFallbackReader.kind(type.text)
            if product.kind != nil { product.kindPosition = type.position }
            if product.period != nil { product.periodPosition = type.position }
        } else if let consumable = node["is_consumable"], consumable.bool == true {
            // Older files say only whether a product is consumable; `false` leaves the kind open.
            product.kind = .consumable
            product.kindPosition = consumable.position
        }
        paywall.products.append(product)
        return key
    }

    func catalog() -> Catalog {
        var paywall = self.paywall
        paywall.entitlements = statesAccessLevels
            ? grantOrder.map { PaywallEntitlement(key: $0, productKeys: grants[$0]?.keys ?? [], position: grants[$0]?.position ?? .unknown) }
            : nil
        return PaywallCatalog.build(paywall, file: file, format: .adapty, issues: issues + account.issues)
    }

    /// A tree read from a string of JSON, every value placed where the string is written.
    static func relocated(_ node: DocNode, to position: Position) -> DocNode {
        switch node.value {
        case .object(let members):
            return DocNode(.object(members.map { ($0.key, relocated($0.node, to: position)) }), position: position)
        case .array(let items):
            return DocNode(.array(items.map { relocated($0, to: position) }), position: position)
        case .scalar:
            return DocNode(node.value, position: position)
        }
    }
}
