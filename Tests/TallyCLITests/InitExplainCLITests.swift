import Foundation
import Testing

@Suite struct InitExplainCLITests {
    @Test func initWritesAStarterFileThatCheckUsesWithoutArguments() throws {
        // Given: the examples moved where the default discovery would not find them.
        let directory = try CLIRunner.exampleCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("App"), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: directory.appendingPathComponent("configs"), to: directory.appendingPathComponent("App/StoreKit"))
        // When
        let initialised = try CLIRunner.run(["init"], in: directory)
        // Then
        #expect(initialised.status == 0, "\(initialised.stderr)")
        #expect(initialised.stdout.contains("App/StoreKit/ExampleApp.storekit"))
        let text = try String(contentsOf: directory.appendingPathComponent(".tally.yml"), encoding: .utf8)
        #expect(text.contains("  - App/StoreKit/*.storekit\n  - catalog/*.yaml\n"))
        #expect(text.contains("required_territories: [AUS, BRA, CAN, DEU, FRA, GBR, JPN, USA]"))
        #expect(text.contains("#   catalog: calmly_plus"))
        let checked = try CLIRunner.run(["check"], in: directory)
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stderr.isEmpty)

        let again = try CLIRunner.run(["init"], in: directory)
        #expect(again.status == 2)
        #expect(again.stderr.contains(".tally.yml already exists; use --force"))
        #expect(try CLIRunner.run(["init", "--force"], in: directory).status == 0)
        let printed = try CLIRunner.run(["init", "--print"], in: directory)
        #expect(printed.stdout == text)
    }

    @Test func explainSaysWhyARuleMattersAndHowToFixIt() throws {
        let output = try CLIRunner.run(["explain", "intro-offer"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("intro-offer  (cross-source, default severity error)"))
        #expect(output.stdout.contains("Why it matters:\n  The introductory offer is what a new subscriber pays first"))
        #expect(output.stdout.contains("How to fix:\n  Make the offer's type, period"))
        #expect(output.stdout.contains("    intro-offer: warning"))
    }

    @Test func explainAnUnknownRuleSuggestsTheNearestAndExitsTwo() throws {
        let output = try CLIRunner.run(["explain", "intro_ofer"])
        #expect(output.status == 2)
        #expect(output.stderr.contains("unknown rule \"intro_ofer\"; did you mean \"intro-offer\"?"))
        #expect(try CLIRunner.run(["explain"]).status == 2)
    }

    @Test func rulesListsTheNewRuleAndPointsToExplain() throws {
        let output = try CLIRunner.run(["rules"])
        #expect(output.stdout.contains("unpriced-territory"))
        #expect(output.stdout.contains("'tally explain RULE'"))
    }

    @Test("Every command's help teaches with examples", arguments: ["check", "init", "explain", "lint", "rules", "show"])
    func helpHasExamples(_ command: String) throws {
        let output = try CLIRunner.run([command, "--help"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("Examples:"))
        #expect(output.stdout.contains("tally \(command)"))
    }
}
