import Foundation
import TallyModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Symbolic links among the sources. A linked file is read (a `.storekit` shared between two
/// targets, a saved page linked into a folder) when the file it leads to is inside the
/// repository the link is in; a link that leads out of it (`Products.storekit ->
/// /home/ci/.ssh/id_rsa`, committed by anyone who can open a pull request) is refused by name,
/// before a byte of its target is read. The repository is the nearest folder above the link
/// holding `.git`; outside a repository, the working directory when the link is in it, else the
/// link's own folder.
public enum SourceLinks {
    /// Throws when `path` is a link that leads nowhere or out of its repository; returns for
    /// anything else (the caller goes on to read it as a file).
    public static func check(_ path: String) throws(FormatError) {
        var link = stat()
        guard lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK else { return }
        let given = shown(destination(path))
        guard let target = realPath(path) else {
            throw FormatError("a symbolic link to \(given), which does not exist", file: path, position: .unknown)
        }
        let root = repositoryRoot(around: path)
        guard target == root || target.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw FormatError("a symbolic link to \(given), outside the repository (\(shown(root))): Tally reads linked files only inside it; name the file itself if you mean to read it",
                              file: path, position: .unknown)
        }
    }

    /// Where the link points, as written in it.
    static func destination(_ path: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
    }

    /// The real path of the repository a file at `path` belongs to (see the type's comment).
    static func repositoryRoot(around path: String) -> String {
        let here = realPath(FileManager.default.currentDirectoryPath) ?? FileManager.default.currentDirectoryPath
        let parent = PathText.parent(path)
        let folder = realPath(parent.isEmpty ? "." : parent) ?? here
        var candidate = folder
        while true {
            if FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent(".git")) { return candidate }
            let up = PathText.parent(candidate)
            guard !up.isEmpty, up != candidate else { break }
            candidate = up
        }
        return folder == here || folder.hasPrefix(here + "/") ? here : folder
    }

    /// The path with every link resolved (`realpath(3)`), or nil when it leads nowhere.
    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func shown(_ text: String) -> String { SafeText.line(text) }
}

/// The repository a run's own content may reach: the git top level above a folder (the nearest
/// folder holding `.git`), else the folder itself. Paths that come from repository content — a
/// policy's `sources:`, `code:`, mappings and baseline, the default folders `configs/` and
/// `catalog/`, and the folders a report is written through — must resolve inside it, links at
/// any depth followed; a path outside is refused by name before it is opened (docs/robustness.md,
/// "The repository is the boundary"). Paths named on the command line are the user's own and are
/// not held to it.
public struct RepositoryBoundary: Sendable, Hashable {
    /// The repository's folder, every link resolved.
    public let root: String
    /// The same folder as reached without resolving links (for telling a lexical path inside it).
    public let lexicalRoot: String

    /// The repository around `folder` (relative to the current directory, or absolute).
    public init(around folder: String) {
        let absolute = RepositoryBoundary.absolute(folder)
        var candidate = absolute
        var found: String?
        while true {
            if FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent(".git")) { found = candidate; break }
            let up = PathText.parent(candidate)
            guard !up.isEmpty, up != candidate else { break }
            candidate = up
        }
        lexicalRoot = found ?? absolute
        root = SourceLinks.realPath(lexicalRoot) ?? lexicalRoot
    }

    /// Where `path` really leads when that is outside the repository; nil when it is inside. A
    /// path that does not exist yet is resolved through its nearest existing folder.
    public func escape(_ path: String) -> String? {
        let real = RepositoryBoundary.resolved(path)
        return contains(real, in: root) ? nil : real
    }

    /// Whether `path`, read without following links, lies inside the repository (a relative path
    /// without `..` that climbs out does).
    public func containsLexically(_ path: String) -> Bool {
        let lexical = RepositoryBoundary.absolute(path)
        return contains(lexical, in: lexicalRoot) || contains(lexical, in: root)
    }

    private func contains(_ path: String, in folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    /// `path` made absolute from the current directory, `.` and `..` taken away without
    /// following links.
    public static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        var parts: [Substring] = []
        for part in joined.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." { _ = parts.popLast(); continue }
            parts.append(part)
        }
        return "/" + parts.joined(separator: "/")
    }

    /// The real path of `path`: `realpath(3)` of its nearest existing ancestor, with the rest of
    /// the path after it.
    public static func resolved(_ path: String) -> String {
        // `..` is left to the file system while the path exists (after a link it climbs from
        // the link's target, as the open would).
        var head = path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        var tail: [String] = []
        while true {
            if let real = SourceLinks.realPath(head) {
                // What does not exist holds no link: its `..` are taken away as written.
                return tail.isEmpty ? real : absolute((real == "/" ? "" : real) + "/" + tail.reversed().joined(separator: "/"))
            }
            let parent = PathText.parent(head)
            guard !parent.isEmpty, parent != head else { return absolute(path) }
            tail.append((head as NSString).lastPathComponent)
            head = parent
        }
    }
}
