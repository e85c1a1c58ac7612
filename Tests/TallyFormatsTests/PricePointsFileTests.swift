import Foundation
import Testing
import TallyFormats
import TallyModel

/// `price-points.json` in an App Store Connect snapshot: read into the model by product ID and
/// territory, dated, written back the same; every malformed value named at its line and column.
@Suite struct PricePointsFileTests {
    static let snapshot = Fixtures.repo("examples/review-readiness/snapshot")

    @Test func readingASnapshotGivesEachProductItsPointsPerTerritory() throws {
        var options = ReadOptions()
        options.today = "2026-11-26"
        let catalog = try AppStoreConnectReader.read(directory: Self.snapshot, options: options)
        let points = try #require(catalog.pricePoints)
        #expect(points.readAt == "2026-11-20T09:30:00Z")
        #expect(points.ageInDays == 6)
        #expect(!points.isStale)
        #expect(points.file.hasSuffix("snapshot/price-points.json"))
        let jpn = try #require(points.list("com.lumen.app.gems.100", in: Territory("JPN")!))
        #expect(jpn.currency == "JPY")
        #expect(jpn.contains(160) && !jpn.contains(155))
        #expect(jpn.nearest(to: 155).below == 150 && jpn.nearest(to: 155).above == 160)
        #expect(jpn.position.line == 665)
        // The two in-app purchases share their lists; the subscription has its own (subscription points).
        #expect(points.list("com.lumen.app.starter", in: .usa) == points.list("com.lumen.app.gems.100", in: .usa))
        let annual = try #require(points.list("com.lumen.app.pro.annual", in: .usa))
        #expect(annual.position.line == 848)
        #expect(points.list("com.lumen.app.starter", in: Territory("JPN")!) == nil)
        // The file is not a page: the catalogue's parts are the pages only.
        #expect(!catalog.parts.contains { $0.file.hasSuffix("price-points.json") })
    }

    @Test func theFileWritesBackAsItWasRead() throws {
        let path = Self.snapshot + "/price-points.json"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let file = try PricePointsFile.read(bytes: bytes, file: path)
        #expect(file.lists.count == 5)
        #expect(file.products.map(\.id) == ["6600000001", "6600000002", "6700000001"])
        #expect([UInt8](file.encoded()) == bytes)
    }

    @Test func identicalListsAreKeptOnce() {
        var file = PricePointsFile(readAt: "2026-11-20T09:30:00Z")
        let usa = PricePointsFile.List(territory: .usa, currency: "USD", type: "inAppPurchasePricePoints",
                                       points: [.init(customerPrice: "0.99", proceeds: "0.69")])
        file.add(usa, type: "inAppPurchases", id: "1")
        file.add(usa, type: "inAppPurchases", id: "2")
        file.skip([Territory("AFG")!], type: "inAppPurchases", id: "2")
        #expect(file.lists.count == 1)
        #expect(file.products.count == 2)
        #expect(String(decoding: file.encoded(), as: UTF8.self).contains("{\"type\": \"inAppPurchases\", \"id\": \"2\", \"territories\": {\"USA\": 0}, \"notFetched\": [\"AFG\"]}"))
    }

    @Test(arguments: [
        ("{\"format\": \"tally-price-points/2\", \"readAt\": \"2026-11-20T09:30:00Z\"}", 1, 12, "this version of Tally reads \"tally-price-points/1\""),
        ("{\"format\": \"tally-price-points/1\",\n \"readAt\": \"yesterday\"}", 2, 12, "\"readAt\" must be an ISO 8601 time"),
        ("{\"format\": \"tally-price-points/1\", \"readAt\": \"2026-11-20T09:30:00Z\",\n \"lists\": [{\"territory\": \"usa\", \"points\": []}]}", 2, 26, "\"usa\" is not a territory"),
        ("{\"format\": \"tally-price-points/1\", \"readAt\": \"2026-11-20T09:30:00Z\",\n \"lists\": [{\"territory\": \"USA\", \"points\": [\n {\"customerPrice\": 0.99}]}]}", 3, 20, "must be an amount in a string"),
        ("{\"format\": \"tally-price-points/1\", \"readAt\": \"2026-11-20T09:30:00Z\", \"lists\": [],\n \"products\": [{\"type\": \"inAppPurchases\", \"id\": \"1\", \"territories\": {\"USA\": 0}}]}", 2, 76, "list 0 does not exist: the file has no lists"),
        ("{\"readAt\": \"2026-11-20T09:30:00Z\"}", 1, 1, "not a price points file"),
        ("{\"format\": \"tally-price-points/1\", \"readAt\": \"2026-11-20T09:30:00Z\", \"lists\": [}", 1, 80, "expected an object"),
    ])
    func aMalformedFileIsAnErrorAtItsLineAndColumn(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try PricePointsFile.read(bytes: Array(text.utf8), file: "asc/price-points.json")
            Issue.record("read without an error: \(text)")
        } catch let error as FormatError {
            #expect(error.location.file == "asc/price-points.json")
            #expect(error.location.line == line && error.location.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        } catch {
            Issue.record("not a FormatError: \(error)")
        }
    }
}
