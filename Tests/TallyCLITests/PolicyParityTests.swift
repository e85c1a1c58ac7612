import Foundation
import TallyTesting
import Testing

/// `TallyAssert.policy()` and `tally check` run the same check: for a policy whose sources are a
/// `.storekit` file and the app's `Products.plist` (both configurations), both compare the two
/// files and report the same findings.
@Suite struct PolicyParityTests {
    @Test func storeKitAndPropertyListPolicyGivesTheSameFindingsAsTheCLI() throws {
        let workspace = try Workspace()
        defer { workspace.remove() }
        // The plist names one product with a typo: a mismatch only a comparison finds.
        try workspace.replace("plist/CalmlyProducts.plist", "<string>com.calmly.app.plus.annual</string>",
                              "<string>com.calmly.app.plus.anual</string>")
        try "version: 1\nsources: [configs/ExampleApp.storekit, plist/CalmlyProducts.plist]\n"
            .write(to: workspace.root.appendingPathComponent(".tally.yml"), atomically: true, encoding: .utf8)

        let output = try workspace.run(["check", "--format", "json"])
        #expect(output.status == 1, "\(output.stdout)\(output.stderr)")
        let cli = ruleProducts(try jsonReport(output))
        #expect(cli.contains { $0.hasPrefix("missing-in-catalog") || $0.hasPrefix("missing-in-config") }, "\(cli)")

        var findings: [String] = []
        withKnownIssue("each finding is a test failure, as in a team's own test") {
            let result = try TallyAssert.policy(root: workspace.root.path)
            findings = result.findings.map { "\($0.ruleID) \($0.productID ?? "-")" }.sorted()
        }
        #expect(findings == cli)
    }
}
