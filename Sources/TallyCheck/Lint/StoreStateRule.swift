import TallyModel

/// A product the store holds in a state that waits on the team (`StoreStates`): App Review
/// returned it (`REJECTED`, `DEVELOPER_ACTION_NEEDED`: an error), or it lacks what submission
/// needs (`MISSING_METADATA`, `WAITING_FOR_SCREENSHOT`, `WAITING_FOR_UPLOAD`: a warning).
///
/// The message names the causes Tally can see offline in the same source (a territory where the
/// product is sold without a price, a locale the policy requires without a localization, a
/// localization without its texts or over Apple's limits) and says what it cannot see (the review
/// screenshot and notes, App Review's reasons; a catalog report's prices and texts).
///
/// Products left out by state (not for sale) are examined too (`Catalog.heldByState`): a product
/// in Missing Metadata is reported, not silently hidden.
public struct StoreStateRule: LintRule {
    public static let description = RuleDescription(
        id: .storeState, defaultSeverity: .warning,
        summary: "The store holds a product in a state that waits on the team: Missing Metadata, Waiting for Screenshot or Waiting for Upload (a warning), Rejected or Developer Action Needed (an error); the message names the causes Tally sees offline and what it cannot see.",
        category: "lint",
        rationale: "Such a product cannot be bought: App Store Connect does not submit a product with missing metadata, and a rejected one stays off sale until it is changed and submitted again. The app shows an empty or failing paywall for it, and App Review rejects an app whose products are not submitted.",
        fix: "Supply what the message names (prices in those territories, localizations in those locales, the review screenshot), answer App Review in App Store Connect for a rejected product, and submit it again; a product not meant for sale yet can be ignored with the reason.")

    /// The territories every catalogue product must be priced in (`required_territories`).
    public var territories: [Territory]
    /// The locales every product must be described in (`required_locales`).
    public var locales: [String]

    public init(territories: [Territory] = [], locales: [String] = []) {
        self.territories = territories
        self.locales = locales
    }

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        guard catalog.format.store == .appStore else { return }
        for product in catalog.products + catalog.heldByState where product.storeState != nil {
            markChecked(catalog, product, &checked)
            guard let state = product.storeState, StoreStates.needsAction(state) else { continue }
            let returned = StoreStates.returnedByReview.contains(state)
            let seen = causes(of: product, in: catalog)
            var message: FindingMessage = "\(product: product.id) is in \(words: StoreStates.displayName(state)) (\(name: state)) in \(source: catalog.format.storeNoun)"
            message.append(seen.isEmpty ? "; Tally sees no cause in this source" : ": \(FindingMessage.joined(seen, separator: "; "))")
            message.append("; \(words: unseen(in: catalog, returned: returned))")
            findings.append(Finding(
                ruleID: Self.description.id, severity: returned ? .error : Self.description.defaultSeverity, productID: product.id,
                field: .id, message: message,
                left: FindingSide(role: nil, value: .text(state), location: catalog.location(product.position, path: product.path))))
        }
    }

    /// What the source shows to be missing: unpriced territories, missing locales, localizations
    /// without their texts or over the limits.
    func causes(of product: Product, in catalog: Catalog) -> [FindingMessage] {
        var causes: [FindingMessage] = []
        if catalog.knownFields.contains(.prices) {
            let priced = Set(product.prices.map(\.territory))
            let sold = (product.availability?.territories ?? []).filter { !priced.contains($0) }
            if !sold.isEmpty { causes.append("no price in \(sold), where it is sold") }
            let required = territories.filter { !priced.contains($0) && !sold.contains($0) }
            if !required.isEmpty { causes.append("no price in \(required), which the policy requires") }
        }
        if catalog.knownFields.contains(.localizations) {
            if product.localizations.isEmpty {
                causes.append("no localization at all")
            } else {
                let missing = MissingLocaleRule.missing(locales, in: product.localizations)
                if !missing.isEmpty {
                    causes.append("no localization in \(FindingMessage.joined(missing.map { "\(name: $0)" }, separator: ", ")), which the policy requires")
                }
            }
            if catalog.format != .appStoreConnectReport {
                let limits = LocalizationLimits.limits(product, store: catalog.format.store)
                for localization in product.localizations {
                    let problems = LocalizationTextRule.problems(localization.displayName, "display name", limit: limits.name)
                        + LocalizationTextRule.problems(localization.description, "description", limit: limits.description)
                    if !problems.isEmpty { causes.append("\(name: localization.locale): \(words: problems.joined(separator: ", "))") }
                }
            }
        }
        return causes
    }

    /// What the source cannot show, in words: "the snapshot does not hold the review screenshot or
    /// review notes: see App Store Connect".
    func unseen(in catalog: Catalog, returned: Bool) -> String {
        var unseen: [String] = []
        if returned { unseen.append("App Review's reasons") }
        if !catalog.knownFields.contains(.prices) { unseen.append("prices and territories") }
        if catalog.format == .appStoreConnectReport { unseen.append("the localizations' texts") }
        unseen.append("the review screenshot and notes")
        let list = unseen.dropLast().joined(separator: ", ") + (unseen.count > 1 ? " or " : "") + unseen[unseen.count - 1]
        return "\(catalog.format == .appStoreConnectReport ? "the report" : "the snapshot") does not hold \(list): see App Store Connect"
    }
}

extension SourceFormat {
    /// "the App Store Connect snapshot", for messages about a store's own source.
    var storeNoun: String {
        switch self {
        case .appStoreConnect: return "the App Store Connect snapshot"
        case .appStoreConnectReport: return "the App Store Connect catalog report"
        default: return sourceNoun
        }
    }
}
