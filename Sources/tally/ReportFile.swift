import Foundation

/// Writes report and baseline files atomically: the text goes to a temporary file in the same
/// folder, which is then renamed over the target. A crash or kill leaves the old file or the
/// new one, never half of one. Missing folders are created.
enum ReportFile {
    static func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).tally-\(getpid())-\(UUID().uuidString).tmp")
        let data = Data((text.hasSuffix("\n") ? text : text + "\n").utf8)
        do {
            guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
                throw CocoaError(.fileWriteNoPermission)
            }
            guard rename(temporary.path, url.path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    /// Writes, or prints `path: error: cannot write ...` and exits 2.
    static func writeOrExit(_ text: String, to path: String, what: String = "the report") throws {
        do {
            try write(text, to: path)
        } catch {
            var standardError = StandardError()
            print("\(path): error: cannot write \(what): \(describe(error))", to: &standardError)
            throw TallyExit.usageOrInput.code
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        return (error as NSError).localizedDescription
    }
}
