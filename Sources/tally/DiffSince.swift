import ArgumentParser
import Foundation
import TallyConfig
import TallyFormats
import TallyModel
import TallyRun

/// What `tally diff --since REV` compares: the sources the policy file names (or the default
/// folders), found from any folder of the repository, as they are now (or at `--until`) and as
/// they were at REV. Neither revision is checked out: files are listed with `git ls-tree` and read
/// with `git show`; a folder source is copied from git into a temporary folder and read as one.
///
/// Paths are kept from the repository's top folder (as `git diff` prints them) and read from the
/// current folder through `top` (`../../`). Configurations (`.storekit`, `.plist`) and catalogues
/// are two sets: each set is compared as a whole, so a product that moves between files of a set
/// is moved, not removed and added.
struct DiffSince {
    let revision: String
    /// The current folder inside the repository (`server/catalog/`, empty at the top).
    let prefix: String
    /// The repository's top folder from the current one (`../../`, empty at the top).
    var top: String { String(repeating: "../", count: prefix.split(separator: "/").count) }

    /// One set of files of the same role, and which of them exist on each side.
    struct FileSet {
        var role: SourceRole
        var files: [String]
        var old: Set<String>
        var new: Set<String>
    }

    /// The sets to compare, and where they came from (for messages).
    struct Plan {
        var sets: [FileSet]
        /// `the sources .tally.yml names`, `configs/ and catalog/`.
        var origin: String
        /// The tally-mapping/1 file (from the top folder) that reads a source, by the source's
        /// path: the policy's `{path: …, mapping: …}` entries.
        var mappings: [String: String] = [:]
        /// Files a policy glob matches that are not product sources (left out, each a warning).
        var skipped: [String] = []
    }

    /// The newer side: a revision with `--until` (or `OLD..NEW`), else the working tree.
    let until: String?

    init(revision: String, until: String? = nil) throws {
        self.revision = revision
        self.until = until
        try GitRevision.verify(revision)
        if let until { try GitRevision.verify(until) }
        prefix = try GitRevision.prefix()
    }

    /// A path from the top folder, as seen from the current folder.
    func here(_ path: String) -> String {
        guard !path.isEmpty else { return top.isEmpty ? "." : String(top.dropLast()) }
        return top + path
    }

    /// The sets named by `arguments` (files or folders, from the current folder), else by the
    /// policy file's `sources:` (as it is on the newer side), else the default folders. A folder
    /// Tally reads as one source (a snapshot, saved store pages) is one source on both sides.
    /// - Parameter readsAll: a mapping given on the command line reads every JSON and YAML file:
    ///   none is skipped as not a product source.
    func plan(arguments: [String], format: SourceFormat?, readsAll: Bool = false) throws -> Plan {
        let old = try DiffTree(revision: revision, top: top)
        let new = try until.map { try DiffTree(revision: $0, top: top) } ?? DiffTree(top: top)
        let sides = [old, new]
        var found: [[String]] = [[], []]
        var mappings: [String: String] = [:]
        var skipped: [String] = []
        let origin: String
        if !arguments.isEmpty {
            for argument in arguments {
                let path = try fromTop(argument)
                var exists = false
                for (index, side) in sides.enumerated() {
                    if side.isFolder(path) {
                        exists = true
                        found[index] += side.isFolderSource(path) ? [path] : side.files(in: path).filter { claimed($0, format) }
                    } else if side.isFile(path) {
                        exists = true
                        found[index].append(path)
                    }
                }
                if !exists { throw GitRevision.Failure(message: "'\(argument)' exists neither \(new.revision.map { "at \($0)" } ?? "here") nor at \(revision)") }
            }
            origin = arguments.joined(separator: ", ")
        } else if let policy = try policyFile(new) {
            let base = (policy.path as NSString).deletingLastPathComponent
            let patterns = policy.file.sources.map(\.pattern)
            if patterns.isEmpty {
                found = sides.map { defaults(in: base, side: $0, format: format) }
                origin = "\(join(base, "configs"))/ and \(join(base, "catalog"))/ (\(policy.path) names no sources)"
            } else {
                for source in policy.file.sources where !source.pattern.hasPrefix("/") {
                    var matched: [String] = []
                    for (index, side) in sides.enumerated() {
                        let paths = try matches(source, base: base, side: side, format: format, readsAll: readsAll, policy: policy.path, skipped: &skipped)
                        found[index] += paths
                        matched += paths
                    }
                    if let mapping = source.mapping {
                        let file = try fromTop(join(base, mapping), from: "")
                        for path in matched where mappings[path] == nil { mappings[path] = file }
                    }
                }
                origin = "the sources \(policy.path) names (\(patterns.joined(separator: ", ")))"
            }
        } else {
            let base = defaultBase(new)
            found = sides.map { defaults(in: base, side: $0, format: format) }
            origin = "\(join(base, "configs"))/ and \(join(base, "catalog"))/"
        }
        // A mapping file is never a source, whichever glob matched it.
        let mappingFiles = Set(mappings.values).union(found[1].filter { new.revision == nil && SourceSet.isMappingFile(here($0)) })
        let newFiles = Set(found[1].filter { !mappingFiles.contains($0) }), oldFiles = Set(found[0].filter { !mappingFiles.contains($0) })
        let all = newFiles.union(oldFiles).sorted()
        var sets: [FileSet] = []
        for role in [SourceRole.configuration, .catalog] {
            let files = all.filter { Self.role(of: $0, format) == role }
            if !files.isEmpty { sets.append(FileSet(role: role, files: files, old: oldFiles, new: newFiles)) }
        }
        var seen = Set<String>()
        return Plan(sets: sets, origin: origin, mappings: mappings, skipped: skipped.filter { seen.insert($0).inserted })
    }

