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
        let coverage = coverageSuite(result)
        let tests = suites.reduce(0) { $0 + $1.cases.count } + (coverage == nil ? 0 : 1)
        let failures = suites.reduce(0) { $0 + $1.failures(context) } + (coverage?.failed == true ? 1 : 0)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<testsuites name="tally" tests="\#(tests)" failures="\#(failures)" errors="0">"#,
        ]
        for suite in suites {
            lines.append(#"  <testsuite name="\#(attr(suite.rule))" tests="\#(suite.cases.count)" failures="\#(suite.failures(context))" errors="0">"#)
            lines += suite.cases.map { testCase(for: $0, rule: suite.rule) }
            lines.append("  </testsuite>")
        }
        if let coverage { lines += coverage.lines }
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

    /// A `coverage` test suite when the run left anything uncompared (issue 48): its properties
    /// count what was compared, its one test case fails when the run fails for what it did not
    /// compare (nothing compared, or `require_compared: all`), and lists what was not.
    private func coverageSuite(_ result: CheckResult) -> (lines: [String], failed: Bool)? {
        guard let coverage = result.coverage, coverage.sources >= 2, !coverage.notCompared.isEmpty else { return nil }
        let failure = context.failBar.coverageFailure(result)
        let properties = [
            ("coverage.sources", coverage.sources), ("coverage.products.total", coverage.products),
            ("coverage.products.compared", coverage.productsCompared), ("coverage.code_requests.total", coverage.codeRequests),
            ("coverage.code_requests.compared", coverage.codeRequestsCompared), ("coverage.not_compared", coverage.notCompared.count),
        ]
        var lines = [#"  <testsuite name="coverage" tests="1" failures="\#(failure == nil ? 0 : 1)" errors="0">"#, "    <properties>"]
        lines += properties.map { #"      <property name="\#($0.0)" value="\#($0.1)"/>"# }
        lines.append("    </properties>")
        lines.append(#"    <testcase classname="coverage" name="compared across sources">"#)
        let listed = FindingText.coverageLines(result, named: 50).map { XMLText.escape(FindingText.visible($0), attribute: false) }.joined(separator: "\n")
        if let failure {
            lines.append(#"      <failure message="\#(attr(failure))">\#(listed)</failure>"#)
        } else {
            lines.append("      <system-out>\(listed)</system-out>")
        }
        lines += ["    </testcase>", "  </testsuite>"]
        return (lines, failure != nil)
    }

    private func attr(_ text: String) -> String { XMLText.escape(text, attribute: true) }
}
