import Foundation
import TallyConfig
import TallyFormats
import TallyModel

/// What a diff compares, as a typed stage before anything is read: two sources (files, folders,
/// `FILE@REV`), or the sources of a repository against themselves at a revision (the policy's
/// `sources:`, else the default folders, or the files and folders named), the newer side being
/// the working tree or a second revision. Neither revision is checked out: the `RevisionStore`
/// lists and reads their files.
///
/// Paths of a revision plan are kept from the repository's top folder (as `git diff` prints
/// them). Configurations (`.storekit`, `.plist`) and catalogues are two sets: each set is
/// compared as a whole, so a product that moves between files of a set is moved, not removed
/// and added.
public struct DiffPlan: Sendable {
    /// One side of a comparison: the sources it reads, the label reports give it.
    public struct Side: Sendable, Hashable {
        /// The files of the side, each with the name it is matched by on the other side.
        public var entries: [(name: String, entry: SourceSet.Entry)]
        /// `old/` for a folder, the file's label for a file.
        public var label: String
        /// Whether the side is a folder (its files compared as a whole).
        public var isFolder: Bool

        public static func == (a: Side, b: Side) -> Bool {
            a.label == b.label && a.isFolder == b.isFolder && a.entries.map(\.name) == b.entries.map(\.name) && a.entries.map(\.entry) == b.entries.map(\.entry)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(label)
            hasher.combine(entries.map(\.name))
        }
    }

    /// One set of files of the same role across two revisions, and which exist on each side.
    public struct FileSet: Sendable, Hashable {
        public var role: SourceRole
        public var files: [String]
        public var old: Set<String>
        public var new: Set<String>
    }

    public enum Shape: Sendable, Hashable {
        /// OLD against NEW.
        case sources(old: Side, new: Side)
        /// Every set against itself at `revision` (the newer side at `until`, or now).
        case revisions(revision: String, until: String?, sets: [FileSet])
    }

    public var shape: Shape
    /// Every file read, once: the old and new sides' entries.
    public var sources: SourceSet
    /// The forced reader (`--input-format`), if any.
    public var format: SourceFormat?
    /// `the sources .tally.yml names`, `configs/ and catalog/`, or the arguments.
    public var origin: String
    /// Files a policy glob matches that are not product sources (left out, each a warning).
    public var skipped: [SkippedSource] = []

    /// The pairs of source sets compared: OLD and NEW, or each set at the revision and now.
    public var pairs: [(old: SourceSet, new: SourceSet)] {
        switch shape {
        case .sources(let old, let new):
            return [(SourceSet(old.entries.map(\.entry), root: sources.root), SourceSet(new.entries.map(\.entry), root: sources.root))]
        case .revisions(let revision, let until, let sets):
            return sets.map { set in
                (SourceSet(set.files.filter(set.old.contains).map { sources.entry($0, at: revision) }, root: sources.root),
                 SourceSet(set.files.filter(set.new.contains).map { sources.entry($0, at: until) }, root: sources.root))
            }
        }
    }

    // MARK: OLD against NEW

