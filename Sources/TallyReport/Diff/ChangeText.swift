import TallyDiff
import TallyModel

// A diff's changes in words for people: the one place a change's values and the change itself
// become text (the differ keeps them typed; every diff reporter and TallyTesting read these).

extension ChangeValue {
    /// The value in words: `4.99 USD`, `P1M`, `free trial of 1 week`, `on`.
    public var text: String {
        switch self {
        case .money(let money): DecimalFormat.money(money)
        case .period(let period): period.literal
        case .kind(let kind): kind.rawValue
        case .flag(let flag): flag ? "on" : "off"
        case .level(let level): String(level)
        case .text(let text): text
        case .offer(let offer): PeopleText.offer(offer)
        case .localization(let localization): ChangeValue.words(localization)
        case .product(let outline): outline.summary
        }
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

extension Change {
    /// The change in words, without its path or locations:
    /// `4.99 USD → 5.99 USD (+1 USD, +20.04%)`, `removed: consumable, 0.99 USD in USA`.
    public var summary: String {
        let before = old?.text ?? "none"
        let after = new?.text ?? "none"
        let noteText = note.map { " (\($0))" } ?? ""
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
            if case .period(let a)? = old, case .period(let b)? = new { return "renews every \(a.words) → \(b.words) (\(a.literal) → \(b.literal))" }
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
