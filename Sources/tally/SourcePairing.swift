import TallyModel

/// Which sources `tally check` compares with which.
enum SourcePairing {
    /// Every configuration (what the app ships: .storekit files, property lists) against every
    /// catalogue (what a server, a spreadsheet or the store says). When all sources stand on one
    /// side (a .storekit file and the app's Products.plist, or a server file and a CSV), the first
    /// source is the reference and each other one is compared with it. Nil with fewer than two sources.
    static func sides(_ sources: [Catalog]) -> (configurations: [Catalog], catalogs: [Catalog])? {
        let configurations = sources.filter { $0.format.role == .configuration }
        let catalogs = sources.filter { $0.format.role == .catalog }
        if !configurations.isEmpty, !catalogs.isEmpty { return (configurations, catalogs) }
        guard let first = sources.first, sources.count >= 2 else { return nil }
        return ([first], Array(sources.dropFirst()))
    }
}
