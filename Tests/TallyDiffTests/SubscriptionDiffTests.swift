import TallyDiff
import TallyReport
import TallyModel
import Testing

@Suite("Subscriptions: period and offers")
struct SubscriptionDiffTests {
    @Test("A period change on an existing subscription needs attention; P7D is P1W")
    func period() throws {
        let changed = diff([.subscription("s", period: "P1M")], [.subscription("s", period: "P1Y")])
        let change = try #require(changed.allChanges.first)
        #expect(lines(changed) == ["s › period: changed"])
        #expect(change.attention == [.subscriptionPeriodChange])
        #expect(change.summary == "renews every 1 month → 1 year (P1M → P1Y)")
        #expect(!diff([.subscription("s", period: "P1W")], [.subscription("s", period: "P7D")]).hasChanges)
    }

    @Test("Introductory offer added, removed, changed; a removed trial needs attention")
    func introductoryOffer() throws {
        #expect(lines(diff([.subscription("s")], [.subscription("s", intro: .test())])) == ["s › introductory offer: added"])
        let removed = diff([.subscription("s", intro: .test())], [.subscription("s")])
        #expect(removed.allChanges.first?.attention == [.trialRemoved])
        let paidRemoved = diff([.subscription("s", intro: .test(.payUpFront, "P1M", price: "0.99"))], [.subscription("s")])
        #expect(paidRemoved.allChanges.first?.attention == [])
        let changed = diff([.subscription("s", intro: .test(.freeTrial, "P1W"))], [.subscription("s", intro: .test(.freeTrial, "P3D"))])
        let change = try #require(changed.allChanges.first)
        #expect(change.summary == "free trial of 1 week → free trial of 3 days (period 1 week → 3 days)")
    }

    @Test("A trial that becomes shorter or stops being free needs attention; a longer one does not", arguments: [
        (Offer.test(.freeTrial, "P1M"), Offer.test(.freeTrial, "P1W"), [Attention.trialShortened]),
        (Offer.test(.freeTrial, "P1W", periods: 2), Offer.test(.freeTrial, "P1W"), [.trialShortened]),
        (Offer.test(.freeTrial, "P1M"), Offer.test(.freeTrial, "P4W"), [.trialShortened]),
        (Offer.test(.freeTrial, "P1W"), Offer.test(.freeTrial, "P1M"), []),
        (Offer.test(.freeTrial, "P1W"), Offer.test(.payAsYouGo, "P1W", price: "0.99"), [.trialRemoved]),
        (Offer.test(.payAsYouGo, "P1M", periods: 3, price: "1.99"), Offer.test(.payAsYouGo, "P1M", periods: 2, price: "1.99"), []),
    ])
    func trialAttention(old: Offer, new: Offer, expected: [Attention]) {
        let result = diff([.subscription("s", intro: old)], [.subscription("s", intro: new)])
        #expect(result.allChanges.first?.attention == expected)
    }

    @Test("Promotional offers are matched by offer ID, in any order")
    func promotionalOffers() throws {
        // Given
        let a = Offer.test(.payUpFront, "P1M", price: "0.99", id: "winback"), b = Offer.test(.freeTrial, "P1W", id: "loyal")
        let c = Offer.test(.payUpFront, "P1M", price: "1.49", id: "winback"), d = Offer.test(.freeTrial, "P2W", id: "new")
        // When
        let reordered = diff([.subscription("s", promos: [a, b])], [.subscription("s", promos: [b, a])])
        let result = diff([.subscription("s", promos: [a, b])], [.subscription("s", promos: [d, c])])
        // Then
        #expect(!reordered.hasChanges)
        #expect(lines(result) == [
            "s › promotional offers › loyal: removed", "s › promotional offers › new: added", "s › promotional offers › winback: changed",
        ])
        let changed = try #require(result.allChanges.last)
        #expect(changed.noteText == "price 0.99 USD → 1.49 USD")
    }

    @Test("Offers are not compared when the product stops being a subscription; the kind change says it")
    func kindChangeHidesSubscriptionFields() {
        let result = diff([.subscription("s", intro: .test())], [.test("s", kind: .nonRenewingSubscription, prices: ["USA": "4.99"])])
        #expect(lines(result) == ["(catalogue) › subscription groups › g: removed", "s › kind: changed"])
    }
}
