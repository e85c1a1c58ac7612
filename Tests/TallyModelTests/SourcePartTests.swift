import Testing
import TallyModel

/// A source read from several files numbers their lines in one sequence; locations give each
/// file's own line back.
@Suite struct SourcePartTests {
    static let parts = [SourcePart(file: "export/a.json", firstLine: 1), SourcePart(file: "export/b.json", firstLine: 41),
                        SourcePart(file: "export/c.json", firstLine: 90)]

    @Test(arguments: [(1, "export/a.json", 1), (40, "export/a.json", 40), (41, "export/b.json", 1), (89, "export/b.json", 49), (500, "export/c.json", 411)])
    func locationsNameThePartAndItsLine(_ line: Int, _ file: String, _ local: Int) {
        var catalog = Catalog(file: "export", format: .appStoreConnect)
        catalog.parts = Self.parts
        let location = catalog.location(Position(line: line, column: 7))
        #expect(location == SourceLocation(file: file, line: local, column: 7))
    }

    @Test func withoutPartsTheCatalogueFileIsUsed() {
        let catalog = Catalog(file: "App.storekit", format: .storeKit)
        #expect(catalog.location(Position(line: 12, column: 3)) == SourceLocation(file: "App.storekit", line: 12, column: 3))
        #expect(catalog.location(.unknown, path: "products[0]") == SourceLocation(file: "App.storekit", path: "products[0]"))
        #expect(SourcePart.containing(line: 5, in: []) == nil)
    }
}
