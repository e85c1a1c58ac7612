import TallyCheck

/// JUnit XML as GitLab, Jenkins and most CI test views read it.
///
/// One `<testsuite>` per rule, named by the rule ID; one `<testcase>` per subject the rule
/// examined (see `JUnitSuite.suites(for:)`), with `classname` = rule ID, `name` = product ID
/// (unique within the suite) and `file` = the file the subject was examined in. A case with
/// findings of any severity fails: its `<failure>` has the messages in `message`, the rule ID in
/// `type`, and in its body each finding's severity, message, sides and hint.
public struct JUnitReporter: Reporter {
    public static let identifier = "junit"

    public init() {}

    public func report(_ result: CheckResult) -> String {
        let suites = JUnitSuite.suites(for: result)
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="tally" tests="\#(tests)" failures="\#(failures)" errors="0">"#,
        ]
        for suite in suites {
            lines.append(#"  <testsuite name="\#(attr(suite.rule))" tests="\#(suite.cases.count)" failures="\#(suite.failures)" errors="0">"#)
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
        let message = testCase.findings.map(\.message).joined(separator: "; ")
        let body = testCase.findings.map(Self.body).joined(separator: "\n\n")
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
