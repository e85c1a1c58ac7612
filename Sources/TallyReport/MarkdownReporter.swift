import Foundation
import TallyCheck
import TallyModel

/// Markdown for a pull-request comment or a job summary: a headline, a table of findings per
/// rule, how to fix each of those rules (once per rule), then the details grouped by product, each finding with both sides and the hint.
///
/// Text from the sources is escaped (it cannot add links, images or HTML), product IDs and
/// locations are code spans, and past `detailLimit` findings the details are cut with a
/// count, so a large report stays under GitHub's comment size limit.
public struct MarkdownReporter: Reporter {
    public static let identifier = "markdown"
    /// Findings detailed at most; the table still counts them all.
    public var detailLimit: Int
    /// What fails the run: decides the headline's mark.
    public var context: ReportContext

    public init(detailLimit: Int = 200, context: ReportContext = ReportContext()) {
        self.detailLimit = detailLimit
        self.context = context
    }

    public func report(_ result: CheckResult) -> String {
        let passed = !context.fails(result)
        var lines = ["### Tally: \(passed ? "✅" : "❌") \(MarkdownText.escape(FindingText.summary(result, context: context, symbol: false)))", ""]
        if !result.findings.isEmpty {
            lines += ["| rule | severity | findings | what it finds |", "|---|---|---:|---|"]
            for row in Self.rows(result.findings) {
                let summary = RuleSet.description(named: row.rule)?.summary ?? ""
                lines.append("| \(MarkdownText.code(row.rule)) | \(row.severity) | \(row.count) | \(MarkdownText.escape(summary)) |")
            }
            lines.append("")
            lines += ["#### How to fix", ""]
            for fix in FindingText.fixes(result.findings) {
                lines.append("- \(MarkdownText.code(fix.rule.rawValue)): \(MarkdownText.escape(fix.fix)) More: \(MarkdownText.code(FindingText.explainCommand(fix.rule)))")
            }
            lines.append("")
        }
        let notes = FindingText.suppressionLines(result.suppressed)
        if !notes.isEmpty {
            lines += notes.map { "> \(MarkdownText.escape($0))  " } + [""]
        }
        if !result.findings.isEmpty {
            lines += ["#### Details", ""]
            var shown = 0
            for (product, findings) in TextReporter.grouped(result.findings) where shown < detailLimit {
                lines.append("**\(MarkdownText.code(product))**" + (result.names[product].map { " \(MarkdownText.escape($0))" } ?? ""))
                lines.append("")
                for finding in findings where shown < detailLimit {
                    shown += 1
                    lines.append("- **\(finding.severity)** \(MarkdownText.code(finding.ruleID.rawValue)): \(MarkdownText.message(finding.typedMessage))")
                    for side in [finding.left, finding.right].compactMap({ $0 }) {
                        let value = side.value.map { " \(MarkdownText.code(MessageText.words($0)))" } ?? ""
                        lines.append("  - \(side.label): \(MarkdownText.code(side.location.description))\(value)")
                    }
                    if let hint = finding.hint { lines.append("  - hint: \(MarkdownText.escape(hint))") }
                }
                lines.append("")
            }
            if result.findings.count > shown {
                lines += ["_…and \(result.findings.count - shown) more findings: see the full report._", ""]
            }
        }
        if !result.comparisons.isEmpty {
            lines += ["<details><summary>What was compared</summary>", ""]
            lines += result.comparisons.map { "- \(MarkdownText.escape($0.text))" }
            lines += ["", "</details>"]
        }
        while lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Findings counted per rule and severity, in the order rules first appear.
    static func rows(_ findings: [Finding]) -> [(rule: String, severity: Severity, count: Int)] {
        var order: [String] = []
        var counts: [String: (severity: Severity, count: Int)] = [:]
        for finding in findings {
            let key = "\(finding.ruleID)\u{1F}\(finding.severity)"
            if counts[key] == nil { order.append(key) }
            counts[key, default: (finding.severity, 0)].count += 1
        }
        return order.compactMap { key in
            guard let entry = counts[key], let rule = key.split(separator: "\u{1F}").first else { return nil }
            return (String(rule), entry.severity, entry.count)
        }
    }
}

/// Escaping for GitHub-flavoured Markdown.
enum MarkdownText {
    /// Backslash-escapes the characters that start Markdown syntax (`[` and `]`, so no link or
    /// image can form; `#`, so no issue reference), turns `<`, `>` and `&` into entities (no
    /// HTML), `|` into `\|` (tables) and line breaks into spaces; a mention (`@octocat`,
    /// `@org/team`) notifies nobody (`SafeText.markdownMentions`).
    static func escape(_ text: String) -> String {
        var out = ""
        for character in FindingText.visible(text.replacingOccurrences(of: "\r\n", with: " ").replacingOccurrences(of: "\n", with: " "), keeping: []) {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\\", "`", "*", "_", "[", "]", "#", "|", "~": out += "\\\(character)"
            default: out.append(character)
            }
        }
        return SafeText.markdownMentions(out)
    }

    /// A finding's message: its words escaped, and the values a reader may copy (product IDs,
    /// money, periods, territories, names) in code spans; sources and counts stay words.
    static func message(_ message: FindingMessage) -> String {
        message.parts.map { part in
            switch part {
            case .text(let words): escape(words)
            case .value(let value):
                switch value {
                case .source, .count, .offer, .duration: escape(MessageText.words(value))
                case .product, .money, .period, .territory, .territories, .name: code(MessageText.words(value))
                }
            }
        }.joined()
    }

    /// A code span long enough to hold any backticks in the text; `|` escaped for tables.
    static func code(_ text: String) -> String {
        let clean = FindingText.visible(text, keeping: []).replacingOccurrences(of: "|", with: "\\|")
        var longest = 0, run = 0
        for character in clean {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = clean.hasPrefix("`") || clean.hasSuffix("`") ? " \(clean) " : clean
        return fence + padded + fence
    }
}
