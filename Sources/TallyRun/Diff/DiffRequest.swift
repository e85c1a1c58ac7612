import TallyFormats
import TallyModel

/// What `tally diff` was asked to compare, in the words given: OLD and NEW (a file, FILE@REV or
/// a folder each), or `--since REV` (with `--until REV2`, or `REV..REV2` first) and the files or
/// folders to compare with themselves. `validate` says what does not go together; `plan` makes
/// the `DiffPlan` a `DiffRun` reads.
public struct DiffRequest: Sendable, Hashable {
    public var files: [String]
    public var since: String?
    public var until: String?

    public init(files: [String], since: String? = nil, until: String? = nil) {
        self.files = files
        self.since = since
        self.until = until
    }

    /// `REV..REV2` as the first argument.
    public var range: (since: String, until: String)? {
        files.first.flatMap { DiffPlan.range(parsing: $0) }
    }

    /// A usage error for revisions and files that do not go together.
    public func validate() throws(RunFailure) {
        if since?.isEmpty == true { throw .usage("--since needs a git revision, e.g. --since HEAD~1") }
        if until?.isEmpty == true { throw .usage("--until needs a git revision, e.g. --until v2") }
        if until != nil, since == nil, range == nil { throw .usage("--until goes with --since: 'tally diff --since v1 --until v2', or 'tally diff v1..v2'") }
        if range != nil, since != nil || until != nil {
            throw .usage("\(files[0]) names both revisions already; drop --since and --until, or write 'tally diff --since v1 --until v2'")
        }
        if since == nil, range == nil, files.count != 2 {
            throw .usage("tally diff needs OLD and NEW (got \(files.count) file\(files.count == 1 ? "" : "s")), e.g. 'tally diff old.storekit new.storekit', --since REV, or REV1..REV2.")
        }
        if since == nil, range == nil, let bad = files.first(where: { DiffPlan.entry(parsing: $0) == nil }) {
            throw Self.notAnEntry(bad)
        }
    }

    static func notAnEntry(_ argument: String) -> RunFailure {
        .usage("'\(argument)' is neither a file nor FILE@REV; write e.g. configs/App.storekit@HEAD~1")
    }


    /// The plan: the sources against themselves at a revision, or OLD against NEW.
    /// - Parameters:
    ///   - readsAll: a mapping given for every source reads every JSON and YAML file.
    ///   - rawName: the bytes a file name was given as, when they are not UTF-8 (`SourceSet.Entry.rawName`).
    public func plan(format: SourceFormat?, readsAll: Bool, store: any RevisionStore,
                     rawName: (String) -> [UInt8]? = { _ in nil }) throws(RunFailure) -> DiffPlan {
        if let range {
            return try DiffPlan.since(range.since, until: range.until, arguments: Array(files.dropFirst()), format: format,
                                      readsAll: readsAll, store: store)
        }
        if let since {
            return try DiffPlan.since(since, until: until, arguments: files, format: format, readsAll: readsAll, store: store)
        }
        func entry(_ argument: String) throws(RunFailure) -> SourceSet.Entry {
            guard var entry = DiffPlan.entry(parsing: argument) else { throw Self.notAnEntry(argument) }
            if entry.revision == nil { entry.rawName = rawName(argument) }
            return entry
        }
        let old = try entry(files[0]), new = try entry(files[1])
        return try DiffPlan.sources(old: old, new: new, format: format)
    }
}
