import Foundation
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
        guard let file else { return Console.out(bytes: bytes) }
        do {
            try file.write(bytes: bytes)
            return true
        } catch {
            failure = error
            return false
        }
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
