import Foundation
import TallyFormats

/// A file whose name is not UTF-8 (Linux file names are bytes): opened with the bytes of its
/// name, named in messages by an escaped form (`caf\xE9.storekit`). A Swift String cannot
/// hold such a name, so `SourceLoader.load(path:)` cannot open it.
public enum RawNamedFile {
    /// Reads the file whose name is `bytes`: a regular file, at most `maxBytes`. Errors are as
    /// for any source, naming the file `name` (the escaped form).
    public static func contents(_ bytes: [UInt8], name argument: String, maxBytes: Int) throws -> [UInt8] {
        let descriptor = (bytes + [0]).withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { open($0, O_RDONLY | O_NONBLOCK) }
        }
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "no such file" : "cannot open the file: \(String(cString: strerror(errno)))"
            throw FormatError(reason, file: argument, position: .unknown)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw FormatError("cannot read the file: \(String(cString: strerror(errno)))", file: argument, position: .unknown)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let what = status.st_mode & S_IFMT == S_IFDIR
                ? "this folder's name is not UTF-8, and Tally reads such names only for files: rename the folder"
                : "not a regular file"
            throw FormatError(what, file: argument, position: .unknown)
        }
        guard Int(status.st_size) <= maxBytes else {
            throw FormatError(SizeLimit.message(size: Int(status.st_size), limit: maxBytes), file: argument, position: .unknown).with(.raiseInputLimit)
        }
        var data = [UInt8](repeating: 0, count: Int(status.st_size))
        var filled = 0
        while filled < data.count {
            let count = data.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                if count == 0 { break }
                throw FormatError("cannot read the file: \(String(cString: strerror(errno)))", file: argument, position: .unknown)
            }
            filled += count
        }
        return Array(data.prefix(filled))
    }
}
