import ArgumentParser
import TallyCheck

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule with its ID, default severity and description.",
        discussion: "Example:\n  tally rules"
    )

    func run() throws {
        let width = RuleSet.descriptions.map(\.id.count).max() ?? 0
        for category in ["cross-source", "lint"] {
            print(category == "lint" ? "\nSingle-source lint:" : "Cross-source rules:")
            for rule in RuleSet.descriptions where rule.category == category {
                let id = rule.id.padding(toLength: width, withPad: " ", startingAt: 0)
                let severity = rule.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                print("  \(id)  \(severity)  \(rule.summary)")
            }
        }
    }
}
