import Testing
import TallyCheck
import TallyModel

@Suite("Baseline")
struct BaselineTests {
    static func finding(_ product: String, rule: String = "price", line: Int = 10, territory: Territory? = .usa) -> Finding {
        Finding(ruleID: rule, severity: .error, productID: product, territory: territory, field: .prices, message: "\(product) differs",
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
        #expect(result.suppressed.stale.map(\.description) == ["price com.a (USA)"])
    }

    @Test func eachEntrySuppressesOneFindingOfItsKey() {
        // The same key twice in the result (a lint finding in two sources), once in the baseline.
        let baseline = Baseline(findings: [Self.finding("com.a", rule: "invalid-id", territory: nil)])
        let result = baseline.apply(to: CheckResult(findings: [Self.finding("com.a", rule: "invalid-id", territory: nil),
                                                            Self.finding("com.a", rule: "invalid-id", line: 40, territory: nil)]))
        #expect(result.findings.count == 1)
        #expect(result.suppressed.baselined == 1)
    }

    @Test func theKeyIsRuleProductFieldTerritoryAndOfferNotTheLine() {
        #expect(Self.finding("com.a", line: 1).key == Self.finding("com.a", line: 500).key)
        #expect(Self.finding("com.a").key != Self.finding("com.a", territory: Territory("JPN")).key)
        #expect(Self.finding("com.a").key != Self.finding("com.a", rule: "kind").key)
    }

    @Test func entriesAreSortedSoTheFileDiffsWell() {
        let baseline = Baseline(findings: [Self.finding("com.z"), Self.finding("com.a"), Self.finding("com.m", rule: "kind")])
        #expect(baseline.findings.map(\.description) == ["kind com.m (USA)", "price com.a (USA)", "price com.z (USA)"])
        #expect(baseline.version == 1)
    }
}
