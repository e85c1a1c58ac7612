import Foundation
import TallyDiff
import TallyModel

// A diff's changes in words for people: the one place a change's values, its note and the change
// itself become text (the differ keeps them typed; every diff reporter and TallyTesting read these).

extension ChangeValue {
    /// The value in words: `4.99 USD`, `P1M`, `free trial of 1 week`, `on`.
    public var text: String {
        switch self {
        case .money(let money): DecimalFormat.money(money)
        case .period(let period): PeopleText.period(period)
        case .kind(let kind): kind.rawValue
        case .flag(let flag): flag ? "on" : "off"
        case .level(let level): String(level)
        case .text(let text): text
        case .offer(let offer): PeopleText.offer(offer)
        case .localization(let localization): ChangeValue.words(localization)
        case .product(let outline): ChangeValue.words(outline)
        case .seatTier(let tier): ChangeValue.words(tier)
        }
    }

    /// The tier and its per-seat prices: `1-5 seats at 9.99 USD in USA`.
    static func words(_ tier: SeatTier) -> String {
        let prices = tier.prices.map { "\(DecimalFormat.money($0.money)) in \($0.territory.code)" }
        return prices.isEmpty ? tier.diffKey : "\(tier.diffKey) at \(prices.joined(separator: ", "))"
    }

    /// `auto-renewable-subscription, 4.99 USD in USA (+174 territories), every 1 month, group "premium" level 1`.
    static func words(_ outline: ProductOutline) -> String {
        var parts = [outline.kind?.rawValue ?? "kind not stated"]
        if let price = outline.price {
            let territories = outline.territories
            let more = territories > 1 ? " (+\(territories - 1) territor\(territories == 2 ? "y" : "ies"))" : ""
            parts.append("\(PeopleText.money(price.money)) in \(price.territory.code)\(more)")
        }
        if let period = outline.period { parts.append("every \(PeopleText.duration(period))") }
        if let group = outline.group { parts.append("group \"\(group)\"" + (outline.level.map { " level \($0)" } ?? "")) }
        return parts.joined(separator: ", ")
    }

    /// `"Lifetime" — "Unlock everything, forever"`, the description cut at 60 characters.
    static func words(_ localization: Localization) -> String {
        var text = localization.displayName.map { "\"\($0)\"" } ?? "(no display name)"
        if let description = localization.description, !description.isEmpty {
            let cut = description.count > 60 ? description.prefix(59) + "…" : Substring(description)
            text += " — \"\(cut)\""
        }
        return text
    }
}

extension ChangeNote {
    /// The note in words: `same reference name "Pro"`, `renamed? com.a.tip_jar → com.a.tip.jar`,
    /// `was below monthly, now above it`, `2 subscriptions`, `period 1 week → 3 days; price 0.99 USD → 1.99 USD`.
    public var text: String {
        switch self {
        case .sameReferenceName(let name): "same reference name \"\(name)\""
        case .possibleRename(let old, let new): "renamed? \(old) → \(new)"
        case .storefrontsCompared: "each file holds one price per product, in its storefront: prices are compared storefront to storefront"
        case .offerPricesFollow(let storefront): "offer prices follow the \(storefront ? "storefront" : "default territory")"
        case .sameOrder: "same order in the group"
        case .nowAbove(let id): "was below \(id), now above it"
        case .nowBelow(let id): "was above \(id), now below it"
        case .orderChanged: "its order in the group changed"
        case .members(let count): "\(count) subscription\(count == 1 ? "" : "s")"
        case .renamed: "renamed"
        case .offerTerms(let old, let new): Self.terms(old, new)
        case .localizationChanged(let displayName, let description):
            ([displayName ? "display name" : nil, description ? "description" : nil].compactMap { $0 }).joined(separator: " and ") + " changed"
        }
    }

