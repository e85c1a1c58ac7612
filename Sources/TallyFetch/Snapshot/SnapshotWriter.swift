import Foundation

/// Writes a snapshot atomically: pages go into a hidden staging folder next to the destination,
/// and only `commit` puts them in its place (renaming the old folder aside, the new one in, then
/// deleting the old). Until then, and whenever anything fails, the destination keeps what it held.
///
/// The destination must be absent, an empty folder, or an earlier snapshot (a folder with a
/// `tally-snapshot.json`): a fetch never replaces a folder it did not write.
public struct SnapshotWriter {
    public let destination: URL
    public let staging: URL
    /// File names of the pages written so far, in order.
    public private(set) var pages: [String] = []
    private let fileManager = FileManager.default

    public init(destination path: String) throws {
        destination = URL(fileURLWithPath: path).standardizedFileURL
        let parent = destination.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        if fileManager.fileExists(atPath: destination.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw FetchError.snapshot(path: path, reason: "it is a file, not a folder") }
            let entries = (try? fileManager.contentsOfDirectory(atPath: destination.path)) ?? []
            guard entries.isEmpty || entries.contains(SnapshotManifest.fileName) else {
                throw FetchError.snapshot(path: path, reason: "the folder exists and is not a Tally snapshot (it has no \(SnapshotManifest.fileName)); "
                                              + "fetch into a new or empty folder, or one an earlier fetch wrote")
            }
        }
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
            staging = parent.appendingPathComponent(".\(destination.lastPathComponent).tally-partial-\(UUID().uuidString.prefix(8))")
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw FetchError.snapshot(path: path, reason: "cannot create a folder next to it (\(Self.reason(error)))")
        }
    }

    /// Saves one page as `NNNN-name.json` (numbered in fetch order, which is the order readers read them in).
    @discardableResult
    public mutating func write(page data: Data, name: String) throws -> String {
        let safe = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        let file = String(format: "%04d-%@.json", pages.count + 1, safe)
        do {
            try data.write(to: staging.appendingPathComponent(file))
        } catch {
            throw FetchError.snapshot(path: destination.path, reason: "cannot write \(file) (\(Self.reason(error)))")
        }
        pages.append(file)
        return file
    }

    /// Writes the manifest and puts the staging folder in the destination's place.
    public func commit(manifest: SnapshotManifest) throws {
        do {
            try manifest.encoded().write(to: staging.appendingPathComponent(SnapshotManifest.fileName))
        } catch {
            throw FetchError.snapshot(path: destination.path, reason: "cannot write the manifest (\(Self.reason(error)))")
        }
        guard fileManager.fileExists(atPath: destination.path) else {
            do { try fileManager.moveItem(at: staging, to: destination) } catch {
                throw FetchError.snapshot(path: destination.path, reason: Self.reason(error))
            }
            return
        }
        let old = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).tally-old-\(UUID().uuidString.prefix(8))")
        do {
            try fileManager.moveItem(at: destination, to: old)
        } catch {
            throw FetchError.snapshot(path: destination.path, reason: "cannot move the earlier snapshot aside (\(Self.reason(error)))")
        }
        do {
            try fileManager.moveItem(at: staging, to: destination)
        } catch {
            try? fileManager.moveItem(at: old, to: destination)
            throw FetchError.snapshot(path: destination.path, reason: Self.reason(error))
        }
        try? fileManager.removeItem(at: old)
    }

    /// Deletes the staging folder (after a failure): the destination is as it was.
    public func discard() {
        try? fileManager.removeItem(at: staging)
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}
