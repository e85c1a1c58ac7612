import Foundation
import TallyModel

/// A reader for a source that is a directory of files rather than one file: an App Store
/// Connect export saved page by page, or an App Store package (`.itmsp`).
/// `SourceLoader.load(path:)` hands a directory to the first reader in `SourceLoader.readers`
/// that claims it.
public protocol DirectorySourceReader: SourceReader {
    /// Whether this reader reads the directory at `path`.
    static func claims(directory path: String) -> Bool
    static func read(directory path: String, options: ReadOptions) throws -> Catalog
}

extension SourceLoader {
    /// The reader for a directory, or nil when `path` is not a directory.
    static func directoryReader(path: String, format: SourceFormat?) throws -> (any DirectorySourceReader.Type)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        let candidates = readers.compactMap { $0 as? any DirectorySourceReader.Type }.filter { format == nil || $0.format == format }
        if let reader = candidates.first(where: { $0.claims(directory: path) }) { return reader }
        throw FormatError("this is a directory; Tally reads a directory only as " + folderExpectation, file: path, position: .unknown)
    }

    /// What Tally expects inside a folder it reads as one source, for messages.
    public static let folderExpectation = "an App Store Connect export or snapshot (its API pages saved as .json files), "
        + "Google Play API pages (.json) or Play Console CSV files, a RevenueCat project's API pages (.json), "
        + "or an App Store package (an .itmsp folder with metadata.xml)"

    /// Whether `path` is a directory that a directory reader reads as one source (an App Store
    /// Connect export, Google Play pages or CSV files, an App Store package); false for files and
    /// for other folders.
    public static func isDirectorySource(_ path: String, format: SourceFormat? = nil) -> Bool {
        ((try? directoryReader(path: path, format: format)) ?? nil) != nil
    }
}
