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

    /// Whether some reader claims the file by its ending.
    public static func isSourceFile(_ path: String) -> Bool { !readers(claiming: path).isEmpty }

    /// The default sources of a directory: the configurations in `configs/` (files only
    /// configuration readers claim: `.storekit`, `.plist`) and every source file in `catalog/`.
    public static func defaultSources(in directory: String) -> (configurations: [String], catalogs: [String]) {
        func files(_ folder: String) -> [String] {
            let path = directory == "." ? folder : "\(directory)/\(folder)"
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.sorted().map { "\(path)/\($0)" }
        }
        let configurations = files("configs").filter { path in
            let claiming = readers(claiming: path)
            return !claiming.isEmpty && claiming.allSatisfy { $0.format.role == .configuration }
        }
        let catalogs = files("catalog").filter { path in
            readers(claiming: path).contains { $0.format.role == .catalog }
        }
        return (configurations, catalogs)
    }
}
