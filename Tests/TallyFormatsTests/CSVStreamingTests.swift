import Foundation
import Testing
@testable import TallyFormats
import TallyModel

/// The streaming CSV reader: a file read through windows of a few bytes gives the same catalogue
/// (and the same errors) as the bytes read whole, and products whose rows are scattered merge.
@Suite struct CSVStreamingTests {
    static let sample = "\u{FEFF}product_id;kind;group;level;period;territory;price;intro_type;intro_period;intro_count;intro_price\r\n"
        + "com.a.coins;consumable;;;;USA;0,99;;;;\r\n"
        + "\r\n"
        + "com.a.pro;auto-renewable-subscription;\"Pro; \"\"plus\"\"\";1;P1M;USA;4.99;free-trial;P1W;1;\r\n"
        + "com.a.note;consumable;;;;\"JPN\";160;;;;\r\n"
        + "com.a.coins;consumable;;;;DEU;\"1,09\";;;;\r\n"
        + "com.a.pro;auto-renewable-subscription;\"Pro; \"\"plus\"\"\";1;P1M;GBR;  3.99 ;free-trial;P1W;1;\r\n"
        + "com.a.line;consumable;\"two\nlines\";;;USA;2.5;;;;\n"
        + "com.a.coins;consumable;;;;FRA;1.0999999999;;;;\r"
        + "com.a.coins;consumable;;;;CAN;1.29"

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-csv-\(UUID().uuidString).csv").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: [1, 2, 3, 7, 64, 1 << 20])
    func aStreamThroughAnyWindowEqualsTheWholeRead(_ chunk: Int) throws {
        let path = try Self.write(Self.sample)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let whole = try SourceLoader.load(bytes: Array(Self.sample.utf8), file: path)
        let streamed = try CSVCatalogReader.read(path: path, chunkSize: chunk)
        #expect(streamed == whole)
        #expect(whole.products.map(\.id) == ["com.a.coins", "com.a.pro", "com.a.note", "com.a.line"])
        let coins = whole.products[0]
        #expect(coins.prices.map(\.territory.code) == ["USA", "DEU", "FRA", "CAN"], "rows of a product need not follow each other")
        #expect(coins.prices.map { Money.plain($0.money.amount) } == ["0.99", "1.09", "1.0999999999", "1.29"])
        #expect(coins.prices.map(\.position.line) == [2, 6, 10, 11], "a lone CR ends a line too")
        #expect(whole.products[1].group?.groupID == "Pro; \"plus\"")
        #expect(whole.products[1].prices.map { Money.plain($0.money.amount) } == ["4.99", "3.99"])
        #expect(whole.products[3].group?.groupID == "two\nlines")
    }

    @Test func aTerritoryTwiceInAScatteredProductNamesBothRows() throws {
        // Row 4 reopens com.a.x after com.a.y; a line break inside quotes (row 3) makes lines and rows differ.
        let text = "product_id,group,territory,price\ncom.a.x,,USA,1\ncom.a.y,\"a\nb\",USA,2\ncom.a.x,,GBR,3\ncom.a.x,,USA,4\n"
        let error = try #require(Fixtures.error(text, as: "p.csv"))
        #expect(error.message.contains("com.a.x has two rows for USA: rows 2 and 5"), "\(error)")
        #expect(error.location.line == 6)
    }

    @Test func errorsFromAStreamNameTheirLine() throws {
        for (text, line, message) in [("product_id,price\ncom.a,1\ncom.b,\"2\n", 3, "never closed"),
                                      ("product_id,price\ncom.a,1\ncom.b,\"2\"x\n", 3, "a quote is out of place")] {
            let path = try Self.write(text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            for chunk in [1, 3, 1 << 20] {
                do {
                    _ = try CSVCatalogReader.read(path: path, chunkSize: chunk)
                    Issue.record("expected an error for \(text)")
                } catch let error as FormatError {
                    #expect(error.message.contains(message), "\(error)")
                    #expect(error.location.line == line, "\(error)")
                }
            }
        }
    }

    @Test func invalidUTF8NamesItsRow() throws {
        var bytes = Array("product_id,price\ncom.a,1\n".utf8)
        bytes += [0x63, 0xFF, 0x2C, 0x31, 0x0A]
        #expect(throws: FormatError.self) { try SourceLoader.load(bytes: bytes, file: "p.csv") }
    }

    @Test func nonASCIITextBeforeACellCountsCharactersForItsColumn() throws {
        let catalog = try Fixtures.load("product_id,group,period,price\ncom.a,Prö,P1M,1.99\n", as: "p.csv")
        #expect(catalog.products[0].prices.first?.position == Position(line: 2, column: 15))
    }
}
