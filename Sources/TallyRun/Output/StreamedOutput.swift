import Foundation
import TallyModel

/// A command's product written as it is made (a converted file, `show --format json`): a
/// `ByteSink` whose pieces go to standard output, or to `--output FILE` as `OutputFile` writes
/// files (a regular file replaced atomically once complete, a pipe or device written through).
public final class StreamedOutput {
    private let file: OutputFile?
    /// The file written, or nil for standard output.
    public let path: String?
    private var failure: OutputFile.Failure?
    /// Writes bytes to standard output; false once it cannot be written (the CLI's console).
    private let standardOutput: (UnsafeRawBufferPointer) -> Bool

    /// Opens `path` (creating its folders), or standard output when it is nil.
    public init(_ path: String?, standardOutput: @escaping (UnsafeRawBufferPointer) -> Bool) throws(OutputFile.Failure) {
        self.path = path
        self.standardOutput = standardOutput
        file = try path.map { path throws(OutputFile.Failure) in try OutputFile.open(path) }
    }

    /// A sink delivering here; call `finish()` on it, then `commit()` here.
    public func sink() -> ByteSink {
        ByteSink { [self] bytes in deliver(bytes) }
    }

    private func deliver(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let file else { return toStandardOutput(bytes) }
        do {
            try file.write(bytes: bytes)
            return true
        } catch {
            failure = error
            return false
        }
    }

    /// Whether the last byte given to standard output ended a line.
    private var atLineStart = true

    /// Standard output is where a CI log is: the file goes out as it is, but for a line a CI
    /// runner would read as a workflow command (`::add-mask::…` as a CSV row's first cell),
    /// defused as `SafeText.defuseCommand` does. A file written to disk is never changed.
    private func toStandardOutput(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let colon = UInt8(ascii: ":"), hash = UInt8(ascii: "#")
        guard bytes.contains(colon) || bytes.contains(hash) else {
            if let last = bytes.last { atLineStart = last == 0x0A }
            return standardOutput(bytes)
        }
        // Byte by byte (a piece may end inside a character): `::` first on a line (after blanks)
        // and `##[` or `##vso[` anywhere get their first character written as `\u{3A}`/`\u{23}`.
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var lineStart = atLineStart
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if lineStart, byte != 0x20, byte != 0x09 {
                lineStart = false
                if byte == colon, index + 1 < bytes.count, bytes[index + 1] == colon {
                    out += Array("\\u{3A}".utf8)
                    index += 1
                    continue
                }
            }
            if byte == hash, index + 2 < bytes.count, bytes[index + 1] == hash,
               bytes[index + 2] == UInt8(ascii: "[") || (index + 5 < bytes.count && bytes[index + 2] | 0x20 == UInt8(ascii: "v")
                   && bytes[index + 3] | 0x20 == UInt8(ascii: "s") && bytes[index + 4] | 0x20 == UInt8(ascii: "o") && bytes[index + 5] == UInt8(ascii: "[")) {
                out += Array("\\u{23}".utf8)
                index += 1
                continue
            }
            out.append(byte)
            if byte == 0x0A { lineStart = true }
            index += 1
        }
        atLineStart = lineStart
        return out.withUnsafeBytes { standardOutput($0) }
    }

    /// Completes a file (renamed into place); when a write failed, the file is left as it was
    /// and the failure thrown.
    public func commit() throws(OutputFile.Failure) {
        try file?.complete(after: failure)
    }
}
