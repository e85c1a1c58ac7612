import Testing
import TallyModel

/// Google Play regions (ISO 3166-1 alpha-2) and App Store storefronts (alpha-3): one table.
@Suite struct TerritoryRegionTests {
    @Test(arguments: [("US", "USA"), ("GB", "GBR"), ("DE", "DEU"), ("JP", "JPN"), ("KR", "KOR"), ("CH", "CHE"), ("AT", "AUT"),
                      ("ZA", "ZAF"), ("XK", "XKX"), ("CO", "COL"), ("MX", "MEX")])
    func regionsBecomeStorefronts(_ region: String, _ storefront: String) throws {
        let territory = try #require(Territory(region: region))
        #expect(territory.code == storefront)
        #expect(territory.region == region)
    }

    @Test(arguments: ["us", "USA", "U", "", "ZZ", "UK", "G B"])
    func otherTextIsNotARegion(_ text: String) {
        #expect(Territory(region: text) == nil)
    }

    @Test func theStorefrontDecidesTheCurrencyAsBefore() throws {
        #expect(try #require(Territory(region: "GB")).currency == "GBP")
        #expect(Territory.notARegion("UK").contains("alpha-2"))
    }
}
