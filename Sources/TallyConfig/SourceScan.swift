import Foundation
import TallyFormats
import TallyModel

/// Finds the sources in a repository for `tally init`: `.storekit` configurations, and files
/// whose first bytes show a catalogue format Tally reads (Google Play files that share a folder
/// are that folder, one source). Hidden folders, build output and symbolic links to folders are
/// skipped; a file reached by two paths is proposed once.
public enum SourceScan {
    static let skipped: Set<String> = [".build", "build", "DerivedData", "Pods", "Carthage", "node_modules", "vendor"]
    static let maxDepth = 6
    static let maxFiles = 20_000

    /// Paths relative to `directory`, sorted.
    public static func find(in directory: String = ".") -> (configurations: [String], catalogs: [String]) {
        var configurations: [String] = []
        var catalogs: [String] = []
        var budget = maxFiles
        var seen = Set<String>()
        walk(directory, relative: "", depth: 0, budget: &budget) { relative, full in
            guard seen.insert(SourceGlob.realPath(full)).inserted else { return }
            let candidates = SourceLoader.readers(claiming: relative)
            guard !candidates.isEmpty else { return }
            if candidates.allSatisfy({ $0.format.role == .configuration }) {
                configurations.append(relative)
                return
            }
            guard let head = head(of: full) else { return }
            if candidates.contains(where: { $0.format.role == .catalog && $0.sniff(head, file: relative) }) {
                catalogs.append(relative)
            }
        }
        return (configurations.sorted(), playFolders(catalogs, in: directory).sorted())
    }

    /// Google Play files that share a folder (a `tally fetch google-play` snapshot,
    /// gradle-play-publisher's `play/products/`: one product per file) are one source: their folder.
    static func playFolders(_ catalogs: [String], in directory: String) -> [String] {
        let byFolder = Dictionary(grouping: catalogs) { ($0 as NSString).deletingLastPathComponent }
        var result: [String] = []
        for (folder, files) in byFolder {
            let full = directory == "." ? folder : (directory as NSString).appendingPathComponent(folder)
            let allPlay = files.allSatisfy { file in
                guard let head = head(of: directory == "." ? file : (directory as NSString).appendingPathComponent(file)) else { return false }
                return GooglePlayReader.sniff(head, file: file) || GooglePlayCSVReader.sniff(head, file: file)
            }
            if files.count > 1, !folder.isEmpty, allPlay, SourceLoader.isDirectorySource(full, format: .googlePlay) {
                result.append(folder)
            } else {
                result += files
            }
        }
        return result
    }

    /// One glob per folder and extension: `configs/*.storekit`, `catalog/*.yaml`.
    public static func globs(for paths: [String]) -> [String] {
        var seen = Set<String>()
        var globs: [String] = []
        for path in paths {
            let folder = (path as NSString).deletingLastPathComponent
            let ext = (path as NSString).pathExtension
            if ext.isEmpty {
                // A folder that is one source is named as it is.
                if seen.insert(path).inserted { globs.append(path) }
                continue
            }
            let glob = folder.isEmpty ? "*.\(ext)" : "\(folder)/*.\(ext)"
            if seen.insert(glob).inserted { globs.append(glob) }
        }
        return globs
    }

    private static func walk(_ full: String, relative: String, depth: Int, budget: inout Int, _ visit: (String, String) -> Void) {
        guard depth <= maxDepth, let names = try? FileManager.default.contentsOfDirectory(atPath: full) else { return }
        for name in names.sorted() where !name.hasPrefix(".") && !skipped.contains(name) {
            guard budget > 0 else { return }
            budget -= 1
            let path = full == "." ? name : "\(full)/\(name)"
            let rel = relative.isEmpty ? name : "\(relative)/\(name)"
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                guard !SourceGlob.isSymbolicLink(path) else { continue }
                walk(path, relative: rel, depth: depth + 1, budget: &budget, visit)
            } else {
                visit(rel, path)
            }
        }
    }

    private static func head(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: 4096) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
