import Testing
@testable import TallyCheck
import TallyModel

@Suite("Baseline")
struct BaselineTests {
    static func finding(_ product: String, rule: RuleID = .price, line: Int = 10, territory: Territory? = .usa) -> Finding {
        Finding(ruleID: rule, severity: .error, productID: product, territory: territory, field: .prices, message: "\(product: product) differs",
                left: FindingSide(role: .configuration, value: "1", location: SourceLocation(file: "App.storekit", line: line, column: 3)))
    }

    @Test func findingsTheBaselineHoldsAreSuppressedAndOnlyNewOnesRemain() {
        // Given
        let baseline = Baseline(findings: [Self.finding("com.a"), Self.finding("com.b")])
        let today = CheckResult(findings: [Self.finding("com.a", line: 99), Self.finding("com.b"), Self.finding("com.c")])
        // When
        let result = baseline.apply(to: today, file: "base.json")
        // Then
        #expect(result.findings.map(\.productID) == ["com.c"])
        #expect(result.suppressed.baselined == 2)
        #expect(result.suppressed.baselineFile == "base.json")
        #expect(result.suppressed.stale.isEmpty)
    }

    @Test func entriesThatNoLongerOccurAreStale() {
        let baseline = Baseline(findings: [Self.finding("com.a"), Self.finding("com.b")])
        let result = baseline.apply(to: CheckResult(findings: [Self.finding("com.b")]))
        #expect(result.findings.isEmpty)
        #expect(result.suppressed.stale.map(\.description) == ["price com.a (USA): configuration 1"])
    }

    @Test func eachEntrySuppressesOneFindingOfItsKey() {
        // The same key twice in the result (a lint finding in two sources), once in the baseline.
        let baseline = Baseline(findings: [Self.finding("com.a", rule: .invalidID, territory: nil)])
        let result = baseline.apply(to: CheckResult(findings: [Self.finding("com.a", rule: .invalidID, territory: nil),
                                                            Self.finding("com.a", rule: .invalidID, line: 40, territory: nil)]))
        #expect(result.findings.count == 1)
        #expect(result.suppressed.baselined == 1)
    }

    @Test func theKeyIsRuleProductFieldTerritoryAndOfferNotTheLine() {
        #expect(Self.finding("com.a", line: 1).key == Self.finding("com.a", line: 500).key)
        #expect(Self.finding("com.a").key != Self.finding("com.a", territory: Territory("JPN")).key)
        #expect(Self.finding("com.a").key != Self.finding("com.a", rule: .kind).key)
    }

    @Test func entriesAreSortedSoTheFileDiffsWell() {
        let baseline = Baseline(findings: [Self.finding("com.z"), Self.finding("com.a"), Self.finding("com.m", rule: .kind)])
        #expect(baseline.findings.map(\.description) == ["kind com.m (USA): configuration 1", "price com.a (USA): configuration 1", "price com.z (USA): configuration 1"])
        #expect(baseline.version == 1)
    }

    static func price(_ product: String, _ configuration: String, _ catalog: String) -> Finding {
        Finding(ruleID: .price, severity: .error, productID: product, territory: .usa, field: .prices, message: "\(product: product) differs",
                left: FindingSide(role: .configuration, value: configuration, location: SourceLocation(file: "App.storekit", line: 3)),
                right: FindingSide(role: .catalog, value: catalog, location: SourceLocation(file: "c.yaml", line: 9)))
    }

    @Test func aFindingWhoseValuesChangedIsNewAndItsEntryNoLongerMatches() {
        let baseline = Baseline(findings: [Self.price("com.a", "5.99 USD", "6.49 USD"), Self.price("com.b", "1 USD", "2 USD")])
        #expect(baseline.findings[0].values == ["configuration": "5.99 USD", "catalog": "6.49 USD"])
        let result = baseline.apply(to: CheckResult(findings: [Self.price("com.a", "5.99 USD", "64.90 USD"), Self.price("com.b", "1 USD", "2 USD")]))
        #expect(result.findings.map(\.productID) == ["com.a"])
        #expect(result.suppressed.baselined == 1)
        #expect(result.suppressed.changed.map(\.description) == ["price com.a (USA): catalog 6.49 USD, configuration 5.99 USD"])
        #expect(result.suppressed.stale.isEmpty)
        #expect(result.suppressed.unmatchedEntries == 1)
    }

    @Test func anEntryWithoutValuesMatchesByKeyAlone() {
        var entry = Baseline.Entry(Self.price("com.a", "5.99 USD", "6.49 USD"))
        entry.values = nil
        let result = Baseline(entries: [entry]).apply(to: CheckResult(findings: [Self.price("com.a", "5.99 USD", "64.90 USD")]))
        #expect(result.findings.isEmpty)
        #expect(result.suppressed.baselined == 1)
        #expect(result.suppressed.unmatchedEntries == 0)
    }

    @Test func entriesWithValuesAreMatchedBeforeEntriesWithout() {
        // Two findings of one key; the entry with values takes its own, the old entry the other.
        var old = Baseline.Entry(Self.price("com.a", "1 USD", "2 USD"))
        old.values = nil
        let exact = Baseline.Entry(Self.price("com.a", "1 USD", "3 USD"))
        let result = Baseline(entries: [old, exact]).apply(to: CheckResult(findings: [Self.price("com.a", "1 USD", "3 USD"), Self.price("com.a", "1 USD", "4 USD")]))
        #expect(result.findings.isEmpty)
        #expect(result.suppressed.baselined == 2)
    }

    @Test func unmatchedEntriesFailTheGateWithStrictOrFailOnWarning() {
        let stale = Baseline(findings: [Self.price("com.gone", "1 USD", "2 USD")]).apply(to: CheckResult())
        let outcome = GateOutcome(policy: Policy(), result: stale, current: [], unusedIgnores: [], unmatchedGroups: [])
        #expect(!outcome.fails())
        #expect(outcome.fails(strict: true))
        #expect(GateOutcome(policy: Policy(failOn: .warning), result: stale, current: [], unusedIgnores: [], unmatchedGroups: []).fails())
    }
}