    /// What differs between two offers' terms: `period 1 week → 3 days; price 0.99 USD → 1.99 USD`.
    private static func terms(_ a: Offer, _ b: Offer) -> String {
        a.termDifferences(b).map { term in
            switch term {
            case .mode: return "type \(a.mode) → \(b.mode)"
            case .period: return "period \(PeopleText.duration(a.period)) → \(PeopleText.duration(b.period))"
            case .periods: return "\(a.periods) → \(b.periods) periods"
            case .price:
                // Offers priced region by region (Google Play) name the region whose price changed.
                let compared = a.comparedPrices(b)
                let regional = !a.regionalPrices.isEmpty || !b.regionalPrices.isEmpty
                let place = regional ? (compared?.territory).map { " in \($0.code)" } ?? "" : ""
                let before = (compared?.mine ?? a.price).map { PeopleText.money($0) } ?? "none"
                let after = (compared?.theirs ?? b.price).map { PeopleText.money($0) } ?? "none"
                return "price\(place) \(before) → \(after)"
            case .eligibility: return "eligibility \(a.eligibility.joined(separator: ", ")) → \(b.eligibility.joined(separator: ", "))"
            }
        }.joined(separator: "; ")
    }
}

extension Change {
    /// The note in words (`ChangeNote.text`), when the change has one.
    public var noteText: String? { note?.text }

    /// The change in words, without its path or locations:
    /// `4.99 USD → 5.99 USD (+1 USD, +20.04%)`, `removed: consumable, 0.99 USD in USA`.
    public var summary: String {
        let before = old?.text ?? "none"
        let after = new?.text ?? "none"
        let noteText = self.noteText.map { " (\($0))" } ?? ""
        switch (aspect, action) {
        case (.product, .added): return "added: \(after)\(noteText)"
        case (.product, .removed): return "removed: \(before)\(noteText)"
        case (.file, _): return "moved from \(before) to \(after)"
        case (.id, _): return "renamed: \(before) → \(after)\(noteText)"
        case (.price, .added): return "now priced: \(after)"
        case (.price, .removed): return "no longer priced (was \(before))"
        case (.price, .changed):
            return "\(before) → \(after)" + (priceChange.map { " (\($0.words))" } ?? "")
        case (.period, _):
            if case .period(let a)? = old, case .period(let b)? = new {
                return "renews every \(PeopleText.duration(a)) → \(PeopleText.duration(b)) (\(PeopleText.period(a)) → \(PeopleText.period(b)))"
            }
            return "period \(before) → \(after)"
        case (.group, _):
            switch (old, new) {
            case (nil, _): return "joined group \"\(after)\""
            case (_, nil): return "left group \"\(before)\""
            default: return "moved from group \"\(before)\" to group \"\(after)\""
            }
        case (.level, _), (.familySharing, _), (.kind, _): return "\(before) → \(after)\(noteText)"
        case (.storefront, _): return "\(before) → \(after)\(noteText)"
        case (.subscriptionGroup, .added): return "group \"\(after)\" added\(noteText)"
        case (.subscriptionGroup, .removed): return "group \"\(before)\" removed\(noteText)"
        case (.subscriptionGroup, .changed): return "group renamed \"\(before)\" → \"\(after)\""
        case (_, .added): return "added: \(after)"
        case (_, .removed): return "removed: \(before)"
        case (_, .changed): return "\(before) → \(after)\(noteText)"
        }
    }
}

extension PriceChange {
    /// `+1.00 USD, +20.2%`, `-0.50 USD, -10%`, or `currency USD → COP` across currencies.
    public var words: String {
        guard let delta else { return "currency \(old.currency ?? "unknown") → \(new.currency ?? "unknown")" }
        var words = [PriceChange.signed(delta.difference, currency: new.currency, code: true)]
        if let percent = delta.percent { words.append(PriceChange.signed(percent) + "%") }
        return words.joined(separator: ", ")
    }

    /// `+1.5`, `-0.25`, `0`: plain decimal text with an explicit sign; in a currency's minor
    /// units with one (`+1.00`), and its code after it with `code` (`+1.00 USD`).
    public static func signed(_ value: Decimal, currency: String? = nil, code: Bool = false) -> String {
        let plain = DecimalFormat.plain(value)
        let text = PeopleText.money(plain: plain, currency: currency, code: code)
        return plain.hasPrefix("-") || plain == "0" ? text : "+" + text
    }
}

extension DecimalFormat {
    /// `4.99 USD`, or `4.99` without a currency: `PeopleText.money`, faster (the amount's text cached).
    public static func money(_ money: Money) -> String {
        PeopleText.money(plain: plain(money.amount), currency: money.currency)
    }
}
