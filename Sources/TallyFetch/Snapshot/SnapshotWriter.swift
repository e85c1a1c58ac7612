import Foundation
import TallyFormats

/// Writes a snapshot atomically: pages go into a hidden staging folder next to the destination,
/// and only `commit` puts them in its place (renaming the old folder aside, the new one in, then
/// deleting the old). Until then, and whenever anything fails, the destination keeps what it held.
///
/// The folder stays the user's: the destination must be absent, an empty folder, or an earlier
/// snapshot holding only what that fetch wrote (the files its manifest lists). Anything else in
/// it (notes, a `.git` folder) is refused before any request and checked again before the swap.
/// A destination that is a symbolic link to a folder is written through (the link stays, the
/// folder it names is replaced). Staging folders are named after the process that made them,
/// registered in `StagingFolders` (so an interrupted command can remove them), and the next run
/// removes those whose process is gone.
public struct SnapshotWriter {
    /// The folder the snapshot goes into (a symbolic link's target when the path given is a link).
    public let destination: URL
    public let staging: URL
    /// File names of the pages written so far, in order.
    public private(set) var pages: [String] = []
    /// Files written beside the pages that are not pages (`price-points.json`), in order.
    public private(set) var extras: [String] = []
    /// Staging folders of interrupted runs that this one removed (for the command to mention).
    public private(set) var swept: [String] = []
    private let path: String
    private let fileManager = FileManager.default

    public init(destination path: String) throws {
        self.path = path
        destination = try Self.resolve(path)
        let parent = destination.deletingLastPathComponent()
        try Self.checkOwned(destination, path: path)
        swept = Self.sweep(beside: destination)
        do {
            try fileManager.createDirectory(at: parent, withIntermediateDirectories: true)
            staging = parent.appendingPathComponent(Self.stagingPrefix(destination) + "\(getpid())-\(UUID().uuidString.prefix(8))")
            try fileManager.createDirectory(at: staging, withIntermediateDirectories: false)
        } catch {
            throw FetchError.snapshot(path: path, reason: "cannot create a folder next to it (\(Self.reason(error)))")
        }
        StagingFolders.shared.add(staging)
    }

