import Foundation
import Testing
@testable import TallyFetch

/// A snapshot appears whole or not at all, and never replaces a folder a fetch did not write.
@Suite struct SnapshotWriterTests {
    static let manifest = SnapshotManifest(store: "app-store-connect", app: "1", fetchedAt: Date(timeIntervalSince1970: 0),
                                           apiHost: "https://api.appstoreconnect.apple.com", requests: 2, pages: 2, counts: ["inAppPurchases": 1])

    @Test func pagesAppearOnlyOnCommitAndReplaceTheEarlierSnapshot() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path("asc")
        var first = try SnapshotWriter(destination: output)
        try first.write(page: Data("{\"data\":[]}".utf8), name: "inAppPurchasesV2")
        #expect(!FileManager.default.fileExists(atPath: output))
        try first.commit(manifest: Self.manifest)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: output)) == ["0001-inAppPurchasesV2.json", "tally-snapshot.json"])

        var second = try SnapshotWriter(destination: output)
        try second.write(page: Data("{\"data\":[]}".utf8), name: "subscriptionGroups")
        try second.commit(manifest: Self.manifest)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: output)) == ["0001-subscriptionGroups.json", "tally-snapshot.json"])
        // Nothing left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["asc"])
        #expect(SnapshotManifest.read(folder: output) == Self.manifest)
    }

    @Test func aDiscardedSnapshotLeavesTheFolderAsItWas() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path("asc")
        var first = try SnapshotWriter(destination: output)
        try first.write(page: Data("{\"data\":[1]}".utf8), name: "old")
        try first.commit(manifest: Self.manifest)
        let before = Scratch.contents(of: output)
        var second = try SnapshotWriter(destination: output)
        try second.write(page: Data("{\"data\":[2]}".utf8), name: "new")
        second.discard()
        #expect(Scratch.contents(of: output) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) == ["asc"])
    }

    @Test func aFolderAFetchDidNotWriteIsNeverReplaced() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        try "notes".write(toFile: scratch.path("notes.txt"), atomically: true, encoding: .utf8)
        #expect(throws: FetchError.self) { try SnapshotWriter(destination: scratch.url.path) }
        #expect(throws: FetchError.self) { try SnapshotWriter(destination: scratch.path("notes.txt")) }
    }

    @Test func theManifestSummarySaysWhatWhenAndWhere() {
        #expect(Self.manifest.summary == "App Store Connect snapshot of app 1, fetched 1970-01-01T00:00:00Z from https://api.appstoreconnect.apple.com: 1 in-app purchase (2 requests)")
    }
}
