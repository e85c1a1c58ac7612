import Foundation
import Testing

@Suite struct BaselineCLITests {
    static let catalog = "catalog/products.yaml"

    @Test func writeAddOneMismatchFixAnOldOne() throws {
        // Given: the example with two known price mismatches.
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent(Self.catalog)
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"12.99\"", with: "prices: {USA: \"13.99\"")
        #expect(try CLIRunner.run(["check"], in: directory).status == 1)

        // When: today's findings become the baseline.
        let written = try CLIRunner.run(["check", "--write-baseline", "ci/tally-baseline.json"], in: directory)
        // Then: written (folders created), exit 0, and it holds both, keyed without lines.
        #expect(written.status == 0)
        #expect(written.stderr.contains("wrote 2 findings to the baseline ci/tally-baseline.json"))
        let data = try Data(contentsOf: directory.appendingPathComponent("ci/tally-baseline.json"))
        let baseline = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(baseline["version"] as? Int == 1)
        let entries = try #require(baseline["findings"] as? [[String: Any]])
        #expect(entries.compactMap { $0["product"] as? String }.sorted() == ["com.calmly.app.sessions.20", "com.calmly.app.sessions.50"])
        #expect(entries.allSatisfy { $0["line"] == nil && $0["rule"] as? String == "price" && $0["field"] as? String == "prices" })
        #expect(try CLIRunner.run(["check", "--baseline", "ci/tally-baseline.json"], in: directory).status == 0)

        // When: one new mismatch, and a comment above the old ones moves their lines.
        try CLIRunner.edit(catalog, replacing: "period: P3M\n", with: "period: P6M\n")
        try CLIRunner.edit(catalog, replacing: "products:\n", with: "# moved by two lines\n#\nproducts:\n")
        let checked = try CLIRunner.run(["check", "--baseline", "ci/tally-baseline.json", "--format", "json"], in: directory)
        // Then: only the new one fails.
        #expect(checked.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(checked.stdout.utf8)) as? [String: Any])
        let findings = (report["findings"] as? [[String: Any]]) ?? []
        #expect(findings.map { "\($0["rule"] as? String ?? "") \($0["product"] as? String ?? "")" } == ["period com.calmly.app.plus.quarterly"])
        let text = try CLIRunner.run(["check", "--baseline", "ci/tally-baseline.json"], in: directory)
        #expect(text.stdout.contains("baseline: 2 known findings suppressed by ci/tally-baseline.json"))

        // When: an old one is fixed.
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"6.49\"", with: "prices: {USA: \"5.99\"")
        let fixed = try CLIRunner.run(["check", "--baseline", "ci/tally-baseline.json"], in: directory)
        // Then: it is reported as stale, and the new one still fails.
        #expect(fixed.status == 1)
        #expect(fixed.stdout.contains("baseline: 1 known finding suppressed by ci/tally-baseline.json"))
        #expect(fixed.stdout.contains("baseline: 1 entry no longer occurs"))
        #expect(fixed.stdout.contains("  stale: price com.calmly.app.sessions.20 (USA)"))
    }

    @Test func withAMachineReadableReportTheBaselineIsSummarisedOnStandardError() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = directory.appendingPathComponent(Self.catalog)
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        #expect(try CLIRunner.run(["check", "--write-baseline", "b.json"], in: directory).status == 0)
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"6.49\"", with: "prices: {USA: \"5.99\"")
        let output = try CLIRunner.run(["check", "--baseline", "b.json", "--format", "json"], in: directory)
        #expect(output.status == 0)
        #expect(output.stderr.contains("tally:   stale: price com.calmly.app.sessions.20 (USA)"), "\(output.stderr)")
        let text = try CLIRunner.run(["check", "--baseline", "b.json"], in: directory)
        #expect(text.stderr.isEmpty, "the text report says it already")
    }

    @Test func thePolicyCanNameTheBaseline() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try CLIRunner.edit(directory.appendingPathComponent(Self.catalog), replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        try Policy.write("baseline: .tally-baseline.json\n", to: directory)
        #expect(try CLIRunner.run(["check", "--write-baseline", ".tally-baseline.json"], in: directory).status == 0)
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 0, "\(output.stdout)")
        #expect(output.stdout.contains("1 known finding suppressed by .tally-baseline.json"))
    }

    @Test func aBaselineOfAnotherVersionOrBrokenIsRefused() throws {
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"version": 2, "findings": []}"#.utf8).write(to: directory.appendingPathComponent("b2.json"))
        let newer = try CLIRunner.run(["check", "--baseline", "b2.json"], in: directory)
        #expect(newer.status == 2)
        #expect(newer.stderr.contains("this baseline is version 2, but this Tally reads version 1 only"))
        try Data("{\"version\": 1, \"findings\": [\n}".utf8).write(to: directory.appendingPathComponent("broken.json"))
        let broken = try CLIRunner.run(["check", "--baseline", "broken.json"], in: directory)
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("broken.json:2:"), "\(broken.stderr)")
        #expect(try CLIRunner.run(["check", "--baseline", "missing.json"], in: directory).status == 2)
        #expect(try CLIRunner.run(["check", "--baseline", "b2.json", "--write-baseline", "x.json"], in: directory).status == 2)
    }
}
