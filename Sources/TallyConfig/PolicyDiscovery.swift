import Foundation
import TallyFormats
import TallyModel

extension PolicyFile {
    /// Whether `./.tally.yml` (or `defaultName` in `directory`) exists.
    public static func defaultExists(in directory: String = ".") -> Bool {
        FileManager.default.fileExists(atPath: directory == "." ? defaultName : (directory as NSString).appendingPathComponent(defaultName))
    }

    /// The policy a command uses: the file it names, else `./.tally.yml` when it exists; nil
    /// when there is none. Throws the file's located errors (`FormatError`).
    public static func discover(named path: String?) throws -> PolicyFile? {
        if let path { return try load(path: path) }
        guard defaultExists() else { return nil }
        return try load(path: defaultName)
    }
}

extension PolicyTemplate {
    /// What `tally init` found: the scan, the catalogues it could read (by path; an unreadable
    /// one is left out: the check that follows names its errors), and what the template says.
    public struct Scan: Sendable {
        public var found: SourceScan.Found
        public var catalogs: [String: Catalog]
        public var detected: Detected
    }

    /// Scans `directory` for sources and reads what the template can say about them.
    public static func scan(in directory: String = ".") -> Scan {
        let found = SourceScan.find(in: directory)
        var loaded: [String: Catalog] = [:]
        for path in found.catalogs { loaded[path] = try? SourceLoader.load(path: path) }
        return Scan(found: found, catalogs: loaded, detected: detect(found, loadedCatalogs: loaded))
    }

    /// What the template can say about these sources (configurations that cannot be read are
    /// left out of the example).
    static func detect(_ found: SourceScan.Found, loadedCatalogs: [String: Catalog]) -> Detected {
        let catalogs = found.catalogs.compactMap { loadedCatalogs[$0] }
        let loadedConfigs = found.configurations.compactMap { try? SourceLoader.load(path: $0) }
        var priced: Set<Territory>?
        for product in catalogs.flatMap(\.products) {
            let territories = Set(product.prices.map(\.territory))
            priced = priced.map { $0.intersection(territories) } ?? territories
        }
        let example: (configuration: String, catalog: String)?
        if let group = loadedConfigs.flatMap(\.groups).first, let other = catalogs.flatMap(\.groups).first {
            example = (group.name ?? group.id, other.id)
        } else {
            example = nil
        }
        return Detected(configurations: found.configurations, catalogs: found.catalogs,
                        pricedEverywhere: (priced ?? []).sorted(), groupExample: example, folders: Set(found.folders.keys))
    }
}
