import TallyReport
import Testing
import TallyCheck
import TallyFormats
import TallyModel

@Suite struct LintRuleTests {
    func lint(_ products: [Product]) -> [String] {
        pairs(Checker().lint([.config(products)]).findings)
    }

    @Test func duplicateIDs() {
        #expect(lint([.test("a.b", line: 3), .test("a.b", line: 9)]) == ["duplicate-id a.b"])
        let finding = Checker().lint([.config([.test("a.b", line: 3), .test("a.b", line: 9)])]).findings[0]
        #expect(finding.message.contains("first at App.storekit:3:3"))
    }

    @Test(arguments: ["com.example.coins+100", "com example", "com.example.münze", "com/example"])
    func idsWithCharactersTheStoreRejects(_ id: String) {
        #expect(lint([.test(id)]) == ["invalid-id \(id)"])
    }

    @Test func idsOver100Characters() {
        let long = String(repeating: "a", count: 101)
        #expect(lint([.test(long)]) == ["invalid-id \(long)"])
        #expect(lint([.test(String(repeating: "a", count: 100))]).isEmpty)
    }

    /// App Store Connect Help: "letters, numbers, hyphens, periods, and underscores".
    @Test func hyphensAreAllowed() {
        #expect(lint([.test("com.rarcher.flowers-large")]).isEmpty)
    }

    @Test func subscriptionWithoutGroup() {
        var product = Product.subscription("s")
        product.group = nil
        #expect(lint([product]) == ["subscription-without-group s"])
    }

    @Test func subscriptionGroupIDDiffersFromItsGroup() {
        var product = Product.subscription("s", group: "AAAA")
        product.group?.declaredGroupID = "BBBB"
        #expect(lint([product]) == ["group-id-mismatch s"])
    }

    @Test func periodsTheStoreDoesNotAllow() {
        #expect(lint([.subscription("s", period: "P5D")]) == ["disallowed-period s"])
        #expect(lint([.subscription("s", period: "P7D")]).isEmpty)
        #expect(lint([.subscription("s", intro: .test(.freeTrial, "P4M"))]) == ["disallowed-period s"])
    }

    @Test func negativePrice() {
        #expect(lint([.test("a", price: "-0.99")]) == ["negative-price a"])
    }

    @Test func freeTrialWithAPrice() {
        #expect(lint([.subscription("s", intro: .test(.freeTrial, "P1W", price: "0.99"))]) == ["free-trial-with-price s"])
        #expect(lint([.subscription("s", intro: .test(.freeTrial, "P1W", price: "0"))]).isEmpty)
    }

    @Test func unparsableValuesFromARealFile() throws {
        let catalog = try SourceLoader.load(bytes: Array("""
        format: tally-catalog/1
        products:
          - {id: a.b, kind: consumable, prices: {USA: "free"}}
        subscription_groups:
          - id: g
            subscriptions:
              - {id: c.d, period: 1M}
        """.utf8), file: "bad.yaml")
        let result = Checker().lint([catalog])
        #expect(pairs(result.findings) == ["invalid-period c.d", "invalid-price a.b"])
        #expect(result.findings.first { $0.ruleID == .invalidPrice }?.left?.location.description == "bad.yaml:3:47")
    }
}