    /// The path as a folder URL; a symbolic link is followed to the folder it names (never replaced).
    static func resolve(_ path: String) throws -> URL {
        let given = URL(fileURLWithPath: path).standardizedFileURL
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: given.path),
              attributes[.type] as? FileAttributeType == .typeSymbolicLink else { return given }
        let target = given.resolvingSymlinksInPath()
        var isDirectory: ObjCBool = false
        guard target.path != given.path, FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FetchError.snapshot(path: path, reason: "it is a symbolic link to \(target.path), which is not a folder; "
                                          + "point it at a folder, or fetch into a new folder")
        }
        return target
    }

    /// Refuses a destination that is a file, or a folder holding anything a fetch did not write.
    static func checkOwned(_ destination: URL, path: String) throws {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: destination.path, isDirectory: &isDirectory) else { return }
        guard isDirectory.boolValue else { throw FetchError.snapshot(path: path, reason: "it is a file, not a folder") }
        let entries: [String]
        do { entries = try fileManager.contentsOfDirectory(atPath: destination.path).sorted() } catch {
            throw FetchError.snapshot(path: path, reason: "cannot list it (\(reason(error)))")
        }
        guard !entries.isEmpty else { return }
        let manifest = entries.contains(SnapshotManifest.fileName) ? SnapshotManifest.read(folder: destination.path) : nil
        let foreign = entries.filter { name in
            guard manifest != nil else { return true }
            guard name != SnapshotManifest.fileName else { return false }
            if let files = manifest?.files { return !files.contains(name) || isFolder(destination.appendingPathComponent(name)) }
            return !isPageName(name) || isFolder(destination.appendingPathComponent(name))
        }
        guard foreign.isEmpty else {
            let shown = foreign.prefix(5).joined(separator: ", ") + (foreign.count > 5 ? " and \(foreign.count - 5) more" : "")
            let what = manifest == nil ? " and is not a Tally snapshot (it has no readable \(SnapshotManifest.fileName))" : ""
            throw FetchError.snapshot(path: path, reason: "the folder holds what no fetch wrote (\(shown))\(what), which replacing it would delete; "
                                          + "move that out, or fetch into a new or empty folder")
        }
    }

    static func isFolder(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// `0001-inAppPurchasesV2.json`: a page as `write(page:name:)` names it.
    static func isPageName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard scalars.count > 10, name.hasSuffix(".json"), scalars[4] == "-" else { return false }
        return scalars[0..<4].allSatisfy { ("0"..."9").contains($0) }
            && scalars[5...].allSatisfy { $0.properties.isAlphabetic || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }

    static func stagingPrefix(_ destination: URL) -> String { ".\(destination.lastPathComponent).tally-partial-" }
    static func oldPrefix(_ destination: URL) -> String { ".\(destination.lastPathComponent).tally-old-" }

    /// Removes staging (and set-aside) folders beside `destination` that a run left when it was
    /// killed: only a folder (not a link) whose name is exactly one Tally gives
    /// (`.NAME.tally-partial-PID-XXXXXXXX`, `.NAME.tally-old-PID-XXXXXXXX`) and whose process is
    /// gone. A folder of the user's that merely starts like one is left alone.
    static func sweep(beside destination: URL) -> [String] {
        let parent = destination.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        var removed: [String] = []
        for name in names {
            guard let prefix = [stagingPrefix(destination), oldPrefix(destination)].first(where: name.hasPrefix),
                  let pid = process(named: name.dropFirst(prefix.count)) else { continue }
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let folder = parent.appendingPathComponent(name)
            var status = stat()
            guard lstat(folder.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { continue }
            if (try? FileManager.default.removeItem(at: folder)) != nil { removed.append(name) }
        }
        return removed
    }

    /// The process ID in `PID-XXXXXXXX` (after a staging prefix), as `init` and `commit` write it:
    /// a decimal process ID, a dash, eight hexadecimal digits; nil for anything else.
    static func process(named rest: Substring) -> pid_t? {
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, let digits = parts.first, let tag = parts.last,
              (1...10).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0",
              tag.count == 8, tag.allSatisfy({ $0.isASCII && $0.isHexDigit }),
              let pid = pid_t(digits), pid > 0 else { return nil }
        return pid
    }

    /// Saves one page as `NNNN-name.json` (numbered in fetch order, which is the order readers read them in).
    @discardableResult
    public mutating func write(page data: Data, name: String) throws -> String {
        let safe = String(name.prefix(120).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") ? $0 : "_" })
        let file = String(format: "%04d-%@.json", pages.count + 1, safe)
        do {
            try data.write(to: staging.appendingPathComponent(file))
        } catch {
            throw FetchError.snapshot(path: destination.path, reason: "cannot write \(file) (\(Self.reason(error)))")
        }
        pages.append(file)
        return file
    }

    /// Saves a file that is not a page under its own name (one of `SnapshotFolder.notPages`).
    public mutating func write(file data: Data, name: String) throws {
        guard SnapshotFolder.notPages.contains(name), name != SnapshotManifest.fileName, !extras.contains(name) else {
            throw FetchError.snapshot(path: destination.path, reason: "\(name) is not a file a fetch writes beside its pages")
        }
        do {
            try data.write(to: staging.appendingPathComponent(name))
        } catch {
            throw FetchError.snapshot(path: destination.path, reason: "cannot write \(name) (\(Self.reason(error)))")
        }
        extras.append(name)
    }

    /// Writes the manifest (listing the pages), checks again that the destination holds nothing
    /// a fetch did not write, and puts the staging folder in its place.
    public func commit(manifest: SnapshotManifest) throws {
        var manifest = manifest
        manifest.files = pages + extras
        do {
            try manifest.encoded().write(to: staging.appendingPathComponent(SnapshotManifest.fileName))
        } catch {
            throw FetchError.snapshot(path: destination.path, reason: "cannot write the manifest (\(Self.reason(error)))")
        }
        // Checked again: files may have been added while the fetch ran.
        try Self.checkOwned(destination, path: path)
        guard fileManager.fileExists(atPath: destination.path) else {
            do { try fileManager.moveItem(at: staging, to: destination) } catch {
                throw FetchError.snapshot(path: destination.path, reason: Self.reason(error))
            }
            StagingFolders.shared.remove(staging)
            return
        }
        let old = destination.deletingLastPathComponent()
            .appendingPathComponent(Self.oldPrefix(destination) + "\(getpid())-\(UUID().uuidString.prefix(8))")
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
        StagingFolders.shared.remove(staging)
        try? fileManager.removeItem(at: old)
    }

    /// Deletes the staging folder (after a failure): the destination is as it was.
    public func discard() {
        try? fileManager.removeItem(at: staging)
        StagingFolders.shared.remove(staging)
    }

    private static func reason(_ error: Error) -> String {
        (error as NSError).localizedFailureReason ?? (error as NSError).localizedDescription
    }
}

/// The staging folders of this process's fetches in progress: a command that is interrupted
/// (SIGINT, SIGTERM) removes what is left here before it exits.
public final class StagingFolders: @unchecked Sendable {
    public static let shared = StagingFolders()
    private let lock = NSLock()
    private var folders = Set<URL>()

    func add(_ folder: URL) { lock.withLock { _ = folders.insert(folder) } }
    func remove(_ folder: URL) { lock.withLock { _ = folders.remove(folder) } }

    /// Deletes every staging folder still registered; returns how many.
    @discardableResult
    public func removeAll() -> Int {
        let all = lock.withLock { () -> Set<URL> in
            defer { folders.removeAll() }
            return folders
        }
        for folder in all { try? FileManager.default.removeItem(at: folder) }
        return all.count
    }
}
