import Foundation
import Testing
import TallyFormats
import TallyModel

/// A snapshot keeps each product's store state, and keeps the products it leaves out by state whose
/// state waits on the team, read whole, for the store-state rule (issue 28 item 6).
@Suite struct SnapshotStoreStateTests {
    /// A scratch copy of examples/review-readiness/snapshot with the in-app purchase in
    /// MISSING_METADATA and the subscription REJECTED.
    static func snapshot() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tally-states-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Fixtures.repo("examples/review-readiness/snapshot")), to: directory)
        try replace(in: directory.appendingPathComponent("01-inAppPurchasesV2.json"), "\"productId\": \"com.lumen.app.gems.100\",\n        \"inAppPurchaseType\": \"CONSUMABLE\",\n        \"state\": \"APPROVED\"",
                    "\"productId\": \"com.lumen.app.gems.100\",\n        \"inAppPurchaseType\": \"CONSUMABLE\",\n        \"state\": \"MISSING_METADATA\"")
        try replace(in: directory.appendingPathComponent("10-subscriptionGroups.json"), "\"state\": \"APPROVED\",\n        \"subscriptionPeriod\"", "\"state\": \"REJECTED\",\n        \"subscriptionPeriod\"")
        return directory
    }

    static func replace(in file: URL, _ old: String, _ new: String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text.contains(old), "\(file.lastPathComponent) lacks \(old)")
        try text.replacingOccurrences(of: old, with: new).write(to: file, atomically: true, encoding: .utf8)
    }

    @Test func productsWaitingOnTheTeamAreHeldWithTheirPricesAvailabilityAndLocalizations() throws {
        let directory = try Self.snapshot()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = try SourceLoader.load(path: directory.path)
        #expect(catalog.products.map(\.id) == ["com.lumen.app.starter"])
        #expect(catalog.products.map(\.storeState) == ["APPROVED"])
        #expect(catalog.hiddenByState == ["MISSING_METADATA": 1, "REJECTED": 1])
        let held = Dictionary(uniqueKeysWithValues: catalog.heldByState.map { ($0.id, $0) })
        let gems = try #require(held["com.lumen.app.gems.100"])
        #expect(gems.storeState == "MISSING_METADATA")
        #expect(gems.availability?.territories.map(\.code).contains("CAN") == true)
        #expect(gems.price(in: .usa) != nil)
        #expect(gems.localizations.map(\.locale).contains("de-DE"))
        #expect(held["com.lumen.app.pro.annual"]?.storeState == "REJECTED")
        #expect(held["com.lumen.app.pro.annual"]?.period == Period(iso8601: "P1Y"))
        // A held subscription is no member of the group the catalogue lists.
        #expect(catalog.groups.allSatisfy { !$0.productIDs.contains("com.lumen.app.pro.annual") })
        #expect(catalog.issues.isEmpty)
    }
}
