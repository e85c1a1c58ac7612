import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite struct ReportsCLITests {
    private func brokenExample() throws -> URL {
        let directory = try CLIRunner.exampleCopy()
        let catalog = directory.appendingPathComponent("catalog/products.yaml")
        try CLIRunner.edit(catalog, replacing: "prices: {USA: \"5.99\"", with: "prices: {USA: \"6.49\"")
        try CLIRunner.edit(catalog, replacing: "period: P3M\n", with: "period: P6M\n")
        return directory
    }

    @Test func oneRunWritesJUnitSARIFAndMarkdownAndEachValidates() throws {
        // Given
        let directory = try brokenExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        // When
        let output = try CLIRunner.run(["check", "--report", "junit:build/reports/tally.xml", "--report", "sarif:build/tally.sarif",
                                        "--report", "markdown:build/tally.md", "--report", "text"], in: directory)
        // Then
        #expect(output.status == 1)
        #expect(output.stdout.contains("✘ 2 errors, 0 warnings"), "text goes to standard output")

        let junit = try XMLDocument(contentsOf: directory.appendingPathComponent("build/reports/tally.xml"), options: [])
        let root = try #require(junit.rootElement())
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        let failures = cases.flatMap { $0.elements(forName: "failure") }
        #expect(root.attribute(forName: "tests")?.stringValue == String(cases.count))
        #expect(root.attribute(forName: "failures")?.stringValue == "2")
        #expect(failures.count == 2)

        let sarif = try Data(contentsOf: directory.appendingPathComponent("build/tally.sarif"))
        if Policy.pythonAvailable {
            #expect(try Policy.sarifViolations(sarif) == [])
        }
        let log = try #require(try JSONSerialization.jsonObject(with: sarif) as? [String: Any])
        let results = ((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        #expect(results.compactMap { $0["ruleId"] as? String }.sorted() == ["period", "price"])

        let markdown = try String(contentsOf: directory.appendingPathComponent("build/tally.md"), encoding: .utf8)
        #expect(markdown.hasPrefix("### Tally: ❌ 2 errors, 0 warnings"))
        #expect(markdown.contains("| `price` | error | 1 |"))
        #expect(markdown.contains("| `period` | error | 1 |"))

        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("build").path)
        #expect(leftovers.sorted() == ["reports", "tally.md", "tally.sarif"], "no temporary files are left behind")
    }

    @Test func formatAndOutputRemainAShorthandForOneReport() throws {
        let directory = try brokenExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try CLIRunner.run(["check", "--format", "junit", "--output", "out/t.xml"], in: directory)
        #expect(output.status == 1)
        // The report is in the file; the console has the summary and where the report went.
        #expect(output.stdout == "✘ 2 errors, 0 warnings in 2 sources (15 products checked)\nreports: junit out/t.xml\n", "\(output.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("out/t.xml").path))
    }

    @Test func onGitHubActionsAnnotationsAreTheDefault() throws {
        let directory = try brokenExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        let github = try CLIRunner.run(["check"], in: directory, environment: ["GITHUB_ACTIONS": "true"])
        #expect(github.status == 1)
        let lines = github.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("::error file=") }.count == 2)
        #expect(lines.contains { $0.hasPrefix("::error file=configs/ExampleApp.storekit,line=37,col=24,title=price (com.calmly.app.sessions.20)::") })
        let text = try CLIRunner.run(["check", "--format", "text"], in: directory, environment: ["GITHUB_ACTIONS": "true"])
        #expect(!text.stdout.contains("::error"))
    }

    @Test func reportOptionsAreValidated() throws {
        let twoToStdout = try CLIRunner.run(["check", "--report", "text", "--report", "json"])
        #expect(twoToStdout.status == 2)
        #expect(twoToStdout.stderr.contains("only one report can go to standard output"))
        let unknown = try CLIRunner.run(["check", "--report", "sarf:x.sarif"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown report format \"sarf\""))
        #expect(unknown.stderr.contains("did you mean \"sarif\"?"))
        let noFile = try CLIRunner.run(["check", "--report", "junit:"])
        #expect(noFile.status == 2)
        let sameFile = try CLIRunner.run(["check", "--report", "junit:a.xml", "--report", "sarif:a.xml"])
        #expect(sameFile.status == 2)
    }

    @Test func anUnwritableReportExitsTwo() throws {
        let directory = try brokenExample()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("a file".utf8).write(to: directory.appendingPathComponent("blocker"))
        let output = try CLIRunner.run(["check", "--report", "sarif:blocker/tally.sarif"], in: directory)
        #expect(output.status == 2)
        #expect(output.stderr.contains("blocker/tally.sarif: error: cannot write the report"))
    }
}
