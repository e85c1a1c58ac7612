import Foundation
import Testing
import TallyFormats
import TallyModel

/// The Play developer's default price through `ReadOptions`, as `TallyAssert` passes it: an
/// auto-filled CSV price is placed in the named territory, or kept out as a dropped value.
@Suite struct PlayDefaultPriceTests {
    static let csv = """
        Product ID,Published State,Purchase Type,Auto Translate,Locale; Title; Description,Auto Fill Prices,Price,Pricing Template ID
        gems_small,published,managed_by_android,false,en_US; Small gem pack; Twenty gems,true,1990000,
        hint_pack,unpublished,managed_by_android,false,en_US; Hint pack; Five hints,false,US; 990000,

        """

    static func read(_ configure: (inout ReadOptions) -> Void = { _ in }) throws -> Catalog {
        var options = ReadOptions()
        configure(&options)
        return try SourceLoader.load(bytes: Array(csv.utf8), file: "play.csv", options: options)
    }

    @Test func withoutATerritoryTheDefaultPriceIsADroppedValueWithItsRemedy() throws {
        let catalog = try Self.read()
        #expect(catalog.products.map(\.id) == ["gems_small"])
        #expect(catalog.products.first?.prices.isEmpty == true)
        let dropped = try #require(catalog.droppedValues.first)
        #expect(dropped.issue.remedy == .givePlayDefaultTerritory)
        #expect(dropped.location.line == 2)
        #expect(dropped.issue.message.contains("the price 1990000 (1.99 in the developer's default currency)"))
        #expect(catalog.hiddenByState == ["INACTIVE": 1])
    }

    @Test func aTerritoryAndCurrencyPlaceIt() throws {
        let catalog = try Self.read {
            $0.playDefaultTerritory = Territory("CAN")
            $0.playDefaultCurrency = "CAD"
        }
        let price = try #require(catalog.products.first?.prices.first)
        #expect(price.territory == Territory("CAN"))
        #expect(price.money == Money(amount: Decimal(string: "1.99")!, currency: "CAD"))
        #expect(catalog.droppedValues.isEmpty)
    }
}
