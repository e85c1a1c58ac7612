import TallyDiff
import TallyReport
import TallyModel
import Testing

@Suite("Sets of files diffed as one catalogue: moved products, renamed? hints")
struct CatalogSetTests {
    @Test("A product that moves to another file is moved, not removed and added, and keeps its real changes")
    func movedBetweenFiles() throws {
        // Given: tip moves from products.yaml to extra.yaml and costs more
        let old = CatalogSet(label: "products.yaml@v1", [
            .test([.test("coins", line: 4), .test("tip", line: 12)], file: "products.yaml@v1"),
        ], paths: ["products.yaml"])
        let new = CatalogSet(label: "products.yaml, extra.yaml", [
            .test([.test("coins", line: 4)], file: "products.yaml"),
            .test([.test("tip", prices: ["USA": "1.99"], line: 3)], file: "extra.yaml"),
        ], paths: ["products.yaml", "extra.yaml"])
        // When
        let result = CatalogDiffer().diff(old: old, new: new)
        // Then
        #expect(result.summary.added == 0 && result.summary.removed == 0)
        #expect(result.summary.changed == 1 && result.summary.moved == 1 && result.summary.unchanged == 1)
        #expect(result.summary.attention == 0)
        let tip = try #require(result.products.first)
        #expect(tip.productID == "tip")
        #expect(tip.changes.map(\.aspect) == [.file, .price])
        let moved = tip.changes[0]
        #expect(moved.summary == "moved from products.yaml@v1 to extra.yaml")
        #expect(!moved.needsAttention)
        // And each location names the file the product is in, on its own line
        #expect(result.oldLocation(moved)?.description == "products.yaml@v1:12:3")
        #expect(result.newLocation(moved)?.description == "extra.yaml:3:3")
        #expect(result.newLocation(tip.changes[1])?.description == "extra.yaml:3:5")
    }

    @Test("One file against one file moves nothing, whatever the files are called")
    func oneFileEachMovesNothing() {
        let old = CatalogSet(label: "a.yaml", [.test([.test("coins")], file: "a.yaml")])
        let new = CatalogSet(label: "b.yaml", [.test([.test("coins")], file: "b.yaml")])
        #expect(!CatalogDiffer().diff(old: old, new: new).hasChanges)
    }

    @Test("The same ID in two files of a side is reported, so the caller can compare file by file")
    func duplicatesAreReported() {
        let set = CatalogSet(label: "both", [.test([.test("a")], file: "one.storekit"), .test([.test("a")], file: "two.storekit")])
        #expect(set.duplicates == ["a"])
        #expect(CatalogSet(label: "none", []).isEmpty)
    }

    @Test("A removed and an added ID of the same kind that are a near miss say renamed?, and still count as removed and added")
    func renamedHint() throws {
        // When
        let result = diff([.test("com.example.tip_jar"), .test("com.example.coins")],
                          [.test("com.example.tip.jar"), .test("com.example.coinz", kind: .nonConsumable)])
        // Then
        #expect(result.summary.added == 2 && result.summary.removed == 2)
        let removed = try #require(result.products.first { $0.productID == "com.example.tip_jar" }?.changes.first)
        #expect(removed.summary == "removed: consumable, 0.99 USD in USA (renamed? com.example.tip_jar → com.example.tip.jar)")
        #expect(removed.attention == [.productRemoved])
        let added = try #require(result.products.first { $0.productID == "com.example.tip.jar" }?.changes.first)
        #expect(added.noteText == "renamed? com.example.tip_jar → com.example.tip.jar")
        // Not across kinds
        let coins = try #require(result.products.first { $0.productID == "com.example.coins" }?.changes.first)
        #expect(coins.note == nil)
    }

    @Test("Reference and display names ride along for people, never as identity")
    func names() throws {
        var old = Product.test("a")
        old.referenceName = "Coins"
        var new = Product.test("a", prices: ["USA": "1.99"], localizations: [
            Localization(locale: "de_DE", displayName: "Münzen"), Localization(locale: "en_US", displayName: "100 Coins"),
        ])
        new.referenceName = "  "
        let product = try #require(diff([old], [new]).products.first)
        #expect(product.name == "Münzen", "the new side's first display name, as it has no reference name")
        #expect(product.displayName == "100 Coins", "the name English-speaking buyers see")
    }
}
