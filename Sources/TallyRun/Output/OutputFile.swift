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

/// A report, baseline, policy or converted file being written, by what the path is:
/// - a regular file (or none yet): written to a temporary file beside it and renamed over it when
///   complete, so a crash leaves the old file or the new one; missing folders are created;
/// - a symbolic link: refused, whatever it leads to. Tally writes only the file it was asked to
///   write, never through a link it did not create: a link committed to a repository (a
///   `.tally.yml` or a report path leading to a shell start-up file) can lead anywhere;
/// - one of the run's inputs, a file inside a folder the run reads, or a file this run already
///   writes (by device and inode or real path, see `RunFiles`): refused;
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: that descriptor is written;
/// - a named pipe (FIFO) or character device: opened and written through, never replaced
///   (refused for a policy or baseline file, which must be a regular file: `regularOnly`);
/// - a folder, socket or block device: refused.
/// Every failure is an `OutputFile.Failure` whose reason the caller prints with the path.
public final class OutputFile {
    public struct Failure: Error {
        public var reason: String

        public init(_ reason: String) { self.reason = reason }

        public static func posix(_ code: Int32, _ doing: String = "") -> Failure {
            Failure(doing + String(cString: strerror(code)))
        }
    }

    private enum Kind {
        case replacing(temporary: String, destination: String, mode: mode_t?)
        case through
        case descriptor
    }

    private let descriptor: Int32
    private let kind: Kind
    private var closed = false

    private init(descriptor: Int32, kind: Kind) {
        self.descriptor = descriptor
        self.kind = kind
    }

    /// Opens `path` for writing as the type comment says.
    /// - Parameter regularOnly: the file must be a regular file (a policy, a baseline): a named
    ///   pipe or device is refused (writing a policy to a FIFO nobody reads would wait forever).
    public static func open(_ path: String, regularOnly: Bool = false) throws(Failure) -> OutputFile {
        if let descriptor = standardDescriptor(path), !regularOnly {
            guard fcntl(descriptor, F_GETFD) != -1 else { throw .posix(errno) }
            return OutputFile(descriptor: descriptor, kind: .descriptor)
        }
        var link = stat()
        if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
            let target = SafeText.line((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            throw Failure("it is a symbolic link to \(target); Tally does not write through a link (a link in a repository can lead anywhere): name the file itself, or remove the link")
        }
        // Every folder on the way, not only the last name: `build -> ../outside` committed to a
        // repository would turn `--report json:build/r.json` into a write outside it.
        let boundary = RepositoryBoundary(around: ".")
        if boundary.containsLexically(path), let real = boundary.escape(path) {
            throw Failure("it leads through a symbolic link outside the repository (\(SafeText.line(boundary.root))), to \(SafeText.line(real)); "
                          + "Tally does not write outside the repository through a link: name a path without the link")
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            guard code == ENOENT else { throw .posix(code) }
            if let refusal = RunFiles.shared.claimOutput(path) { throw Failure(refusal) }
            return try replacing(path, mode: nil)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            if let refusal = RunFiles.shared.claimOutput(path) { throw Failure(refusal) }
            return try replacing(path, mode: status.st_mode & 0o7777)
        case S_IFIFO, S_IFCHR:
            // (A `where` would bind to the last pattern only.)
            if regularOnly { throw Failure("it is a named pipe or a device; this file is written as a regular file: remove it, or name another file") }
            let descriptor = openFile(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
            guard descriptor >= 0 else { throw .posix(errno) }
            return OutputFile(descriptor: descriptor, kind: .through)
        case S_IFDIR:
            throw Failure("it is a folder; name a file")
        case S_IFBLK:
            throw Failure("it is a block device (a disk); Tally does not write reports to one")
        default:
            throw Failure("it is a socket or another special file; name a regular file, a named pipe or /dev/stdout")
        }
    }

    /// Writes `text`.
    public func write(_ text: String) throws(Failure) {
        do {
            try Descriptor.write(text, to: descriptor)
        } catch {
            throw .posix(error.code)
        }
    }

    /// Writes `bytes`.
    public func write(bytes: UnsafeRawBufferPointer) throws(Failure) {
        do {
            try Descriptor.write(bytes, to: descriptor)
        } catch {
            throw .posix(error.code)
        }
    }

    /// Completes the file: closes it and, for a regular file, renames it into place.
    public func commit() throws(Failure) {
        switch kind {
        case .descriptor:
            return
        case .through:
            closed = true
            guard close(descriptor) == 0 || errno == EINTR else { throw .posix(errno) }
        case let .replacing(temporary, destination, mode):
            closed = true
            if let mode { _ = fchmod(descriptor, mode) }
            guard close(descriptor) == 0 else {
                let code = errno
                unlink(temporary)
                throw .posix(code)
            }
            guard rename(temporary, destination) == 0 else {
                let code = errno
                unlink(temporary)
                throw .posix(code)
            }
        }
    }

    /// Gives the file up: a temporary file is removed, the destination keeps what it had.
    /// Commits the file, or abandons it (left as it was) when a write already failed or the
    /// commit fails; throws that failure.
    public func complete(after failure: Failure?) throws(Failure) {
        if let failure {
            abandon()
            throw failure
        }
        do {
            try commit()
        } catch {
            abandon()
            throw error
        }
    }

    public func abandon() {
        guard !closed else { return }
        closed = true
        switch kind {
        case .descriptor: return
        case .through: close(descriptor)
        case let .replacing(temporary, _, _):
            close(descriptor)
            unlink(temporary)
        }
    }

    /// Writes `text` to `path` whole, or throws with nothing half-written in a regular file.
    public static func write(_ text: String, to path: String, regularOnly: Bool = false) throws(Failure) {
        let file = try open(path, regularOnly: regularOnly)
        do {
            try file.write(text)
            try file.commit()
        } catch {
            file.abandon()
            throw error
        }
    }

    private static func replacing(_ destination: String, mode: mode_t?) throws(Failure) -> OutputFile {
        let folder = PathText.parent(destination)
        if !folder.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Failure("cannot create the folder \(folder): \((error as NSError).localizedDescription)")
            }
        }
        let name = ".\((destination as NSString).lastPathComponent).tally-\(getpid())-\(UUID().uuidString).tmp"
        let temporary = folder.isEmpty ? name : "\(folder)/\(name)"
        let descriptor = openFile(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .posix(errno, "cannot create a file beside it: ") }
        return OutputFile(descriptor: descriptor, kind: .replacing(temporary: temporary, destination: destination, mode: mode))
    }

    /// 1 for `/dev/stdout`, `/dev/fd/1` and `/proc/self/fd/1`; 2 for standard error; N for `/dev/fd/N`.
    public static func standardDescriptor(_ path: String) -> Int32? {
        switch path {
        case "/dev/stdout": return STDOUT_FILENO
        case "/dev/stderr": return STDERR_FILENO
        default:
            for prefix in ["/dev/fd/", "/proc/self/fd/"] where path.hasPrefix(prefix) {
                return Int32(path.dropFirst(prefix.count))
            }
            return nil
        }
    }
}

/// `open(2)`, which `OutputFile.open` hides by its name.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    #if canImport(Darwin)
    Darwin.open(path, flags, mode)
    #elseif canImport(Musl)
    Musl.open(path, flags, mode)
    #else
    Glibc.open(path, flags, mode)
    #endif
}
