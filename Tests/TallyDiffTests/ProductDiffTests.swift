import TallyDiff
import TallyReport
import TallyModel
import Testing

@Suite("Products: added, removed, kind, family sharing, localisations")
struct ProductDiffTests {
    @Test("Products are matched by ID, not by their place in the file")
    func reorderedProductsAreUnchanged() {
        // Given
        let products = [Product.test("a", line: 1), .test("b", prices: ["USA": "1.99"], line: 9), .subscription("c", line: 20)]
        // When
        let result = diff(products, products.reversed())
        // Then
        #expect(!result.hasChanges)
        #expect(result.summary.unchanged == 3)
        #expect(result.summary.isEmpty)
    }

    @Test("An added product, and a removed one marked for attention")
    func addedAndRemoved() throws {
        // When
        let result = diff([.test("keep"), .test("gone", line: 7)], [.test("keep"), .test("new", kind: .nonConsumable, line: 12)])
        // Then
        #expect(lines(result) == ["gone: removed", "new: added"])
        #expect(result.products.map(\.status) == [.removed, .added])
        let removed = try #require(result.products.first?.changes.first)
        #expect(removed.attention == [.productRemoved])
        #expect(removed.summary == "removed: consumable, 0.99 USD in USA")
        #expect(result.oldLocation(removed)?.description == "old.yaml:7:3")
        #expect(result.newLocation(removed) == nil)
        let added = try #require(result.products.last?.changes.first)
        #expect(added.attention.isEmpty)
        #expect(result.newLocation(added)?.description == "new.yaml:12:3")
        #expect(result.summary.added == 1 && result.summary.removed == 1 && result.summary.unchanged == 1)
        #expect(result.summary.attention == 1)
    }

    @Test("A kind change names both kinds")
    func kindChanged() throws {
        let result = diff([.test("tip")], [.test("tip", kind: .nonConsumable)])
        let change = try #require(result.allChanges.first)
        #expect(lines(result) == ["tip › kind: changed"])
        #expect(change.summary == "consumable → non-consumable")
    }

    @Test("Family sharing is compared only where both sides state it")
    func familySharing() {
        #expect(lines(diff([.test("a", family: false)], [.test("a", family: true)])) == ["a › family sharing: changed"])
        #expect(!diff([.test("a", family: nil)], [.test("a", family: true)]).hasChanges)
    }

    @Test("Localisations are matched by locale: added, removed, changed")
    func localizations() throws {
        // Given
        let old = Product.test("a", localizations: [
            Localization(locale: "en_US", displayName: "Coins", description: "100 coins"),
            Localization(locale: "de_DE", displayName: "Münzen"),
            Localization(locale: "fr_FR", displayName: "Pièces"),
        ])
        let new = Product.test("a", localizations: [
            Localization(locale: "fr_FR", displayName: "Pièces"),
            Localization(locale: "ja_JP", displayName: "コイン"),
            Localization(locale: "en_US", displayName: "Coins", description: "120 coins"),
        ])
        // When
        let result = diff([old], [new])
        // Then
        #expect(lines(result) == ["a › localizations › de_DE: removed", "a › localizations › en_US: changed", "a › localizations › ja_JP: added"])
        let changed = try #require(result.allChanges.first { $0.key == "en_US" })
        #expect(changed.summary == "\"Coins\" — \"100 coins\" → \"Coins\" — \"120 coins\" (description changed)")
    }

    @Test("A field one source does not know is not compared")
    func unknownFieldsAreSkipped() {
        var old = Catalog.test([.test("a", prices: ["USA": "0.99"])], file: "old.plist")
        old.knownFields = [.id, .kind]
        let new = Catalog.test([.test("a", prices: ["USA": "9.99"])], file: "new.yaml")
        #expect(!CatalogDiffer().diff(old: old, new: new).hasChanges)
    }

    @Test("A side marked absent lists every product as added")
    func absentSide() {
        let new = Catalog.test([.test("a"), .test("b")], file: "catalog/products.yaml")
        let result = CatalogDiffer().diff(old: .test([], file: "catalog/products.yaml@HEAD"), new: new, oldAbsent: true)
        #expect(result.old.absent)
        #expect(lines(result) == ["a: added", "b: added"])
        #expect(result.sourceChanges.isEmpty)
    }
}
