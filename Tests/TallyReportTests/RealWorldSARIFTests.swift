import Foundation
import TallyCheck
import TallyFormats
import TallyReport
import Testing

/// Every real StoreKit file in ../shared/fixtures/realworld/storekit, linted, and each pair of
/// them checked against the other: the SARIF log validates against the 2.1.0 schema, whatever
/// the locations look like (JSON lines and columns, property-list key paths, absolute paths).
enum RealWorld {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/fixtures/realworld/storekit")

    static let files: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
        .filter { $0.hasSuffix(".storekit") }.sorted()
}

@Suite(.enabled(if: SchemaValidator.available && RealWorld.files.count > 1,
                "needs ../shared/fixtures/realworld and python3 with jsonschema"))
struct RealWorldSARIFTests {

    @Test func lintingEveryRealFileGivesValidSARIF() throws {
        let catalogs = RealWorld.files.compactMap { try? SourceLoader.load(path: RealWorld.directory.appendingPathComponent($0).path) }
        #expect(catalogs.count == RealWorld.files.count - 1, "all but the empty file read")
        let result = Checker().lint(catalogs)
        #expect(try SchemaValidator.violations(of: SARIFReporter().report(result)) == [])
    }

    @Test func checkingRealFilesAgainstATallyCatalogueGivesValidSARIF() throws {
        // Given: every real configuration against a catalogue that has none of their products.
        let configurations = RealWorld.files.compactMap { try? SourceLoader.load(path: RealWorld.directory.appendingPathComponent($0).path) }
        let catalogue = try SourceLoader.load(bytes: Array("format: tally-catalog/1\nproducts:\n  - {id: com.other, kind: consumable, prices: {USA: \"0.99\"}}\n".utf8),
                                              file: "server/catalog.yaml")
        // When
        let result = Checker().check(configurations: configurations, catalogs: [catalogue])
        // Then
        #expect(result.findings.count > 90, "every product of every file is missing in the catalogue")
        #expect(try SchemaValidator.violations(of: SARIFReporter().report(result)) == [])
    }
}
