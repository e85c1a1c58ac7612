import Foundation
import TallyDiff
import TallyModel
@testable import TallyReport
import Testing

/// The fast path for changed prices writes the same bytes as the general one, for every kind
/// of price change: up, down, same amount written differently, another currency, from zero,
/// with reasons for attention, unknown positions, a product ID that needs escaping.
@Suite struct PriceChangeJSONTests {
    static func money(_ text: String, _ currency: String?) -> Money {
        Money(amount: DecimalText.parse(text) ?? 0, currency: currency)
    }

    static let changes: [Change] = [
        Change(.price, .changed, productID: "com.a.pro", territory: .usa, old: .money(money("4.99", "USD")), new: .money(money("5.99", "USD")),
               oldPosition: Position(line: 3, column: 7), newPosition: Position(line: 4, column: 9), attention: [.subscriptionPriceIncrease]),
        Change(.price, .changed, productID: "com.a.pro", territory: Territory("JPN"), old: .money(money("1600", "JPY")), new: .money(money("160", "JPY")),
               oldPosition: Position(line: 10, column: 1), newPosition: .unknown, attention: [.suspiciousPrice, .subscriptionPriceIncrease]),
        Change(.price, .changed, productID: "com.\"quoted\"\\id", territory: Territory("COL"), old: .money(money("1.5", "USD")), new: .money(money("1.50", "USD"))),
        Change(.price, .changed, productID: "com.a.coins", territory: Territory("MEX"), old: .money(money("0.99", "USD")), new: .money(money("19", "MXN"))),
        Change(.price, .changed, productID: "com.a.coins", territory: .usa, old: .money(money("0", "USD")), new: .money(money("0.99", "USD")),
               priceDirection: .up),
        Change(.price, .changed, productID: "com.a.coins", territory: Territory("GBR"), old: .money(money("0.333", nil)), new: .money(money("0.1", nil))),
    ]

    @Test func theFastPathWritesWhatTheGeneralPathWrites() throws {
        let old = DiffSource(file: "v1/App.storekit", format: .storeKit, storefront: .usa, productCount: 2)
        let new = DiffSource(file: "v2/\"odd\" name.json", format: .tallyCatalogJSON, storefront: .usa, productCount: 2)
        let diff = CatalogDiff(old: old, new: new)
        var fast = PriceChangeJSON(diff)
        for change in Self.changes + Self.changes {  // twice: the second time from the tables
            var expected = JSONWriter(), got = JSONWriter()
            DiffJSONReporter.write(change, diff, &expected)
            #expect(fast.write(change, &got))
            #expect(got.text == expected.text)
        }
    }

    @Test func otherChangesAreLeftToTheGeneralPath() {
        let diff = CatalogDiff(old: DiffSource(file: "a", format: .storeKit, storefront: .usa, productCount: 1),
                               new: DiffSource(file: "b", format: .storeKit, storefront: .usa, productCount: 1))
        var fast = PriceChangeJSON(diff)
        var json = JSONWriter()
        let keyed = Change(.price, .changed, productID: "p", key: "USA → COL", old: .money(Self.money("1", "USD")), new: .money(Self.money("2", "COP")))
        let added = Change(.price, .added, productID: "p", territory: .usa, new: .money(Self.money("1", "USD")))
        let level = Change(.level, .changed, productID: "p", old: .level(1), new: .level(2))
        for change in [keyed, added, level] { #expect(!fast.write(change, &json)) }
        #expect(json.bytes.isEmpty)
    }
}
