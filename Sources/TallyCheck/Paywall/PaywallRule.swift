import TallyModel

/// A rule about a paywall platform's configuration: on its own (offerings, entitlements) or
/// against the store sources and configurations of the run (`PaywallContext.sides`).
public protocol PaywallRule: Rule {
    func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog)
}

extension PaywallRule {
    public static var category: String { "paywall" }

    /// A finding of this rule with its default severity.
    func finding(_ productID: String?, _ field: Field, _ message: FindingMessage, left: FindingSide?, right: FindingSide? = nil,
                 hint: String? = nil) -> Finding {
        Self.finding(productID: productID, field: field, message: message, left: left, right: right, hint: hint)
    }

    func mark(_ context: PaywallContext, _ subject: String, at position: Position, _ checked: inout CheckedLog) {
        mark(subject, at: context.source.location(position), &checked)
    }
}

/// A product a package holds that a store source of its store does not have.
public struct PaywallMissingInStoreRule: PaywallPresenceRule {
    public static let description = describe(
        id: .paywallMissingInStore, defaultSeverity: .error,
        summary: "A product a paywall package holds is not in its store's source (App Store Connect, Google Play, the catalogue).",
        rationale: "The paywall platform asks the store for the product and gets nothing: the package is left out, and when no "
            + "product of an offering can be fetched the SDK reports empty offerings (RevenueCat: \"None of the products "
            + "registered in the RevenueCat dashboard could be fetched\").",
        fix: "Correct the product's store identifier in the paywall platform (the hint names the nearest ID), or create the "
            + "product in the store.")
    public static let app = false
    public init() {}
}

/// A product a package holds that the app's StoreKit configuration (or product list) lacks.
public struct PaywallMissingInAppRule: PaywallPresenceRule {
    public static let description = describe(
        id: .paywallMissingInApp, defaultSeverity: .error,
        summary: "A product a paywall package holds is not in the app's StoreKit configuration (or its product list).",
        rationale: "With StoreKit testing (Xcode, simulators, UI tests) the app buys from its .storekit file: a product the "
            + "paywall shows and the file lacks cannot be loaded, and the offering comes back empty in testing.",
        fix: "Add the product to the .storekit file (or sync it from App Store Connect), or correct the ID in the paywall platform.")
    public static let app = true
    public init() {}
}

/// A paywall rule that names the products a package holds and a side lacks: the app's (`app`) or the stores'.
public protocol PaywallPresenceRule: PaywallRule {
    static var app: Bool { get }
}

extension PaywallPresenceRule {
    /// Missing products on the app's side (`app`) or the stores' side. A product of no stated
    /// store (RevenueCat v1) is missing only when no source of the run has it.
    public func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog) {
        let app = Self.app
        let foundAnywhere = Set(context.matches.compactMap { $0.lookup.product == nil ? nil : $0.shown.product.storeID })
        var reportedUnknown = Set<String>()
        for match in context.matches {
            let side = context.sides[match.side]
            guard side.isApp == app else { continue }
            let product = match.shown.product
            mark(context, product.storeID, at: match.shown.package.position, &checked)
            guard case .missing(let hint) = match.lookup else { continue }
            if product.store == nil {
                guard !foundAnywhere.contains(product.storeID),
                      reportedUnknown.insert("\(match.shown.place) \(product.storeID)").inserted else { continue }
            }
            let right = FindingSide(role: side.catalog.format.role, store: side.store.namesItsSide ? side.store : nil, value: FindingValue?.none,
                                    location: SourceLocation(file: side.catalog.file))
            // A near miss is a typo; else a store product alike and unclaimed is the same product renamed.
            let renamed = hint == nil ? context.renamePartner(of: product, side: match.side) : nil
            let said = renamed.map { partner in
                "renamed on one side? \(side.catalog.file.split(separator: "/").last.map(String.init) ?? side.catalog.file) has \(partner.id), "
                    + "also \(Self.kindWords(partner)), which \(context.noun) does not have"
            }
            findings.append(finding(product.storeID, .id,
                                    "\(words: match.shown.place): \(product: product.storeID) is not in \(source: side.noun)",
                                    left: context.paywallSide(.text(product.storeID), at: product.position), right: right,
                                    hint: hint.map { "did you mean \($0)?" } ?? said))
        }
        // A product of no known store (a RevenueCat product list saved without its apps) that no
        // package is known to hold and no source of the run has: missing from the app's StoreKit
        // file (issue 48), named rather than left out of every comparison.
        guard app else { return }
        let shown = Set(context.paywall.shown.map(\.product.storeID))
        var seen = Set<String>()
        for product in context.paywall.products where product.store == nil && product.storeName == nil && !shown.contains(product.storeID) && seen.insert(product.storeID).inserted {
            guard !context.sides.contains(where: { $0.products[product.storeID] != nil }) else { continue }
            for side in context.sides where side.isApp {
                mark(context, product.storeID, at: product.position, &checked)
                findings.append(finding(product.storeID, .id,
                                        "\(product: product.storeID) is a product of \(source: context.noun) (its store is not known: no app of the pages names it) "
                                        + "that is not in \(source: side.noun), nor in any source of the run",
                                        left: context.paywallSide(.text(product.storeID), at: product.position),
                                        right: FindingSide(role: side.catalog.format.role, value: FindingValue?.none, location: SourceLocation(file: side.catalog.file)),
                                        hint: "add it to the app's StoreKit configuration (or sync it from App Store Connect), or save the platform's apps with its products so that its store is known"))
            }
        }
    }
}

