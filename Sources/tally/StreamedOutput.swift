import Foundation
import TallyRun
import TallyModel
import TallyModel

/// A command's product written as it is made (a converted file, `show --format json`): a
/// `ByteSink` whose pieces go to standard output, or to `--output FILE` as `OutputFile` writes
/// files (a regular file replaced atomically once complete, a pipe or device written through).
final class StreamedOutput {
    private let file: OutputFile?
    private let path: String?
    private let what: String
    private var failure: OutputFile.Failure?

    /// Opens `path` (creating its folders), or standard output when it is nil; a path that cannot
    /// be opened is said on standard error and ends the run with exit 2.
    init(_ path: String?, what: String) throws {
        self.path = path
        self.what = what
        guard let path else {
            file = nil
            return
        }
        do {
            file = try OutputFile.open(path)
        } catch {
            throw ReportFile.fail(path, what: what, error)
        }
    }

    /// A sink delivering here; call `finish()` on it, then `commit()` here.
    func sink() -> ByteSink {
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
            return Console.out(bytes: bytes)
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
        return out.withUnsafeBytes { Console.out(bytes: $0) }
    }

    /// Completes a file (renamed into place); a write that failed is said on standard error,
    /// the file is left as it was, and the run ends with exit 2.
    func commit() throws {
        guard let file, let path else { return }
        if failure == nil {
            do { try file.commit() } catch { failure = error }
        }
        if let failure {
            file.abandon()
            throw ReportFile.fail(path, what: what, failure)
        }
    }
}
