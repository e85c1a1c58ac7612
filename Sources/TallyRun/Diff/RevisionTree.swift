import Foundation
import TallyConfig
import TallyFormats
import TallyModel

/// One side of a diff over revisions: the working tree, or the files of a revision (listed by
/// the store, never checked out). Paths are from the repository's top folder; `top` is that
/// folder as seen from the run's directory (`../../`, or empty), and `directory` the run's
/// directory as seen from the process (`.` for the command line).
struct RevisionTree: SourceTree {
    /// Nil for the working tree.
    let revision: String?
    let top: String
    let directory: String
    let store: any RevisionStore
    /// A revision's files and folders.
    private let files: Set<String>
    private let folders: Set<String>

    /// The working tree.
    init(top: String, directory: String, store: any RevisionStore) {
        revision = nil
        self.top = top
        self.directory = directory
        self.store = store
        files = []
        folders = []
    }

    /// The files of `revision`.
    init(revision: String, top: String, directory: String, store: any RevisionStore) throws(RevisionError) {
        self.revision = revision
        self.top = top
        self.directory = directory
        self.store = store
        let listed = try store.files(at: revision)
        files = Set(listed)
        var folders = Set<String>()
        for file in listed {
            var parent = PathText.parent(file)
            while !parent.isEmpty, folders.insert(parent).inserted { parent = PathText.parent(parent) }
        }
        self.folders = folders
    }

    /// How messages name this side: `here` or the revision.
    var name: String { revision ?? "here" }

    /// A path from the top folder, as seen from the run's directory.
    func here(_ path: String) -> String {
        guard !path.isEmpty else { return top.isEmpty ? "." : String(top.dropLast()) }
        return top + path
    }

    /// A path from the top folder, as the process opens it (in the working tree or the store).
    func opened(_ path: String) -> String {
        let inside = here(path)
        guard directory != "." else { return inside }
        return inside == "." ? directory : (directory as NSString).appendingPathComponent(inside)
    }

    func isFile(_ path: String) -> Bool {
        guard revision == nil else { return files.contains(path) }
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: opened(path), isDirectory: &flag) && !flag.boolValue
    }

    func isFolder(_ path: String) -> Bool {
        guard revision == nil else { return path.isEmpty || folders.contains(path) }
        var flag: ObjCBool = false
        return FileManager.default.fileExists(atPath: opened(path), isDirectory: &flag) && flag.boolValue
    }

    func identity(_ path: String) -> String {
        revision == nil ? SourceGlob.realPath(opened(path)) : path
    }

    /// The files directly in `folder`.
    func files(in folder: String) -> [String] {
        let inside = folder.isEmpty ? "" : folder + "/"
        guard revision == nil else { return files.filter { $0.hasPrefix(inside) && !$0.dropFirst(inside.count).contains("/") }.sorted() }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: opened(folder))) ?? []
        return names.sorted().map { inside + $0 }.filter(isFile)
    }

    /// The files and folders directly in `folder`.
    func entries(in folder: String) -> [String] {
        let inside = folder.isEmpty ? "" : folder + "/"
        guard revision == nil else {
            return files.union(folders).filter { $0.hasPrefix(inside) && $0.count > inside.count && !$0.dropFirst(inside.count).contains("/") }.sorted()
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: opened(folder))) ?? []
        return names.sorted().map { inside + $0 }
    }

    /// The files and folders a `sources:` glob of the policy file in `base` matches.
    func matching(_ pattern: String, base: String) -> [String] {
        func below(_ path: String) -> String? {
            base.isEmpty ? path : (path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : nil)
        }
        guard revision == nil else {
            return files.union(folders).filter { path in below(path).map { SourceGlob.matches(pattern, path: $0) } ?? false }.sorted()
        }
        let start = opened(base)
        return SourceGlob.expand(pattern, in: start, folders: true).map { path in
            let relative = start == "." ? path : (path.hasPrefix(start + "/") ? String(path.dropFirst(start.count + 1)) : path)
            return base.isEmpty ? relative : "\(base)/\(relative)"
        }
    }

    /// Whether a file is a product source by its ending and first bytes (a YAML file without
    /// catalogue keys is not), as `check` decides for the files a policy glob matches.
    func isProductSource(_ path: String) -> Bool {
        guard let revision else { return SourceLoader.isProductSource(path: opened(path), name: path) }
        let readers = SourceLoader.readers(claiming: path)
        if !readers.isEmpty, !readers.contains(where: { $0.decidedByContent }), readers.allSatisfy({ $0.format.role == .configuration }) { return true }
        guard let bytes = try? store.contents(of: opened(path), at: revision, maxBytes: ReadOptions().maxBytes) else { return true }
        return SourceLoader.isProductSource(head: bytes, name: path)
    }

    func notAProductSource(_ path: String) -> String {
        SourceLoader.notAProductSource(path, opened: revision == nil ? opened(path) : nil)
    }

    /// Whether a folder is one Tally reads as one source (a snapshot, saved store pages) on this side.
    func isFolderSource(_ path: String) -> Bool {
        guard let revision else { return FolderSource.at(opened(path)) != nil }
        guard let copy = try? store.copyFolder(opened(path), at: revision, maxBytes: ReadOptions().maxBytes) else { return false }
        defer { try? FileManager.default.removeItem(atPath: PathText.parent(copy)) }
        return FolderSource.at(copy) != nil
    }
}
