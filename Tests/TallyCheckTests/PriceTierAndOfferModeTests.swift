import TallyReport
import Testing
import TallyCheck
import TallyModel

/// Tiers compare with tiers only; a source that can express only free trials is not faulted
/// for lacking a paid offer.
@Suite struct PriceTierAndOfferModeTests {
    static func tiered(_ id: String, tier: Int?, line: Int = 1) -> Product {
        var product = Product.test(id, price: nil, line: line)
        product.priceTier = tier
        product.fieldPositions[.prices] = Position(line: line, column: 7)
        return product
    }

    @Test func differentTiersAreAFindingAtBothTiers() throws {
        let result = findings([Self.tiered("com.a.coins", tier: 3, line: 4)], [Self.tiered("com.a.coins", tier: 5, line: 12)])
        #expect(pairs(result) == ["price-tier com.a.coins"])
        let finding = try #require(result.first)
        #expect(finding.message == "com.a.coins is price tier 3 in the configuration but tier 5 in the catalogue")
        #expect(finding.left?.location.line == 4 && finding.right?.location.line == 12)
        #expect(finding.left?.value == "tier 3" && finding.right?.value == "tier 5")
    }

    @Test func equalTiersOrATierOnOneSideOnlyAreNotCompared() {
        #expect(findings([Self.tiered("a", tier: 3)], [Self.tiered("a", tier: 3)]).isEmpty)
        // A tier on one side only is not compared: with no price either, nothing priced was
        // compared, and prices-not-compared says so.
        #expect(pairs(findings([Self.tiered("a", tier: nil)], [Self.tiered("a", tier: 3)])) == ["prices-not-compared -"])
    }

    static func check(config: Offer?, package: Offer?) -> [String] {
        let configuration = Catalog.config([.subscription("com.a.pro", intro: config)])
        var catalog = Catalog(file: "metadata.xml", format: .appStorePackage,
                              products: [.subscription("com.a.pro", intro: package)], knownFields: [.id, .kind, .introductoryOffer])
        catalog.introductoryOfferModes = [.freeTrial]
        return pairs(Checker().check(configurations: [configuration], catalogs: [catalog]).findings)
    }

    @Test func aPaidOfferIsNotAMismatchWithASourceThatKnowsOnlyFreeTrials() {
        #expect(Self.check(config: .test(.payAsYouGo, "P1M", periods: 3, price: "1.99"), package: nil) == [])
    }

    @Test func freeTrialsStillCompareAndAnyOfferOnBothSidesCompares() {
        #expect(Self.check(config: .test(.freeTrial, "P1W"), package: nil) == ["intro-offer com.a.pro"])
        #expect(Self.check(config: nil, package: .test(.freeTrial, "P1W")) == ["intro-offer com.a.pro"])
        #expect(Self.check(config: .test(.freeTrial, "P1W"), package: .test(.freeTrial, "P1M")) == ["intro-offer com.a.pro"])
        #expect(Self.check(config: .test(.payUpFront, "P3M", price: "4.99"), package: .test(.freeTrial, "P3M")) == ["intro-offer com.a.pro"])
        #expect(Self.check(config: .test(.freeTrial, "P1W"), package: .test(.freeTrial, "P7D")) == [])
    }
}
