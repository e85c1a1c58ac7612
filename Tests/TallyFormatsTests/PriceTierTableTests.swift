import Foundation
import Testing
import TallyFormats
import TallyModel

@Suite struct PriceTierTableTests {
    @Test func columnsInAnyOrderWithSemicolonsQuotesBOMAndCRLF() throws {
        let text = "\u{FEFF}territory;price;tier;note\r\nUSA;0.99;1;\"first; cheapest\"\r\n\"JPN\";\"160\";1;\r\nUSA;1.99;2;\r\n"
        let table = try PriceTierTable.parse(text: text, file: "tiers.csv")
        #expect(table.tiers == [1, 2])
        let first = try #require(table.entries(tier: 1))
        #expect(first.map(\.territory.code) == ["USA", "JPN"])
        #expect(first.map(\.amount) == [Decimal(string: "0.99")!, 160])
        #expect(first.map(\.line) == [2, 3])
        #expect(table.entries(tier: 3) == nil)
    }

    @Test func blankLinesAreSkipped() throws {
        let table = try PriceTierTable.parse(text: "tier,territory,price\n\n5,GBR,4.99\n", file: "t.csv")
        #expect(table.entries(tier: 5)?.first?.amount == Decimal(string: "4.99")!)
    }

    @Test(arguments: [
        ("tier,territory,price\n1,USA,$0.99\n", 2, "column price", "not a decimal number"),
        ("tier,territory,price\none,USA,0.99\n", 2, "column tier", "not a whole number"),
        ("tier,territory,price\n1,US,0.99\n", 2, "column territory", "not an App Store storefront code"),
        ("tier,territory,price\n1,USA,0.99\n1,USA,1.09\n", 3, "column territory", "priced twice (first on line 2)"),
        ("tier,country,amount\n1,USA,0.99\n", 1, nil, "naming the columns tier, territory and price"),
        ("tier,territory,price\n", 1, nil, "no rows"),
    ] as [(String, Int, String?, String)])
    func errorsNameTheRowAndColumn(_ text: String, line: Int, path: String?, message: String) throws {
        do {
            _ = try PriceTierTable.parse(text: text, file: "tiers.csv")
            Issue.record("expected an error for \(text)")
        } catch let error as FormatError {
            #expect(error.location.file == "tiers.csv")
            #expect(error.location.line == line, "\(error)")
            if let path { #expect(error.location.path?.contains(path) == true, "\(error)") }
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func aMissingFileIsAnInputError() {
        #expect(throws: FormatError.self) { try PriceTierTable.load(path: "/nonexistent/tiers.csv") }
    }
}
