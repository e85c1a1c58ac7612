import Foundation
import TallyCheck
import TallyReport
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("JUnit reporter")
struct JUnitReporterTests {
    private func parse(_ xml: String) throws -> XMLElement {
        let document = try XMLDocument(xmlString: xml, options: [])
        return try #require(document.rootElement())
    }

    private func int(_ element: XMLElement, _ name: String) -> Int? {
        element.attribute(forName: name)?.stringValue.flatMap { Int($0) }
    }

    @Test("The output is well-formed, with counts that match its test cases and unique names")
    func wellFormedWithCounts() throws {
        // When
        let root = try parse(JUnitReporter().report(Sample.mixed))
        // Then
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        let cases = suites.flatMap { $0.elements(forName: "testcase") }
        let failing = cases.filter { !$0.elements(forName: "failure").isEmpty }
        #expect(int(root, "tests") == cases.count)
        #expect(int(root, "failures") == failing.count)
        #expect(int(root, "errors") == 0)
        #expect(suites.count == 7)
        // Errors fail; the two warnings and the note pass, their text in system-out.
        #expect(failing.count == 4)
        #expect(cases.filter { !$0.elements(forName: "system-out").isEmpty }.count == 3)
        for suite in suites {
            let suiteCases = suite.elements(forName: "testcase")
            let names = suiteCases.compactMap { $0.attribute(forName: "name")?.stringValue }
            #expect(names.count == suiteCases.count)
            #expect(Set(names).count == names.count, "duplicate test case names in \(suite.attribute(forName: "name")?.stringValue ?? "?")")
            #expect(int(suite, "tests") == suiteCases.count)
            #expect(int(suite, "failures") == suiteCases.filter { !$0.elements(forName: "failure").isEmpty }.count)
            for testCase in suiteCases {
                #expect(testCase.attribute(forName: "classname")?.stringValue == suite.attribute(forName: "name")?.stringValue)
            }
        }
    }

    @Test("Warnings are failures only when they fail the run (--strict, fail_on: warning)")
    func warningsFailOnlyWhenTheRunDoes() throws {
        let strict = try parse(JUnitReporter(context: ReportContext(failsAt: .warning)).report(Sample.mixed))
        let cases = strict.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        #expect(cases.filter { !$0.elements(forName: "failure").isEmpty }.count == 6)
        #expect(int(strict, "failures") == 6)
        let recording = try parse(JUnitReporter(context: ReportContext(failsAt: nil)).report(Sample.mixed))
        #expect(int(recording, "failures") == 0)
        #expect(int(recording, "tests") == cases.count)
    }

    @Test("A subject checked in two files gets two test cases with distinct names")
    func duplicateSubjectsAreNumbered() throws {
        // Given
        let result = CheckResult.test(checked: [
            .test(rule: .invalidID, subject: "com.a"), .test(rule: .invalidID, subject: "com.a", file: "catalog.yaml"),
            .test(rule: .invalidID, subject: "com.a"),
        ])
        // When
        let root = try parse(JUnitReporter().report(result))
        // Then
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue } == ["com.a", "com.a (2)"])
        #expect(cases.compactMap { $0.attribute(forName: "file")?.stringValue } == ["configs/App.storekit", "catalog.yaml"])
    }

    @Test("Findings for a subject share one failure; findings never checked still get a test case")
    func findingsJoinTheirCase() throws {
        // Given
        let result = CheckResult.test(
            findings: [.test(message: "first"), .test(message: "second"), .test(rule: .kind, product: "com.z", message: "kind")],
            checked: [.test(), .test(subject: "com.ok")])
        // When
        let root = try parse(JUnitReporter().report(result))
        // Then
        #expect(int(root, "tests") == 3)
        #expect(int(root, "failures") == 2)
        let price = try #require(root.elements(forName: "testsuite").first)
        let failures = price.elements(forName: "testcase").flatMap { $0.elements(forName: "failure") }
        #expect(failures.count == 1)
        #expect(failures.first?.attribute(forName: "message")?.stringValue == "first; second")
        #expect(failures.first?.attribute(forName: "type")?.stringValue == "price")
        #expect(failures.first?.stringValue?.contains("catalog: catalog/products.yaml:18:14  5.99 USD") == true)
    }

    @Test("Markup and control characters in messages still give valid XML")
    func escapesEverything() throws {
        // Given
        let message = #"costs <&"'> here"# + "\u{1B}\u{0}\u{7}\r end"
        let result = CheckResult.test(findings: [.test(product: "com.<a>&'b'", message: FindingMessage(message), hint: "a\u{FFFF}b")])
        // When
        let xml = JUnitReporter().report(result)
        // Then
        #expect(!xml.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" })
        let root = try parse(xml)
        let testCase = try #require(root.elements(forName: "testsuite").first?.elements(forName: "testcase").last)
        #expect(testCase.attribute(forName: "name")?.stringValue == "com.<a>&'b'")
        let failure = try #require(testCase.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue == #"costs <&"'> here\u{1B}\u{0}\u{7}"# + "\r end")
        #expect(failure.stringValue?.contains(#"hint: a\u{FFFF}b"#) == true)
    }
}
