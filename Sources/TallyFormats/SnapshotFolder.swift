import Foundation
import TallyModel

/// A folder written by `tally fetch`: the store's pages as the API sent them, plus a manifest
/// (what was fetched, when, from where) that readers skip: it is not a page.
public enum SnapshotFolder {
    /// The manifest's file name inside a snapshot folder.
    public static let manifestName = "tally-snapshot.json"

    /// The page files in `path` with one of `extensions` (lower case), in name order; hidden
    /// files and the manifest are not pages.
    static func pageNames(in path: String, extensions: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter {
            !$0.hasPrefix(".") && $0 != manifestName && extensions.contains(($0 as NSString).pathExtension.lowercased())
        }.sorted()
    }

    /// Reads the pages `names` in `path` in order, handing each page's bytes, file and first line
    /// to `page`: lines are numbered on from the page before, so one catalogue's positions name
    /// the page. Returns the pages as parts and the folder's name to show (no trailing `/`).
    static func readPages(
        in path: String, names: [String], options: ReadOptions,
        page: (_ bytes: [UInt8], _ file: String, _ firstLine: Int) throws -> Void
    ) throws -> (parts: [SourcePart], display: String) {
        var parts: [SourcePart] = []
        var firstLine = 1
        for name in names {
            let file = (path as NSString).appendingPathComponent(name)
            let bytes = try SourceLoader.readBytes(path: file, maxBytes: options.maxBytes)
            guard !bytes.isEmpty else { throw FormatError("the page is empty (0 bytes)", file: file, position: .unknown) }
            try page(bytes, file, firstLine)
            parts.append(SourcePart(file: file, firstLine: firstLine))
            firstLine += bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        }
        let display = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        return (parts, display)
    }
}
