import TallyDiff
import TallyModel
import TallyTestSupport

// The model factories (`Product.test`, `Offer.test`, `Catalog.test`, ...) are TallyTestSupport's.

/// Diffs two product lists.
func diff(_ old: [Product], _ new: [Product]) -> CatalogDiff {
    CatalogDiffer().diff(old: .test(old, file: "old.yaml"), new: .test(new, file: "new.yaml"))
}

/// `path: action` for every change, in report order.
func lines(_ diff: CatalogDiff) -> [String] {
    diff.allChanges.map { "\($0.path): \($0.action)" }
}
