import Foundation

/// A file that holds a key (`--api-key-file`, `--service-account`, `--private-key`): checked with
/// `stat` before it is opened, so that a folder, a pipe, a device or a file of gigabytes is
/// refused without a byte of it read, and then read to at most its limit.
enum CredentialFile {
    /// The bytes of the file at `path`; `what` names it in messages (`the RevenueCat API key file`),
    /// `advice` says what it should hold.
    static func read(_ path: String, what: String, maxBytes: Int, advice: String) throws -> Data {
        var status = stat()
        guard stat(path, &status) == 0 else {
            throw FetchError.credentials("cannot read \(what) \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let kind: String
            switch status.st_mode & S_IFMT {
            case S_IFDIR: kind = "a folder"
            case S_IFIFO: kind = "a named pipe"
            case S_IFCHR, S_IFBLK: kind = "a device"
            case S_IFSOCK: kind = "a socket"
            default: kind = "not a regular file"
            }
            throw FetchError.credentials("\(what) \(path) is \(kind), not a file: \(advice)")
        }
        guard Int(status.st_size) <= maxBytes else {
            throw FetchError.credentials("\(what) \(path) is \(status.st_size) bytes, over the \(maxBytes) it may hold: \(advice)")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw FetchError.credentials("cannot read \(what) \(path) (no permission?)")
        }
        defer { try? handle.close() }
        // At most one byte past the limit: a file that grew since `stat` is refused, not read whole.
        let data: Data
        do { data = try handle.read(upToCount: maxBytes + 1) ?? Data() } catch {
            throw FetchError.credentials("cannot read \(what) \(path): \(error.localizedDescription)")
        }
        guard data.count <= maxBytes else {
            throw FetchError.credentials("\(what) \(path) is over the \(maxBytes) bytes it may hold: \(advice)")
        }
        return data
    }
}
