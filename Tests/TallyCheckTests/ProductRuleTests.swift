import TallyReport
import Testing
import TallyCheck
import TallyModel

@Suite struct PresenceRuleTests {
    @Test func missingOnEitherSideWithDidYouMean() {
        let result = findings(
            [.test("com.example.pro_monthly"), .test("com.example.coins"), .test("com.example.only.here")],
            [.test("com.example.pro.monthly"), .test("com.example.coins"), .test("com.example.server.only")])
        #expect(pairs(result) == [
            "missing-in-catalog com.example.only.here", "missing-in-catalog com.example.pro_monthly",
            "missing-in-config com.example.pro.monthly", "missing-in-config com.example.server.only",
        ])
        let typo = result.first { $0.productID == "com.example.pro_monthly" }
        #expect(typo?.hint?.contains("did you mean com.example.pro.monthly?") == true)
        #expect(result.first { $0.productID == "com.example.only.here" }?.hint == nil)
    }

    @Test func neverSuggestsAnIDThatAlreadyHasItsPartner() {
        // coins.100 exists on both sides: it is not a suggestion for coins.10O.
        let result = findings([.test("com.example.coins.100"), .test("com.example.coins.10O")], [.test("com.example.coins.100")])
        #expect(pairs(result) == ["missing-in-catalog com.example.coins.10O"])
        #expect(result.first?.hint == nil)
    }

    @Test func caseDifferenceIsAMismatchWithASuggestion() {
        let result = findings([.test("com.Example.Coins")], [.test("com.example.coins")])
        #expect(pairs(result) == ["missing-in-catalog com.Example.Coins", "missing-in-config com.example.coins"])
        #expect(result.allSatisfy { $0.hint != nil })
    }
}

@Suite struct ProductRuleTests {
    @Test func kindDiffers() {
        let result = findings([.test(kind: .consumable)], [.test(kind: .nonConsumable)])
        #expect(pairs(result) == ["kind com.example.coins"])
        #expect(result.first?.left?.value == "consumable")
        #expect(result.first?.right?.value == "non-consumable")
    }

    @Test func priceIsComparedExactlyInTheStorefront() {
        #expect(findings([.test(price: "0.99")], [.test(price: "0.990")]).isEmpty)
        let result = findings([.test(price: "0.99", line: 7)], [.test(price: "1.99", line: 12)])
        #expect(pairs(result) == ["price com.example.coins"])
        let finding = result[0]
        #expect(finding.territory?.code == "USA")
        #expect(finding.message.contains("0.99 USD"))
        #expect(finding.message.contains("1.99 USD"))
        #expect(finding.left?.location.description == "App.storekit:7:5")
        #expect(finding.right?.location.description == "catalog.yaml:12:5")
    }

    @Test("a price exactly 10, 100 or 1000 times the other says it may be a decimal slip")
    func decimalSlipHint() {
        let cases: [(String, String, String?)] = [
            ("4.99", "499", "the catalogue's price is exactly 100 × the configuration's: a decimal slip?"),
            ("0.99", "9.9", "the catalogue's price is exactly 10 × the configuration's: a decimal slip?"),
            ("1990", "1.99", "the configuration's price is exactly 1000 × the catalogue's: a decimal slip?"),
            ("4.99", "5.99", nil),
            ("4.99", "49.91", nil),
        ]
        for (config, catalog, hint) in cases {
            let result = findings([.test(price: config)], [.test(price: catalog)])
            #expect(pairs(result) == ["price com.example.coins"])
            #expect(result.first?.hint == hint, "\(config) vs \(catalog)")
        }
    }

    @Test func catalogueWithoutAPriceInTheStorefrontIsAFinding() {
        let result = findings([.test(price: "0.99")], [.test(price: "0.99", territory: "GBR")])
        #expect(pairs(result) == ["price com.example.coins"])
        #expect(result[0].message.contains("no USA price"))
    }

    @Test func familySharingIsAWarning() {
        let result = findings([.test(family: true)], [.test(family: false)])
        #expect(pairs(result) == ["family-sharing com.example.coins"])
        #expect(result[0].severity == .warning)
        #expect(findings([.test(family: true)], [.test(family: nil)]).isEmpty, "a side that does not say is not compared")
    }
}

@Suite struct SubscriptionRuleTests {
    @Test(arguments: [("P7D", "P1W"), ("P12M", "P1Y"), ("P1M", "P1M")])
    func samePeriodsAgree(_ a: String, _ b: String) {
        #expect(findings([.subscription("s", period: a)], [.subscription("s", period: b)]).isEmpty)
    }

    @Test func fourWeeksIsNotAMonthAndSaysSo() {
        let result = findings([.subscription("s", period: "P4W")], [.subscription("s", period: "P1M")])
        // P4W is also not a period the App Store allows: lint says so separately.
        #expect(pairs(result) == ["disallowed-period s", "period s"])
        let period = result.first { $0.ruleID == .period }
        #expect(period?.message.contains("4 weeks (28 days) in the configuration vs 1 month in the catalogue") == true)
    }

    @Test func introductoryOfferPresenceModePeriodCountAndPrice() {
        let base = Offer.test(.payAsYouGo, "P1M", periods: 3, price: "1.99")
        #expect(findings([.subscription("s", intro: base)], [.subscription("s", intro: base)]).isEmpty)
        #expect(findings([.subscription("s", intro: .test(.freeTrial, "P7D"))], [.subscription("s", intro: .test(.freeTrial, "P1W"))]).isEmpty)
        let variants: [(Offer?, String)] = [
            (nil, "the configuration has pay as you go"),
            (.test(.payUpFront, "P1M", periods: 3, price: "1.99"), "type pay-as-you-go vs pay-up-front"),
            (.test(.payAsYouGo, "P2M", periods: 3, price: "1.99"), "period 1 month in the configuration vs 2 months"),
            (.test(.payAsYouGo, "P1M", periods: 2, price: "1.99"), "3 vs 2 periods"),
            (.test(.payAsYouGo, "P1M", periods: 3, price: "2.99"), "price 1.99 USD vs 2.99 USD"),
        ]
        for (other, words) in variants {
            let result = findings([.subscription("s", intro: base)], [.subscription("s", intro: other)])
            #expect(pairs(result) == ["intro-offer s"], "\(words)")
            #expect(result.first?.message.contains(words) == true, "\(result.first?.message ?? "") should say \(words)")
        }
    }

    @Test func oneWeekTrialIsNotAMonth() {
        let result = findings([.subscription("s", intro: .test(.freeTrial, "P1W"))], [.subscription("s", intro: .test(.freeTrial, "P1M"))])
        #expect(pairs(result) == ["intro-offer s"])
    }

    @Test func promotionalOffersMatchedByIDWhereBothSidesListThem() {
        let winback = Offer.test(.payUpFront, "P1M", price: "4.99", id: "winback")
        let loyal = Offer.test(.payAsYouGo, "P1M", periods: 2, price: "2.99", id: "loyal")
        #expect(findings([.subscription("s", promos: [winback, loyal])], [.subscription("s", promos: [loyal, winback])]).isEmpty)
        #expect(findings([.subscription("s", promos: [winback])], [.subscription("s", promos: [])]).isEmpty, "one side does not list offers")
        let changed = Offer.test(.payUpFront, "P1M", price: "3.99", id: "winback")
        let result = findings([.subscription("s", promos: [winback, loyal])], [.subscription("s", promos: [changed])])
        #expect(pairs(result) == ["promo-offer s", "promo-offer s"])
        #expect(Set(result.compactMap(\.offerID)) == ["winback", "loyal"])
    }
}