extension PaywallRule {
    /// `a subscription renewing every 3 months`, `a non-consumable`: how a rename hint says what
    /// the two products have in common.
    static func kindWords(_ product: Product) -> String {
        if product.kind.isAutoRenewable, let period = product.period { return "a subscription renewing every \(PeopleText.duration(period))" }
        return PaywallKindRule.article(product.kind.description)
    }
}

/// A Play subscription a package names without a base plan where the store has several, or
/// with a base plan the store does not have.
public struct PaywallBasePlanRule: PaywallRule {
    public static let description = describe(
        id: .paywallBasePlan, defaultSeverity: .error,
        summary: "A Google Play subscription in a paywall package names no base plan where the store has several, or a base plan the store lacks.",
        rationale: "Google Play sells a subscription through its base plans: the paywall platform names one as "
            + "subscription:base-plan. Without it the platform cannot tell which plan to sell (or picks the backwards-compatible one); "
            + "with a base plan the store lacks, the package cannot be fetched.",
        fix: "Name the product subscription:base-plan in the paywall platform, with a base plan the subscription has in Play Console.")
    public init() {}

    public func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog) {
        for match in context.matches where context.sides[match.side].store.basePlanSeparator != nil {
            let side = context.sides[match.side]
            let product = match.shown.product
            mark(context, product.storeID, at: match.shown.package.position, &checked)
            let right = FindingSide(role: side.catalog.format.role, store: side.store, value: FindingValue?.none, location: SourceLocation(file: side.catalog.file))
            switch match.lookup {
            case .basePlanUnnamed(let plans):
                findings.append(finding(product.storeID, .id,
                                        "\(words: match.shown.place): Google Play subscription \(product: product.storeID) is named without a base plan, "
                                        + "and \(source: side.noun) has \(count: plans.count): \(FindingMessage.joined(plans.map { "\(name: $0)" }, separator: ", "))",
                                        left: context.paywallSide(.text(product.storeID), at: product.position),
                                        right: FindingSide(role: right.role, store: right.store, value: .text(plans.joined(separator: ", ")), location: right.location),
                                        hint: "name one: \(plans.map { "\(product.storeID):\($0)" }.joined(separator: " or "))"))
            case .basePlanMissing(let subscription, let plans, let hint):
                findings.append(finding(product.storeID, .id,
                                        "\(words: match.shown.place): subscription \(product: subscription) has no base plan "
                                        + "\(name: String(product.storeID.dropFirst(subscription.count + 1))) in \(source: side.noun) (its base plans: \(FindingMessage.joined(plans.map { "\(name: $0)" }, separator: ", ")))",
                                        left: context.paywallSide(.text(product.storeID), at: product.position),
                                        right: FindingSide(role: right.role, store: right.store, value: .text(plans.joined(separator: ", ")), location: right.location),
                                        hint: hint.map { "did you mean \($0)?" }))
            case .found, .missing:
                continue
            }
        }
    }
}
