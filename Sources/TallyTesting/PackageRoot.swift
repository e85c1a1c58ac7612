import Foundation

/// Where relative paths in a test are resolved from.
enum PackageRoot {
    static let markers = ["Package.swift", ".tally.yml", ".git"]

    /// The nearest folder above `filePath` holding one of `markers`; the current directory if none.
    static func find(from filePath: String) -> String {
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if markers.contains(where: { FileManager.default.fileExists(atPath: directory.appendingPathComponent($0).path) }) {
                return directory.path
            }
            directory = directory.deletingLastPathComponent()
        }
        return FileManager.default.currentDirectoryPath
    }

    /// `path` relative to `base` when it lies inside it, else unchanged.
    static func relative(_ path: String, to base: String) -> String {
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
