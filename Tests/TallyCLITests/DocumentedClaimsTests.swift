import Foundation
import Testing

/// Issue 21: claims the documents make that the binary once did not keep, through the binary.
@Suite struct DocumentedClaimsTests {
    static let broken = ("prices: {USA: \"5.99\"", "prices: {USA: \"6.49\"")

    private func example(policy: String? = nil, broken: Bool = false) throws -> URL {
        let directory = try CLIRunner.exampleCopy()
        if let policy { try Data(policy.utf8).write(to: directory.appendingPathComponent(".tally.yml")) }
        if broken { try CLIRunner.edit(directory.appendingPathComponent("catalog/products.yaml"), replacing: Self.broken.0, with: Self.broken.1) }
        return directory
    }

    /// docs/policy.md: every source glob that matches nothing is reported in the one run.
    @Test func everyUnmatchedSourceGlobIsReportedInOneRun() throws {
        let directory = try example(policy: "version: 1\nsources:\n  - configs/*.storekit\n  - catalogs/*.yaml\n  - server/**/*.json\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["check"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains(".tally.yml:4:5: error: the source \"catalogs/*.yaml\" matches no file"), "\(output.stderr)")
        #expect(output.stderr.contains(".tally.yml:5:5: error: the source \"server/**/*.json\" matches no file"), "\(output.stderr)")
    }

    /// docs/reports.md: with `--quiet` and every report in a file, nothing on the console, not
    /// even what the baseline took out.
    @Test func quietLeavesOutTheBaselineNotice() throws {
        let directory = try example(broken: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let written = try CLIRunner.run(["check", "--no-config", "--write-baseline", "base.json"], in: directory)
        #expect(written.status == 0, "\(written.stderr)")
        let loud = try CLIRunner.run(["check", "--no-config", "--baseline", "base.json", "--report", "junit:build/t.xml"], in: directory)
        #expect(loud.status == 0)
        #expect(loud.stderr.contains("baseline"), "without --quiet the baseline notice is shown: \(loud.stderr)")
        let quiet = try CLIRunner.run(["check", "--no-config", "--baseline", "base.json", "--report", "junit:build/t.xml", "--quiet"], in: directory)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty, "\(quiet.stdout)")
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    /// docs/commands/check.md: `TALLY_TIMINGS=1` prints reading, checking and reporting apart.
    @Test func timingsSplitReadingFromChecking() throws {
        let output = try CLIRunner.run(["check"], environment: ["TALLY_TIMINGS": "1"])
        #expect(output.status == 0)
        let phases = output.stderr.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            guard words.count == 4, words[0] == "tally:", words[3] == "ms", Double(words[2]) != nil else { return nil }
            return String(words[1])
        }
        #expect(phases == ["read", "check", "report"], "\(output.stderr)")
    }

    /// docs/policy.md, docs/rules-guide.md: a rule turned off leaves no trace: not in SARIF's rule
    /// list, and its field not in the `compared:` line.
    @Test func aRuleTurnedOffLeavesNoTrace() throws {
        let directory = try example(policy: "version: 1\nrules:\n  family-sharing: off\n  level: off\n  level-number: off\n")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["check", "--report", "text", "--report", "sarif:build/t.sarif"], in: directory)
        #expect(output.status == 0, "\(output.stdout)\(output.stderr)")
        let compared = try #require(output.stdout.split(separator: "\n").first { $0.hasPrefix("compared: ") })
        #expect(!compared.contains("family-sharing"), "\(compared)")
        #expect(!compared.contains("level"), "\(compared)")
        #expect(compared.contains("prices (15)"), "the other fields stay: \(compared)")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: directory.appendingPathComponent("build/t.sarif"))) as? [String: Any]
        let runs = try #require(sarif?["runs"] as? [[String: Any]])
        let driver = try #require((runs.first?["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let ids = try #require(driver["rules"] as? [[String: Any]]).compactMap { $0["id"] as? String }
        #expect(!ids.contains("family-sharing") && !ids.contains("level") && !ids.contains("level-number"), "\(ids)")
        #expect(ids.contains("price"))

        // One of a field's two rules off: the field is still compared.
        let half = try example(policy: "version: 1\nrules:\n  level-number: off\n")
        defer { try? FileManager.default.removeItem(at: half) }
        let still = try CLIRunner.run(["check"], in: half)
        #expect(still.stdout.contains("level (8)"), "\(still.stdout)")
    }

    /// docs/commands/convert.md: a converted catalogue's header names no path of Tally's own tree.
    @Test func theConvertedCatalogueNamesNoPathIntoTallysRepository() throws {
        let output = try CLIRunner.run(["convert", "configs/ExampleApp.storekit", "--to", "tally-catalog-yaml"])
        #expect(output.status == 0)
        let header = output.stdout.split(separator: "\n").prefix { $0.hasPrefix("#") }.joined(separator: "\n")
        #expect(!header.contains("docs/"), "\(header)")
        #expect(header.contains("tally-catalog/1"))
        #expect(header.contains("Check it with: tally check configs/ExampleApp.storekit THIS_FILE"))
    }
}
