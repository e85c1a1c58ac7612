import Foundation
import Testing
import TallyCheck
import TallyConfig
import TallyFormats
import TallyModel

@Suite("Baseline file")
struct BaselineFileTests {
    static let finding = Finding(ruleID: .price, severity: .error, productID: "com.a", territory: .usa, field: .prices,
                                 message: "com.a costs 1 USD here and 2 USD there")

    static func read(_ text: String) throws -> Baseline {
        try BaselineFile.read(bytes: Array(text.utf8), file: "base.json")
    }

    @Test func writtenAndReadBackItHoldsTheSameEntries() throws {
        let baseline = Baseline(findings: [Self.finding])
        let text = BaselineFile.encode(baseline)
        #expect(text.contains("\"version\" : 1"))
        #expect(!text.contains("\"line\""), "baselines are keyed without lines")
        #expect(try Self.read(text) == baseline)
    }

    @Test func anotherVersionIsRefused() throws {
        #expect(throws: FormatError.self) { try Self.read(#"{"version": 2, "findings": []}"#) }
        do {
            _ = try Self.read(#"{"version": 2, "findings": []}"#)
        } catch let error as FormatError {
            #expect(error.message == "this baseline is version 2, but this Tally reads version 1 only: upgrade Tally")
        }
    }

    @Test func brokenJSONIsReportedWithItsLineAndColumn() throws {
        do {
            _ = try Self.read("{\"version\": 1,\n \"findings\": [}\n")
            Issue.record("no error")
        } catch let error as FormatError {
            #expect(error.location.line == 2)
            #expect(error.location.column != nil)
        }
    }

    @Test func aWrongShapeIsReportedWithItsKeyPath() throws {
        do {
            _ = try Self.read(#"{"version": 1, "findings": [{"product": "com.a", "field": "prices"}]}"#)
            Issue.record("no error")
        } catch let error as FormatError {
            #expect(error.message == "a baseline entry has no \"rule\"")
            #expect(error.location.path == "findings[0]")
        }
    }

    @Test func aFileWithoutVersionIsNotABaseline() {
        #expect(throws: FormatError.self) { try Self.read(#"{"findings": []}"#) }
        #expect(throws: FormatError.self) { try Self.read("[1, 2]") }
    }
}
