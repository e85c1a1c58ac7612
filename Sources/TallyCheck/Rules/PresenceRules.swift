import TallyModel

/// A product the app's configuration sells that the catalogue does not know.
public struct MissingInCatalogRule: PresenceRule {
    public static let description = describe(
        id: .missingInCatalog, defaultSeverity: .error,
        summary: "A product in the StoreKit configuration is missing from the catalogue.",
        rationale: "The app sells a product the server does not know: a purchase the user pays for may never be granted, or receipt validation rejects it.",
        fix: "Add the product to the catalogue with exactly the same ID, or remove it from the StoreKit configuration if the app no longer sells it. When a hint names a near-identical ID, one side has a typo: correct it.")
    public static let sameKind = false
    public static let presentIsConfiguration = [true]

    public init() {}
}

/// A product the catalogue grants that the app's configuration does not sell.
public struct MissingInConfigRule: PresenceRule {
    public static let description = describe(
        id: .missingInConfig, defaultSeverity: .error,
        summary: "A product in the catalogue is missing from the StoreKit configuration.",
        rationale: "The server grants a product the app's configuration does not sell: StoreKit testing cannot exercise it, and the app may still reference a retired product or miss a new one.",
        fix: "Add the product to the .storekit configuration, or remove it from the catalogue if it is retired. When a hint names a near-identical ID, one side has a typo: correct it.")
    public static let sameKind = false
    public static let presentIsConfiguration = [false]

    public init() {}
}

/// A product one source has that another of the same kind lacks: two copies of what the app
/// ships (two StoreKit configurations, or one and the app's product list), or two catalogues (a
/// server catalogue and a store snapshot). Neither is "the catalogue" or "the configuration":
/// each source that lacks the product is named by its file, whichever order the files come in.
public struct MissingInCopyRule: PresenceRule {
    public static let description = describe(
        id: .missingInCopy, defaultSeverity: .error,
        summary: "A product one source has is missing from another source of the same kind (two StoreKit configurations or product lists, or two catalogues).",
        rationale: "Copies of one product list that disagree on which products exist: StoreKit testing, the app, the server and the store each see a different set, and a purchase that works in one fails in another.",
        fix: "Add the product to the source that lacks it with exactly the same ID, or remove it from the others if it is no longer sold. When a hint names a near-identical ID, one source has a typo: correct it.")
    public static let sameKind = true
    public static let presentIsConfiguration = [true, false]

    public init() {}
}

/// A rule that names the products one side has and the other lacks: which pairs it is about (two
/// sources of one kind, or a configuration and a catalogue) and which side's products it looks for.
public protocol PresenceRule: ComparisonRule {
    /// Whether the rule is about two sources of one kind (`missing-in-copy`).
    static var sameKind: Bool { get }
    /// The sides whose products are looked for on the other: the configuration's (`true`), the catalogue's (`false`).
    static var presentIsConfiguration: [Bool] { get }
}

extension PresenceRule {
    public func evaluate(_ comparison: Comparison, findings: inout [Finding], checked: inout CheckedLog) {
        guard comparison.sameKind == Self.sameKind else { return }
        for side in Self.presentIsConfiguration {
            PresenceCheck(rule: Self.description, comparison, presentIsConfiguration: side).run(findings: &findings, checked: &checked)
        }
    }
}

/// Products of one source that the other lacks, with a "did you mean" drawn only from the other
/// source's own unmatched IDs (an ID that has its partner is never suggested).
struct PresenceCheck {
    let rule: RuleDescription
    let present: Catalog
    let absent: Catalog
    /// Both sources' products by ID (the comparison's lookups, built once).
    let presentIDs: [String: Product]
    let absentIDs: [String: Product]
    let presentIsConfiguration: Bool
    /// The present side's products that `RenamedProductRule` names with their partner.
    let renamed: Set<String>
    /// How messages name the configuration's and the catalogue's sides ("the configuration", "Google Play").
    var nouns = (configuration: "the configuration", catalog: "the catalogue")
    /// The stores the sides stand for, when a Google Play source takes a side.
    var stores: (configuration: Store?, catalog: Store?) = (nil, nil)
    /// The roles the sides report (a configuration beside a configuration stays one).
    var roles: (configuration: SourceRole, catalog: SourceRole) = (.configuration, .catalog)

    /// The configuration's products checked against the catalogue (`presentIsConfiguration`), or
    /// the catalogue's against the configuration.
    init(rule: RuleDescription, _ comparison: Comparison, presentIsConfiguration: Bool) {
        self.rule = rule
        (present, absent) = presentIsConfiguration ? (comparison.configuration, comparison.catalog) : (comparison.catalog, comparison.configuration)
        (presentIDs, absentIDs) = presentIsConfiguration
            ? (comparison.configProducts, comparison.catalogProducts) : (comparison.catalogProducts, comparison.configProducts)
        self.presentIsConfiguration = presentIsConfiguration
        renamed = presentIsConfiguration ? comparison.renames.configIDs : comparison.renames.catalogIDs
        nouns = (comparison.configNoun, comparison.catalogNoun)
        stores = (comparison.configStore, comparison.catalogStore)
        roles = (comparison.configRole, comparison.catalogRole)
    }

    func run(findings: inout [Finding], checked: inout CheckedLog) {
        let unmatchedOther = NearMatch.Index(absent.products.map(\.id).filter { presentIDs[$0] == nil }, productIDs: true)
        let (here, there) = presentIsConfiguration ? (nouns.configuration, nouns.catalog) : (nouns.catalog, nouns.configuration)
        var reported = Set<String>()
        for product in present.products {
            checked.append(CheckedSubject(ruleID: rule.id, subject: product.id, location: present.location(of: product, .id)))
            guard absentIDs[product.id] == nil, !renamed.contains(product.id), reported.insert(product.id).inserted else { continue }
            let presentSide = FindingSide(role: presentIsConfiguration ? roles.configuration : roles.catalog,
                                          store: presentIsConfiguration ? stores.configuration : stores.catalog, value: product.id,
                                          location: present.location(of: product, .id))
            let absentSide = FindingSide(role: presentIsConfiguration ? roles.catalog : roles.configuration,
                                         store: presentIsConfiguration ? stores.catalog : stores.configuration, value: nil as FindingValue?,
                                         location: SourceLocation(file: absent.file))
            findings.append(Finding(
                ruleID: rule.id, severity: rule.defaultSeverity, productID: product.id, field: .id,
                message: "\(product: product.id) is in \(source: here) but not in \(source: there)",
                left: presentIsConfiguration ? presentSide : absentSide,
                right: presentIsConfiguration ? absentSide : presentSide,
                hint: unmatchedOther.best(for: product.id).map { "did you mean \($0)? (\(there) has it, and \(here) does not)" }))
        }
    }
}
