import Foundation
import TallyModel

/// Reads RevenueCat's project configuration: REST API v2 responses saved as files (`tally fetch
/// revenuecat` writes them; a folder of them is one source), RevenueCat's v1 offerings shape
/// (`{current_offering_id, offerings[]}`), the hybrid SDKs' offerings map (`{all, current}`), and
/// the `store_kit_config_file` wrapper, whose `contents` is read as the StoreKit configuration it
/// is. A `product_details` response is refused by name. See docs/paywall.md.
public enum RevenueCatReader: DirectorySourceReader {
    public static let format = SourceFormat.revenueCat
    public static let extensions = ["json"]
    public static let fuzzTargets = [FuzzTarget("revenuecat", file: "02-products.json")]

    /// API v2 objects (an `object` field beside `lookup_key` or `store_identifier`), the v1
    /// offerings shape, the hybrid SDKs' offerings, a product_details response, or the StoreKit
    /// wrapper.
    public static func sniff(_ head: String, file: String) -> Bool {
        if head.contains("\"store_kit_config_file\"") { return true }
        // The hybrid SDKs' offerings map, and a product_details response (refused by name).
        if head.contains("\"packageType\"") && (head.contains("\"availablePackages\"") || head.contains("\"all\"")) { return true }
        if head.contains("\"product_details\"") && (head.contains("\"purchase_options\"") || head.contains("\"product_type\"")) { return true }
        if head.contains("\"current_offering_id\"") || (head.contains("\"offerings\"") && head.contains("\"platform_product_identifier\"")) {
            return true
        }
        guard head.contains("\"object\"") else { return false }
        // A saved error response, so that reading it says so.
        if head.contains("\"retryable\"") && head.contains("\"doc_url\"") { return true }
        return head.contains("\"lookup_key\"") || head.contains("\"store_identifier\"")
            || (head.contains("\"app_store\"") || head.contains("\"play_store\"")) && head.contains("\"project_id\"")
    }

    public static func read(bytes: [UInt8], file: String, options: ReadOptions) throws -> Catalog {
        let root = try LocatedNode.root(bytes: bytes, file: file, maxDepth: options.maxDepth)
        if root["object"]?.text == "store_kit_config_file" {
            return try StoreKitWrapper.read(root, bytes: bytes, file: file, options: options)
        }
        if root["offerings"] != nil, root["object"] == nil {
            return try RevenueCatV1.read(root, file: file)
        }
        if root["all"] != nil, root["object"] == nil {
            return try RevenueCatHybridOfferings.read(root, file: file)
        }
        if root["product_details"] != nil, root["object"] == nil {
            throw FormatError("this is a RevenueCat product_details response (GET /rcbilling/v1/subscribers/{id}/products: the "
                              + "products of RevenueCat's Web Billing or Test Store as an SDK fetches them for one customer), not the "
                              + "project's configuration: it holds no offerings, packages or entitlements, and no App Store or Google "
                              + "Play product; save the project with tally fetch revenuecat", file: file, position: root.position)
        }
        var pages = RevenueCatPages()
        try pages.add(root, file: file, shift: 0)
        return try pages.catalog(file: file, parts: [])
    }

    /// A folder with at least one RevenueCat API v2 page.
    public static func claims(directory path: String) -> Bool {
        pageNames(in: path).contains { name in
            let file = (path as NSString).appendingPathComponent(name)
            guard let head = try? SourceLoader.readBytes(path: file, prefix: 4096) else { return false }
            return sniff(String(decoding: head, as: UTF8.self), file: file)
        }
    }

    public static func read(directory path: String, options: ReadOptions) throws -> Catalog {
        var pages = RevenueCatPages()
        let (parts, display) = try SnapshotFolder.readPages(in: path, names: pageNames(in: path), options: options) { bytes, file, firstLine in
            let root = try LocatedNode.root(bytes: bytes, file: file, maxDepth: options.maxDepth)
            if root["object"]?.text == "store_kit_config_file" {
                throw FormatError("a StoreKit configuration RevenueCat generated is a source of its own (the app's configuration): "
                                  + "move it out of the folder of API pages and name it apart", file: file, position: root.position)
            }
            try pages.add(root, file: file, shift: firstLine - 1)
        }
        return try pages.catalog(file: display, parts: parts)
    }

    static func pageNames(in path: String) -> [String] {
        SnapshotFolder.pageNames(in: path, extensions: ["json"])
    }
}

/// RevenueCat's REST API v1 offerings: `{current_offering_id, offerings[] {identifier,
/// description, packages[] {identifier, platform_product_identifier,
/// platform_product_plan_identifier}}}`. It names store products by ID only: no store, no type,
/// no entitlements, except that a package with a plan names a Google Play subscription's base
/// plan (`product:plan`).
enum RevenueCatV1 {
    static func read(_ root: LocatedNode, file: String) throws -> Catalog {
        guard let list = root["offerings"], list.isArray else {
            throw FormatError("expected RevenueCat's v1 offerings: an object with an offerings list", file: file, position: root.position)
        }
        let current = root["current_offering_id"]?.nonEmptyText
        var paywall = Paywall(platform: "RevenueCat", statesCurrentOffering: true)
        var known = Set<String>()
        var account = KeyAccount()
        account.check(root, RevenueCatVocabulary.v1Root)
        for entry in list.elements {
            guard entry.isObject, let key = entry["identifier"]?.nonEmptyText else {
                throw FormatError("expected an offering with an identifier", file: file, position: entry.position, path: entry.path)
            }
            account.check(entry, RevenueCatVocabulary.v1Offering)
            var offering = PaywallOffering(key: key, isCurrent: key == current, position: entry.position)
            for item in entry["packages"]?.elements ?? [] {
                guard let packageKey = item["identifier"]?.nonEmptyText else {
                    throw FormatError("expected a package with an identifier", file: file, position: item.position, path: item.path)
                }
                account.check(item, RevenueCatVocabulary.v1Package)
                var package = PaywallPackage(key: packageKey, position: item.position)
                if let idNode = item["platform_product_identifier"], let id = idNode.nonEmptyText {
                    // Base plans are Google Play's, and only subscriptions have them.
                    let plan = item["platform_product_plan_identifier"]
                    let storeID = plan?.nonEmptyText.map { "\(id):\($0)" } ?? id
                    package.productKeys = [storeID]
                    if known.insert(storeID).inserted {
                        var product = PaywallProduct(key: storeID, storeID: storeID, position: idNode.position)
                        if let plan, plan.nonEmptyText != nil {
                            product.store = .googlePlay
                            product.kind = .subscription
                            product.kindPosition = plan.position
                        }
                        paywall.products.append(product)
                    }
                }
                offering.packages.append(package)
            }
            paywall.offerings.append(offering)
        }
        return PaywallCatalog.build(paywall, file: file, format: .revenueCat, issues: account.issues)
    }
}
