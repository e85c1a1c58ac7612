import Foundation
import TallyDiff
import TallyFormats
import TallyModel
import TallyReport
import TallyRun

/// A kind of change a diff assertion allows or forbids: price rises, removed products, anything
/// about some products, or any test of the typed `Change`.
///
/// ```swift
/// try TallyAssert.diff(since: "v1", forbid: [.priceRises])                 // no price rises since v1
/// try TallyAssert.diff(since: "v1", allow: [.addedProducts, .priceCuts])   // only these may change
/// try TallyAssert.diff(since: "v1", allow: [.priceRises(of: "com.example.pro.monthly")])
/// ```
public struct ChangeFilter: Sendable, CustomStringConvertible {
    public var description: String
    private let test: @Sendable (Change) -> Bool

    public init(_ description: String, _ test: @escaping @Sendable (Change) -> Bool) {
        self.description = description
        self.test = test
    }

    public func matches(_ change: Change) -> Bool { test(change) }

    /// Every change.
    public static let anything = ChangeFilter("anything") { _ in true }
    /// A price that went up, in the same currency.
    public static let priceRises = ChangeFilter("price rises") { $0.aspect == .price && $0.priceDirection == .up }
    /// A price that went down, in the same currency.
    public static let priceCuts = ChangeFilter("price cuts") { $0.aspect == .price && $0.priceDirection == .down }
    /// Any change to prices: rises, cuts, territories priced or no longer priced, currencies.
    public static let prices = aspect(.price)
    public static let addedProducts = ChangeFilter("added products") { $0.aspect == .product && $0.action == .added }
    /// A product removed, or renamed (its old ID retired).
    public static let removedProducts = ChangeFilter("removed products") { ($0.aspect == .product && $0.action == .removed) || $0.aspect == .id }
    /// A product under a new ID (a removed and an added product with the same reference name).
    public static let renamedProducts = aspect(.id)
    /// What `tally diff` marks for attention (a removed product, a subscription price increase, …).
    public static let attention = ChangeFilter("changes marked for attention") { $0.needsAttention }

    /// Changes about one aspect (`.price`, `.period`, `.introductoryOffer`, …).
    public static func aspect(_ aspect: ChangeAspect) -> ChangeFilter {
        ChangeFilter("\(aspect) changes") { $0.aspect == aspect }
    }

    /// Changes marked for this reason.
    public static func attention(_ reason: Attention) -> ChangeFilter {
        ChangeFilter(reason.rawValue) { $0.needsAttention(reason) }
    }

    /// Any change to these products.
    public static func products(_ ids: String...) -> ChangeFilter {
        let ids = Set(ids)
        return ChangeFilter("changes to \(ids.sorted().joined(separator: ", "))") { $0.productID.map(ids.contains) ?? false }
    }

    /// Price rises of these products only.
    public static func priceRises(of ids: String...) -> ChangeFilter {
        let ids = Set(ids)
        return ChangeFilter("price rises of \(ids.sorted().joined(separator: ", "))") {
            priceRises.matches($0) && ($0.productID.map(ids.contains) ?? false)
        }
    }

    /// Changes the closure accepts.
    public static func matching(_ description: String = "changes matched", _ test: @escaping @Sendable (Change) -> Bool) -> ChangeFilter {
        ChangeFilter(description, test)
    }
}

extension TallyAssert {
    /// Compares the repository's sources (the policy's `sources:`, else `configs/` and
    /// `catalog/`, or the `sources` named) with themselves at `revision` (a tag, a branch, a
    /// commit), as `tally diff --since REV` does (the same `DiffPlan` and `DiffRun`; nothing is
    /// checked out): every change that no `allow` filter matches, or that a `forbid` filter
    /// matches, is one test failure, at its line in the newer file.
    ///
    /// ```swift
    /// @Test func noPriceRisesSinceTheLastRelease() throws {
    ///     try TallyAssert.diff(since: "v1.4", forbid: [.priceRises])
    /// }
    /// ```
    ///
    /// Returns the typed diff, for any further expectation (`#expect(diff.summary.…)`).
    /// - Parameters:
    ///   - until: the newer revision; nil for the working tree.
    ///   - store: where revisions are read (git in the package root by default).
    @discardableResult
    public static func diff(
        since revision: String, until: String? = nil, sources: [String] = [], allow: [ChangeFilter] = [.anything], forbid: [ChangeFilter] = [],
        root: String? = nil, options: ReadOptions = ReadOptions(), store: (any RevisionStore)? = nil,
        fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) throws -> DiffResult {
        let callSite = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
        let base = root ?? PackageRoot.find(from: "\(filePath)")
        let store = store ?? GitRevisionStore(directory: base)
        let outcome = try orThrow { () throws(RunFailure) -> DiffOutcome in
            let plan = try DiffPlan.since(revision, until: until, arguments: sources, directory: base, store: store)
            return try DiffRun(plan: plan, options: options, store: store).run()
        }
        let recorder = FailureRecorder.current
        for diff in outcome.diffs {
            for change in diff.allChanges {
                let forbidden = forbid.first { $0.matches(change) }
                guard forbidden != nil || !allow.contains(where: { $0.matches(change) }) else { continue }
                let why = forbidden.map { "forbidden: \($0)" } ?? "not allowed (allowed: \(allow.map(\.description).joined(separator: ", ")))"
                let message = "[diff] \(change.path): \(change.summary) since \(revision) (\(why))"
                recorder.record(message, at: FailurePlace(diff.newLocation(change) ?? diff.oldLocation(change), base: base),
                                failing: true, callSite: callSite)
            }
        }
        return outcome.result
    }
}

extension FailurePlace {
    init?(_ location: SourceLocation?, base: String) {
        guard let location, let line = location.line, line > 0, !location.file.contains("@") else { return nil }
        let file = location.file
        filePath = file.hasPrefix("/") ? file : (base as NSString).appendingPathComponent(file)
        fileName = (file as NSString).lastPathComponent
        self.line = line
        column = max(1, location.column ?? 1)
    }
}
