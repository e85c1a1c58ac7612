import TallyModel

/// The longest text each store accepts in a localization field, with where the store documents it.
/// `docs/review-readiness.md` lists them with their sources; a limit not documented is not checked.
public enum LocalizationLimits {
    /// Apple, App Store product page guidance: "In-app purchase names are limited to 30 characters
    /// and descriptions are limited to 45 characters" (in-app purchases and subscriptions alike).
    public static let appStoreDisplayName = 30
    public static let appStoreDescription = 45
    /// Google Play Developer API, `OneTimeProductListing`: title at most 55 characters, description 200.
    public static let playOneTimeTitle = 55
    public static let playOneTimeDescription = 200
    /// Google Play Developer API, `SubscriptionListing`: description at most 80 characters; an
    /// ordered list of at most four benefits.
    public static let playSubscriptionDescription = 80
    public static let playBenefits = 4

    /// How many benefits a localization may list, where the store lists them; nil where it has none.
    static func benefits(store: Store) -> Int? {
        switch store {
        case .appStore: return nil
        case .googlePlay: return playBenefits
        }
    }

    /// The limits of one field for a product of a source: (display name, description); nil where undocumented.
    static func limits(_ product: Product, store: Store) -> (name: Int?, description: Int?) {
        switch store {
        case .appStore: return (appStoreDisplayName, appStoreDescription)
        case .googlePlay:
            return product.kind.isAutoRenewable ? (nil, playSubscriptionDescription) : (playOneTimeTitle, playOneTimeDescription)
        }
    }
}

/// A product or subscription group without a localization in a locale the policy requires
/// (`required_locales` in `.tally.yml`): one finding per product or group, naming every such locale.
public struct MissingLocaleRule: LintRule {
    public static let description = describe(
        id: .missingLocale, defaultSeverity: .error,
        summary: "A product or subscription group has no localization in locales the policy requires (required_locales in .tally.yml); one finding per product or group names them all.",
        rationale: "App Store Connect keeps a product without a localization in Missing Metadata, and a subscription group needs one before its subscriptions can be reviewed; customers in that locale see no name of the team's choosing.",
        fix: "Add the localization (display name and description) in those locales, or take the locale out of required_locales.")

    /// The locales every product (and every group) must be described in, as the policy writes them.
    public var locales: [String]

    public init(locales: [String] = []) {
        self.locales = locales
    }

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        guard !locales.isEmpty, catalog.knownFields.contains(.localizations) else { return }
        for product in catalog.products where catalog.states(.localizations, for: product) {
            markChecked(catalog, product, &checked)
            let missing = Self.missing(locales, in: product.localizations)
            guard !missing.isEmpty else { continue }
            findings.append(finding(catalog, product.id, .localizations,
                                    "\(product: product.id) has no localization in \(FindingMessage.joined(missing.map { "\(name: $0)" }, separator: ", ")), which the policy requires",
                                    at: product.position(of: .localizations), path: product.path(of: .localizations),
                                    value: missing.joined(separator: ", ")))
        }
        // Groups are described where the source describes them (StoreKit files, snapshots), and in
        // a catalogue for the groups it gives localizations for.
        for group in catalog.groups where Self.describes(group, in: catalog) {
            let missing = Self.missing(locales, in: group.localizations)
            guard !missing.isEmpty else { continue }
            let name = group.name ?? group.id
            findings.append(finding(catalog, nil, .group,
                                    "subscription group \(name: name) has no localization in \(FindingMessage.joined(missing.map { "\(name: $0)" }, separator: ", ")), which the policy requires",
                                    at: group.position, value: missing.joined(separator: ", ")))
        }
    }

    /// Whether a source says how a group is described: StoreKit files and snapshots always; any
    /// other source (a catalogue) for a group it gives localizations for.
    static func describes(_ group: SubscriptionGroup, in catalog: Catalog) -> Bool {
        catalog.format.describesEveryGroup || !group.localizations.isEmpty
    }

    static func missing(_ locales: [String], in localizations: [Localization]) -> [String] {
        let present = Set(localizations.map { Localization.normalised($0.locale) })
        return locales.filter { !present.contains(Localization.normalised($0)) }
    }
}

