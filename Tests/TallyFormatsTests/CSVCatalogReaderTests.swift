import Foundation
import Testing
import TallyFormats
import TallyModel

@Suite struct CSVCatalogReaderTests {
    static let header = "product_id,kind,group,level,period,territory,price,intro_type,intro_period,intro_count,intro_price"

    static func read(_ text: String, as name: String = "prices.csv") throws -> Catalog {
        try SourceLoader.load(bytes: Array(text.utf8), file: name)
    }

    static func error(_ text: String, as name: String = "prices.csv") -> FormatError? {
        Fixtures.error(text, as: name)
    }

    @Test func rowsOfOneProductMergeIntoOneProduct() throws {
        let catalog = try Self.read("""
        \(Self.header)
        com.a.coins,consumable,,,,USA,0.99,,,,
        com.a.coins,consumable,,,,JPN,160,,,,
        com.a.pro.yearly,auto-renewable-subscription,pro,1,P1Y,USA,49.99,free-trial,P1W,1,
        com.a.pro.yearly,auto-renewable-subscription,pro,1,P1Y,GBR,44.99,free-trial,P1W,1,
        com.a.pro.monthly,auto-renewable-subscription,pro,2,P1M,USA,4.99,pay-as-you-go,P1M,3,1.99
        """)
        #expect(catalog.format == .csv)
        #expect(catalog.products.map(\.id) == ["com.a.coins", "com.a.pro.yearly", "com.a.pro.monthly"])
        #expect(catalog.knownFields == [.id, .kind, .group, .level, .period, .prices, .introductoryOffer])
        let coins = catalog.products[0]
        #expect(coins.prices.map(\.territory.code) == ["USA", "JPN"])
        #expect(coins.prices.map { Money.plain($0.money.amount) } == ["0.99", "160"])
        #expect(coins.prices.map(\.money.currency) == ["USD", "JPY"])
        #expect(coins.prices.map(\.position) == [Position(line: 2, column: 31), Position(line: 3, column: 31)])
        let yearly = catalog.products[1]
        #expect(yearly.group == GroupMembership(groupID: "pro", level: 1))
        #expect(yearly.period == Period(iso8601: "P1Y"))
        #expect(yearly.introductoryOffer?.mode == .freeTrial)
        #expect(yearly.position(of: .period) == Position(line: 4, column: 52))
        let monthly = catalog.products[2]
        #expect(monthly.introductoryOffer?.periods == 3)
        #expect(monthly.introductoryOffer?.price == Money(amount: DecimalText.parse("1.99") ?? 0, currency: "USD"))
        #expect(catalog.groups.map(\.productIDs) == [["com.a.pro.yearly", "com.a.pro.monthly"]])
    }

    @Test func columnsLeftOutAreFieldsTheCatalogueDoesNotKnow() throws {
        let catalog = try Self.read("product_id,price\ncom.a.coins,0.99\ncom.a.noads,2.99\n")
        #expect(catalog.knownFields == [.id, .prices])
        #expect(catalog.products.map { $0.price(in: .usa).map { Money.plain($0.money.amount) } } == ["0.99", "2.99"])
    }

    @Test func withoutAKindColumnAPeriodOrGroupMeansASubscription() throws {
        let catalog = try Self.read("product_id,group,period\ncom.a.coins,,\ncom.a.pro,pro,P1M\n")
        #expect(catalog.knownFields.contains(.kind) == false)
        #expect(catalog.products[1].kind == .autoRenewableSubscription)
        #expect(catalog.products[1].group?.level == 1, "without a level column, the order in the group is the level")
    }

    @Test func quotedFieldsKeepSeparatorsQuotesAndLineBreaks() throws {
        let catalog = try Self.read("""
        product_id,group,period,price
        "com.a.pro",\"Pro, \"\"the best\"\"\",P1M,"4.99"
        com.a.note,"two
        lines",P1M,1.99
        com.a.last,pro,P1W,0.99
        """)
        #expect(catalog.products.map(\.id) == ["com.a.pro", "com.a.note", "com.a.last"])
        #expect(catalog.products[0].group?.groupID == "Pro, \"the best\"")
        #expect(catalog.products[1].group?.groupID == "two\nlines")
        // The row after a field with a line break starts one line later than its row number says.
        #expect(catalog.products[2].position == Position(line: 5, column: 1))
        #expect(catalog.products[2].prices.first?.position == Position(line: 5, column: 20))
        #expect(catalog.products[0].prices.first?.position == Position(line: 2, column: 37))
    }

    @Test func aByteOrderMarkAndCRLFLineEndsAreHandled() throws {
        let text = "\u{FEFF}product_id,kind,territory,price\r\ncom.a.coins,consumable,USA,0.99\r\ncom.a.coins,consumable,GBR,0.89\r\n"
        let catalog = try Self.read(text)
        #expect(catalog.products.map(\.id) == ["com.a.coins"])
        #expect(catalog.products[0].kind == .consumable)
        #expect(catalog.products[0].prices.map(\.position.line) == [2, 3])
    }

