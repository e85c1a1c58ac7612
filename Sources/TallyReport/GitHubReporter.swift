import Foundation
import TallyCheck
import TallyModel

/// GitHub Actions workflow commands: one `::error`, `::warning` or `::notice` line per finding,
/// which GitHub shows as an annotation on the file and line, then a plain summary line.
///
/// ```
/// ::error file=catalog/products.yaml,line=36,col=19,title=price (com.example.pro)::com.example.pro costs 5.99 USD ...%0A  configuration: ...
/// ```
///
/// Values are escaped as GitHub's runner expects: `%`, `\r` and `\n` in the message; also `:`
/// and `,` in properties. A message therefore stays on one line, and text from a source file
/// cannot start a workflow command of its own. `tally check` picks this format by itself when
/// `GITHUB_ACTIONS=true` and no format is named.
public struct GitHubReporter: Reporter {
    public static let identifier = "github"

    /// What fails the run (the summary line's mark), and the repository root that annotation
    /// paths are relative to.
    public var context: ReportContext

    public init(context: ReportContext = ReportContext()) {
        self.context = context
    }

    public func report(_ result: CheckResult) -> String {
        var lines = result.findings.map(annotation)
        lines += FindingText.suppressionLines(result.suppressed).map { "tally: \(FindingText.visible($0))" }
        lines.append("tally: \(FindingText.summary(result, context: context))")
        return lines.joined(separator: "\n")
    }

    private func annotation(_ finding: Finding) -> String {
        let command: String = switch finding.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
        var properties: [String] = []
        let sides = [finding.left, finding.right].compactMap { $0 }
        if let side = sides.first(where: { $0.location.line != nil }) ?? sides.first {
            // GitHub places annotations by the path from the repository root.
            let file = context.pathInRepository(side.location.file) ?? side.location.file
            properties.append("file=\(Self.escapeProperty(FindingText.visible(file)))")
            if let line = side.location.line {
                properties.append("line=\(line)")
                if let column = side.location.column { properties.append("col=\(column)") }
            }
        }
        let title = finding.productID.map { "\(finding.ruleID) (\($0))" } ?? finding.ruleID.rawValue
        properties.append("title=\(Self.escapeProperty(FindingText.visible(title)))")
        // Each line made visible on its own (a newline inside an ID is shown as \u{A}, not a line
        // break in the annotation: issue 47), then the lines joined.
        let data = ([finding.message] + FindingText.detailLines(finding).map { "  \($0)" })
            .map { FindingText.visible($0, keeping: ["\t"]) }.joined(separator: "\n")
        return "::\(command) \(properties.joined(separator: ","))::\(Self.escapeData(data))"
    }

    /// The message part: `%`, `\r`, `\n`.
    /// `##[…]` anywhere is the runner's older command syntax: written `\u{23}#[` (`SafeText`).
    static func escapeData(_ text: String) -> String {
        SafeText.defuseCommand(text).replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A property value: the message escapes, and `:` and `,`.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text)
            .replacingOccurrences(of: ":", with: "%3A")
            .replacingOccurrences(of: ",", with: "%2C")
    }
}
