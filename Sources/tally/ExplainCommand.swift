import ArgumentParser
import Foundation
import TallyCheck
import TallyModel

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
        print(Self.text(description), to: &out)
    }

    static func text(_ rule: RuleDescription) -> String {
        let kind = rule.category == "lint" ? "single-source lint" : rule.category == "paywall" ? "paywall, on its own and against the stores" : "cross-source"
        return """
        \(rule.id)  (\(kind), default severity \(rule.defaultSeverity))

        \(wrap(rule.summary, indent: ""))

        Why it matters:
        \(wrap(rule.rationale, indent: "  "))

        How to fix:
        \(wrap(rule.fix, indent: "  "))

        In .tally.yml:
          rules:
            \(rule.id): warning          # error, warning or off
          ignore:
            - rule: \(rule.id)
              product: com.example.legacy.*
              reason: why these findings are accepted
        """
    }

    /// Words wrapped at 96 columns, each line indented.
    static func wrap(_ text: String, indent: String, width: Int = 96) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && indent.count + line.count + 1 + word.count > width {
                lines.append(indent + line)
                line = ""
            }
            line += line.isEmpty ? String(word) : " \(word)"
        }
        if !line.isEmpty { lines.append(indent + line) }
        return lines.joined(separator: "\n")
    }
}
