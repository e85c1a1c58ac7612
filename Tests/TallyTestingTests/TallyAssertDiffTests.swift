import Foundation
import Testing
import TallyDiff
import TallyRun
import TallyTesting

/// `TallyAssert.diff(since:)`: what may change since a tag, over an in-memory revision store (the
/// external package in `.ci/external-diff.sh` does the same over git).
@Suite struct TallyAssertDiffTests {
    static func catalog(_ usa: String) -> String {
        "format: tally-catalog/1\ndefault_territory: USA\nproducts:\n  - id: com.example.coins\n    kind: consumable\n    prices: {USA: \"\(usa)\"}\n"
    }

    static let store = MemoryRevisionStore(text: [
        "v1": ["catalog/products.yaml": catalog("0.99")],
        "v2": ["catalog/products.yaml": catalog("1.99")],
        "v3": ["catalog/products.yaml": catalog("0.49")],
    ], directory: root)
    /// The run's directory: the top folder of the revisions held in memory (no working tree is read).
    static let root = "/tally-memory"

    @Test func aForbiddenPriceRiseFailsNamingIt() throws {
        try withKnownIssue {
            try TallyAssert.diff(since: "v1", until: "v2", forbid: [.priceRises], root: Self.root, store: Self.store)
        } matching: { issue in
            issue.comments.first?.rawValue == "[diff] com.example.coins › prices › USA: 0.99 USD → 1.99 USD (+1.00 USD, +101%) since v1 (forbidden: price rises)"
        }
    }

    @Test func anAllowedRisePassesAndTheTypedDiffIsReturned() throws {
        let diff = try TallyAssert.diff(since: "v1", until: "v2", allow: [.priceRises(of: "com.example.coins")], root: Self.root, store: Self.store)
        #expect(diff.diffs.flatMap(\.allChanges).map(\.priceDirection) == [.up])
    }

    /// A product under a new ID with its reference name (issue 36): a rename, which retires the
    /// old ID, so `.removedProducts` forbids it too.
    @Test func aRenameIsARenamedAndARemovedProductButNotAnAddedOne() throws {
        let renamed = MemoryRevisionStore(text: [
            "v1": ["catalog/products.yaml": Self.catalog("0.99").replacingOccurrences(of: "kind:", with: "name: Coins\n    kind:")],
            "v2": ["catalog/products.yaml": Self.catalog("0.99").replacingOccurrences(of: "kind:", with: "name: Coins\n    kind:")
                .replacingOccurrences(of: "com.example.coins", with: "com.example.coin_pack")],
        ], directory: Self.root)
        let diff = try TallyAssert.diff(since: "v1", until: "v2", allow: [.renamedProducts], root: Self.root, store: renamed)
        let changes = diff.diffs.flatMap(\.allChanges)
        #expect(changes.map(\.aspect) == [.id])
        #expect(ChangeFilter.removedProducts.matches(changes[0]) && !ChangeFilter.addedProducts.matches(changes[0]))
        try withKnownIssue {
            try TallyAssert.diff(since: "v1", until: "v2", forbid: [.removedProducts], root: Self.root, store: renamed)
        } matching: { issue in
            issue.comments.first?.rawValue.contains("renamed: com.example.coins → com.example.coin_pack") == true
        }
    }

    @Test func onlyTheAllowedKindsMayChange() throws {
        try TallyAssert.diff(since: "v1", until: "v3", allow: [.priceCuts], root: Self.root, store: Self.store)
        try withKnownIssue {
            try TallyAssert.diff(since: "v1", until: "v2", allow: [.priceCuts, .addedProducts], root: Self.root, store: Self.store)
        } matching: { issue in
            issue.comments.first?.rawValue.hasSuffix("(not allowed (allowed: price cuts, added products))") == true
        }
    }

    @Test func anUnknownTagThrows() {
        #expect(throws: TallyAssertError.self) {
            try TallyAssert.diff(since: "v9", root: Self.root, store: Self.store)
        }
    }
}
