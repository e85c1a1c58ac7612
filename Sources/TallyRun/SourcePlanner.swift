import Foundation
import TallyConfig
import TallyFormats
import TallyModel

/// Which policy file and which files a run reads: the one planner that `check`, `lint`, `show`,
/// `diff`, `init`, `TallyAssert` and the plugin (which runs `tally check`) share.
///
/// - **The policy** is the file named (`--config`), else the nearest `.tally.yml` from the run's
///   folder up to the top of its git repository (as swift-format finds its configuration, but
///   never above the repository: a file in a home folder does not reach every clone). `diff
///   --since` looks in the same folders on its newer side (`plan(since:…)`).
/// - **The sources** are the arguments, else the policy's `sources:` (relative to the policy's
///   folder, so the same files from any subfolder), else the default folders `configs/` and
///   `catalog/`; a mapping file is never a source (`SourceSet.resolve`).
/// - **A product source is recognised by what it holds** (`SourceLoader.isProductSource`): an
///   Info.plist, entitlements or a scheme list is not, however it is named or matched.
public enum SourcePlanner {
    /// The folders a run in `directory` looks in for `.tally.yml`, nearest first: `directory`
    /// and each folder above it up to the one holding `.git`; `directory` alone outside git.
    /// Each is named relative to `directory` (`.`, `..`, `../..`).
    public static func policyFolders(from directory: String = ".") -> [String] {
        let start = URL(fileURLWithPath: directory == "." ? FileManager.default.currentDirectoryPath : directory).standardizedFileURL
        var folders: [String] = []
        var current = start
        var relative = "."
        while true {
            folders.append(relative)
            if FileManager.default.fileExists(atPath: current.appendingPathComponent(".git").path) { return folders }
            let parent = current.deletingLastPathComponent()
            guard parent.path != current.path, !parent.path.isEmpty else { break }
            current = parent
            relative = relative == "." ? ".." : relative + "/.."
        }
        // No repository above: only the run's own folder.
        return ["."]
    }

    /// The nearest `.tally.yml` for a run in `directory`, as a path from it (`.tally.yml`,
    /// `../.tally.yml`); nil when there is none.
    public static func nearestPolicy(from directory: String = ".") -> String? {
        nearestPolicy(among: policyFolders(from: directory), in: FileTree(root: directory == "." ? nil : directory))
    }

    /// The nearest `.tally.yml` of `folders` (nearest first) in `tree`: the working tree, or the
    /// files of a revision (`diff --since`'s newer side), found by one rule.
    static func nearestPolicy(among folders: [String], in tree: any SourceTree) -> String? {
        folders.lazy.map { $0.isEmpty || $0 == "." ? PolicyFile.defaultName : "\($0)/\(PolicyFile.defaultName)" }.first { tree.isFile($0) }
    }

    /// The policy a run uses: the file `named`, else the nearest `.tally.yml`; nil when there is
    /// none. Throws the file's located errors (`FormatError`).
    public static func policy(named path: String?, from directory: String = ".") throws -> PolicyFile? {
        if let path { return try PolicyFile.load(path: path) }
        guard let nearest = nearestPolicy(from: directory) else { return nil }
        return try PolicyFile.load(path: nearest)
    }

    /// The sources of a run: `arguments` when any, else the policy's, else the default folders.
    /// Nil when there are none anywhere.
    public static func sources(arguments: [String], policy: PolicyFile?, mapping: SourceSet.MappingChoice = SourceSet.MappingChoice(),
                               root: String? = nil, format: SourceFormat? = nil) throws(RunFailure) -> SourceSet? {
        try SourceSet.resolve(arguments: arguments, policy: policy, mapping: mapping, root: root, format: format)
    }

    /// The mapping files among `paths`: those a mapping names, and those `isMapping` recognises
    /// (a `format: tally-mapping/1` file a glob matched). A mapping file is never a source,
    /// whichever glob matched it: `check` and `diff` both take these out of their sources.
    static func mappingFiles(among paths: [String], named: Set<String>, isMapping: (String) -> Bool) -> Set<String> {
        named.union(paths.filter(isMapping))
    }
}

