import ArgumentParser
import Foundation
import TallyConfig
import TallyFormats
import TallyModel
import TallyRun

/// What `tally diff --since REV` compares: the sources the policy file names (or the default
/// folders), found from any folder of the repository, as they are now and as they were at REV.
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
    }

    init(revision: String) throws {
        self.revision = revision
        try GitRevision.verify(revision)
        prefix = try GitRevision.prefix()
    }

    /// A path from the top folder, as seen from the current folder.
    func here(_ path: String) -> String {
        guard !path.isEmpty else { return top.isEmpty ? "." : String(top.dropLast()) }
        return top + path
    }

    /// The sets named by `arguments` (files or folders, from the current folder), else by the
    /// policy file's `sources:`, else the default folders.
    func plan(arguments: [String], format: SourceFormat?) throws -> Plan {
        let tree = try GitRevision.allFiles(at: revision, top: top)
        var now: [String] = []
        var then: [String] = []
        var mappings: [String: String] = [:]
        let origin: String
        if !arguments.isEmpty {
            for argument in arguments {
                let path = try fromTop(argument)
                let inside = path.isEmpty ? "" : path + "/"
                let folderThen = tree.filter { $0.hasPrefix(inside) && !$0.dropFirst(inside.count).contains("/") }
                if isDirectory(here(path)) || !folderThen.isEmpty {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: here(path))) ?? []
                    now += names.map { inside + $0 }.filter { isFile(here($0)) && claimed($0, format) }
                    then += folderThen.filter { claimed($0, format) }
                } else {
                    if isFile(here(path)) { now.append(path) }
                    if tree.contains(path) { then.append(path) }
                    if !isFile(here(path)), !tree.contains(path) {
                        throw GitRevision.Failure(message: "'\(argument)' exists neither here nor at \(revision)")
                    }
                }
            }
            origin = arguments.joined(separator: ", ")
        } else if let policy = try policyFile() {
            let base = (policy.path as NSString).deletingLastPathComponent
            let patterns = policy.file.sources.map(\.pattern)
            if patterns.isEmpty {
                (now, then) = defaults(in: base, tree: tree, format: format)
                origin = "\(join(base, "configs"))/ and \(join(base, "catalog"))/ (\(policy.path) names no sources)"
            } else {
                for source in policy.file.sources where !source.pattern.hasPrefix("/") {
                    let pattern = source.pattern
                    let matchedNow = SourceGlob.expand(pattern, in: here(base)).map { fromHere($0, base: base) }.filter { claimed($0, format) }
                    let matchedThen = tree.filter { path in
                        guard let relative = below(base, path) else { return false }
                        return SourceGlob.matches(pattern, path: relative) && claimed(path, format)
                    }
                    if let mapping = source.mapping {
                        let file = try fromTop(join(base, mapping), from: "")
                        for path in matchedNow + matchedThen where mappings[path] == nil { mappings[path] = file }
                    }
                    now += matchedNow
                    then += matchedThen
                }
                origin = "the sources \(policy.path) names (\(patterns.joined(separator: ", ")))"
            }
        } else {
            let base = defaultBase()
            (now, then) = defaults(in: base, tree: tree, format: format)
            origin = "\(join(base, "configs"))/ and \(join(base, "catalog"))/"
        }
        // A mapping file is never a source, whichever glob matched it.
        let mappingFiles = Set(mappings.values).union(now.filter { SourceSet.isMappingFile(here($0)) })
        now.removeAll { mappingFiles.contains($0) }
        then.removeAll { mappingFiles.contains($0) }
        let newFiles = Set(now), oldFiles = Set(then)
        let all = newFiles.union(oldFiles).sorted()
        var sets: [FileSet] = []
        for role in [SourceRole.configuration, .catalog] {
            let files = all.filter { Self.role(of: $0, format) == role }
            if !files.isEmpty { sets.append(FileSet(role: role, files: files, old: oldFiles, new: newFiles)) }
        }
        return Plan(sets: sets, origin: origin, mappings: mappings)
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

    /// `configs/` (configurations only) and `catalog/` (catalogues) in `base`, now and at the revision.
    private func defaults(in base: String, tree: [String], format: SourceFormat?) -> (now: [String], then: [String]) {
        func fits(_ path: String) -> Bool {
            let folder = (path as NSString).deletingLastPathComponent
            guard claimed(path, format) else { return false }
            if folder == join(base, "configs") { return Self.role(of: path, format) == .configuration }
            if folder == join(base, "catalog") { return format != nil || SourceLoader.readers(claiming: path).contains { $0.format.role == .catalog } }
            return false
        }
        var now: [String] = []
        for folder in ["configs", "catalog"] {
            let path = join(base, folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: here(path))) ?? []
            now += names.map { join(path, $0) }.filter { isFile(here($0)) }
        }
        return (now.filter(fits), tree.filter(fits))
    }

    /// The policy file in the current folder or the nearest folder above it in the repository.
    private func policyFile() throws -> (path: String, file: PolicyFile)? {
        for folder in folders() {
            let path = join(folder, PolicyFile.defaultName)
            guard isFile(here(path)) else { continue }
            var file = try Reading.orExit { try PolicyFile.load(path: here(path)) }
            file.file = path
            return (path, file)
        }
        return nil
    }

    /// Without a policy file: the nearest folder (from here up) holding configs/ or catalog/, else the top.
    private func defaultBase() -> String {
        folders().first { isDirectory(here(join($0, "configs"))) || isDirectory(here(join($0, "catalog"))) } ?? ""
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

    /// A path `SourceGlob.expand` gave for `here(base)`, from the top folder.
    private func fromHere(_ path: String, base: String) -> String {
        let start = here(base)
        guard start != "." else { return path }
        let relative = path.hasPrefix(start + "/") ? String(path.dropFirst(start.count + 1)) : path
        return join(base, relative)
    }

    /// `path` relative to `base` when it is inside it.
    private func below(_ base: String, _ path: String) -> String? {
        if base.isEmpty { return path }
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : nil
    }

    private func join(_ folder: String, _ name: String) -> String { folder.isEmpty ? name : "\(folder)/\(name)" }

    private func isDirectory(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
    }

    private func isFile(_ path: String) -> Bool {
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && !flag.boolValue
    }
}
