import TallyCheck

/// JUnit XML as GitLab, Jenkins and most CI test views read it.
///
/// One `<testsuite>` per rule, named by the rule ID; one `<testcase>` per subject the rule
/// examined (see `JUnitSuite.suites(for:)`), with `classname` = rule ID, `name` = product ID
/// (unique within the suite) and `file` = the file the subject was examined in. A case with a
/// finding that fails the run (an error; a warning too with `--strict` or `fail_on: warning`)
/// fails: its `<failure>` has the messages in `message`, the rule ID in `type`, and in its body
/// each finding's severity, message, sides and hint. A case whose findings do not fail the run
/// (warnings, notes) passes, with the same text in `<system-out>`: Jenkins and GitLab turn a
/// build red on any `<failure>`, so a passing run has none.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"

    /// What fails the run: which findings are `<failure>`s.
    public var context: ReportContext

    public init(context: ReportContext = ReportContext()) {
        self.context = context
    }

    public func report(_ result: CheckResult) -> String {
        let suites = JUnitSuite.suites(for: result)
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures(context) }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="tally" tests="\#(tests)" failures="\#(failures)" errors="0">"#,
        ]
        for suite in suites {
            lines.append(#"  <testsuite name="\#(attr(suite.rule))" tests="\#(suite.cases.count)" failures="\#(suite.failures(context))" errors="0">"#)
            lines += suite.cases.map { testCase(for: $0, rule: suite.rule) }
            lines.append("  </testsuite>")
        }
        lines.append("</testsuites>")
        return lines.joined(separator: "\n")
    }

    private func testCase(for testCase: JUnitSuite.TestCase, rule: String) -> String {
        var open = #"    <testcase classname="\#(attr(rule))" name="\#(attr(testCase.name))""#
        if let file = testCase.file { open += #" file="\#(attr(file))""# }
        guard !testCase.findings.isEmpty else { return open + "/>" }
        let body = testCase.findings.map(Self.body).joined(separator: "\n\n")
        guard testCase.findings.contains(where: context.fails) else {
            return open + ">\n" + "      <system-out>\(XMLText.escape(body))</system-out>" + "\n    </testcase>"
        }
        let message = testCase.findings.map(\.message).joined(separator: "; ")
        return open + ">\n"
            + #"      <failure message="\#(attr(message))" type="\#(attr(rule))">\#(XMLText.escape(body))</failure>"#
            + "\n    </testcase>"
    }

    /// `error: message`, then the sides and hint, indented.
    static func body(_ finding: Finding) -> String {
        (["\(finding.severity): \(finding.message)"] + FindingText.detailLines(finding).map { "  \($0)" })
            .joined(separator: "\n")
    }

    private func attr(_ text: String) -> String { XMLText.escape(text, attribute: true) }
}
