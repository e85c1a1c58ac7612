import TallyModel

/// A paywall product whose type disagrees with the store's product.
public struct PaywallKindRule: PaywallRule {
    public static let description = describe(
        id: .paywallKind, defaultSeverity: .error,
        summary: "A product's type in the paywall platform disagrees with its kind in a store source (a subscription registered as one-time).",
        rationale: "The platform treats the purchase by the type it was told: a subscription registered as a one-time product "
            + "is never renewed or expired in the platform, and a one-time product registered as a subscription is not fetched.",
        fix: "Set the product's type in the paywall platform to the store's kind (RevenueCat: delete and re-create the product "
            + "with the right type).")
    public init() {}

    public func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog) {
        for match in context.matches {
            let side = context.sides[match.side]
            guard let store = match.lookup.product, let kind = match.shown.product.kind, side.catalog.knownFields.contains(.kind) else { continue }
            let product = match.shown.product
            mark(context, product.storeID, at: product.kindPosition, &checked)
            var agrees = kind.admits(store.kind)
            if !side.catalog.distinguishesConsumables, kind != .subscription, kind != .nonRenewingSubscription {
                agrees = !store.kind.isAutoRenewable && store.kind != .nonRenewingSubscription
            }
            guard !agrees else { continue }
            findings.append(finding(product.storeID, .kind,
                                    "\(words: match.shown.place): \(product: product.storeID) is \(words: Self.article(kind.description)) in \(source: context.noun) "
                                    + "and \(words: Self.article(store.kind.description)) in \(source: side.noun)",
                                    left: context.paywallSide(.text(kind.description), at: product.kindPosition.isKnown ? product.kindPosition : product.position),
                                    right: FindingSide(role: side.catalog.format.role, store: side.store.namesItsSide ? side.store : nil,
                                                       value: .text(store.kind.description), location: side.catalog.location(of: store, .kind))))
        }
    }

    static func article(_ word: String) -> String {
        (["a", "e", "i", "o", "u"].contains { word.hasPrefix($0) } && !word.hasPrefix("one") ? "an " : "a ") + word
    }
}

/// A paywall subscription whose duration disagrees with the store's period.
public struct PaywallPeriodRule: PaywallRule {
    public static let description = describe(
        id: .paywallPeriod, defaultSeverity: .error,
        summary: "A subscription's duration in the paywall platform differs from its period in a store source.",
        rationale: "The paywall shows the platform's duration (\"$rc_monthly\", \"per month\") while the store bills its own period: "
            + "customers are told one thing and charged for another.",
        fix: "Correct the duration in the paywall platform, or put the product in the package of its real period.")
    public init() {}

    public func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog) {
        for match in context.matches {
            let side = context.sides[match.side]
            guard let store = match.lookup.product, store.kind.isAutoRenewable, let period = match.shown.product.period,
                  let storePeriod = store.period, side.catalog.knownFields.contains(.period) else { continue }
            let product = match.shown.product
            mark(context, product.storeID, at: product.periodPosition, &checked)
            guard period != storePeriod else { continue }
            findings.append(finding(product.storeID, .period,
                                    "\(words: match.shown.place): \(product: product.storeID) renews every \(duration: period) in \(source: context.noun) "
                                    + "and every \(duration: storePeriod) in \(source: side.noun)",
                                    left: context.paywallSide(.period(period), at: product.periodPosition.isKnown ? product.periodPosition : product.position),
                                    right: FindingSide(role: side.catalog.format.role, store: side.store.namesItsSide ? side.store : nil,
                                                       value: .period(storePeriod), location: side.catalog.location(of: store, .period))))
        }
    }
}

/// A subscription or non-consumable in an offering that no entitlement grants.
public struct PaywallNotEntitledRule: PaywallRule {
    public static let description = describe(
        id: .paywallNotEntitled, defaultSeverity: .error,
        summary: "A subscription or non-consumable in an offering is granted by no entitlement.",
        rationale: "The customer pays and the platform unlocks nothing: the app checks entitlements, and no entitlement holds "
            + "the product. Consumables are left out: the app grants them itself.",
        fix: "Attach the product to the entitlement it should unlock (RevenueCat: Product catalog → Entitlements → Attach).")
    public init() {}

