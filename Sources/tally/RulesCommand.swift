import ArgumentParser
import TallyCheck
import TallyReport

struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List every rule with its ID, default severity and description.",
        discussion: "Examples:\n  tally rules\n  tally rules --format markdown   # the table of docs/rules.md\n  tally explain price              # why a rule matters, how to fix it"
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, markdown
    }

    @Option(name: .long, help: "text or markdown.")
    var format: Format = .text

    func run() throws {
        var out = StandardOutput()
        if format == .markdown {
            print(RuleTable.markdown(), to: &out)
            return
        }
        let width = RuleSet.descriptions.map(\.id.rawValue.count).max() ?? 0
        let headings = ["cross-source": "Cross-source rules:", "lint": "\nSingle-source lint:",
                        "paywall": "\nPaywall rules (a paywall platform's configuration, on its own and against the stores):"]
        for category in ["cross-source", "lint", "paywall"] {
            print(headings[category] ?? category, to: &out)
            for rule in RuleSet.descriptions where rule.category == category {
                let id = rule.id.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                let severity = rule.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                print("  \(id)  \(severity)  \(rule.summary)", to: &out)
            }
        }
        print("\n'tally explain RULE' says why a rule matters and how to fix its findings.", to: &out)
    }
}
