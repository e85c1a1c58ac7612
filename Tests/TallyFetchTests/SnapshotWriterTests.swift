#if Fetch  // TallyFetchTests need the network stack: swift test --traits Fetch
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
        var listed = Self.manifest
        listed.files = ["0001-subscriptionGroups.json"]
        #expect(SnapshotManifest.read(folder: output) == listed, "the manifest lists what the fetch wrote")
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

    @Test func onlyWhatTheManifestListsMayBeReplaced() throws {
        let scratch = try Scratch()
        defer { scratch.remove() }
        let output = scratch.path("asc")
        var first = try SnapshotWriter(destination: output)
        try first.write(page: Data("{}".utf8), name: "one")
        try first.commit(manifest: Self.manifest)
        // A page-like name the manifest does not list is not the fetch's either.
        try Data("{}".utf8).write(to: URL(fileURLWithPath: output + "/0009-extra.json"))
        #expect(throws: FetchError.self) { try SnapshotWriter(destination: output) }
        try FileManager.default.removeItem(atPath: output + "/0009-extra.json")
        // A manifest written before Tally listed its files: only NNNN-name.json pages count as its own.
        var legacy = Self.manifest
        legacy.files = nil
        try legacy.encoded().write(to: URL(fileURLWithPath: output + "/tally-snapshot.json"))
        let second = try SnapshotWriter(destination: output)
        second.discard()
        try Data().write(to: URL(fileURLWithPath: output + "/README.md"))
        #expect(throws: FetchError.self) { try SnapshotWriter(destination: output) }
    }

    @Test func theManifestSummarySaysWhatWhenAndWhere() {
        #expect(Self.manifest.summary == "App Store Connect snapshot of app 1, fetched 1970-01-01T00:00:00Z from https://api.appstoreconnect.apple.com: 1 in-app purchase (2 requests)")
    }
}
#endif