/// A localization whose display name or description is missing, empty, or longer than the store
/// accepts (`LocalizationLimits`); Google Play listings likewise (title, description, benefits).
///
/// Like `missing-locale`, configured by `required_locales`: a team that names the locales it
/// ships asks for its localizations to be checked (every localization, not only those locales);
/// with none, it finds nothing.
public struct LocalizationTextRule: LintRule {
    public static let description = describe(
        id: .localization, defaultSeverity: .error,
        summary: "A localization has no display name or description, an empty one, or one longer than the store accepts (App Store: name 30, description 45 characters; Google Play: its listing limits); checked when the policy sets required_locales.",
        rationale: "App Store Connect refuses a localization without both texts or with one over its limit, and keeps the product in Missing Metadata until it has them; Google Play refuses such a listing. Found at submission, it costs a review round.",
        fix: "Write the display name and description in that locale, within the limit; the finding says which field and by how many characters it is over.")

    /// Whether the policy asks for localizations to be checked (it sets `required_locales`).
    public var isEnabled: Bool

    public init(isEnabled: Bool = false) {
        self.isEnabled = isEnabled
    }

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        // A catalog report lists a product's locales without their texts: nothing to examine.
        guard isEnabled, catalog.knownFields.contains(.localizations), catalog.format.holdsLocalizationTexts else { return }
        let store = catalog.format.store
        for product in catalog.products where !product.localizations.isEmpty {
            markChecked(catalog, product, &checked)
            let limits = LocalizationLimits.limits(product, store: store)
            let nameField = store.nameField
            for localization in product.localizations {
                var problems: [String] = []
                problems += Self.problems(localization.displayName, nameField, limit: limits.name)
                problems += Self.problems(localization.description, "description", limit: limits.description)
                if let limit = LocalizationLimits.benefits(store: store), localization.benefits.count > limit {
                    problems.append("\(localization.benefits.count) benefits (at most \(limit))")
                }
                guard !problems.isEmpty else { continue }
                findings.append(finding(catalog, product.id, .localizations,
                                        "\(product: product.id) in \(name: localization.locale): \(words: problems.joined(separator: "; "))",
                                        at: product.position(of: .localizations), path: product.path(of: .localizations),
                                        value: localization.locale))
            }
        }
        for group in catalog.groups where MissingLocaleRule.describes(group, in: catalog) {
            for localization in group.localizations {
                let problems = Self.problems(localization.displayName, "display name", limit: nil)
                guard !problems.isEmpty else { continue }
                findings.append(finding(catalog, nil, .group, "subscription group \(name: group.name ?? group.id) in \(name: localization.locale): \(words: problems.joined(separator: "; "))",
                                        at: group.position, value: localization.locale))
            }
        }
    }

    /// What is wrong with one text: absent, empty (or only spaces), or over `limit` characters.
    static func problems(_ text: String?, _ field: String, limit: Int?) -> [String] {
        guard let text else { return ["no \(field)"] }
        if text.allSatisfy(\.isWhitespace) { return ["empty \(field)"] }
        if let limit, text.count > limit { return ["\(field) is \(text.count) characters, \(text.count - limit) over the limit of \(limit)"] }
        return []
    }
}

extension MissingLocaleRule {
    /// The policy's required locales.
    public func configured(by policy: Policy) -> any LintRule { MissingLocaleRule(locales: policy.requiredLocales) }
}

extension LocalizationTextRule {
    /// The policy's required locales.
    public func configured(by policy: Policy) -> any LintRule { LocalizationTextRule(isEnabled: !policy.requiredLocales.isEmpty) }
}
