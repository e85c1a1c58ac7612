import Foundation
import TallyFormats
import TallyModel

/// Files as they were at a revision, read without a checkout: git behind it in the command line
/// (`GitRevisionStore`), a dictionary in tests (`MemoryRevisionStore`).
///
/// Paths given to `contents` and `folder` are as the process opens them (from its current
/// directory, or absolute); `files(at:)` lists paths from the repository's top folder, and
/// `prefix()` says where the run's directory is inside it.
public protocol RevisionStore: Sendable {
    /// Checks that `revision` names a commit.
    func verify(_ revision: String) throws(RevisionError)
    /// The run's directory inside the repository (`server/catalog/`, empty at the top).
    func prefix() throws(RevisionError) -> String
    /// Every file at `revision`, as paths from the repository's top folder.
    func files(at revision: String) throws(RevisionError) -> [String]
    /// The bytes of `path` at `revision`, or nil when it was not a file then; a file over
    /// `maxBytes` is refused before it is read. `whose` names a limit of a kind of file (`a
    /// policy file`) that the input limit does not set.
    func contents(of path: String, at revision: String, maxBytes: Int, whose: String?) throws(RevisionError) -> [UInt8]?
    /// The names of the files directly in the folder `path` at `revision`, or nil when it was
    /// not a folder then.
    func folder(_ path: String, at revision: String) throws(RevisionError) -> [String]?
    /// Writes the files directly in the folder `path` at `revision` into the existing folder
    /// `destination`, each at most `maxBytes`; false when `path` was not a folder then.
    func copyFiles(in path: String, at revision: String, to destination: String, maxBytes: Int) throws(RevisionError) -> Bool
}

/// A revision store that could not answer: git is missing, the revision is unknown, a file is
/// over the input limit. The message is a sentence without a command-line flag.
public struct RevisionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// What would help (a higher input limit).
    public var remedy: Remedy?
    public init(_ message: String, remedy: Remedy? = nil) {
        self.message = message
        self.remedy = remedy
    }
    public var description: String { message }
}

extension RevisionStore {
    /// The bytes of `path` at `revision` (see the requirement), under the input limit.
    public func contents(of path: String, at revision: String, maxBytes: Int) throws(RevisionError) -> [UInt8]? {
        try contents(of: path, at: revision, maxBytes: maxBytes, whose: nil)
    }

    /// File by file, through `folder` and `contents`.
    public func copyFiles(in path: String, at revision: String, to destination: String, maxBytes: Int) throws(RevisionError) -> Bool {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        guard let names = try folder(trimmed, at: revision) else { return false }
        for file in names {
            let bytes: [UInt8]?
            do { bytes = try contents(of: (trimmed as NSString).appendingPathComponent(file), at: revision, maxBytes: maxBytes) } catch {
                throw RevisionError("\(path)/\(file): \(error.message)", remedy: error.remedy)
            }
            guard let bytes else { continue }
            guard FileManager.default.createFile(atPath: (destination as NSString).appendingPathComponent(file), contents: Data(bytes)) else {
                throw RevisionError("cannot copy \(path)/\(file) at \(revision) to a temporary folder")
            }
        }
        return true
    }

    /// A copy of the folder `path` as it was at `revision` (the files directly in it), in a new
    /// temporary folder of the same name, or nil when `path` was not a folder then. The caller
    /// removes the copy's parent folder.
    func copyFolder(_ path: String, at revision: String, maxBytes: Int) throws(RevisionError) -> String? {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("tally-\(getpid())-\(UUID().uuidString)").path
        let name = (trimmed as NSString).lastPathComponent
        let copy = (parent as NSString).appendingPathComponent(name.isEmpty || name == "." || name == ".." ? "top" : name)
        do {
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        } catch {
            throw RevisionError("cannot copy \(path) at \(revision) to a temporary folder: \(error.localizedDescription)")
        }
        do throws(RevisionError) {
            guard try copyFiles(in: trimmed, at: revision, to: copy, maxBytes: maxBytes) else {
                try? FileManager.default.removeItem(atPath: parent)
                return nil
            }
        } catch {
            try? FileManager.default.removeItem(atPath: parent)
            throw error
        }
        return copy
    }
}

/// Revisions held in memory, for tests: each revision is a dictionary of paths (from the top
/// folder, which is the run's directory `directory`) to bytes.
public struct MemoryRevisionStore: RevisionStore {
    public var revisions: [String: [String: [UInt8]]]
    /// The run's directory as the process opens it (the top folder of the revisions).
    public var directory: String

    public init(_ revisions: [String: [String: [UInt8]]], directory: String = ".") {
        self.revisions = revisions
        self.directory = directory
    }

    /// Revisions whose files are text.
    public init(text revisions: [String: [String: String]], directory: String = ".") {
        self.init(revisions.mapValues { $0.mapValues { Array($0.utf8) } }, directory: directory)
    }

    public func verify(_ revision: String) throws(RevisionError) {
        guard revisions[revision] != nil else {
            throw RevisionError("'\(revision)' is not a commit, branch or tag in this repository; use one, e.g. HEAD~1 or main")
        }
    }

    public func prefix() throws(RevisionError) -> String { "" }

    public func files(at revision: String) throws(RevisionError) -> [String] {
        try verify(revision)
        return (revisions[revision] ?? [:]).keys.sorted()
    }

    public func contents(of path: String, at revision: String, maxBytes: Int, whose: String?) throws(RevisionError) -> [UInt8]? {
        try verify(revision)
        guard let bytes = revisions[revision]?[inside(path)] else { return nil }
        guard bytes.count <= maxBytes else {
            throw RevisionError("\(SizeLimit.message(size: bytes.count, limit: maxBytes, whose: whose)) at \(revision)",
                                remedy: whose == nil ? .raiseInputLimit : nil)
        }
        return bytes
    }

    public func folder(_ path: String, at revision: String) throws(RevisionError) -> [String]? {
        try verify(revision)
        let folder = inside(path)
        let inside = folder.isEmpty ? "" : folder + "/"
        let files = (revisions[revision] ?? [:]).keys.filter { $0.hasPrefix(inside) }
        guard !files.isEmpty else { return nil }
        return files.map { String($0.dropFirst(inside.count)) }.filter { !$0.contains("/") }.sorted()
    }

    /// A path as opened, from the top folder.
    private func inside(_ path: String) -> String {
        let path = Self.normal(path), top = Self.normal(directory)
        guard !top.isEmpty else { return path }
        return path.hasPrefix(top + "/") ? String(path.dropFirst(top.count + 1)) : path == top ? "" : path
    }

    /// `./a/../b/c.yaml` as `b/c.yaml`.
    static func normal(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", !parts.isEmpty { parts.removeLast() } else if part != ".." { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }
}