extension SourcePlanner {
    /// What `diff --since REV [--until REV2]` compares: the run's sources at both revisions (or at
    /// one and in the working tree), planned as every run's are: the nearest policy
    /// (`nearestPolicy(among:in:)`), its sources (`PolicyFile.resolveSources(in:)`), else the
    /// default folders (`SourceTree.defaultSources`), each over the tree of its side.
    static func plan(since revision: String, until: String?, arguments: [String], format: SourceFormat?, readsAll: Bool,
                     directory: String, store: any RevisionStore) throws -> DiffPlan {
        try Revisions(revision: revision, until: until, directory: directory, store: store)
            .plan(arguments: arguments, format: format, readsAll: readsAll)
    }
}

/// The two sides of `SourcePlanner.plan(since:…)`: paths from the repository's top folder, the
/// arguments as named on either side.
private struct Revisions {
    let revision: String
    let until: String?
    let directory: String
    let store: any RevisionStore
    /// The run's directory inside the repository (`server/catalog/`, empty at the top).
    let prefix: String
    /// The repository's top folder from the run's directory (`../../`, empty at the top).
    var top: String { String(repeating: "../", count: prefix.split(separator: "/").count) }

    init(revision: String, until: String?, directory: String, store: any RevisionStore) throws(RevisionError) {
        self.revision = revision
        self.until = until
        self.directory = directory
        self.store = store
        try store.verify(revision)
        if let until { try store.verify(until) }
        prefix = try store.prefix()
    }

    func plan(arguments: [String], format: SourceFormat?, readsAll: Bool) throws -> DiffPlan {
        let old = try RevisionTree(revision: revision, top: top, directory: directory, store: store)
        let new = try until.map { revision throws(RevisionError) in try RevisionTree(revision: revision, top: top, directory: directory, store: store) }
            ?? RevisionTree(top: top, directory: directory, store: store)
        let sides = [old, new]
        var found: [[String]] = [[], []]
        var mappings: [String: String] = [:]
        var skipped: [SkippedSource] = []
        let origin: String
        if !arguments.isEmpty {
            for argument in arguments {
                let path = try fromTop(argument)
                var exists = false
                for (index, side) in sides.enumerated() {
                    if side.isFolder(path) {
                        exists = true
                        // A folder's files by what they hold: an app's Info.plist is not a source.
                        found[index] += side.isFolderSource(path) ? [path]
                            : side.files(in: path).filter { claimed($0, format) && (format != nil || side.isProductSource($0)) }
                    } else if side.isFile(path) {
                        exists = true
                        found[index].append(path)
                    }
                }
                if !exists { throw RevisionError("'\(argument)' exists neither \(new.revision.map { "at \($0)" } ?? "here") nor at \(revision)") }
            }
            origin = arguments.joined(separator: ", ")
        } else if let policy = try policyFile(new) {
            let base = PathText.parent(policy.path)
            let patterns = policy.file.sources.map(\.pattern)
            if patterns.isEmpty {
                found = sides.map { defaults(in: base, side: $0) }
                origin = "\(join(base, "configs"))/ and \(join(base, "catalog"))/ (\(policy.path) names no sources)"
            } else {
                // Each side's files as `check` resolves them (`PolicyFile.resolveSources`, one rule
                // for every tree); an entry may name a file of one side only.
                var file = policy.file
                file.sources.removeAll { $0.pattern.hasPrefix("/") }
                for side in sides.indices {
                    let resolution = try file.resolveSources(in: sides[side], base: base, reads: { _ in format != nil || readsAll },
                                                             everyEntryMatches: false, withCode: false,
                                                             mappingPath: { mapping in try fromTop(join(base, mapping), from: "") })
                    skipped += resolution.skipped
                    for (path, mapping) in resolution.entries {
                        found[side].append(path)
                        if let mapping, mappings[path] == nil { mappings[path] = mapping }
                    }
                }
                origin = "the sources \(policy.path) names (\(patterns.joined(separator: ", ")))"
            }
        } else {
            let base = defaultBase(new)
            found = sides.map { defaults(in: base, side: $0) }
            origin = "\(join(base, "configs"))/ and \(join(base, "catalog"))/"
        }
        let mappingFiles = SourcePlanner.mappingFiles(among: found[1], named: Set(mappings.values)) { path in
            new.revision == nil && SourceSet.isMappingFile(new.opened(path))
        }
        let newFiles = Set(found[1].filter { !mappingFiles.contains($0) }), oldFiles = Set(found[0].filter { !mappingFiles.contains($0) })
        let all = newFiles.union(oldFiles).sorted()
        var sets: [DiffPlan.FileSet] = []
        for role in [SourceRole.configuration, .catalog] {
            let files = all.filter { DiffPlan.role(of: $0, format) == role }
            if !files.isEmpty { sets.append(DiffPlan.FileSet(role: role, files: files, old: oldFiles, new: newFiles)) }
        }
        var seen = Set<SkippedSource>()
        // Every file that exists on a side, read at once; paths from the top folder, opened
        // through `root`, the top folder as the process sees it.
        var entries: [SourceSet.Entry] = []
        for set in sets {
            for file in set.files {
                if set.old.contains(file) { entries.append(SourceSet.Entry(file, mapping: mappings[file], revision: revision)) }
                if set.new.contains(file) { entries.append(SourceSet.Entry(file, mapping: mappings[file], revision: until)) }
            }
        }
        let root = new.opened("")
        return DiffPlan(shape: .revisions(revision: revision, until: until, sets: sets),
                        sources: SourceSet(entries, origin: .arguments, root: root == "." ? nil : root),
                        format: format, origin: origin, skipped: skipped.filter { seen.insert($0).inserted })
    }

