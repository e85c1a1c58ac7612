import TallyCheck

/// `tally explain RULE`: a rule's description in words for a terminal (summary, why it matters, how
/// to fix, and how a policy turns it down or ignores it), wrapped at 96 columns.
public enum RuleExplanation {
    public static func text(_ rule: RuleDescription) -> String {
        let kind = RuleTable.categories.first { $0.name == rule.category }?.kind ?? rule.category
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
    public static func wrap(_ text: String, indent: String, width: Int = 96) -> String {
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
