import Foundation
import TallyDiff
import TallyFormats
import TallyModel

/// One `tally diff` as typed stages, as `CheckRun` is one check: the plan (`DiffPlan`), reading
/// every source of both sides at once through `SourceSet.read` (files at a revision through the
/// `RevisionStore`), and the comparison, keyed by identity (`CatalogDiffer`). The CLI and
/// `TallyAssert.diff` both run through it.
public struct DiffRun: Sendable {
    public var plan: DiffPlan
    public var options: ReadOptions
    public var store: any RevisionStore

    public init(plan: DiffPlan, options: ReadOptions = ReadOptions(), store: any RevisionStore = GitRevisionStore()) {
        self.plan = plan
        self.options = options
        self.store = store
    }

    /// Reads both sides and compares them.
    public func run(events: RunEvents? = nil) throws(RunFailure) -> DiffOutcome {
        if case .revisions(let revision, let until, let sets) = plan.shape, sets.isEmpty {
            throw .usage("no product sources (StoreKit files, product lists, catalogues) in \(plan.origin), \(until.map { "at \($0)" } ?? "here") or at \(revision); name the files or folders to compare")
        }
        var catalogs = try plan.sources.read(format: plan.format, options: options, events: events, revisions: store, together: false)
        if case .revisions = plan.shape {
            // Each side is named by the path the plan found (a folder source by its folder, as at
            // the revision), not by the file a reader chose inside it.
            for (index, entry) in plan.sources.entries.enumerated() where entry.revision == nil { catalogs[index].file = entry.path }
        }
        return DiffOutcome(diffs: diffs(catalogs), catalogs: catalogs)
    }

    /// The diffs of the catalogues read, in the order of `plan.sources`.
    func diffs(_ catalogs: [Catalog]) -> [CatalogDiff] {
        switch plan.shape {
        case .sources(let old, let new): sourceDiffs(old: old, new: new, catalogs: catalogs)
        case .revisions(let revision, let until, let sets): revisionDiffs(revision: revision, until: until, sets: sets, catalogs: catalogs)
        }
    }

    private func sourceDiffs(old: DiffPlan.Side, new: DiffPlan.Side, catalogs: [Catalog]) -> [CatalogDiff] {
        guard old.isFolder || new.isFolder else { return [CatalogDiffer().diff(old: catalogs[0], new: catalogs[1])] }
        let olds = Array(zip(old.entries.map(\.name), catalogs.prefix(old.entries.count)))
        let news = Array(zip(new.entries.map(\.name), catalogs.suffix(new.entries.count)))
        let format = plan.format
        let roles = [SourceRole.configuration, .catalog]
        func has(_ side: [(String, Catalog)], _ role: SourceRole) -> Bool { side.contains { DiffPlan.role(of: $0.0, format) == role } }
        // One set a side when each side is of one kind (a configuration against a catalogue
        // compares across formats); configurations and catalogues apart when a side holds both.
        let split = roles.filter { has(olds, $0) }.count > 1 || roles.filter { has(news, $0) }.count > 1
        let groups: [SourceRole?] = split ? roles.filter { has(olds, $0) || has(news, $0) } : [nil]
        return groups.map { role in
            let before = olds.filter { role == nil || DiffPlan.role(of: $0.0, format) == role }
            let after = news.filter { role == nil || DiffPlan.role(of: $0.0, format) == role }
            let model = after.first?.1 ?? before.first?.1
            func set(_ side: [(String, Catalog)], _ label: String) -> CatalogSet {
                CatalogSet(label: label, side.map(\.1), paths: side.map(\.0),
                           format: model?.format ?? .tallyCatalogYAML, territory: model?.defaultTerritory ?? .usa)
            }
            return CatalogDiffer().diff(old: set(before, old.label), new: set(after, new.label))
        }
    }

    private func revisionDiffs(revision: String, until: String?, sets: [DiffPlan.FileSet], catalogs: [Catalog]) -> [CatalogDiff] {
        var read: [String: Catalog] = [:]
        for (entry, catalog) in zip(plan.sources.entries, catalogs) {
            read[(entry.revision == revision ? "old:" : "new:") + entry.path] = catalog
        }
        func catalog(_ side: String, _ file: String) -> Catalog? { read[side + file] }
        var diffs: [CatalogDiff] = []
        for set in sets {
            let oldFiles = set.files.filter { catalog("old:", $0) != nil }, newFiles = set.files.filter { catalog("new:", $0) != nil }
            let olds = oldFiles.compactMap { catalog("old:", $0) }, news = newFiles.compactMap { catalog("new:", $0) }
            let model = news.first ?? olds.first
            let format = model?.format ?? .tallyCatalogYAML, territory = model?.defaultTerritory ?? .usa
            func label(_ catalogs: [Catalog], _ at: String?) -> String {
                let names = catalogs.isEmpty ? set.files.filter { set.old.contains($0) || set.new.contains($0) } : catalogs.map(\.file)
                return catalogs.isEmpty ? names.map { name in at.map { "\(name)@\($0)" } ?? name }.joined(separator: ", ") : names.joined(separator: ", ")
            }
            let old = CatalogSet(label: label(olds, revision), olds, paths: oldFiles, format: format, territory: territory)
            let new = CatalogSet(label: label(news, until), news, paths: newFiles, format: format, territory: territory)
            if old.duplicates.isEmpty, new.duplicates.isEmpty {
                diffs.append(CatalogDiffer().diff(old: old, new: new))
                continue
            }
            // The same product in several files of a side (one configuration per storefront):
            // each file is compared with itself.
            for file in set.files {
                let before = catalog("old:", file), after = catalog("new:", file)
                guard let other = before ?? after else { continue }
                func empty(_ at: String?) -> Catalog {
                    Catalog(file: at.map { "\(file)@\($0)" } ?? file, format: other.format, defaultTerritory: other.defaultTerritory)
                }
                diffs.append(CatalogDiffer().diff(old: before ?? empty(revision), new: after ?? empty(until),
                                                  oldAbsent: before == nil, newAbsent: after == nil))
            }
        }
        return diffs
    }
}

/// What a diff found: the changes, and the catalogues read (for the warnings about values they
/// could not take).
public struct DiffOutcome: Sendable {
    public var diffs: [CatalogDiff]
    public var catalogs: [Catalog]

    public var result: DiffResult { DiffResult(diffs: diffs) }

    /// Like `git diff`: 0, also when there are changes; with `failsOnChanges` (`--exit-code`),
    /// 1 when there are changes.
    public func status(failsOnChanges: Bool) -> ExitStatus {
        failsOnChanges && result.hasChanges ? .mismatches : .consistent
    }
}
