import Foundation
import Testing
import TallyCheck
import TallyModel

/// docs/rules.md is what `tally rules --format markdown` and `tally explain RULE` print, for every
/// rule: this fails when the page drifts from the rules. Regenerate it with
/// `TALLY_RECORD=1 swift test --filter RulesPageTests` and review the diff.
@Suite struct RulesPageTests {
    static let page = CLIRunner.repository.appendingPathComponent("docs/rules.md")

    /// The page as the binary describes the rules today.
    static func generated() throws -> String {
        let table = try CLIRunner.run(["rules", "--format", "markdown"])
        let listing = try CLIRunner.run(["rules"])
        // The IDs in `tally rules` order: the first word of each indented line.
        let ids = listing.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.compactMap { $0.split(separator: " ").first.map(String.init) }
        var text = """
        # Rules

        Every rule `tally check` and `tally lint` run, with what `tally explain RULE` says about it. This \
        page is generated from the rules themselves (`tally rules --format markdown`, then `tally \
        explain` for each rule); a test fails when it drifts. A policy file (`.tally.yml`) sets a \
        rule's severity or turns it off; a setting there applies to every source.

        Two rules depend on the source: `free-trial-with-price` is an error in a catalogue and a \
        warning in a StoreKit configuration (Xcode keeps an offer's `displayPrice` after the offer \
        is switched to a free trial; StoreKit ignores it). `prices-not-compared` is a warning when \
        both sources state prices but no product's price could be compared.

        The `paywall-` rules check a paywall platform's configuration (RevenueCat, Adapty, Qonversion: \
        see [the paywall page](paywall.md)) on its own and against every store source and \
        configuration of the run.

        Under each rule, its examples: the files it fires on (and, for many, files it passes), as \
        the readers take them. They are the rule's own (`examples`, in Sources/TallyCheck/Examples/), \
        and a test runs each through `tally check` (RuleExampleTests).

        <!-- rules:begin -->
        \(table.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        <!-- rules:end -->

        """
        for id in ids {
            let explained = try CLIRunner.run(["explain", id])
            text += "\n## `\(id)`\n\n```\n\(explained.stdout.trimmingCharacters(in: .whitespacesAndNewlines))\n```\n"
            // The rule's own examples (`Rule.examples`), which `RuleExampleTests` runs through `tally check`.
            for example in RuleID.named(id).map(RuleSet.examples(of:)) ?? [] {
                text += "\n" + example.markdown
            }
        }
        return text
    }

    @Test func theRulesPageIsWhatTallyRulesAndExplainPrint() throws {
        let expected = try Self.generated()
        if ProcessInfo.processInfo.environment["TALLY_RECORD"] == "1" {
            try expected.write(to: Self.page, atomically: true, encoding: .utf8)
        }
        let text = try String(contentsOf: Self.page, encoding: .utf8)
        #expect(text == expected, "docs/rules.md is stale: regenerate it with TALLY_RECORD=1 swift test --filter RulesPageTests")
        #expect(expected.contains("## `free-trial-with-price`"))
        #expect(expected.contains("## `prices-not-compared`"))
    }
}