    public func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog) {
        guard let entitlements = context.paywall.entitlements else { return }
        let granted = Set(entitlements.flatMap(\.productKeys))
        for shown in context.paywall.shown {
            guard let kind = shown.product.kind, kind.needsEntitlement else { continue }
            mark(context, shown.product.storeID, at: shown.package.position, &checked)
            guard !granted.contains(shown.product.key) else { continue }
            findings.append(finding(shown.product.storeID, .kind,
                                    "\(words: shown.place): \(product: shown.product.storeID) (\(words: kind)) is granted by no entitlement: "
                                    + "a customer who buys it unlocks nothing",
                                    left: context.paywallSide(.text(shown.product.storeID), at: shown.package.position)))
        }
    }
}

/// An offering without packages.
public struct PaywallEmptyOfferingRule: PaywallRule {
    public static let description = describe(
        id: .paywallEmptyOffering, defaultSeverity: .error,
        summary: "An offering has no packages, or only packages without products.",
        rationale: "An app that shows this offering shows an empty paywall; RevenueCat's SDKs report the offerings as empty.",
        fix: "Add packages with products to the offering, or delete the offering.")
    public init() {}

    public func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog) {
        // Offerings and packages whose contents the source does not state are not empty.
        for offering in context.paywall.offerings where offering.statesPackages {
            mark(context, offering.key, at: offering.position, &checked)
            guard offering.packages.allSatisfy({ $0.statesProducts && $0.productKeys.isEmpty }) else { continue }
            let what = offering.packages.isEmpty ? "has no packages" : "has only packages without products"
            findings.append(finding(nil, .id, "offering \"\(name: offering.key)\" \(words: what): a paywall showing it is empty",
                                    left: context.paywallSide(.text(offering.key), at: offering.position)))
        }
    }
}

/// No offering is the current one, or there is no offering at all while the platform has products.
public struct PaywallNoCurrentOfferingRule: PaywallRule {
    public static let description = describe(
        id: .paywallNoCurrentOffering, defaultSeverity: .error,
        summary: "No offering is marked current, or the platform has products and no offering at all.",
        rationale: "Apps show the current offering (RevenueCat's offerings.current): without one it is nil, and a paywall built on it "
            + "shows nothing (\"No packages available\"). A project with products and no offering is the same app: App Review, "
            + "which buys through the paywall, finds nothing to buy and rejects it.",
        fix: "Create an offering with a package for each product the paywall sells, and make it current (RevenueCat: Product "
            + "catalog → Offerings → New offering, Add package; then Make current).")
    public init() {}

    public func evaluate(_ context: PaywallContext, findings: inout [Finding], checked: inout CheckedLog) {
        let paywall = context.paywall
        if paywall.offerings.isEmpty {
            // No offering at all: a finding where the source lists the offerings and the platform has products.
            let products = paywall.products.filter { $0.store != nil }
            guard paywall.listsOfferings, let first = products.first else { return }
            mark(context, "current offering", at: .unknown, &checked)
            findings.append(finding(nil, .id, "\(source: context.noun) has \(count: products.count) product\(words: products.count == 1 ? "" : "s") and no offering: "
                                    + "apps that show the current offering have nothing to show (\"No packages available\")",
                                    left: context.paywallSide(.text(first.storeID), at: first.position)))
            return
        }
        guard paywall.statesCurrentOffering else { return }
        mark(context, "current offering", at: .unknown, &checked)
        guard !paywall.offerings.contains(where: \.isCurrent) else { return }
        let keys = FindingMessage.joined(paywall.offerings.map { "\(name: $0.key)" }, separator: ", ")
        findings.append(finding(nil, .id, "no offering is current (offerings: \(keys)): apps that show the current offering show none",
                                left: context.paywallSide(nil, at: paywall.offerings[0].position)))
    }
}
