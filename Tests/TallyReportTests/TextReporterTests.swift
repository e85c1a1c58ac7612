import TallyCheck
import TallyReport
import Testing

@Suite("Text reporter")
struct TextReporterTests {
    @Test("Without colour there is no escape byte, even when a message holds one")
    func noEscapeWithoutColor() {
        // Given
        let result = CheckResult.test(findings: [.test(message: "evil \u{1B}[2J message"), .test(severity: .warning)])
        // When
        let output = TextReporter(color: false).report(result)
        // Then
        #expect(!output.utf8.contains(0x1B))
        #expect(output.contains(#"evil \u{1B}[2J message"#))
    }

    @Test("With colour, severities are painted")
    func colorPaints() {
        let output = TextReporter(color: true).report(.test(findings: [.test()]))
        #expect(output.contains("\u{1B}[31merror\u{1B}[0m"))
    }

    @Test("Findings are grouped by product, sorted, with findings without a product first")
    func groupsByProduct() {
        // Given
        let result = CheckResult.test(findings: [
            .test(product: "com.b", message: "b1"), .test(product: nil, message: "none"),
            .test(product: "com.a", message: "a1"), .test(product: "com.b", message: "b2"),
        ])
        // When
        let lines = TextReporter(color: false).report(result).split(separator: "\n").map(String.init)
        // Then
        let headers = lines.filter { !$0.hasPrefix(" ") && !$0.hasPrefix("compared") && !$0.hasPrefix("✘") }
        #expect(headers == ["(source)", "com.a", "com.b", "how to fix:"])
        let messages = lines.filter { $0.hasPrefix("  error") }.map { $0.split(separator: " ").last.map(String.init) ?? "" }
        #expect(messages == ["none", "a1", "b1", "b2"])
    }

    @Test("The summary counts errors, warnings and distinct products checked")
    func summaryCounts() {
        // Given
        let result = CheckResult.test(
            findings: [.test(), .test(severity: .warning)],
            checked: [.test(subject: "com.a"), .test(rule: .kind, subject: "com.a"), .test(subject: "com.b")])
        // When
        let output = TextReporter(color: false).report(result)
        // Then
        #expect(output.hasSuffix("✘ 1 error, 1 warning in 2 sources (2 products checked)"))
    }

    @Test("A clean result says it is consistent")
    func consistentSummary() {
        let output = TextReporter(color: false).report(.test(checked: [.test()], sources: ["a.storekit"]))
        #expect(output.hasSuffix("✔ consistent: 1 product checked in 1 source, 0 errors, 0 warnings"))
    }
}
