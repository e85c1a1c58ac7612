import ArgumentParser
import Foundation
import TallyCheck
import TallyModel
import TallyReport
import TallyRun

struct ExplainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say why a rule matters and how to fix its findings.",
        discussion: """
        RULE is a rule ID as 'tally rules' lists it and reports show it (price, intro-offer, \
        duplicate-id, ...).

        Examples:
          tally explain price
          tally explain missing-in-catalog
        """
    )

    @Argument(help: "The rule ID.")
    var rule: String

    func run() throws {
        guard let description = RuleSet.description(named: rule) else {
            var message = "unknown rule \"\(rule)\""
            if let near = NearMatch.best(for: rule, among: RuleID.all.map(\.rawValue)) { message += "; did you mean \"\(near)\"?" }
            throw Stop.message(message + " ('tally rules' lists every rule)")
        }
        var out = StandardOutput()
        print(RuleExplanation.text(description), to: &out)
    }
}
