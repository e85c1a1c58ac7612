import Foundation
import TallyCheck
import TallyFormats
import TallyReport
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The shape GitLab's and Jenkins's JUnit parsers rely on: unique (classname, name) pairs, counts
/// on every suite, and each failure's message both in the attribute and in the body.
@Suite("JUnit for GitLab and Jenkins")
struct JUnitCIShapeTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A real check: the shipped example with two prices and a period changed in the catalogue.
    static func realResult() throws -> CheckResult {
        let config = try SourceLoader.load(path: repository.appendingPathComponent("configs/ExampleApp.storekit").path)
        var text = try String(contentsOf: repository.appendingPathComponent("catalog/products.yaml"), encoding: .utf8)
        for (old, new) in [("prices: {USA: \"5.99\"", "prices: {USA: \"6.49\""), ("prices: {USA: \"1.99\"", "prices: {USA: \"2.49\""),
                           ("period: P3M\n", "period: P6M\n")] {
            text = text.replacingOccurrences(of: old, with: new)
        }
        let catalog = try SourceLoader.load(bytes: Array(text.utf8), file: "catalog/products.yaml")
        return Checker().check(configurations: [config], catalogs: [catalog])
    }

    @Test(arguments: ["sample", "real check"])
    func shapeCIParsersRelyOn(_ name: String) throws {
        // Given
        let result = name == "sample" ? Sample.mixed : try Self.realResult()
        let xml = JUnitReporter().report(result)
        // When
        let root = try #require(try XMLDocument(xmlString: xml, options: []).rootElement())
        // Then
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(root.name == "testsuites")
        var pairs = Set<String>()
        var failures = 0
        for suite in root.elements(forName: "testsuite") {
            for attribute in ["name", "tests", "failures", "errors"] {
                #expect(suite.attribute(forName: attribute)?.stringValue?.isEmpty == false, "testsuite without \(attribute)")
            }
            for testCase in suite.elements(forName: "testcase") {
                let classname = testCase.attribute(forName: "classname")?.stringValue ?? ""
                let caseName = testCase.attribute(forName: "name")?.stringValue ?? ""
                #expect(!classname.isEmpty && !caseName.isEmpty)
                #expect(pairs.insert("\(classname)\u{1F}\(caseName)").inserted, "duplicate test case \(classname) \(caseName)")
                for failure in testCase.elements(forName: "failure") {
                    failures += 1
                    let message = try #require(failure.attribute(forName: "message")?.stringValue)
                    #expect(!message.isEmpty)
                    #expect(failure.attribute(forName: "type")?.stringValue == classname)
                    let body = failure.stringValue ?? ""
                    for part in message.components(separatedBy: "; ") {
                        #expect(body.contains(part), "the body lacks the message \(part)")
                    }
                }
            }
        }
        #expect(Int(root.attribute(forName: "failures")?.stringValue ?? "") == failures)
        #expect(Int(root.attribute(forName: "tests")?.stringValue ?? "") == pairs.count)
        if name == "real check" {
            #expect(failures == 3)
            #expect(pairs.count > 100, "passing checks are passing test cases")
        }
    }
}
