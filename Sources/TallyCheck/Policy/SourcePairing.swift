import TallyModel

/// Which source is compared with which: the one place that decides it, for `tally check`,
/// `TallyAssert` and the plugin alike (through `Gate.check(sources:)`).
public enum SourcePairing {
    /// Every configuration (what the app ships: .storekit files, property lists) against every
    /// catalogue (what a server, a spreadsheet or the store says). When all sources stand on one
    /// side (a .storekit file and the app's Products.plist, or a server file and a CSV), the first
    /// source is the reference and each other one is compared with it. Nil with fewer than two sources.
    public static func sides(_ sources: [Catalog]) -> (configurations: [Catalog], catalogs: [Catalog])? {
        let configurations = sources.filter { $0.format.role == .configuration }
        let catalogs = sources.filter { $0.format.role == .catalog }
        if !configurations.isEmpty, !catalogs.isEmpty { return (configurations, catalogs) }
        guard let first = sources.first, sources.count >= 2 else { return nil }
        return ([first], Array(sources.dropFirst()))
    }

    /// The pairs to compare when Google Play sources are among `sources`, as indices into
    /// `sources` (the configuration's side first); nil without Google Play sources (`sides`
    /// decides then) or with nothing to compare. A Google Play source is compared with each
    /// server catalogue (the hub: `tally-catalog/1`, CSV, mapped files), standing on the left so
    /// that findings say "in Google Play ... in the catalogue"; without a server catalogue, with
    /// the first other source. The other sources pair among themselves as `sides` says.
    /// (Issue 10 moves pairing into TallyRun with the hub rule for every store; this is its
    /// Google Play part.)
    public static func googlePlayPairs(_ sources: [Catalog]) -> [(Int, Int)]? {
        let play = sources.indices.filter { sources[$0].format.store == .googlePlay }
        guard !play.isEmpty else { return nil }
        let rest = sources.indices.filter { sources[$0].format.store != .googlePlay }
        var pairs: [(Int, Int)] = []
        let configurations = rest.filter { sources[$0].format.role == .configuration }
        let catalogs = rest.filter { sources[$0].format.role == .catalog }
        if !configurations.isEmpty, !catalogs.isEmpty {
            pairs += configurations.flatMap { left in catalogs.map { (left, $0) } }
        } else if let first = rest.first {
            pairs += rest.dropFirst().map { (first, $0) }
        }
        let hubs = rest.filter { isServerCatalogue(sources[$0].format) }
        for index in play {
            if !hubs.isEmpty {
                pairs += hubs.map { (index, $0) }
            } else if let other = rest.first {
                pairs.append((index, other))
            } else if let first = play.first, index != first {
                pairs.append((first, index))
            }
        }
        return pairs.isEmpty ? nil : pairs
    }

    static func isServerCatalogue(_ format: SourceFormat) -> Bool {
        [.tallyCatalogJSON, .tallyCatalogYAML, .csv, .mapped].contains(format)
    }
}

extension SourcePairing {
    /// The pairs to compare, as indices into `sources` (the configuration's side first); nil
    /// when there is nothing to compare (fewer than two sources).
    public static func pairs(_ sources: [Catalog]) -> [(Int, Int)]? {
        if let play = googlePlayPairs(sources) { return play }
        guard sources.count >= 2 else { return nil }
        let configurations = sources.indices.filter { sources[$0].format.role == .configuration }
        let catalogs = sources.indices.filter { sources[$0].format.role == .catalog }
        if !configurations.isEmpty, !catalogs.isEmpty {
            return configurations.flatMap { left in catalogs.map { (left, $0) } }
        }
        return sources.indices.dropFirst().map { (0, $0) }
    }
}