    /// What one `sources:` entry names on one side, decided as `check` decides it
    /// (`SourcePattern.match`): files Tally reads, and folders it reads as one source; a file a
    /// glob matches that is not a product source is left out with a note.
    private func matches(_ source: SourcePattern, base: String, side: DiffTree, format: SourceFormat?, readsAll: Bool,
                         policy: String, skipped: inout [String]) throws -> [String] {
        let match = try source.match(in: side, base: base, policyFile: policy) { _ in format != nil || readsAll }
        skipped += match.skipped.map(\.description)
        return match.paths.filter { side.isFolder($0) || claimed($0, format) }
    }

    /// Configuration when only configuration readers claim the file (or the format forced is one).
    static func role(of path: String, _ format: SourceFormat?) -> SourceRole {
        if let format { return format.role }
        let readers = SourceLoader.readers(claiming: path)
        return !readers.isEmpty && readers.allSatisfy { $0.format.role == .configuration } ? .configuration : .catalog
    }

    private func claimed(_ path: String, _ format: SourceFormat?) -> Bool {
        let name = (path as NSString).lastPathComponent
        return !name.hasPrefix(".") && (format != nil || SourceLoader.isSourceFile(name))
    }

    /// `configs/` (configurations only) and `catalog/` (catalogues) in `base`, on one side.
    private func defaults(in base: String, side: DiffTree, format: SourceFormat?) -> [String] {
        func fits(_ path: String) -> Bool {
            let folder = (path as NSString).deletingLastPathComponent
            guard claimed(path, format) else { return false }
            if folder == join(base, "configs") { return Self.role(of: path, format) == .configuration }
            if folder == join(base, "catalog") { return format != nil || SourceLoader.readers(claiming: path).contains { $0.format.role == .catalog } }
            return false
        }
        return (side.files(in: join(base, "configs")) + side.files(in: join(base, "catalog"))).filter(fits)
    }

    /// The policy file in the current folder or the nearest folder above it in the repository,
    /// as it is on the newer side.
    private func policyFile(_ side: DiffTree) throws -> (path: String, file: PolicyFile)? {
        for folder in folders() {
            let path = join(folder, PolicyFile.defaultName)
            guard side.isFile(path) else { continue }
            var file = try Reading.orExit { () throws -> PolicyFile in
                guard let revision = side.revision else { return try PolicyFile.load(path: here(path)) }
                let bytes = try GitRevision.read(here(path), at: revision, maxBytes: 4 * 1024 * 1024) ?? []
                return try PolicyFile.read(bytes: bytes, file: "\(path)@\(revision)")
            }
            file.file = path
            return (path, file)
        }
        return nil
    }

    /// Without a policy file: the nearest folder (from here up) holding configs/ or catalog/, else the top.
    private func defaultBase(_ side: DiffTree) -> String {
        folders().first { side.isFolder(join($0, "configs")) || side.isFolder(join($0, "catalog")) } ?? ""
    }

    /// The current folder and every folder above it up to the top, from the top (`a/b`, `a`, ``).
    private func folders() -> [String] {
        var parts = prefix.split(separator: "/").map(String.init)
        var folders: [String] = []
        while true {
            folders.append(parts.joined(separator: "/"))
            guard !parts.isEmpty else { return folders }
            parts.removeLast()
        }
    }

    /// A path given from the current folder, from the top folder instead (`.` and `..` resolved).
    private func fromTop(_ argument: String, from start: String? = nil) throws -> String {
        guard !argument.hasPrefix("/") else {
            throw GitRevision.Failure(message: "with --since, name files and folders relative to this folder ('\(argument)' is absolute)")
        }
        var parts = (start ?? prefix).split(separator: "/").map(String.init)
        for part in argument.split(separator: "/") where part != "." {
            if part == ".." {
                guard !parts.isEmpty else { throw GitRevision.Failure(message: "'\(argument)' is outside the git repository") }
                parts.removeLast()
            } else {
                parts.append(String(part))
            }
        }
        return parts.joined(separator: "/")
    }

    private func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : "\(folder)/\(name)" }
}
