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
        print(format == .markdown ? RuleTable.markdown() : RuleTable.text(), to: &out)
    }
}
