import Foundation
import Testing
import TallyConfig
import TallyFormats

@Suite("Source globs")
struct SourceGlobTests {
    /// A temporary tree: a/x.storekit, a/y.storekit, a/.hidden.storekit, a/b/c/z.storekit, .git/h.storekit, catalog/p.yaml.
    static func tree() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tally-glob-\(UUID().uuidString)").path
        for file in ["a/x.storekit", "a/y.storekit", "a/.hidden.storekit", "a/b/c/z.storekit", ".git/h.storekit", "catalog/p.yaml"] {
            let path = "\(root)/\(file)"
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: URL(fileURLWithPath: path))
        }
        return root
    }

    @Test func pathsListedByGitMatchAsTheFileSystemWalkFindsThem() throws {
        // Given: the same tree walked on disk and as git lists it
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listed = ["a/x.storekit", "a/y.storekit", "a/.hidden.storekit", "a/b/c/z.storekit", ".git/h.storekit", "catalog/p.yaml"]
        for pattern in ["a/*.storekit", "**/*.storekit", "a/**/z.storekit", "catalog/p.yaml", "./catalog/*.yaml", "*.yaml", "a/?.storekit"] {
            // When
            let walked = SourceGlob.expand(pattern, in: root).map { String($0.dropFirst(root.count + 1)) }
            let matched = listed.filter { SourceGlob.matches(pattern, path: $0) }.sorted()
            // Then
            #expect(matched == walked, "\(pattern)")
        }
        #expect(SourceGlob.matches("**/*.storekit", path: "a/b/c/z.storekit"))
        #expect(!SourceGlob.matches("**/*.storekit", path: ".git/h.storekit"))
        #expect(!SourceGlob.matches("a/*.storekit", path: "a/b/c/z.storekit"))
    }

    @Test func starMatchesWithinOneFolderAndSkipsHiddenFiles() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(SourceGlob.expand("a/*.storekit", in: root) == ["\(root)/a/x.storekit", "\(root)/a/y.storekit"])
    }

    @Test func doubleStarMatchesAnyNumberOfFoldersButNotHiddenOnes() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let found = SourceGlob.expand("**/*.storekit", in: root).map { String($0.dropFirst(root.count + 1)) }
        #expect(found == ["a/b/c/z.storekit", "a/x.storekit", "a/y.storekit"])
    }

    @Test func aPlainPathMatchesItselfAndAMissingOneNothing() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(SourceGlob.expand("catalog/p.yaml", in: root) == ["\(root)/catalog/p.yaml"])
        #expect(SourceGlob.expand("catalog/q.yaml", in: root).isEmpty)
        #expect(SourceGlob.expand("catalog", in: root).isEmpty, "a folder is not a source")
    }

    @Test func aGlobMatchingNothingIsAnErrorAtItsLine() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let file = try PolicyFile.read(bytes: Array("version: 1\nsources:\n  - a/*.storekit\n  - server/*.yaml\n".utf8), file: "\(root)/.tally.yml")
        #expect(throws: FormatError.self) { try file.sourcePaths() }
        do {
            _ = try file.sourcePaths()
        } catch let error as FormatError {
            #expect(error.location.line == 4)
            #expect(error.message.contains("\"server/*.yaml\" matches no file"))
        }
    }

    @Test func initFindsStoreKitFilesAndCatalogueFilesByTheirContent() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("format: tally-catalog/1\nproducts: []\n".utf8).write(to: URL(fileURLWithPath: "\(root)/catalog/p.yaml"))
        try Data("name: not a catalogue\n".utf8).write(to: URL(fileURLWithPath: "\(root)/catalog/other.yaml"))
        let found = SourceScan.find(in: root)
        #expect(found.configurations == ["a/b/c/z.storekit", "a/x.storekit", "a/y.storekit"])
        #expect(found.catalogs == ["catalog/p.yaml"])
        #expect(SourceScan.globs(for: found.configurations, in: root) == ["a/b/c/*.storekit", "a/*.storekit"])
        #expect(found.notSources == ["catalog/other.yaml"], "a YAML file without catalogue keys beside the catalogue")
        #expect(SourceScan.globs(for: found.catalogs, in: root) == ["catalog/p.yaml"], "the glob would match other.yaml too: the file is named")
    }
}

/// `tally init` in an app repository: what it proposes is what `tally check` can read.
@Suite struct InitProposalTests {
    static func write(_ text: String, _ path: String, in root: String) throws {
        let url = URL(fileURLWithPath: "\(root)/\(path)")
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static let storekit = #"{"identifier":"A","nonRenewingSubscriptions":[],"products":[{"displayPrice":"0.99","familyShareable":false,"internalID":"1","localizations":[{"description":"d","displayName":"n","locale":"en_US"}],"productID":"com.example.coins","referenceName":"coins","type":"Consumable"}],"settings":{},"subscriptionGroups":[],"version":{"major":3,"minor":0}}"#

    @Test func leavesOutTestFixturesWhenTheAppHasItsOwnSourcesAndKeepsThemOtherwise() throws {
        let root = NSTemporaryDirectory() + "init-tests-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.write(Self.storekit, "App/Products.storekit", in: root)
        try Self.write(Self.storekit, "AppTests/Fixtures/Broken.storekit", in: root)
        try Self.write(Self.storekit, "Tests/UnitTests/Other.storekit", in: root)
        var found = SourceScan.find(in: root)
        #expect(found.configurations == ["App/Products.storekit"])
        #expect(found.inTestFolders == ["AppTests/Fixtures/Broken.storekit", "Tests/UnitTests/Other.storekit"])
        found.read()
        #expect(found.loaded["App/Products.storekit"]?.products.map(\.id) == ["com.example.coins"])

        // Only fixtures: they are what there is, so they stay.
        try FileManager.default.removeItem(atPath: "\(root)/App")
        let onlyTests = SourceScan.find(in: root)
        #expect(onlyTests.configurations == ["AppTests/Fixtures/Broken.storekit", "Tests/UnitTests/Other.storekit"])
        #expect(onlyTests.inTestFolders.isEmpty)
    }

    @Test func aJSONSchemaThatNamesTheCatalogueFormatIsReadAndLeftOutWithItsError() throws {
        let root = NSTemporaryDirectory() + "init-schema-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Self.write("format: tally-catalog/1\nproducts: []\n", "server/catalog.yaml", in: root)
        // A JSON Schema that mentions the format (as docs/schemas/tally-catalog-1.schema.json does).
        try Self.write(#"{"$schema": "https://json-schema.org/draft-07/schema#", "title": "tally-catalog/1", "properties": {"format": {"const": "tally-catalog/1"}}}"#,
                       "docs/schema.json", in: root)
        var found = SourceScan.find(in: root)
        found.read()
        #expect(found.catalogs == ["server/catalog.yaml"])
        #expect(found.unreadable.map(\.path) == ["docs/schema.json"])
        let error = try #require(found.unreadable.first?.error)
        #expect(error.contains("missing \"format\": \"tally-catalog/1\" at the top of the catalogue; it holds \"$schema\", \"title\", \"properties\""), "\(error)")
        #expect(!error.contains("unknown key"), "one error, not one per key: \(error)")
    }
}
