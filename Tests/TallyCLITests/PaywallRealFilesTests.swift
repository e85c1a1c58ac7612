import Foundation
import Testing

/// Issue 38, "nothing dropped without a word", for the paywall platforms: every real file under
/// ../shared/fixtures/realworld/paywall/ and the Wisdom app's Flutter assets is read exactly
/// (`tally show --format json` lists as many products as the file holds, counted here from the
/// raw JSON by the file's shape) or refused (exit 2) with a sentence that says what the file is.
@Suite(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent: the real paywall files are skipped"))
struct PaywallRealFilesTests {
    static let realWorld = CLIRunner.shared.appendingPathComponent("fixtures/realworld")

    /// Every file under the two folders, relative to the real-world folder.
    static var files: [String] {
        guard CLIRunner.sharedAvailable else { return [] }
        return ["paywall", "apps/wisdom-flutter-adapty/assets"].flatMap { folder -> [String] in
            let enumerator = FileManager.default.enumerator(atPath: realWorld.appendingPathComponent(folder).path)
            let names = (enumerator?.allObjects as? [String]) ?? []
            return names.filter { !$0.hasPrefix(".") && $0.contains(".") }.map { "\(folder)/\($0)" }
        }.sorted()
    }

    /// Files that hold no product list Tally reads, and the words of their refusal.
    static let refused: [String: String] = [
        "paywall/adapty-fallback-placeholder-capacitor.json": "this is Adapty's placeholder fallback file",
        "paywall/revenuecat-test-store-product-details.json": "this is a RevenueCat product_details response",
        // SOURCES.tsv: a museum-ticket app's items, named offerings.json; no reader claims it, and
        // the catalogue reader's refusal names its keys as a server's own file.
        "paywall/not-revenuecat-offerings.json": "it holds \"items\", none of a catalogue's keys; a server's own file",
        // SOURCES.tsv: the app's strings.
        "apps/wisdom-flutter-adapty/assets/translations/en-US.json": "none of a catalogue's keys; a server's own file",
    ]

    /// Files that truly hold no product, and why.
    static let empty: [String: String] = [
        // meta.version 11 with data {} and developer_ids []: the Unity demo's fallback before any placement.
        "paywall/adapty-fallback-v11-empty-unity-ios.json": "Adapty fallback without placements",
    ]

    @Test(arguments: files)
    func everyProductIsReadOrTheFileIsRefusedByName(_ file: String) throws {
        let path = Self.realWorld.appendingPathComponent(file).path
        let output = try CLIRunner.run(["show", "--format", "json", path])
        if let words = Self.refused[file] {
            #expect(output.status == 2, "\(file): \(output.stdout)")
            #expect(output.stderr.contains(words), "\(file): \(output.stderr)")
            #expect(!output.stderr.contains("RevenueCat") || file.contains("revenuecat-test-store"), "\(file): \(output.stderr)")
            return
        }
        #expect(output.status == 0, "\(file): \(output.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any], "\(file)")
        let products = try #require(document["products"] as? [[String: Any]], "\(file)")
        let raw = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
        let expected = try #require(ProductEntries.ids(raw, file: file), "\(file): no shape of the test's count matches")
        #expect(Set(products.compactMap { $0["id"] as? String }) == expected, "\(file)")
        #expect(products.count == expected.count, "\(file)")
        if expected.isEmpty {
            #expect(Self.empty[file] != nil, "\(file) reads with 0 products but is not known to hold none")
        } else {
            #expect(Self.empty[file] == nil)
        }
    }

    @Test func theHybridSnapshotAgreesWithTheStoreKitFileItWasTakenAgainst() throws {
        let folder = Self.realWorld.appendingPathComponent("paywall")
        let output = try CLIRunner.run(["check", "--no-config", folder.appendingPathComponent("revenuecat-hybrid-offerings-snapshot.json").path,
                                        folder.appendingPathComponent("revenuecat-hybrid-offerings-snapshot.sibling.storekit").path])
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        #expect(output.stdout.contains("App Store products shown, 2 in both; compared IDs, kind (2), period (2)"), "\(output.stdout)")
    }
}

/// The store products a paywall file holds, counted from the raw JSON by its shape, apart from
/// Tally's readers: an ID per store product (`product:base-plan` for a Google Play subscription).
enum ProductEntries {
    static func ids(_ raw: Any, file: String) -> Set<String>? {
        guard let root = raw as? [String: Any] else { return nil }
        if root["subscriptionGroups"] != nil || root["nonRenewingSubscriptions"] != nil { return storeKit(root) }
        if let all = root["all"] as? [String: Any] { return hybrid(all) }
        if let offerings = root["offerings"] as? [[String: Any]], root["current_offering_id"] != nil { return revenueCatV1(offerings) }
        if let products = root["products"] as? [[String: Any]], products.contains(where: { $0.keys.contains("store_id") }) {
            return qonversion(root, products: products)
        }
        if root["meta"] != nil, let data = root["data"] { return adapty(data, meta: root["meta"] as? [String: Any]) }
        return nil
    }

    static func text(_ value: Any?) -> String? {
        guard let text = value as? String, !text.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return text
    }

    static func storeKit(_ root: [String: Any]) -> Set<String> {
        var ids = Set<String>()
        for key in ["products", "nonRenewingSubscriptions"] {
            for item in root[key] as? [[String: Any]] ?? [] { if let id = text(item["productID"]) { ids.insert(id) } }
        }
        for group in root["subscriptionGroups"] as? [[String: Any]] ?? [] {
            for item in group["subscriptions"] as? [[String: Any]] ?? [] { if let id = text(item["productID"]) { ids.insert(id) } }
        }
        return ids
    }

    static func hybrid(_ all: [String: Any]) -> Set<String> {
        var ids = Set<String>()
        for case let offering as [String: Any] in all.values {
            for package in offering["availablePackages"] as? [[String: Any]] ?? [] {
                if let id = text((package["product"] as? [String: Any])?["identifier"]) { ids.insert(id) }
            }
        }
        return ids
    }

    static func revenueCatV1(_ offerings: [[String: Any]]) -> Set<String> {
        var ids = Set<String>()
        for offering in offerings {
            for package in offering["packages"] as? [[String: Any]] ?? [] {
                guard let id = text(package["platform_product_identifier"]) else { continue }
                ids.insert(text(package["platform_product_plan_identifier"]).map { "\(id):\($0)" } ?? id)
            }
        }
        return ids
    }

    /// Qonversion's SDK fallback: `products[]` and the offerings' copies; a subscription's base
    /// plan is part of its Play ID, a one-time product's (type 2 or 3) is not.
    static func qonversion(_ root: [String: Any], products: [[String: Any]]) -> Set<String> {
        let copies = (root["offerings"] as? [[String: Any]] ?? []).flatMap { $0["products"] as? [[String: Any]] ?? [] }
        var ids = Set<String>()
        for product in products + copies {
            guard let storeID = text(product["store_id"]) else { continue }
            let oneTime = [2, 3].contains(product["type"] as? Int ?? -1)
            ids.insert(text(product["base_plan_id"]).map { oneTime ? storeID : "\(storeID):\($0)" } ?? storeID)
        }
        return ids
    }

    /// Adapty's fallback: every paywall's products (JSON:API `data[].attributes`, placements'
    /// lists, strings of JSON, `{meta, data}` with flows' variations), and `meta.products[]`.
    static func adapty(_ data: Any, meta: [String: Any]?) -> Set<String> {
        var paywalls: [[String: Any]] = []
        func collect(_ value: Any) {
            if let string = value as? String, let parsed = try? JSONSerialization.jsonObject(with: Data(string.utf8)) {
                collect(parsed)
            } else if let list = value as? [Any] {
                for case let entry as [String: Any] in list {
                    let item = entry["attributes"] as? [String: Any] ?? entry
                    if item["products"] != nil { paywalls.append(item) }
                    paywalls += item["variations"] as? [[String: Any]] ?? []
                }
            } else if let placement = value as? [String: Any], let entries = placement["data"] {
                collect(entries)
            }
        }
        if let list = data as? [Any] {
            collect(list)
        } else if let placements = data as? [String: Any] {
            placements.values.forEach(collect)
        }
        var ids = Set<String>()
        var withPlans = Set<String>()
        for product in paywalls.flatMap({ $0["products"] as? [[String: Any]] ?? [] }) {
            guard let vendor = text(product["vendor_product_id"]) else { continue }
            if let plan = text(product["base_plan_id"]) {
                withPlans.insert(vendor)
                ids.insert("\(vendor):\(plan)")
            } else {
                ids.insert(vendor)
            }
        }
        for product in meta?["products"] as? [[String: Any]] ?? [] {
            guard let vendor = text(product["vendor_product_id"]), !withPlans.contains(vendor) else { continue }
            ids.insert(vendor)
        }
        return ids
    }
}
