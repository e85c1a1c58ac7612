import Foundation
import TallyModel

/// A folder written by `tally fetch`: the store's pages as the API sent them, plus a manifest
/// (what was fetched, when, from where) that readers skip: it is not a page.
public enum SnapshotFolder {
    /// The manifest's file name inside a snapshot folder.
    public static let manifestName = "tally-snapshot.json"
    /// Files a fetch writes beside the pages that are not pages: the manifest, and the price
    /// points (`PricePointsFile`), read on their own.
    public static let notPages: Set<String> = [manifestName, PricePointsFile.name]

    /// The page files in `path` with one of `extensions` (lower case), in name order; hidden
    /// files and the manifest are not pages.
    static func pageNames(in path: String, extensions: Set<String>) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter {
            !$0.hasPrefix(".") && !notPages.contains($0) && extensions.contains(($0 as NSString).pathExtension.lowercased())
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

/// A folder Tally reads as one source: a `tally fetch` snapshot, store pages saved by hand, Play
/// Console CSV files, an App Store package. The policy file, `tally init` and `tally diff` name
/// such a folder as one source, as the command line does.
public struct FolderSource: Sendable, Hashable {
    /// The reader that reads the folder.
    public var format: SourceFormat
    /// `App Store Connect snapshot`, `App Store Connect pages`, `Google Play snapshot`, ...
    public var kind: String
    /// Whether the folder is a `tally fetch` snapshot (it holds the manifest).
    public var snapshot: Bool = false
    /// How many files the reader reads in it (pages, CSV files; 1 for a package).
    public var files: Int = 1

    /// What the folder at `path` is when Tally reads it as one source; nil for a file, a missing
    /// path or any other folder. A `tally fetch` snapshot (with its manifest) is one; saved pages
    /// must look like their store's: App Store Connect pages name a resource type Tally reads (at
    /// least one of them; a page of an empty list names none), and every Google Play file is a
    /// Play page or a Play Console CSV, so that a catalogue beside one Play file is not read as a page.
    public static func at(_ path: String) -> FolderSource? {
        guard let reader = (try? SourceLoader.directoryReader(path: path, format: nil)) ?? nil else { return nil }
        let snapshot = FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(SnapshotFolder.manifestName))
        func heads(_ names: [String]) -> [(file: String, head: String)] {
            names.map { name in
                let file = (path as NSString).appendingPathComponent(name)
                return (file, String(decoding: (try? SourceLoader.readBytes(path: file, prefix: 4096)) ?? [], as: UTF8.self))
            }
        }
        switch reader.format {
        case .appStoreConnect:
            guard snapshot || heads(AppStoreConnectReader.pageNames(in: path)).contains(where: { AppStoreConnectReader.sniff($0.head, file: $0.file) })
            else { return nil }
            return FolderSource(format: reader.format, kind: snapshot ? "App Store Connect snapshot" : "App Store Connect pages",
                                snapshot: snapshot, files: AppStoreConnectReader.pageNames(in: path).count)
        case .googlePlay:
            guard snapshot || heads(GooglePlayReader.pageNames(in: path)).allSatisfy({
                GooglePlayReader.sniff($0.head, file: $0.file) || GooglePlayCSVReader.sniff($0.head, file: $0.file)
            }) else { return nil }
            return FolderSource(format: reader.format, kind: snapshot ? "Google Play snapshot" : "Google Play pages",
                                snapshot: snapshot, files: GooglePlayReader.pageNames(in: path).count)
        case .revenueCat:
            // Every file a RevenueCat API page, so that a catalogue beside one page is not read as a page.
            guard snapshot || heads(RevenueCatReader.pageNames(in: path)).allSatisfy({ RevenueCatReader.sniff($0.head, file: $0.file) })
            else { return nil }
            return FolderSource(format: reader.format, kind: snapshot ? "RevenueCat snapshot" : "RevenueCat pages",
                                snapshot: snapshot, files: RevenueCatReader.pageNames(in: path).count)
        default:
            return FolderSource(format: reader.format, kind: "App Store package")
        }
    }
}
