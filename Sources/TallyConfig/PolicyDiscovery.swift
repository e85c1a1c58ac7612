import Foundation
import TallyFormats
import TallyModel

extension PolicyFile {
    /// Whether `./.tally.yml` (or `defaultName` in `directory`) exists.
    public static func defaultExists(in directory: String = ".") -> Bool {
        FileManager.default.fileExists(atPath: directory == "." ? defaultName : (directory as NSString).appendingPathComponent(defaultName))
    }
}

extension PolicyTemplate {
    /// What `tally init` finds: the sources under `directory`, each read (the unreadable ones
    /// named in `unreadable` and left out).
    public static func scan(in directory: String = ".") -> SourceScan.Found {
        var found = SourceScan.find(in: directory)
        found.read()
        return found
    }

    /// What the template can say about the sources found and read.
    public static func detect(_ found: SourceScan.Found) -> Detected {
        let catalogs = found.catalogs.compactMap { found.loaded[$0] }
        let loadedConfigs = found.configurations.compactMap { found.loaded[$0] }
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
        var detected = Detected(configurations: found.configurations, catalogs: found.catalogs,
                                pricedEverywhere: (priced ?? []).sorted(), groupExample: example, folders: Set(found.folders.keys))
        detected.code = found.code?.globs ?? []
        return detected
    }
}
