import Foundation
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
/// - a symbolic link: followed; the file it points to is replaced as above, the link stays a link
///   (a link to nothing is refused);
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: that descriptor is written;
/// - a named pipe (FIFO) or character device: opened and written through, never replaced;
/// - a folder, socket or block device: refused.
/// Every failure is an `OutputFile.Failure` whose reason the caller prints with the path.
final class OutputFile {
    struct Failure: Error {
        var reason: String

        init(_ reason: String) { self.reason = reason }

        static func posix(_ code: Int32, _ doing: String = "") -> Failure {
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
    static func open(_ path: String) throws(Failure) -> OutputFile {
        if let descriptor = standardDescriptor(path) {
            guard fcntl(descriptor, F_GETFD) != -1 else { throw .posix(errno) }
            return OutputFile(descriptor: descriptor, kind: .descriptor)
        }
        var status = stat()
        guard stat(path, &status) == 0 else {
            let code = errno
            var link = stat()
            if lstat(path, &link) == 0, link.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?"
                throw Failure("it is a symbolic link to \(target), which does not exist; Tally does not create the target of a link")
            }
            guard code == ENOENT else { throw .posix(code) }
            return try replacing(path, mode: nil)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            var link = stat()
            let isLink = lstat(path, &link) == 0 && link.st_mode & S_IFMT == S_IFLNK
            let destination = isLink ? resolved(path) : path
            return try replacing(destination, mode: status.st_mode & 0o7777)
        case S_IFIFO, S_IFCHR:
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
    func write(_ text: String) throws(Failure) {
        do {
            try Console.write(text, to: descriptor)
        } catch {
            throw .posix(error.code)
        }
    }

    /// Writes `bytes`.
    func write(bytes: UnsafeRawBufferPointer) throws(Failure) {
        do {
            try Console.write(bytes, to: descriptor)
        } catch {
            throw .posix(error.code)
        }
    }

    /// Completes the file: closes it and, for a regular file, renames it into place.
    func commit() throws(Failure) {
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
    func abandon() {
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
    static func write(_ text: String, to path: String) throws(Failure) {
        let file = try open(path)
        do {
            try file.write(text)
            try file.commit()
        } catch {
            file.abandon()
            throw error
        }
    }

    private static func replacing(_ destination: String, mode: mode_t?) throws(Failure) -> OutputFile {
        let folder = (destination as NSString).deletingLastPathComponent
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

    /// The file a link leads to, however many links it takes.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// 1 for `/dev/stdout`, `/dev/fd/1` and `/proc/self/fd/1`; 2 for standard error; N for `/dev/fd/N`.
    static func standardDescriptor(_ path: String) -> Int32? {
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