    /// OLD against NEW (each a file, a file at a revision, or a folder). A side that is a folder
    /// (not one a reader reads whole, such as an App Store Connect export) stands for the source
    /// files directly in it, compared as a whole by their names.
    public static func sources(old: SourceSet.Entry, new: SourceSet.Entry, format: SourceFormat? = nil,
                               mapping: String? = nil, root: String? = nil) throws(RunFailure) -> DiffPlan {
        func side(_ entry: SourceSet.Entry) throws(RunFailure) -> Side {
            var entry = entry
            entry.mapping = entry.mapping ?? mapping
            let opened = SourceSet([], root: root).location(of: entry.path)
            var isDirectory: ObjCBool = false
            guard entry.revision == nil, entry.rawName == nil, FileManager.default.fileExists(atPath: opened, isDirectory: &isDirectory), isDirectory.boolValue,
                  !SourceLoader.isDirectorySource(opened, format: format) else {
                return Side(entries: [(name: (entry.path as NSString).lastPathComponent, entry: entry)], label: entry.label, isFolder: false)
            }
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: opened)) ?? []).sorted().filter { name in
                var folder: ObjCBool = false
                let path = (opened as NSString).appendingPathComponent(name)
                return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: path, isDirectory: &folder) && !folder.boolValue
                    && (format != nil || (SourceLoader.isSourceFile(name) && SourceLoader.isProductSource(path: path, name: name)))
            }
            guard !names.isEmpty else {
                throw .usage("'\(entry.path)' is a folder with no source files Tally reads directly in it")
            }
            return Side(entries: names.map { name in
                (name: name, entry: SourceSet.Entry((entry.path as NSString).appendingPathComponent(name), mapping: entry.mapping))
            }, label: entry.path.hasSuffix("/") ? entry.path : entry.path + "/", isFolder: true)
        }
        let before = try side(old), after = try side(new)
        return DiffPlan(shape: .sources(old: before, new: after),
                        sources: SourceSet((before.entries + after.entries).map(\.entry), root: root),
                        format: format, origin: "\(old.label), \(new.label)")
    }

    /// `FILE` or `FILE@REV` (split at the first `@`, so `App.storekit@HEAD@{1}` works). An
    /// existing file whose name holds an `@` is read as that file; nil for an argument that is
    /// neither (`@HEAD`, `file@`).
    public static func entry(parsing argument: String, root: String? = nil) -> SourceSet.Entry? {
        guard !FileManager.default.fileExists(atPath: SourceSet([], root: root).location(of: argument)),
              let at = argument.firstIndex(of: "@") else { return SourceSet.Entry(argument) }
        let path = String(argument[..<at]), revision = String(argument[argument.index(after: at)...])
        guard !path.isEmpty, !revision.isEmpty else { return nil }
        return SourceSet.Entry(path, revision: revision)
    }

    /// `v1..v2` as a diff's first argument, when no file of that name exists: the two revisions
    /// to compare; nil for anything else (`a..`, `..b`, `v1...v2`).
    public static func range(parsing argument: String, root: String? = nil) -> (since: String, until: String)? {
        guard !FileManager.default.fileExists(atPath: SourceSet([], root: root).location(of: argument)),
              let dots = argument.range(of: "..") else { return nil }
        let old = String(argument[..<dots.lowerBound]), new = String(argument[dots.upperBound...])
        guard !old.isEmpty, !new.isEmpty, !new.hasPrefix(".") else { return nil }
        return (old, new)
    }

    // MARK: the sources against themselves at a revision

    /// The sets to compare since `revision`: the sources named by `arguments` (files or folders,
    /// from the run's directory), else by the policy file's `sources:` (as it is on the newer
    /// side, here or above), else the default folders. A folder Tally reads as one source (a
    /// snapshot, saved store pages) is one source on both sides.
    /// - Parameters:
    ///   - directory: the run's directory (`.` for the command line, the package root in a test).
    ///   - readsAll: a mapping given for every source reads every JSON and YAML file: none is
    ///     skipped as not a product source.
    public static func since(_ revision: String, until: String? = nil, arguments: [String] = [], format: SourceFormat? = nil,
                             readsAll: Bool = false, directory: String = ".",
                             store: any RevisionStore) throws(RunFailure) -> DiffPlan {
        do {
            return try SourcePlanner.plan(since: revision, until: until, arguments: arguments, format: format, readsAll: readsAll,
                                          directory: directory, store: store)
        } catch let error as RevisionError {
            throw .revision(error)
        } catch let error as RunFailure {
            throw error
        } catch {
            throw .policy(SourceSet.formatError(error, file: PolicyFile.defaultName))
        }
    }

    /// Configuration when only configuration readers claim the file (or the format forced is one).
    public static func role(of path: String, _ format: SourceFormat?) -> SourceRole {
        if let format { return format.role }
        let readers = SourceLoader.readers(claiming: path)
        return !readers.isEmpty && readers.allSatisfy { $0.format.role == .configuration } ? .configuration : .catalog
    }
}

extension SourceSet {
    /// The entry of `path` (from the top folder) at `revision`, with its mapping.
    func entry(_ path: String, at revision: String?) -> Entry {
        var entry = entries.first { $0.path == path } ?? Entry(path)
        entry.revision = revision
        return entry
    }
}
