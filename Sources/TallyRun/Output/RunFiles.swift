import Foundation
import TallyFormats
import TallyModel
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The files one run reads and writes, compared by what they are (device and inode, or the real
/// path of a file not yet there), not by how they were spelled: `a.json`, `./a.json` and a link
/// to it are one file. `OutputFile.open` asks it before writing anything, so that a run never
/// writes over one of its own inputs (`--report json:products.yaml`, `convert X -o X`,
/// `--write-baseline .tally.yml`), never into a folder it reads as a source, and never writes
/// the same file twice.
public final class RunFiles: @unchecked Sendable {
    public static let shared = RunFiles()

    /// A file as the file system knows it.
    public enum Identity: Hashable {
        case inode(device: UInt64, inode: UInt64)
        /// A file that does not exist yet: its folder's real path and its name.
        case path(String)
    }

    private let lock = NSLock()
    /// Inputs by identity, with the name the user gave (for the message).
    private var inputs: [Identity: String] = [:]
    /// Folders read as one source (a snapshot, saved store pages): real path → the name given.
    private var inputFolders: [String: String] = [:]
    private var outputs: [Identity: String] = [:]

    /// Notes a file or folder the run reads. Paths that do not exist are ignored (the reader says so).
    public func noteInput(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        lock.withLock {
            if status.st_mode & S_IFMT == S_IFDIR {
                inputFolders[Self.realPath(path) ?? path] = path
            } else {
                inputs[.inode(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))] = path
            }
        }
    }

    /// Claims `path` as an output of this run, or says why it cannot be one.
    public func claimOutput(_ path: String) -> String? {
        let identity = Self.identity(path)
        let folder = Self.realFolder(of: path)
        return lock.withLock { () -> String? in
            if let identity, let input = inputs[identity] {
                return input == path
                    ? "it is one of this run's inputs; Tally never writes over what it reads: name another file"
                    : "it is \(input), one of this run's inputs; Tally never writes over what it reads: name another file"
            }
            if let folder {
                for (real, given) in inputFolders where folder == real || folder.hasPrefix(real + "/") {
                    return "it is inside \(given), a folder this run reads as a source; name a file outside it"
                }
            }
            if let identity {
                if let earlier = outputs[identity] {
                    return earlier == path ? "this run already writes it; give each output its own file"
                        : "it is the same file as \(earlier), which this run already writes; give each output its own file"
                }
                outputs[identity] = path
            }
            return nil
        }
    }

    /// Whether two paths name one file (for option validation before anything is written); a
    /// named pipe or device (`/dev/null` twice) is compared by name.
    public static func same(_ a: String, _ b: String) -> Bool {
        guard !isSpecial(a), !isSpecial(b), let first = identity(a), let second = identity(b) else { return a == b }
        return first == second
    }

    /// An existing file that is neither a regular file nor a link to one.
    private static func isSpecial(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT != S_IFREG
    }

    /// The identity of an existing file (links followed), or of the name a new file would take.
    public static func identity(_ path: String) -> Identity? {
        var status = stat()
        if stat(path, &status) == 0 {
            return .inode(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
        }
        guard let folder = realFolder(of: path) else { return nil }
        return .path(folder + "/" + (path as NSString).lastPathComponent)
    }

    /// The real path of the folder `path` is in (the working directory for a bare name): its
    /// deepest existing folder's real path, with the folders still to be created after it.
    public static func realFolder(of path: String) -> String? {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var missing: [String] = []
        var folder = (URL(fileURLWithPath: absolute).standardizedFileURL.path as NSString).deletingLastPathComponent
        while !folder.isEmpty {
            if let real = realPath(folder) {
                return ([real == "/" ? "" : real] + missing.reversed()).joined(separator: "/")
            }
            missing.append((folder as NSString).lastPathComponent)
            let parent = PathText.parent(folder)
            guard parent != folder else { break }
            folder = parent
        }
        return nil
    }

    public static func realPath(_ path: String) -> String? { SourceLinks.realPath(path) }
}
