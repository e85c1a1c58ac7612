import Foundation
import TallyReport
import Testing
import TallyCheck
import TallyModel
import TallyTestSupport

/// A finding's message keeps its values typed: the sentence for people is the parts' texts, and
/// SARIF's template gives the same sentence back once its arguments are put in.
@Suite struct FindingMessageTests {
    @Test func aPriceFindingKeepsItsProductMoneyTerritoryAndSourcesAsValues() throws {
        let result = findings([.test(price: "10.9", line: 7)], [.test(price: "12", line: 12)])
        let finding = try #require(result.first)
        #expect(finding.message == "com.example.coins costs 10.90 USD in USA in the configuration but 12.00 USD in the catalogue")
        #expect(finding.typedMessage.arguments == [
            .product("com.example.coins"), .money(Money(amount: Decimal(string: "10.9") ?? 0, currency: "USD")), .territory(.usa),
            .source("the configuration"), .money(Money(amount: 12, currency: "USD")), .source("the catalogue"),
        ])
        let template = finding.typedMessage.template
        #expect(template.text == "{0} costs {1} in {2} in {3} but {4} in {5}")
        #expect(Self.substituted(template) == finding.message)
        // The sentence a baseline file records (TallyCheck's own plain rendering) is the same.
        #expect(finding.typedMessage.baselineText == finding.message)
    }

    /// An offer reaches the reporters as a value (its money and period typed), not as words a
    /// rule baked: the sentence is the same, the argument says what it is (issue 39).
    @Test func anOfferIsAValueInTheMessage() {
        let offer = Offer.test(.payAsYouGo, "P1M", periods: 3, price: "1.99")
        let message: FindingMessage = "\(source: "the configuration") has \(offer: offer), \(source: "the catalogue") has none"
        #expect(message.text == "the configuration has pay as you go: 1.99 USD per 1 month, 3 periods, the catalogue has none")
        #expect(message.arguments.contains(.offer(offer)))
        #expect(message.template.text == "{0} has {1}, {2} has none")
        #expect(FindingMessage.Argument.offer(offer).kind == "offer")
    }

    @Test func literalBracesAreDoubledAndNeighbouringWordsMerge() {
        let message: FindingMessage = "a {b} \(product: "com.x") and \(count: 3)" + " more}"
        #expect(message.text == "a {b} com.x and 3 more}")
        #expect(message.template.text == "a {{b}} {0} and {1} more}}")
        #expect(message.template.arguments == ["com.x", "3"])
        #expect(Self.substituted(message.template) == message.text)
        #expect(message.parts.count == 5)
    }

    @Test func moneyIsWrittenInItsCurrencysMinorUnitsEverywhere() {
        let brl = Money(amount: Decimal(string: "10.9") ?? 0, currency: "BRL")
        #expect(brl.description == "10.90 BRL")
        #expect(("\(brl)" as FindingMessage).text == "10.90 BRL")
        #expect(FindingValue.money(brl).words == "10.90 BRL")
        #expect(Money.text("160", currency: "JPY") == "160 JPY")
        #expect(Money.text("0.995", currency: "USD", code: false) == "0.995")
        #expect(Money.text("10.9", currency: "BRL", minorUnits: false) == "10.9 BRL")
        #expect(Money.text("4", currency: nil) == "4")
    }

    /// SARIF 2.1.0 §3.11.5: `{n}` is argument n; `{{` and `}}` are literal braces.
    static func substituted(_ template: (text: String, arguments: [String])) -> String {
        var out = ""
        var characters = template.text.makeIterator()
        while let character = characters.next() {
            if character == "{" {
                var index = ""
                guard let next = characters.next() else { break }
                if next == "{" { out.append("{"); continue }
                index.append(next)
                while let digit = characters.next(), digit != "}" { index.append(digit) }
                out += template.arguments[Int(index) ?? 0]
            } else if character == "}" {
                _ = characters.next()
                out.append("}")
            } else {
                out.append(character)
            }
        }
        return out
    }
}
