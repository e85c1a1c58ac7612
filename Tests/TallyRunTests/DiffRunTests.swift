import Foundation
import Testing
import TallyDiff
import TallyReport
import TallyFormats
import TallyModel
@testable import TallyRun

/// `DiffPlan` and `DiffRun` over an in-memory revision store: the same stages `tally diff
/// --since` and `TallyAssert.diff` run, with no git and no checkout.
@Suite struct DiffRunTests {
    static func catalog(_ products: [(id: String, usa: String)]) -> String {
        "format: tally-catalog/1\ndefault_territory: USA\nproducts:\n"
            + products.map { "  - id: \($0.id)\n    kind: consumable\n    prices: {USA: \"\($0.usa)\"}\n" }.joined()
    }

    static let store = MemoryRevisionStore(text: [
        "v1": ["catalog/products.yaml": catalog([("com.example.coins", "0.99"), ("com.example.gems", "4.99")])],
        "v2": [
            "catalog/products.yaml": catalog([("com.example.coins", "1.99"), ("com.example.gems", "3.99")]),
            "catalog/extra.yaml": catalog([("com.example.stars", "2.99")]),
            "notes.txt": "not a source",
        ],
        "v3": [
            ".tally.yml": "version: 1\nsources: [shop/*.yaml]\n",
            "shop/products.yaml": catalog([("com.example.coins", "1.99")]),
            "catalog/products.yaml": catalog([("com.example.coins", "9.99")]),
        ],
    ])

    @Test func twoRevisionsOfTheDefaultFoldersAreComparedAsOneSet() throws {
        let plan = try DiffPlan.since("v1", until: "v2", store: Self.store)
        #expect(plan.origin == "configs/ and catalog/")
        #expect(plan.sources.entries.map(\.label) == ["catalog/extra.yaml@v2", "catalog/products.yaml@v1", "catalog/products.yaml@v2"])
        #expect(plan.pairs.count == 1)
        #expect(plan.pairs[0].old.entries.map(\.label) == ["catalog/products.yaml@v1"])
        let outcome = try DiffRun(plan: plan, store: Self.store).run()
        let changes = outcome.diffs.flatMap(\.allChanges)
        let rise = try #require(changes.first { $0.productID == "com.example.coins" && $0.aspect == .price })
        #expect(rise.priceDirection == .up)
        #expect(rise.summary.hasPrefix("0.99 USD → 1.99 USD"))
        #expect(changes.contains { $0.productID == "com.example.gems" && $0.priceDirection == .down })
        #expect(changes.contains { $0.productID == "com.example.stars" && $0.aspect == .product && $0.action == .added })
        #expect(outcome.status(failsOnChanges: true) == .mismatches)
        #expect(outcome.status(failsOnChanges: false) == .consistent)
    }

    @Test func theNewerSidesPolicyNamesTheSources() throws {
        let plan = try DiffPlan.since("v2", until: "v3", store: Self.store)
        #expect(plan.origin == "the sources .tally.yml names (shop/*.yaml)")
        #expect(plan.sources.entries.map(\.label) == ["shop/products.yaml@v3"])
        let outcome = try DiffRun(plan: plan, store: Self.store).run()
        #expect(outcome.diffs.count == 1)
        #expect(outcome.diffs[0].old.absent || outcome.diffs[0].old.productCount == 0)
    }

    @Test func anUnknownRevisionIsATypedFailure() {
        #expect(throws: RunFailure.revision(RevisionError("'v9' is not a commit, branch or tag in this repository; use one, e.g. HEAD~1 or main"))) {
            try DiffPlan.since("v9", store: Self.store)
        }
    }

    @Test func aSourceEntryNamesARevision() throws {
        let set = SourceSet([SourceSet.Entry("catalog/products.yaml", revision: "v1"), SourceSet.Entry("catalog/products.yaml", revision: "v2")])
        let catalogs = try set.read(revisions: Self.store)
        #expect(catalogs.map(\.file) == ["catalog/products.yaml@v1", "catalog/products.yaml@v2"])
        #expect(catalogs[0].products.first { $0.id == "com.example.coins" }?.price(in: .usa)?.money.amount == Decimal(string: "0.99"))
    }

    @Test func aFileMissingAtTheRevisionIsNamedWithIt() {
        let set = SourceSet([SourceSet.Entry("catalog/extra.yaml", revision: "v1")])
        #expect(throws: RunFailure.unreadable([FormatError("the file does not exist at v1", file: "catalog/extra.yaml@v1", position: .unknown)])) {
            try set.read(revisions: Self.store)
        }
    }

    @Test func fileAtRevisionAgainstAnotherRevision() throws {
        let old = try #require(DiffPlan.entry(parsing: "catalog/products.yaml@v1"))
        #expect(old.revision == "v1")
        let plan = try DiffPlan.sources(old: old, new: SourceSet.Entry("catalog/products.yaml", revision: "v3"))
        let outcome = try DiffRun(plan: plan, store: Self.store).run()
        #expect(outcome.diffs.count == 1)
        #expect(outcome.diffs[0].old.file == "catalog/products.yaml@v1")
        #expect(outcome.diffs[0].new.file == "catalog/products.yaml@v3")
        #expect(outcome.diffs[0].allChanges.contains { $0.productID == "com.example.gems" && $0.action == .removed })
    }

    @Test func theWorkingTreeAgainstARevision() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tally-diffrun-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder + "/catalog", withIntermediateDirectories: true)
        try Self.catalog([("com.example.coins", "0.49")]).write(toFile: folder + "/catalog/products.yaml", atomically: true, encoding: .utf8)
        let store = MemoryRevisionStore(Self.store.revisions, directory: folder)
        let plan = try DiffPlan.since("v1", directory: folder, store: store)
        #expect(plan.sources.root == folder)
        let outcome = try DiffRun(plan: plan, store: store).run()
        #expect(outcome.diffs.map(\.new.file) == ["catalog/products.yaml"])
        #expect(outcome.diffs[0].allChanges.contains { $0.productID == "com.example.coins" && $0.priceDirection == .down })
    }
}