    private func claimed(_ path: String, _ format: SourceFormat?) -> Bool {
        let name = (path as NSString).lastPathComponent
        return !name.hasPrefix(".") && (format != nil || SourceLoader.isSourceFile(name))
    }

    /// `configs/` and `catalog/` in `base`, on one side, as `check` finds them
    /// (`SourceTree.defaultSources`, the one definition): an app's Info.plist in `configs/` is not
    /// a source (issue 51: `diff --since` read it as a product list and exited 2 where `check`
    /// passed).
    private func defaults(in base: String, side: RevisionTree) -> [String] {
        let found = side.defaultSources(in: base)
        return found.configurations + found.catalogs
    }

    /// The policy file in the run's directory or the nearest folder above it in the repository,
    /// as it is on the newer side.
    private func policyFile(_ side: RevisionTree) throws -> (path: String, file: PolicyFile)? {
        if let path = SourcePlanner.nearestPolicy(among: folders(), in: side) {
            var file: PolicyFile
            do {
                if let revision = side.revision {
                    let bytes = try store.contents(of: side.opened(path), at: revision, maxBytes: PolicyFile.maxBytes, whose: "a policy file") ?? []
                    file = try PolicyFile.read(bytes: bytes, file: "\(path)@\(revision)")
                } else {
                    file = try PolicyFile.load(path: side.opened(path))
                }
            } catch let error as RevisionError {
                throw error
            } catch {
                throw RunFailure.policy(SourceSet.formatError(error, file: path))
            }
            file.file = path
            return (path, file)
        }
        return nil
    }

    /// Without a policy file: the nearest folder (from here up) holding configs/ or catalog/, else the top.
    private func defaultBase(_ side: RevisionTree) -> String {
        folders().first { side.isFolder(join($0, "configs")) || side.isFolder(join($0, "catalog")) } ?? ""
    }

    /// The run's directory and every folder above it up to the top, from the top (`a/b`, `a`, ``).
    private func folders() -> [String] {
        var parts = prefix.split(separator: "/").map(String.init)
        var folders: [String] = []
        while true {
            folders.append(parts.joined(separator: "/"))
            guard !parts.isEmpty else { return folders }
            parts.removeLast()
        }
    }

    /// A path given from the run's directory, from the top folder instead (`.` and `..` resolved).
    private func fromTop(_ argument: String, from start: String? = nil) throws(RevisionError) -> String {
        guard !argument.hasPrefix("/") else {
            throw RevisionError("with --since, name files and folders relative to this folder ('\(argument)' is absolute)")
        }
        var parts = (start ?? prefix).split(separator: "/").map(String.init)
        for part in argument.split(separator: "/") where part != "." {
            if part == ".." {
                guard !parts.isEmpty else { throw RevisionError("'\(argument)' is outside the git repository") }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    private func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : "\(folder)/\(name)" }
}
