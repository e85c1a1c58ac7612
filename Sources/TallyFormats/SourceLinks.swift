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
        let parent = (path as NSString).deletingLastPathComponent
        let folder = realPath(parent.isEmpty ? "." : parent) ?? here
        var candidate = folder
        while true {
            if FileManager.default.fileExists(atPath: (candidate as NSString).appendingPathComponent(".git")) { return candidate }
            let up = (candidate as NSString).deletingLastPathComponent
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
