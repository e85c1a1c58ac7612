import Foundation
import Testing
import TallyModel

/// Money for people keeps its currency's minor units: `10.90 BRL`, `160 JPY`, `1.500 KWD`.
@Suite struct MoneyTextTests {
    @Test(arguments: [
        ("10.9", "BRL", "10.90 BRL"), ("12.90", "BRL", "12.90 BRL"), ("160", "JPY", "160 JPY"), ("19", "USD", "19.00 USD"),
        ("1.5", "KWD", "1.500 KWD"), ("0.995", "USD", "0.995 USD"), ("-2", "EUR", "-2.00 EUR"),
    ])
    func minorUnits(amount: String, currency: String, expected: String) throws {
        let money = Money(amount: try #require(DecimalText.parse(amount)), currency: currency)
        #expect(money.description == expected)
    }
}
