import Foundation
import Testing
import TallyModel

@Suite struct DecimalTextTests {
    @Test(arguments: [("0.99", "0.99"), ("12.00", "12"), ("0.5", "0.5"), ("19", "19"), ("129", "129"), ("-1.5", "-1.5"),
                      ("13900", "13900"), ("0.1", "0.1"), ("99999999999999999999.99", "99999999999999999999.99")])
    func parsesExactly(_ text: String, _ expected: String) throws {
        let value = try #require(DecimalText.parse(text))
        #expect(Money.plain(value) == expected)
    }

    @Test func neverGoesThroughDouble() throws {
        // 0.1 + 0.2 is exactly 0.3 in Decimal, and not in Double.
        let sum = try #require(DecimalText.parse("0.1")) + (try #require(DecimalText.parse("0.2")))
        #expect(sum == (try #require(DecimalText.parse("0.3"))))
        #expect(DecimalText.parse("0.99") == Decimal(string: "0.99", locale: Locale(identifier: "en_US_POSIX")))
        #expect(Money.plain(try #require(DecimalText.parse("0.99"))) == "0.99")
    }

    @Test(arguments: ["", "-", ".5", "1.", "1.2.3", "4,99", "$1", "1e3", "free", " 1", "1 ", "NaN", "Infinity",
                      "1234567890123456789012345678901234567890"])
    func refusesAnythingElse(_ text: String) {
        #expect(DecimalText.parse(text) == nil)
    }

    @Test func moneyDescriptionNamesTheCurrency() throws {
        #expect(Money(amount: try #require(DecimalText.parse("4.99")), currency: "USD").description == "4.99 USD")
        #expect(Money(amount: try #require(DecimalText.parse("160")), currency: nil).description == "160")
    }
}

@Suite struct TerritoryTests {
    @Test func storefrontsHaveTheirCurrency() {
        #expect(Territory("USA")?.currency == "USD")
        #expect(Territory("COL")?.currency == "COP")
        #expect(Territory("JPN")?.currency == "JPY")
        #expect(Territory("DEU")?.currency == "EUR")
        #expect(Territory("FRA")?.currency == "EUR")
        #expect(Territory("MEX")?.currency == "MXN")
        #expect(Territory("ZZZ")?.currency == nil)
    }

    @Test(arguments: ["US", "usa", "USAA", "", "U1A", "ÜSA"])
    func refusesWhatIsNotAnAlpha3Code(_ code: String) {
        #expect(Territory(code) == nil)
    }

    @Test func roundTripsItsCode() {
        #expect(Territory("GBR")?.code == "GBR")
        #expect(Territory("ABC").map { $0 < Territory("ABD")! } == true)
    }
}

@Suite struct NearMatchTests {
    @Test func suggestsCaseTypoAndSeparatorNearMisses() {
        let ids = ["com.example.pro_monthly", "com.example.coins.100", "com.example.lifetime"]
        #expect(NearMatch.best(for: "com.example.pro.monthly", among: ids) == "com.example.pro_monthly")
        #expect(NearMatch.best(for: "com.example.Coins.100", among: ids) == "com.example.coins.100")
        #expect(NearMatch.best(for: "com.example.lifetme", among: ids) == "com.example.lifetime")
    }

    /// Issue 36: case and separator differences are the closest match, ahead of any edit.
    @Test func caseAndSeparatorsRankAheadOfEditDistance() {
        // Folded, `com.app.removeadd` is one edit from `com.app.removeads`, as `com.app.remove.ads` is.
        #expect(NearMatch.best(for: "com.app.removeAds", among: ["com.app.removeAdd", "com.app.remove_ads"]) == "com.app.remove_ads")
        #expect(NearMatch.best(for: "remove_ads", among: ["remove.ad", "remove.ads"]) == "remove.ads")
        #expect(NearMatch.best(for: "ekme.TenScrolls.pack", among: ["ekme.TenScrolls.packs", "ekme.Tenscrolls.pack"]) == "ekme.Tenscrolls.pack")
        // Beyond the edit limit of a short ID, separators alone still match.
        #expect(NearMatch.best(for: "a.b.c.d", among: ["abcd"]) == "abcd")
        // Of two case and separator variants, the one with fewer separator edits.
        #expect(NearMatch.best(for: "tigerfax_pro_monthly", among: ["tigerfaxpro.monthly", "tigerfax.pro.monthly"]) == "tigerfax.pro.monthly")
    }

    @Test func productIDsAlsoMatchAnotherPeriodWordAndASharedEnding() {
        #expect(NearMatch.productID(for: "ekme.TenScrolls.plus.annual", among: ["ekme.Tenscrolls.plus.yearly", "ekme.TenScrolls.plus.monthly"])
                == "ekme.Tenscrolls.plus.yearly")
        #expect(NearMatch.productID(for: "com.lmglsl.subscription.monthly", among: ["com.layermapper.glsl.subscription.monthly"])
                == "com.layermapper.glsl.subscription.monthly")
        #expect(NearMatch.best(for: "ekme.TenScrolls.plus.annual", among: ["ekme.Tenscrolls.plus.yearly"]) == nil)
        let index = NearMatch.Index((0..<5_000).map { "com.example.item\($0)" } + ["ekme.Tenscrolls.plus.yearly"], productIDs: true)
        #expect(index.best(for: "ekme.TenScrolls.plus.annual") == "ekme.Tenscrolls.plus.yearly")
        #expect(index.best(for: "ekme_tenscrolls_plus_yearly") == "ekme.Tenscrolls.plus.yearly")
    }

    @Test func doesNotSuggestUnrelatedIDs() {
        #expect(NearMatch.best(for: "com.other.thing", among: ["com.example.pro_monthly"]) == nil)
        #expect(NearMatch.best(for: "a", among: ["b.c.d"]) == nil)
    }
}

@Suite struct NearMatchIndexTests {
    @Test func largeCandidateSetsStillFindCaseSeparatorAndOneCharacterTypos() {
        let ids = (0..<5_000).map { "com.example.item\($0)" } + ["com.example.pro_monthly"]
        let index = NearMatch.Index(ids)
        #expect(index.best(for: "com.example.pro.monthly") == "com.example.pro_monthly")
        #expect(index.best(for: "COM.EXAMPLE.PRO_MONTHLY") == "com.example.pro_monthly")
        #expect(index.best(for: "com.example.pro_montly") == "com.example.pro_monthly")
        #expect(index.best(for: "com.example.pro_monthlyy") == "com.example.pro_monthly")
        #expect(index.best(for: "org.unrelated.thing") == nil)
    }
}
