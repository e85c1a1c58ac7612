import TallyModel
import TallyCheck

/// Human-readable lines: findings grouped by product, how to fix each rule that has findings
/// (once per rule), what was compared, and a summary line.
///
/// ```
/// com.example.pro.monthly
///   error  price  com.example.pro.monthly costs 4.99 USD in USA in the configuration but 5.99 USD in the catalogue
///       configuration: configs/App.storekit:42:7  4.99 USD
///       catalog: catalog/products.yaml:18:14  5.99 USD
///
/// how to fix:
///   price: Set the same price for the configuration's storefront on both sides, ... (more: tally explain price)
///
/// compared: configs/App.storekit (storefront USA) vs catalog/products.yaml: 14 products in both; compared kind, prices
/// ✘ 1 error, 0 warnings in 2 sources (14 products checked)
/// ```
///
/// Products are sorted by ID; findings without a product come first, under `(source)`. Within a
/// product, findings keep the result's order. Control characters from the sources are shown as
/// `\u{1B}`, so the output holds ANSI escape codes only when `color` is true.
public struct TextReporter: Reporter {
    public static let identifier = "text"

    /// Whether to colour severities, product headings and the summary with ANSI escape codes.
    public var color: Bool
    /// What fails the run: decides the summary line's mark.
    public var context: ReportContext

    public init(color: Bool, context: ReportContext = ReportContext()) {
        self.color = color
        self.context = context
    }

    public func report(_ result: CheckResult) -> String {
        var blocks: [[String]] = []
        for (product, findings) in Self.grouped(result.findings) {
            let name = result.names[product].map { " (\(FindingText.visible($0)))" } ?? ""
            blocks.append([paint(FindingText.visible(product), .bold) + name] + findings.flatMap(lines))
        }
        let fixes = FindingText.fixLines(result.findings)
        if !fixes.isEmpty { blocks.append(fixes) }
        let notes = FindingText.suppressionLines(result.suppressed).map { FindingText.visible($0) }
        let coverage = FindingText.coverageLines(result).map { FindingText.visible($0) }
        let tail = result.comparisons.map { "compared: \(FindingText.visible($0.text))" } + coverage + notes + [summary(result)]
        return (blocks + [tail]).map { $0.joined(separator: "\n") }.joined(separator: "\n\n")
    }

    /// What the policy's ignores and a baseline took out, and the stale baseline entries, as
    /// lines; none for a plain check. For callers whose report format has no room for them.
    public static func suppressionLines(_ suppressed: Suppressed) -> [String] {
        FindingText.suppressionLines(suppressed).map { FindingText.visible($0) }
    }

    /// Findings by product, `(source)` first, then products sorted by ID.
    static func grouped(_ findings: [Finding]) -> [(product: String, findings: [Finding])] {
        var byProduct: [String: [Finding]] = [:]
        var unowned: [Finding] = []
        for finding in findings {
            if let product = finding.productID {
                byProduct[product, default: []].append(finding)
            } else {
                unowned.append(finding)
            }
        }
        let sorted = byProduct.keys.sorted().map { (product: $0, findings: byProduct[$0] ?? []) }
        return (unowned.isEmpty ? [] : [(product: FindingText.noProduct, findings: unowned)]) + sorted
    }

    private func lines(_ finding: Finding) -> [String] {
        let severity = paint(finding.severity.rawValue, Self.style(finding.severity))
        let head = "  \(severity)  \(FindingText.visible("\(finding.ruleID)  \(finding.message)"))"
        return [head] + FindingText.detailLines(finding).map { "      \(FindingText.visible($0))" }
    }

    /// The summary line (`✔ consistent: ...`, `✘ 2 errors, ...`), coloured when `color` is true:
    /// also what the console shows when every report goes to a file.
    public func summary(_ result: CheckResult) -> String {
        let text = FindingText.summary(result, context: context)
        if text.hasPrefix("✔ ") { return paint("✔", .green) + text.dropFirst(1) }
        return paint(text, result.count(.error) > 0 || context.failBar.coverageFailure(result) != nil ? .red : .yellow)
    }

    private static func style(_ severity: Severity) -> Style? {
        switch severity {
        case .error: .red
        case .warning: .yellow
        case .note: nil
        }
    }

    private enum Style: String {
        case bold = "1", red = "31", green = "32", yellow = "33"
    }

    private func paint(_ text: String, _ style: Style?) -> String {
        guard color, let style else { return text }
        return "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m"
    }
}
