import TallyModel

/// The changes to one product present on both sides, in a fixed order: kind, prices, period,
/// offers, billing plans, seat tiers, group, level, family sharing, localisations.
enum ProductDiffer {
    static func changes(_ old: Product, _ new: Product, level: Change?, context: DiffContext) -> [Change] {
        var changes: [Change] = []
        let id = new.id
        if old.kind != new.kind, context.bothKnow(.kind) {
            changes.append(Change(.kind, .changed, productID: id, old: .kind(old.kind), new: .kind(new.kind),
                                  oldPosition: old.position(of: .kind), newPosition: new.position(of: .kind)))
        }
        // The subscriptions a suite or bundle includes, when both sides say it is one.
        if old.kind.includesSubscriptions, new.kind.includesSubscriptions, old.members != new.members {
            let before = Set(old.members), after = Set(new.members)
            for member in old.members where !after.contains(member) {
                changes.append(Change(.members, .removed, productID: id, key: member, old: .text(member), new: nil,
                                      oldPosition: old.position(of: .kind), newPosition: new.position(of: .kind)))
            }
            for member in new.members where !before.contains(member) {
                changes.append(Change(.members, .added, productID: id, key: member, old: nil, new: .text(member),
                                      oldPosition: old.position(of: .kind), newPosition: new.position(of: .kind)))
            }
        }
        if context.bothKnow(.prices) {
            PriceDiffer.compare(old, new, context: context, into: &changes)
        }
        let subscription = old.kind.isAutoRenewable && new.kind.isAutoRenewable
        if subscription {
            subscriptionChanges(old, new, context: context, into: &changes)
        }
        if let level { changes.append(level) }
        if context.bothKnow(.familyShareable), let before = old.familyShareable, let after = new.familyShareable, before != after {
            changes.append(Change(.familySharing, .changed, productID: id, old: .flag(before), new: .flag(after),
                                  oldPosition: old.position(of: .familyShareable), newPosition: new.position(of: .familyShareable)))
        }
        if context.bothKnow(.localizations) {
            localizationChanges(old, new, into: &changes)
        }
        return changes
    }

    /// Period, offers and group of a product that is an auto-renewable subscription on both sides.
    private static func subscriptionChanges(_ old: Product, _ new: Product, context: DiffContext, into changes: inout [Change]) {
        let id = new.id
        if context.bothKnow(.period), old.period != new.period {
            let existing = old.period != nil && new.period != nil
            changes.append(Change(.period, .changed, productID: id, old: old.period.map(ChangeValue.period), new: new.period.map(ChangeValue.period),
                                  oldPosition: old.position(of: .period), newPosition: new.position(of: .period),
                                  attention: existing ? [.subscriptionPeriodChange] : []))
        }
        if context.bothKnow(.introductoryOffer) {
            OfferDiffer.introductory(old, new, into: &changes)
        }
        if context.bothKnow(.promotionalOffers) {
            OfferDiffer.keyed(.promotionalOffer, old.promotionalOffers, new.promotionalOffers, old, new, field: .promotionalOffers, into: &changes)
        }
        if context.bothKnow(.codeOffers) {
            OfferDiffer.keyed(.codeOffer, old.codeOffers, new.codeOffers, old, new, field: .codeOffers, into: &changes)
        }
        // Only StoreKit files carry win-back offers: compare them between sources of one format.
        if context.old.format == context.new.format {
            OfferDiffer.keyed(.winbackOffer, old.winbackOffers, new.winbackOffers, old, new, field: .promotionalOffers, into: &changes)
        }
        if context.bothKnow(.billingPlans) {
            planChanges(old, new, into: &changes)
        }
        if context.bothKnow(.seatTiers) {
            SeatTierDiffer.changes(old, new, into: &changes)
        }
        if context.bothKnow(.group), let move = GroupDiffer.move(old, new, context: context) {
            changes.append(move)
        }
    }

    /// Billing plans matched by kind: a plan added or removed, a plan's price changed in a
    /// territory both price it in (per month for the monthly plan).
    private static func planChanges(_ old: Product, _ new: Product, into changes: inout [Change]) {
        let before = old.billingPlansByKind, after = new.billingPlansByKind
        for kind in BillingPlanKind.allCases {
            switch (before[kind], after[kind]) {
            case (nil, let plan?):
                changes.append(Change(.billingPlan, .added, productID: new.id, key: kind.description, new: .text(kind.description),
                                      newPosition: plan.position))
            case (let plan?, nil):
                changes.append(Change(.billingPlan, .removed, productID: new.id, key: kind.description, old: .text(kind.description),
                                      oldPosition: plan.position))
            case (let a?, let b?):
                // A plan given for a subscription that lists none has its prices: those are price changes.
                guard !old.billingPlans.isEmpty, !new.billingPlans.isEmpty else { continue }
                for price in b.prices {
                    guard let was = a.price(in: price.territory), was.amount != price.money.amount else { continue }
                    changes.append(Change(.billingPlan, .changed, productID: new.id, territory: price.territory, key: kind.description,
                                          old: .money(was), new: .money(price.money), oldPosition: a.position, newPosition: price.position))
                }
            case (nil, nil):
                continue
            }
        }
    }

    /// Localisations matched by locale, sorted by locale.
    private static func localizationChanges(_ old: Product, _ new: Product, into changes: inout [Change]) {
        guard old.localizations != new.localizations else { return }
        var before: [String: Localization] = [:]
        for localization in old.localizations where before[localization.locale] == nil {
            before[localization.locale] = localization
        }
        var after: [String: Localization] = [:]
        for localization in new.localizations where after[localization.locale] == nil {
            after[localization.locale] = localization
        }
        let oldPosition = old.position(of: .localizations), newPosition = new.position(of: .localizations)
        for locale in Set(before.keys).union(after.keys).sorted() {
            let a = before[locale], b = after[locale]
            guard a != b else { continue }
            let action: ChangeAction = a == nil ? .added : (b == nil ? .removed : .changed)
            var note: ChangeNote?
            if let a, let b {
                note = .localizationChanged(displayName: a.displayName != b.displayName, description: a.description != b.description)
            }
            changes.append(Change(.localization, action, productID: new.id, key: locale,
                                  old: a.map(ChangeValue.localization), new: b.map(ChangeValue.localization),
                                  oldPosition: oldPosition, newPosition: newPosition, note: note))
        }
    }
}
