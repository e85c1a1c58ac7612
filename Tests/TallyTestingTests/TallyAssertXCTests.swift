import Foundation
import TallyTesting
import XCTest

/// The same assertion from XCTest: each finding becomes one `XCTFail`.
final class TallyAssertXCTests: XCTestCase {
    /// Failures captured instead of recorded, while a test expects them.
    private var captured: [String] = []
    private var capturing = false

    func testTheShippedConfigurationAndCatalogueAreConsistent() throws {
        let result = try TallyAssert.consistent(config: "configs/ExampleApp.storekit", catalog: "catalog/products.yaml")
        XCTAssertEqual(result.findings.count, 0)
    }

    func testABrokenPairFailsOncePerFinding() throws {
        let directory = try Examples.broken(Examples.threeMismatches)
        defer { try? FileManager.default.removeItem(at: directory) }
        capturing = true
        let result = try TallyAssert.consistent(config: Examples.config, catalog: Examples.catalog, root: directory.path)
        capturing = false
        XCTAssertEqual(captured.count, 3)
        XCTAssertEqual(captured.count, result.findings.count)
        XCTAssertTrue(captured.allSatisfy { $0.contains("configuration: configs/ExampleApp.storekit:") }, "\(captured)")
        XCTAssertEqual(captured.filter { $0.contains("[price]") }.count, 2)
    }

    #if canImport(ObjectiveC)
    override func record(_ issue: XCTIssue) {
        guard capturing else { return super.record(issue) }
        captured.append(issue.compactDescription)
    }
    #else
    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard capturing else { return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected) }
        captured.append(description)
    }
    #endif
}
