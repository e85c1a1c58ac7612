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
}
