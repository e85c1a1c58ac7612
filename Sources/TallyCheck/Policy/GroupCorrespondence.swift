import TallyModel

/// A configuration subscription group and the catalogue group it corresponds to, named by ID or
/// name, for teams that want the pairing explicit rather than inferred from the members.
public struct GroupCorrespondence: Sendable, Hashable, CustomStringConvertible {
    /// The group's ID or name in the StoreKit configuration.
    public var configuration: String
    /// The group's ID or name in the catalogue.
    public var catalog: String
    /// Where the pair is written (in `.tally.yml`).
    public var location: SourceLocation?

    public init(configuration: String, catalog: String, location: SourceLocation? = nil) {
        self.configuration = configuration
        self.catalog = catalog
        self.location = location
    }

    /// The ID of the configuration's group this names, if it has one.
    public func configurationGroup(in source: Catalog) -> String? {
        Self.group(named: configuration, in: source)
    }

    /// The ID of the catalogue's group this names, if it has one.
    public func catalogGroup(in source: Catalog) -> String? {
        Self.group(named: catalog, in: source)
    }

    /// An exact ID match first, then an exact name match.
    static func group(named text: String, in source: Catalog) -> String? {
        source.groups.first { $0.id == text }?.id ?? source.groups.first { $0.name == text }?.id
    }

    public var description: String { "\"\(configuration)\" ↔ \"\(catalog)\"" }
}
