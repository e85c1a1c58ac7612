import Foundation
import TallyCheck
import TallyFormats
import TallyConfig
import TallyModel
import TallyTesting
import Testing

/// The project's own consistency, asserted the way a team would in its test target.
@Suite struct TallyAssertTests {
    @Test func theShippedConfigurationAndCatalogueAreConsistent() throws {
        let result = try TallyAssert.consistent(config: "configs/ExampleApp.storekit", catalog: "catalog/products.yaml")
        #expect(result.findings.isEmpty)
        #expect(Set(result.checked.map(\.subject)).count == 15)
    }

    @Test func theRepositorysPolicyPasses() throws {
        let result = try TallyAssert.policy()
        #expect(result.sources == ["configs/ExampleApp.storekit", "catalog/products.yaml"])
        #expect(result.checked.contains { $0.ruleID == .unpricedTerritory }, "the policy's required territories were checked")
    }

    @Test func aBrokenPairRecordsOneFailurePerFindingAtTheFindingsLine() async throws {
        // Given
        let directory = try Examples.broken(Examples.threeMismatches)
        defer { try? FileManager.default.removeItem(at: directory) }
        var result: CheckResult?
        // When / Then: exactly three issues, each at the finding's place in the StoreKit file.
        try await confirmation("one test failure per finding", expectedCount: 3) { failure in
            try withKnownIssue {
                result = try TallyAssert.consistent(config: Examples.config, catalog: Examples.catalog, root: directory.path)
            } matching: { issue in
                let comment = issue.comments.first?.rawValue ?? ""
                let located = issue.sourceLocation.map { $0.fileName == "ExampleApp.storekit" && $0.line > 1 } ?? false
                guard located, comment.hasPrefix("[price]") || comment.hasPrefix("[period]") else { return false }
                failure()
                return true
            }
            let findings = try #require(result?.findings)
            #expect(findings.map(\.ruleID.rawValue).sorted() == ["period", "price", "price"])
        }
    }

    @Test func theFailureMessageNamesTheRuleBothSidesAndTheirPlaces() throws {
        let directory = try Examples.broken([Examples.threeMismatches[0]])
        defer { try? FileManager.default.removeItem(at: directory) }
        try withKnownIssue {
            try TallyAssert.consistent(config: Examples.config, catalog: Examples.catalog, root: directory.path)
        } matching: { issue in
            issue.comments.first?.rawValue == """
                [price] com.calmly.app.sessions.20 costs 5.99 USD in USA in the configuration but 6.49 USD in the catalogue
                  configuration: configs/ExampleApp.storekit:37:24  5.99 USD
                  catalog: catalog/products.yaml:36:19  6.49 USD
                """ && issue.sourceLocation?.line == 37 && issue.sourceLocation?.column == 24
        }
    }

    @Test func warningsFailOnlyWhenStrict() throws {
        let directory = try Examples.broken([("name: Lifetime Unlock\n    family_shareable: true", "name: Lifetime Unlock\n    family_shareable: false")])
        defer { try? FileManager.default.removeItem(at: directory) }
        try withKnownIssue {
            try TallyAssert.consistent(config: Examples.config, catalog: Examples.catalog, strict: true, root: directory.path)
        } matching: { issue in
            issue.comments.first?.rawValue.hasPrefix("[family-sharing]") == true
        }
    }

    @Test func aPolicyValueAppliesItsIgnores() throws {
        let directory = try Examples.broken([Examples.threeMismatches[0]])
        defer { try? FileManager.default.removeItem(at: directory) }
        let policy = Policy(ignores: [Ignore(rule: .price, products: ProductPattern("com.calmly.app.sessions.*"), reason: "repriced weekly")])
        let result = try TallyAssert.consistent(config: Examples.config, catalog: Examples.catalog, policy: policy, root: directory.path)
        #expect(result.findings.isEmpty)
        #expect(result.suppressed.ignored == 1)
    }

    @Test func anUnreadableSourceThrowsWithItsLocation() throws {
        let error = #expect(throws: TallyAssertError.self) {
            try TallyAssert.consistent(config: "configs/Missing.storekit", catalog: "catalog/products.yaml")
        }
        #expect(error?.description.contains("configs/Missing.storekit: error: no such file") == true)
    }
}

/// Remedies are named as the argument a test passes, never as a command-line flag.
@Suite struct TallyAssertRemedyTests {
    @Test func aFileOverTheLimitNamesTheReadOption() throws {
        let error = #expect(throws: TallyAssertError.self) {
            try TallyAssert.consistent(config: Examples.config, catalog: Examples.catalog, options: ReadOptions(maxBytes: 1024))
        }
        let text = error?.description ?? ""
        #expect(text.contains("input limit"), "\(text)")
        #expect(text.contains("ReadOptions(maxBytes:"), "\(text)")
        #expect(!text.contains("--max-input-mb"), "\(text)")
    }
}

/// A baseline entry that no longer matches a finding is a warning in `TallyAssert.policy()` as in
/// `tally check`: it fails the test under `strict`.
@Suite struct TallyAssertBaselineTests {
    @Test func aStaleBaselineEntryFailsUnderStrict() throws {
        let directory = try Examples.broken([])
        defer { try? FileManager.default.removeItem(at: directory) }
        let fixed = Finding(ruleID: .price, severity: .error, productID: "com.calmly.app.sessions.20", territory: .usa, field: .prices,
                            message: "fixed since", left: FindingSide(role: .configuration, value: "5.99 USD", location: SourceLocation(file: Examples.config, line: 37)))
        try BaselineFile.encode(Baseline(findings: [fixed]))
            .write(to: directory.appendingPathComponent("baseline.json"), atomically: true, encoding: .utf8)
        try "version: 1\nsources: [configs/*.storekit, catalog/*.yaml]\nbaseline: baseline.json\n"
            .write(to: directory.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)

        // Without strict: a warning, the test passes.
        try TallyAssert.policy(root: directory.path)
        // With strict: one failure naming the stale entry.
        try withKnownIssue("the stale entry fails under strict") {
            try TallyAssert.policy(strict: true, root: directory.path)
        } matching: { issue in
            let comment = issue.comments.first?.rawValue ?? ""
            return comment.hasPrefix("[baseline]") && comment.contains("stale: price com.calmly.app.sessions.20")
        }
    }
}
