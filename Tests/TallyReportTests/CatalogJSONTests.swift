import Foundation
import Testing
import TallyFormats
import TallyModel
@testable import TallyReport

/// `tally show --format json`'s streaming writer (`CatalogJSON`) against the document it replaced
/// (`CatalogDocument`, encoded by Foundation's `JSONEncoder`): the same bytes for every source.
@Suite struct CatalogJSONTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let sources: [String] = [
        "configs/ExampleApp.storekit", "catalog/products.yaml",
        "Tests/TallyCLITests/Fixtures/plist/CalmlyProducts.plist",
        "Tests/TallyCLITests/Fixtures/csv/calmly-prices.csv",
        "Tests/TallyCLITests/Fixtures/app-store-package/metadata.xml",
        "Tests/TallyCLITests/Fixtures/app-store-connect/calmly",
        "Tests/TallyCLITests/Fixtures/google-play/play-pages",
        "Tests/TallyCLITests/Fixtures/writers/every-field.yaml",
        // Billing plans, win-back and code offers, localizations, suites and bundles, availability.
        "Tests/TallyCLITests/Fixtures/storekit63/Lumen-6.3.storekit",
        "Tests/TallyCLITests/Fixtures/storekit63/catalog.yaml",
        "examples/review-readiness/Lumen.storekit",
        "examples/review-readiness/snapshot",
    ]

    /// What the earlier writer wrote: the encoded document and the newline `show` adds.
    static func reference(_ catalog: Catalog) -> [UInt8] { Array((CatalogDocument(catalog).json() + "\n").utf8) }

    static func streamed(_ catalog: Catalog, threshold: Int? = nil) -> [UInt8] {
        guard let threshold else {
            var sink = ByteSink()
            CatalogJSON.write(catalog, to: &sink)
            return sink.bytes
        }
        var pieces: [UInt8] = []
        var sink = ByteSink(threshold: threshold) { piece in
            pieces += piece
            return true
        }
        CatalogJSON.write(catalog, to: &sink)
        sink.finish()
        return pieces
    }

    @Test("the same bytes as the encoded document", arguments: sources)
    func sameBytes(_ path: String) throws {
        let catalog = try SourceLoader.load(path: Self.repository.appendingPathComponent(path).path)
        let expected = Self.reference(catalog)
        #expect(Self.streamed(catalog) == expected)
        #expect(Self.streamed(catalog, threshold: 7) == expected, "handed on in pieces of about 7 bytes")
    }

    /// Every real StoreKit file (win-back offers, offer codes, billing plans, localizations): the same bytes.
    @Test func sameBytesOnEveryRealStoreKitFile() throws {
        let folder = Self.repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld/storekit")
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        var compared = 0
        for name in names.sorted() where name.hasSuffix(".storekit") {
            guard let catalog = try? SourceLoader.load(path: folder.appendingPathComponent(name).path) else { continue }
            #expect(Self.streamed(catalog) == Self.reference(catalog), "\(name)")
            compared += 1
        }
        #expect(compared >= 20)
    }

    @Test("repeated territories, escapes, empty lists and every optional key match the encoder")
    func edges() {
        let usa = Territory("USA")!, gbr = Territory("GBR")!, abc = Territory("ABC")!
        var first = Product(
            id: "a\"b\\c/d\u{1}\u{8}\u{c}\u{1f}\t\n\r é", kind: .autoRenewableSubscription, referenceName: "名前 \u{7f}",
            familyShareable: false,
            prices: [
                Price(territory: usa, money: Money(amount: Decimal(string: "4.99")!, currency: "USD"), origin: .manual),
                Price(territory: abc, money: Money(amount: Decimal(string: "-1.50")!, currency: nil)),
                Price(territory: gbr, money: Money(amount: Decimal(string: "3")!, currency: "GBP")),
                Price(territory: usa, money: Money(amount: Decimal(string: "5.990")!, currency: nil)),
                Price(territory: abc, money: Money(amount: Decimal(string: "0.000001")!, currency: "XXX"), origin: .automatic),
            ],
            period: Period(iso8601: "P7D"), group: GroupMembership(groupID: "g", groupName: "G \"one\"", level: 3),
            position: Position(line: 12, column: 3))
        var offer = Offer(mode: .payUpFront, period: Period(iso8601: "P12M")!, periods: 2, price: Money(amount: 9, currency: "USD"))
        offer.regionalPrices = [
            Price(territory: gbr, money: Money(amount: Decimal(string: "8.5")!, currency: "GBP")),
            Price(territory: usa, money: Money(amount: 9, currency: nil)),
        ]
        first.introductoryOffer = offer
        var promotional = Offer(mode: .freeTrial, period: Period(iso8601: "P3D")!, periods: 1)
        promotional.id = "promo/1"
        first.promotionalOffers = [promotional, offer]
        first.storeIDs[.googlePlay] = "play:base"
        first.priceTier = 7
        let second = Product(id: "plain", kind: .consumable)
        let catalog = Catalog(file: "x/y.json", format: .tallyCatalogJSON, defaultTerritory: gbr, products: [first, second],
                              groups: [SubscriptionGroup(id: "g", name: nil, productIDs: []), SubscriptionGroup(id: "h", name: "H", productIDs: ["a", "plain"])],
                              knownFields: [.id, .prices])
        #expect(Self.streamed(catalog) == Self.reference(catalog))
        let empty = Catalog(file: "", format: .storeKit)
        #expect(Self.streamed(empty) == Self.reference(empty))
    }
}
