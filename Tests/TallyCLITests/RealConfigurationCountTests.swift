import Foundation
import Testing

/// Issue 38: every real StoreKit file, product property list and App Store package under
/// `../shared/fixtures/realworld/` is read with every product it holds: `tally show --format json`
/// against a count made here from the raw file, independently of Tally's readers.
@Suite(.enabled(if: CLIRunner.sharedAvailable, "../shared is absent: the real-world product counts are skipped"))
struct RealConfigurationCountTests {
    static let root = CLIRunner.shared.appendingPathComponent("fixtures/realworld")

    static func shownCount(_ path: String) throws -> Int? {
        let output = try CLIRunner.run(["show", "--format", "json", path])
        guard output.status == 0,
              let document = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any] else { return nil }
        return (document["products"] as? [[String: Any]])?.count
    }

    /// Products of a StoreKit configuration, counted from its JSON or property-list tree.
    static func storeKitCount(_ data: Data) -> Int? {
        let tree = (try? JSONSerialization.jsonObject(with: data)) ?? (try? PropertyListSerialization.propertyList(from: data, format: nil))
        guard let root = tree as? [String: Any] else { return nil }
        var count = (root["products"] as? [Any])?.count ?? 0
        count += (root["nonRenewingSubscriptions"] as? [Any])?.count ?? 0
        for key in ["subscriptionGroups", "subscriptionSuiteGroups", "subscriptionBundleGroups"] {
            for group in root[key] as? [[String: Any]] ?? [] { count += (group["subscriptions"] as? [Any])?.count ?? 0 }
        }
        return count
    }

    /// Products of a product property list: IDs in a list, in `Products` and `Subscriptions[].Products`,
    /// or the keys of a dictionary keyed by ID.
    static func propertyListCount(_ data: Data) -> Int? {
        guard let tree = try? PropertyListSerialization.propertyList(from: data, format: nil) else { return nil }
        if let list = tree as? [Any] { return list.count }
        guard let root = tree as? [String: Any] else { return nil }
        guard let products = root["Products"] as? [Any] else { return root.count }
        let subscriptions = (root["Subscriptions"] as? [[String: Any]] ?? []).reduce(0) { $0 + (($1["Products"] as? [Any])?.count ?? 0) }
        return products.count + subscriptions
    }

    @Test func everyRealStoreKitFileIsReadWithEveryProduct() throws {
        let folder = Self.root.appendingPathComponent("storekit")
        var counted = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".storekit") {
            let path = folder.appendingPathComponent(name).path
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            if data.isEmpty {
                #expect(try CLIRunner.run(["show", path]).status == 2, "\(name): an empty file is refused")
                continue
            }
            let expected = try #require(Self.storeKitCount(data), "\(name): not a JSON or property-list tree")
            #expect(try Self.shownCount(path) == expected, "\(name): \(expected) products in the file")
            counted += 1
        }
        #expect(counted >= 23)
    }

    @Test func everyRealProductPropertyListIsReadWithEveryProduct() throws {
        let folder = Self.root.appendingPathComponent("plist")
        var counted = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".plist") {
            let path = folder.appendingPathComponent(name).path
            let expected = try #require(Self.propertyListCount(try Data(contentsOf: URL(fileURLWithPath: path))), "\(name)")
            #expect(try Self.shownCount(path) == expected, "\(name): \(expected) products in the file")
            counted += 1
        }
        #expect(counted >= 3)
    }

    @Test func everyRealAppStorePackageIsReadWithEveryProduct() throws {
        let folder = Self.root.appendingPathComponent("xml")
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".xml") {
            let path = folder.appendingPathComponent(name).path
            let text = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
            let expected = text.components(separatedBy: "<in_app_purchase>").count - 1
            #expect(expected > 0, "\(name)")
            // Products not cleared for sale are counted by `show` only when asked for.
            let output = try CLIRunner.run(["show", "--format", "json", "--include-state", "ALL", path])
            let document = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
            #expect((document["products"] as? [[String: Any]])?.count == expected, "\(name): \(expected) in_app_purchase elements")
        }
    }
}