    @Test func semicolonSeparatorsWithDecimalCommas() throws {
        let catalog = try Self.read("product_id;kind;territory;price\ncom.a.coins;consumable;DEU;\"0,99\"\ncom.a.coins;consumable;USA;1.09\n")
        #expect(catalog.products[0].prices.map { Money.plain($0.money.amount) } == ["0.99", "1.09"])
        #expect(catalog.products[0].prices.map(\.money.currency) == ["EUR", "USD"])
    }

    @Test func tabSeparatedFiles() throws {
        let catalog = try Self.read("product_id\tkind\tprice\ncom.a.coins\tconsumable\t0.99\n", as: "prices.tsv")
        #expect(catalog.format == .csv)
        #expect(catalog.products.first?.kind == .consumable)
    }

    @Test func anEmptyUnnamedColumnFromASpreadsheetIsIgnored() throws {
        let catalog = try Self.read("product_id,price,\ncom.a.coins,0.99,\n")
        #expect(catalog.knownFields == [.id, .prices])
        #expect(catalog.products.map(\.id) == ["com.a.coins"])
    }

    @Test func blankLinesAreSkippedButCounted() throws {
        let catalog = try Self.read("product_id,price\n\ncom.a.coins,0.99\n")
        #expect(catalog.products.map(\.id) == ["com.a.coins"])
        #expect(catalog.products[0].position.line == 3)
    }

    @Test func conflictingValuesAcrossRowsNameBothRows() throws {
        let error = try #require(Self.error("""
        \(Self.header)
        com.a.pro,auto-renewable-subscription,pro,1,P1M,USA,4.99,,,,
        com.a.pro,auto-renewable-subscription,pro,1,P1Y,GBR,4.49,,,,
        """))
        #expect(error.message.contains("com.a.pro has period \"P1M\" in row 2 but \"P1Y\" in row 3"), "\(error)")
        #expect(error.location.line == 3)
        #expect(error.location.column == 45)
        #expect(error.message.hasPrefix("row 3, column period:"))
    }

    @Test func theSameTerritoryTwiceNamesBothRows() throws {
        let error = try #require(Self.error("product_id,territory,price\ncom.a.coins,USA,0.99\ncom.a.coins,USA,1.99\n"))
        #expect(error.message.contains("com.a.coins has two rows for USA: rows 2 and 3"), "\(error)")
        #expect(error.location.line == 3)
    }

    @Test func anUnknownColumnSuggestsTheNearestAndListsTheColumns() throws {
        let error = try #require(Self.error("product_id,kind,prce\ncom.a.coins,consumable,0.99\n"))
        #expect(error.message.contains("unknown column \"prce\""), "\(error)")
        #expect(error.message.contains("did you mean \"price\"?"))
        #expect(error.message.contains("Tally reads: product_id, kind, group, level, period, territory, price"))
        #expect(error.location.line == 1)
        #expect(error.location.column == 17)
    }

    @Test(arguments: [
        ("kind,price\nconsumable,0.99\n", 1, "no product_id column"),
        ("product_id,kind\ncom.a,gift\n", 2, "unknown kind \"gift\""),
        ("product_id,territory,price\ncom.a,US,0.99\n", 2, "\"US\" is not an App Store storefront code"),
        ("product_id,group,level\ncom.a,pro,first\n", 2, "column level: \"first\" is not a whole number"),
        ("product_id,level\ncom.a,1\n", 2, "has a level but no group"),
        ("product_id,price\n,0.99\n", 2, "product_id is empty"),
        ("product_id,intro_type,intro_period\ncom.a,trial,P1W\n", 2, "unknown offer type \"trial\""),
        ("product_id,intro_period\ncom.a,P1W\n", 2, "has intro_period but no intro_type"),
        ("product_id,price\ncom.a,\"0.99\ncom.b,1.99\n", 2, "never closed"),
        ("product_id,price\ncom.a,0\"99\n", 2, "a quote is out of place"),
        ("product_id,product_id\na,b\n", 1, "appears twice"),
        ("\n\n", 1, "no header row"),
        ("product_id,price,\ncom.a,1,x\n", 2, "row 2 has a value in column 3, which has no name in the header"),
    ])
    func badInputIsAnErrorNamingRowAndColumn(_ text: String, _ line: Int, _ message: String) throws {
        let error = try #require(Self.error(text))
        #expect(error.message.contains(message), "\(error)")
        #expect(error.location.line == line, "\(error)")
        #expect(error.location.file == "prices.csv")
    }

    @Test func unreadableValuesBecomeLintIssuesWithTheirCell() throws {
        let catalog = try Self.read("product_id,kind,group,period,price\ncom.a.pro,auto-renewable-subscription,pro,monthly,4.99 USD\n")
        #expect(catalog.issues.map(\.rule.rawValue).sorted() == ["invalid-period", "invalid-price"])
        #expect(catalog.issues.first { $0.rule == .invalidPrice }?.position == Position(line: 2, column: 51))
        #expect(catalog.products[0].prices.isEmpty)
    }

    @Test func detectionByExtensionAndHeader() throws {
        let text = Array("product_id,price\ncom.a,1\n".utf8)
        #expect(try SourceLoader.detect(bytes: text, file: "x.csv") == CSVCatalogReader.self)
        #expect(try SourceLoader.detect(bytes: text, file: "export") == CSVCatalogReader.self)
    }
}
