import Testing
import TallyModel

@Suite struct PeriodTests {
    @Test(arguments: [("P7D", "P1W"), ("P12M", "P1Y"), ("P14D", "P2W"), ("P24M", "P2Y"), ("P1Y6M", "P18M")])
    func equalLengthsAreEqual(_ a: String, _ b: String) throws {
        let left = try #require(Period(iso8601: a))
        let right = try #require(Period(iso8601: b))
        #expect(left == right)
        #expect(left.hashValue == right.hashValue)
    }

    @Test(arguments: [("P4W", "P1M"), ("P1W", "P1M"), ("P30D", "P1M"), ("P52W", "P1Y"), ("P3D", "P1W")])
    func weeksAndMonthsNeverMix(_ a: String, _ b: String) throws {
        #expect(try #require(Period(iso8601: a)) != (try #require(Period(iso8601: b))))
    }

    @Test(arguments: ["", "P", "1M", "PM", "P1", "P1X", "PT1H", "P-1M", "P0D", "P1M1Y", "p1m", "P1234567D", "monthly"])
    func rejectsWhatIsNotAStorePeriod(_ text: String) {
        #expect(Period(iso8601: text) == nil)
    }

    @Test func wordsShowTheUnit() throws {
        #expect(try #require(Period(iso8601: "P4W")).wordsInDays == "28 days")
        #expect(try #require(Period(iso8601: "P1M")).words == "1 month")
        #expect(try #require(Period(iso8601: "P7D")).words == "1 week")
        #expect(try #require(Period(iso8601: "P3D")).words == "3 days")
        #expect(try #require(Period(iso8601: "P12M")).words == "1 year")
        #expect(try #require(Period(iso8601: "P18M")).words == "1 year 6 months")
    }

    @Test func keepsTheLiteralAndHasACanonicalForm() throws {
        let period = try #require(Period(iso8601: "P7D"))
        #expect(period.literal == "P7D")
        #expect(period.canonical == "P1W")
        #expect(try #require(Period(iso8601: "P12M")).canonical == "P1Y")
    }

    @Test func storeAllowedValues() throws {
        #expect(Period.subscriptionPeriods.contains(try #require(Period(iso8601: "P7D"))))
        #expect(!Period.subscriptionPeriods.contains(try #require(Period(iso8601: "P3D"))))
        #expect(Period.offerPeriods.contains(try #require(Period(iso8601: "P3D"))))
        #expect(!Period.offerPeriods.contains(try #require(Period(iso8601: "P4M"))))
    }
}
