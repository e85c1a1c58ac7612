import Foundation
import TallyModel

/// Which files are sources, from the readers' own file kinds (`SourceReader.extensions` and
/// `format.role`): the one answer `tally check`'s defaults, `tally diff --since` and `tally init`'s
/// scan share, so a new reader is found everywhere once it is in `SourceLoader.readers`.
extension SourceLoader {
    /// The readers that claim a file name by its ending (none for hidden files).
    public static func readers(claiming path: String) -> [any SourceReader.Type] {
        let name = (path as NSString).lastPathComponent
        guard !name.hasPrefix(".") else { return [] }
        let ext = (name as NSString).pathExtension.lowercased()
        guard !ext.isEmpty else { return [] }
        return readers.filter { $0.extensions.contains(ext) }
    }

    /// Whether a file is a product source by its ending and first bytes: a file only configuration
    /// readers claim (`.storekit`), or one whose head a catalogue reader recognises (a YAML file
    /// with `format: tally-catalog/1`, saved store pages). `tally init`'s scan and the policy's
    /// globs share this answer: what a glob matches and this refuses is skipped with a note.
    public static func isProductSource(path: String, name: String? = nil) -> Bool {
        let shown = name ?? path
        let candidates = readers(claiming: shown)
        guard !candidates.isEmpty else { return false }
        if isEmptyFile(path) { return false }
        if candidates.contains(where: { $0.decidedByContent }) {
            // Decided by the whole content (a .plist): read it, within bounds.
            guard let bytes = try? readBytes(path: path, maxBytes: contentSniffLimit) else { return false }
            return isProductSource(head: bytes, name: shown)
        }
        if candidates.allSatisfy({ $0.format.role == .configuration }) { return true }
        guard let bytes = try? readBytes(path: path, prefix: 4096) else { return true }
        return isProductSource(head: bytes, name: shown)
    }

    /// The most of a file read to decide by its whole content whether it holds products: a
    /// larger `.plist` is no product list an app keeps.
    public static let contentSniffLimit = 16 * 1024 * 1024

    /// `isProductSource(path:)` for a file already in memory (whole, for a format decided by its
    /// content; its first bytes at least otherwise), such as a file at a git revision.
    public static func isProductSource(head bytes: [UInt8], name: String) -> Bool {
        let candidates = readers(claiming: name)
        guard !candidates.isEmpty, !bytes.isEmpty else { return false }
        let decided = candidates.compactMap { $0.holdsProducts(bytes, file: name) }
        if !decided.isEmpty { return decided.contains(true) }
        if candidates.allSatisfy({ $0.format.role == .configuration }) { return true }
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        return candidates.contains { $0.sniff(head, file: name) }
    }

    /// Why `isProductSource` refuses a file, for the note that skips it.
    /// - Parameter opened: where the file is opened, when not at `path`.
    public static func notAProductSource(_ path: String, opened: String? = nil) -> String {
        if isEmptyFile(opened ?? path) { return "an empty file (0 bytes)" }
        let ext = (path as NSString).pathExtension.lowercased()
        if readers(claiming: path).isEmpty { return ext.isEmpty ? "a file without an extension Tally reads" : "no reader takes a .\(ext) file" }
        switch ext {
        case "yaml", "yml": return "a YAML file without catalogue keys ('format: tally-catalog/1')"
        case "json": return "a JSON file that is neither a tally-catalog/1 file nor a store page"
        case "csv": return "a CSV file without a catalogue header (product_id, ...) or a Play Console header"
        case "plist": return "a property list that is not a product list (an Info.plist, entitlements, a scheme or settings list)"
        default: return "its content is not a format Tally reads"
        }
    }

    /// Whether some reader claims the file by its ending alone (not an ending other files share,
    /// like `.txt`, which only content tells: `isProductSource`).
    public static func isSourceFile(_ path: String) -> Bool {
        let ext = (path as NSString).pathExtension.lowercased()
        return readers(claiming: path).contains { !$0.sniffedExtensions.contains(ext) }
    }

    private static func isEmptyFile(_ path: String) -> Bool {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue == 0
    }
}
