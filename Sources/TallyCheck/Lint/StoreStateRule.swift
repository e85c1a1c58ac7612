import TallyModel

/// A product the store holds in a state that waits on the team (`StoreStates`): App Review
/// returned it (`REJECTED`, `DEVELOPER_ACTION_NEEDED`: an error), or it lacks what submission
/// needs (`MISSING_METADATA`, `WAITING_FOR_SCREENSHOT`, `WAITING_FOR_UPLOAD`: a warning).
///
/// The message names the causes Tally can see offline in the same source (a territory where the
/// product is sold without a price, a locale the policy requires without a localization, a
/// localization without its texts or over Apple's limits, a subscription with no level in its
/// group) and says what it cannot see (the review screenshot and notes, App Review's reasons; a
/// catalog report's prices and texts).
///
/// Products left out by state (not for sale) are examined too (`Catalog.heldByState`): a product
/// in Missing Metadata is reported, not silently hidden; one on its way to sale (`READY_TO_SUBMIT`,
/// `WAITING_FOR_REVIEW`, ...) is reported when Tally sees what keeps it from sale. Where another
/// source of the run has a product the store holds so, the run reports it here, with its state
/// and causes, instead of as missing from the store (`Checker`, `heldFinding`): an error when the
/// product waits on the team or has a cause, a warning when it is only on its way.
public struct StoreStateRule: LintRule {
    public static let description = describe(
        id: .storeState, defaultSeverity: .warning,
        summary: "The store holds a product in a state that waits on the team: Missing Metadata, Waiting for Screenshot or Waiting for Upload (a warning), Rejected or Developer Action Needed (an error); or a product another source has is not for sale yet (Ready to Submit, in review: left out by the state filter, reported here instead of as missing). The message names the causes Tally sees offline (no localization, no price where it is sold or required, no level in its group) and what it cannot see.",
        rationale: "Such a product cannot be bought: App Store Connect does not submit a product with missing metadata, and a rejected one stays off sale until it is changed and submitted again. The app shows an empty or failing paywall for it, and App Review rejects an app whose products are not submitted. A product the state filter leaves out is not missing from the store: reporting it as missing hides the cause (a subscription created through the API with no level in its group cannot be loaded by StoreKit at all).",
        fix: "Supply what the message names (prices in those territories, localizations in those locales, the subscription's level in its group, the review screenshot), answer App Review in App Store Connect for a rejected product, and submit it again (a first in-app purchase goes with an app version); a product not meant for sale yet can be ignored with the reason.")

    /// The territories every catalogue product must be priced in (`required_territories`).
    public var territories: [Territory]
    /// The locales every product must be described in (`required_locales`).
    public var locales: [String]

    public init(territories: [Territory] = [], locales: [String] = []) {
        self.territories = territories
        self.locales = locales
    }

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        guard catalog.format.store.statesReviewState else { return }
        let counted = catalog.products.map { ($0, false) }, held = catalog.heldByState.map { ($0, true) }
        for (product, isHeld) in counted + held where product.storeState != nil {
            markChecked(catalog, product, &checked)
            guard let state = product.storeState else { continue }
            if StoreStates.needsAction(state) {
                findings.append(heldFinding(product, in: catalog, wantedBy: nil))
            } else if isHeld, StoreStates.onTheWay.contains(state), !causes(of: product, in: catalog).isEmpty {
                // On its way to sale but left out by the filter: reported when Tally sees what keeps it from sale.
                findings.append(heldFinding(product, in: catalog, wantedBy: nil))
            }
        }
    }

    /// The store-state finding for `product`, which `catalog` holds in a state that is not for sale;
    /// `wantedBy` is the side of another source that has it (the finding that would have called it
    /// missing from `catalog`, with the noun that names that source), or nil on its own.
    public func heldFinding(_ product: Product, in catalog: Catalog, wantedBy: (side: FindingSide, noun: String, presentIsLeft: Bool)?) -> Finding {
        let state = product.storeState ?? ""
        let returned = StoreStates.returnedByReview.contains(state)
        let waiting = StoreStates.needsAction(state)
        let seen = causes(of: product, in: catalog)
        let stateWords: FindingMessage = "\(words: StoreStates.displayName(state)) (\(name: state))"
        var message: FindingMessage
        if let wantedBy {
            message = "\(product: product.id) is in \(source: wantedBy.noun), but \(source: catalog.format.storeNoun) holds it in \(stateWords), not for sale "
                + "(left out by the state filter, not missing)"
        } else {
            message = "\(product: product.id) is in \(stateWords) in \(source: catalog.format.storeNoun)"
            if !waiting { message.append(", not for sale (the state filter leaves it out)") }
        }
        message.append(seen.isEmpty ? "; Tally sees no cause in this source" : ": \(FindingMessage.joined(seen, separator: "; "))")
        if waiting {
            message.append("; \(words: unseen(in: catalog, returned: returned))")
        } else if seen.isEmpty {
            message.append("; \(words: "it is sold once App Review approves it (a first in-app purchase is submitted with an app version)")")
        } else {
            message.append("; \(words: "it cannot be sold until that is fixed and App Review approves it")")
        }
        let severity: Severity = returned || (wantedBy != nil && waiting) || (!waiting && !seen.isEmpty) ? .error : Self.description.defaultSeverity
        let heldSide = FindingSide(role: wantedBy.map { _ in catalog.format.role == .configuration ? SourceRole.configuration : .catalog },
                                   value: .text(state), location: catalog.location(product.position, path: product.path))
        let (left, right): (FindingSide, FindingSide?) = {
            guard let wantedBy else { return (heldSide, nil) }
            return wantedBy.presentIsLeft ? (wantedBy.side, heldSide) : (heldSide, wantedBy.side)
        }()
        return Finding(ruleID: Self.description.id, severity: severity, productID: product.id, field: .id, message: message, left: left, right: right)
    }

    /// What the source shows to be missing: unpriced territories, missing locales, localizations
    /// without their texts or over the limits.
    func causes(of product: Product, in catalog: Catalog) -> [FindingMessage] {
        var causes: [FindingMessage] = []
        // A subscription App Store Connect holds with no level in its group (created through the
        // API without one): StoreKit cannot load it (`missingValue(for: [… subscriptionGroupLevel])`).
        if SubscriptionWithoutLevelRule.lacksLevel(product, in: catalog) {
            causes.append("no level in its subscription group \(name: GroupIDMismatchRule.named(product.group ?? GroupMembership(groupID: "")))")
        }
        // App Store Connect holds a product in Ready to Submit or in review only once it has what
        // review needs: a localization or price the source lacks is the source's gap, not the cause.
        guard !StoreStates.isComplete(product.storeState) else { return causes }
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
            if catalog.format.holdsLocalizationTexts {
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
        if !catalog.format.holdsLocalizationTexts { unseen.append("the localizations' texts") }
        unseen.append("the review screenshot and notes")
        let list = unseen.dropLast().joined(separator: ", ") + (unseen.count > 1 ? " or " : "") + unseen[unseen.count - 1]
        return "\(catalog.format.recordNoun) does not hold \(list): see App Store Connect"
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

extension StoreStateRule {
    /// The policy's required territories and locales.
    public func configured(by policy: Policy) -> any LintRule { StoreStateRule(territories: policy.requiredTerritories, locales: policy.requiredLocales) }
}
