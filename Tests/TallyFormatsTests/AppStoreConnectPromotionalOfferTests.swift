import Foundation
import Testing
import TallyFormats
import TallyModel

/// Promotional offers in App Store Connect exports (`subscriptionPromotionalOffers` priced through
/// `subscriptionPromotionalOfferPrices`), and the manifest a `tally fetch` snapshot carries.
@Suite struct AppStoreConnectPromotionalOfferTests {
    static let calmly = Fixtures.repo("Tests/TallyCLITests/Fixtures/app-store-connect/calmly")
    static let promotional = Fixtures.repo("Tests/TallyFetchTests/Fixtures/promotional-offers")

    /// The Calmly export with its promotional-offer pages and a snapshot manifest, in a temporary folder.
    static func snapshot() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-asc-promo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for source in [calmly, promotional] {
            for name in try FileManager.default.contentsOfDirectory(atPath: source) {
                try FileManager.default.copyItem(atPath: (source as NSString).appendingPathComponent(name),
                                                 toPath: folder.appendingPathComponent(name).path)
            }
        }
        try #"{"format": "tally-snapshot/1", "store": "app-store-connect"}"#
            .write(to: folder.appendingPathComponent(SnapshotFolder.manifestName), atomically: true, encoding: .utf8)
        return folder
    }

    @Test func promotionalOffersAreReadWithTheirOfferCodesAndUSAPrices() throws {
        let folder = try Self.snapshot()
        defer { try? FileManager.default.removeItem(at: folder) }
        var options = ReadOptions()
        options.today = "2025-06-01"
        let catalog = try SourceLoader.load(path: folder.path, options: options)
        #expect(catalog.parts.count == 26 + 14, "the manifest is not a page")
        #expect(catalog.knownFields.contains(.promotionalOffers))
        let annual = try #require(catalog.productsByID["com.calmly.app.plus.annual"])
        #expect(annual.promotionalOffers.map(\.id) == ["plus_annual_winback_half", "plus_annual_retention_3m"])
        let winback = try #require(annual.promotionalOffers.first)
        #expect(winback.mode == .payUpFront && winback.period == Period(iso8601: "P1Y") && winback.periods == 1)
        #expect(winback.price == Money(amount: Decimal(string: "34.99")!, currency: "USD") && winback.territory == .usa)
        let retention = try #require(annual.promotionalOffers.last)
        #expect(retention.mode == .freeTrial && retention.period == Period(iso8601: "P3M") && retention.price == nil)
        let monthly = try #require(catalog.productsByID["com.calmly.app.plus.monthly"]?.promotionalOffers.first)
        #expect(monthly.mode == .payAsYouGo && monthly.periods == 2 && monthly.price?.amount == Decimal(string: "4.99")!)
        #expect(catalog.productsByID["com.calmly.app.plus.weekly"]?.promotionalOffers.isEmpty == true)
    }

    @Test func aManifestAloneIsNoExport() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-asc-manifest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "{}".write(to: folder.appendingPathComponent(SnapshotFolder.manifestName), atomically: true, encoding: .utf8)
        #expect(!AppStoreConnectReader.claims(directory: folder.path))
    }
}
