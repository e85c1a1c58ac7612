import TallyCheck

/// The Markdown table of rules in docs/rules.md, generated from the rules themselves.
public enum RuleTable {
    public static let begin = "<!-- rules:begin -->"
    public static let end = "<!-- rules:end -->"

    public static func markdown(_ rules: [RuleDescription] = RuleSet.descriptions) -> String {
        var lines = ["| rule | default | what it finds |", "|---|---|---|"]
        for rule in rules {
            lines.append("| `\(rule.id)` | \(rule.defaultSeverity) | \(rule.summary.replacingOccurrences(of: "|", with: "\\|")) |")
        }
        return lines.joined(separator: "\n")
    }

    /// The categories of rules in the order `tally rules` lists them, each with its heading:
    /// every category a rule has (`RuleTablesTests` fails when a rule's is not here).
    public static let categories: [(name: String, heading: String, kind: String)] = [
        ("cross-source", "Cross-source rules:", "cross-source"),
        ("lint", "Single-source lint:", "single-source lint"),
        ("paywall", "Paywall rules (a paywall platform's configuration, on its own and against the stores):",
         "paywall, on its own and against the stores"),
        ("code", "Code rules (the product IDs the app's code asks for, against the other sources):",
         "code, against the other sources"),
    ]

    /// `tally rules`: every rule by category, its ID, default severity and summary, aligned.
    public static func text(_ rules: [RuleDescription] = RuleSet.descriptions) -> String {
        let width = rules.map(\.id.rawValue.count).max() ?? 0
        var lines: [String] = []
        for category in categories where rules.contains(where: { $0.category == category.name }) {
            if !lines.isEmpty { lines.append("") }
            lines.append(category.heading)
            for rule in rules where rule.category == category.name {
                let id = rule.id.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
                let severity = rule.defaultSeverity.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0)
                lines.append("  \(id)  \(severity)  \(rule.summary)")
            }
        }
        lines.append("")
        lines.append("'tally explain RULE' says why a rule matters and how to fix its findings.")
        return lines.joined(separator: "\n")
    }
}

