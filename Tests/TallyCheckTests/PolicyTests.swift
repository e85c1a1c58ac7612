import Testing
import TallyCheck
import TallyModel

@Suite("Policy")
struct PolicyTests {
    // Given: a configuration and catalogue with one price error and one family-sharing warning.
    static let config: [Product] = [.test("com.a.coins", price: "0.99"), .test("com.a.lifetime", kind: .nonConsumable, family: true),
                                     .test("com.a.legacy.gold", price: "9.99")]
    static let catalog: [Product] = [.test("com.a.coins", price: "1.99"), .test("com.a.lifetime", kind: .nonConsumable, family: false),
                                      .test("com.a.legacy.gold", price: "8.99")]

    static func run(_ policy: Policy) -> GateOutcome {
        Gate(policy: policy).check(configurations: [.config(config)], catalogs: [.server(catalog)])
    }

    @Test func withoutAPolicyRulesKeepTheirDefaultSeverity() {
        let outcome = Self.run(Policy())
        #expect(outcome.result.findings.map { "\($0.ruleID) \($0.severity)" }.sorted()
                == ["family-sharing warning", "price error", "price error"])
        #expect(outcome.fails())
    }

    @Test func aRuleRaisedToErrorFailsTheGate() {
        // When
        let outcome = Self.run(Policy(rules: [.familySharing: .error, .price: .off]))
        // Then
        #expect(outcome.result.findings.map(\.ruleID.rawValue) == ["family-sharing"])
        #expect(outcome.result.findings.first?.severity == .error)
        #expect(outcome.fails())
    }

    @Test func aRuleTurnedOffLeavesNeitherFindingsNorPassingChecks() {
        let outcome = Self.run(Policy(rules: [.price: .off, .familySharing: .warning]))
        #expect(!outcome.result.findings.contains { $0.ruleID == .price })
        #expect(!outcome.result.checked.contains { $0.ruleID == .price })
        #expect(outcome.result.checked.contains { $0.ruleID == .kind })
        #expect(!outcome.fails())
        #expect(outcome.fails(strict: true))
    }

    @Test func failOnWarningMakesWarningsFail() {
        let outcome = Self.run(Policy(rules: [.price: .off], failOn: .warning))
        #expect(outcome.result.findings.map(\.ruleID.rawValue) == ["family-sharing"])
        #expect(outcome.fails())
    }

    @Test func anIgnoreTakesOutTheProductsItsGlobMatchesAndCountsThem() {
        // Given
        let ignore = Ignore(rule: .price, products: ProductPattern("com.a.legacy.*"), reason: "old server")
        // When
        let outcome = Self.run(Policy(ignores: [ignore]))
        // Then
        #expect(pairs(outcome.result.findings) == ["family-sharing com.a.lifetime", "price com.a.coins"])
        #expect(outcome.result.suppressed.ignored == 1)
        #expect(outcome.unusedIgnores.isEmpty)
    }

    @Test func anIgnoreThatMatchesNothingIsReportedAsUnused() {
        let stale = Ignore(rule: .kind, products: ProductPattern("com.a.*"), reason: "was a consumable")
        let everyRule = Ignore(rule: nil, products: ProductPattern("com.a.lifetime"), reason: "being migrated")
        let outcome = Self.run(Policy(ignores: [stale, everyRule]))
        #expect(outcome.unusedIgnores == [stale])
        #expect(!outcome.result.findings.contains { $0.productID == "com.a.lifetime" })
    }

    @Test("Product patterns are shell globs over the whole ID", arguments: [
        ("com.a.*", "com.a.legacy.gold", true), ("com.a.*", "com.b.x", false), ("com.a.legacy.gol?", "com.a.legacy.gold", true),
        ("com.a.[lc]*", "com.a.coins", true), ("com.a.coins", "com.a.coins.2", false), ("*", "anything", true),
    ])
    func productPatterns(pattern: String, id: String, matches: Bool) {
        #expect(ProductPattern(pattern).matches(id) == matches)
    }

    @Test func aFindingWithoutAProductMatchesOnlyTheStarPattern() {
        #expect(ProductPattern("*").matches(nil))
        #expect(!ProductPattern("com.*").matches(nil))
    }

    @Test func requiredTerritoriesConfigureTheUnpricedTerritoryRule() {
        let outcome = Self.run(Policy(requiredTerritories: [Territory("USA")!, Territory("JPN")!]))
        let unpriced = outcome.result.findings.filter { $0.ruleID == .unpricedTerritory }
        #expect(unpriced.count == 3)
        #expect(Set(unpriced.compactMap(\.left?.value)) == [.territories([Territory("JPN")!])])
        #expect(unpriced.allSatisfy { $0.left?.location.file == "catalog.yaml" })
    }
}

@Suite("Rule descriptions")
struct RuleDescriptionTests {
    @Test("Every rule says why it matters and how to fix it", arguments: RuleSet.descriptions.map(\.id))
    func everyRuleExplainsItself(_ id: RuleID) throws {
        let rule = try #require(RuleSet.description(of: id))
        #expect(rule.rationale.count > 40, "\(rule.id) has no rationale")
        #expect(rule.fix.count > 20, "\(rule.id) has no fix")
        #expect(rule.summary.hasSuffix("."), "\(rule.id)'s summary is not a sentence")
    }

    @Test func ruleIDsAreUnique() {
        let ids = RuleSet.descriptions.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    /// Every rule has its identity in `RuleID.all` and every identity there has a rule, in the
    /// same order: readers raise issues of these IDs only, and policies name them.
    @Test func everyRuleIDHasARuleAndEveryRuleAnID() {
        #expect(RuleSet.descriptions.map(\.id) == RuleID.all)
        #expect(RuleID.named("invalid-price") == .invalidPrice)
        #expect(RuleID.named("invalid-prise") == nil)
    }
}
