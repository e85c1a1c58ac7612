import TallyModel

/// What part of a catalogue a change is about.
public enum ChangeAspect: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// The product itself: added or removed.
    case product
    /// The product moved to another file of a set of files (`tally diff --since`): informational.
    case file
    /// The product's ID changed: a product removed and one added with the same reference name
    /// and kind, one product renamed (the old ID is retired: marked for attention).
    case id
    case kind
    /// A subscription suite's or bundle's included subscriptions (StoreKit 6.3 `members`): one
    /// change a member added or removed.
    case members
    /// A price in one territory (or the storefront price, between single-storefront sources).
    case price
    case period
    case introductoryOffer = "introductory-offer"
    case promotionalOffer = "promotional-offer"
    case codeOffer = "code-offer"
    case winbackOffer = "win-back-offer"
    /// The product moved to another subscription group.
    case group
    /// The product's level inside its group changed.
    case level
    case familySharing = "family-sharing"
    case localization
    /// A subscription's billing plan (up front, or monthly with a commitment): added, removed, repriced.
    case billingPlan = "billing-plan"
    /// A multi-seat subscription's seat tier: added, removed, or its per-seat price in a territory.
    case seatTier = "seat-tier"
    /// The source's storefront (StoreKit) or default territory (catalogues).
    case storefront
    /// A subscription group as a whole: added, removed or renamed.
    case subscriptionGroup = "subscription-group"

    public var description: String { rawValue }

    /// The words this aspect adds to a change's path (`prices`, `introductory offer`).
    public var pathName: String? {
        switch self {
        case .product: nil
        case .file: "file"
        case .id: "ID"
        case .kind: "kind"
        case .members: "members"
        case .price: "prices"
        case .period: "period"
        case .introductoryOffer: "introductory offer"
        case .promotionalOffer: "promotional offers"
        case .codeOffer: "code offers"
        case .winbackOffer: "win-back offers"
        case .group: "group"
        case .level: "level"
        case .familySharing: "family sharing"
        case .localization: "localizations"
        case .billingPlan: "billing plans"
        case .seatTier: "seat tiers"
        case .storefront: "storefront"
        case .subscriptionGroup: "subscription groups"
        }
    }
}

/// Whether something appeared, disappeared or changed between the old and the new source.
public enum ChangeAction: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    case added, removed, changed

    public var description: String { rawValue }
}

/// A typed value on one side of a change. Reporters turn it into words (`ChangeValue.text`, in
/// TallyReport); scripts get it typed.
public enum ChangeValue: Sendable, Hashable {
    case money(Money)
    case period(Period)
    case kind(ProductKind)
    case flag(Bool)
    case level(Int)
    /// A group, storefront or other name.
    case text(String)
    indirect case offer(Offer)
    indirect case localization(Localization)
    indirect case product(ProductOutline)
    /// A multi-seat subscription's seat tier and its per-seat prices.
    indirect case seatTier(SeatTier)

    /// The money, when this is a price.
    public var money: Money? {
        if case .money(let money) = self { return money }
        return nil
    }

}

/// What explains a change where its values alone do not, as values: the reporters make the
/// words (`ChangeNote.text`, in TallyReport).
public enum ChangeNote: Sendable, Hashable {
    /// A product under a new ID with the same reference name (`same reference name "Pro"`).
    case sameReferenceName(String)
    /// A removed and an added product of one kind whose IDs are a near miss
    /// (`renamed? com.a.tip_jar → com.a.tip.jar`).
    case possibleRename(old: String, new: String)
    /// Two single-storefront sources: prices are compared storefront to storefront.
    case storefrontsCompared
    /// The storefront (StoreKit) or default territory (`storefront: false`) changed, and offer
    /// prices follow it.
    case offerPricesFollow(storefront: Bool)
    /// A subscription's level changed, its order in the group did not.
    case sameOrder
    /// A subscription now ranks above one it was below (`was below monthly, now above it`).
    case nowAbove(String)
    /// A subscription now ranks below one it was above.
    case nowBelow(String)
    /// A subscription's order in its group changed, with no one member to show it.
    case orderChanged
    /// A subscription group added or removed, with this many subscriptions.
    case members(Int)
    /// A subscription group renamed (the same members).
    case renamed
    /// An offer's terms changed: which, from these old terms to these new ones.
    indirect case offerTerms(old: Offer, new: Offer)
    /// A localization changed: its display name, its description, or both.
    case localizationChanged(displayName: Bool, description: Bool)
}

/// One semantic difference between two versions of a catalogue, keyed by identity (product ID,
/// territory, offer ID, locale, group matched by members), never by position in the file.
///
/// Values and positions are kept typed and compact; `path`, `summary` and the locations on
/// `CatalogDiff` turn them into words. A diff of two 20,000-product catalogues can hold millions.
public struct Change: Sendable, Hashable {
    public var aspect: ChangeAspect
    public var action: ChangeAction
    /// The product the change belongs to; nil for changes to the source as a whole.
    public var productID: String?
    /// The territory of a price change keyed by territory.
    public var territory: Territory?
    /// Any other key inside the product: an offer ID, a locale, a group name, or `USA → COL`
    /// for the storefront price of two single-storefront sources.
    public var key: String? {
        get { detail?.key }
        set { detail = Detail.make(key: newValue, note: note) }
    }
    /// The value in the old source; nil when added.
    public var old: ChangeValue?
    /// The value in the new source; nil when removed.
    public var new: ChangeValue?
    /// Where the old value was written in the old source (`.unknown` when added).
    public var oldPosition: Position
    /// Where the new value was written in the new source (`.unknown` when removed).
    public var newPosition: Position
    /// Why a release manager must not miss this change; empty for most changes.
    public var attention: [Attention] {
        get { attentionBits == 0 ? [] : Attention.allCases.filter { attentionBits & $0.bit != 0 } }
        set { attentionBits = newValue.reduce(0) { $0 | $1.bit } }
    }
    /// `attention` as a bit set: a diff may hold millions of changes.
    private var attentionBits: UInt8
    /// Which way a changed price moved (nil for other changes); kept so that summaries do not
    /// redo the arithmetic.
    public private(set) var priceDirection: PriceChange.Direction?
    /// What explains the change where the values alone do not (which subscription a reordered
    /// one now ranks below; how storefront prices are compared), typed: the reporters make its
    /// words (`ChangeNote.text`, in TallyReport).
    public var note: ChangeNote? {
        get { detail?.note }
        set { detail = Detail.make(key: key, note: newValue) }
    }
    /// `key` and `note`, boxed: most changes (prices by territory) have neither, and a diff may
    /// hold millions of changes.
    private var detail: Detail?

    public init(
        _ aspect: ChangeAspect, _ action: ChangeAction, productID: String?, territory: Territory? = nil, key: String? = nil,
        old: ChangeValue? = nil, new: ChangeValue? = nil, oldPosition: Position = .unknown, newPosition: Position = .unknown,
        attention: [Attention] = [], note: ChangeNote? = nil, priceDirection: PriceChange.Direction? = nil
    ) {
        self.aspect = aspect
        self.action = action
        self.productID = productID
        self.territory = territory
        self.detail = Detail.make(key: key, note: note)
        self.old = old
        self.new = new
        self.oldPosition = oldPosition
        self.newPosition = newPosition
        self.attentionBits = attention.reduce(0) { $0 | $1.bit }
        self.priceDirection = priceDirection
        if priceDirection == nil, aspect == .price, action == .changed, let old = old?.money, let new = new?.money {
            self.priceDirection = PriceChange(old: old, new: new).direction
        }
    }

    /// Where the change is: `com.example.premium.yearly › prices › JPN`; source-wide changes
    /// start with `(catalogue)`.
    public var path: String {
        var parts = [productID ?? Change.sourceHeading]
        if let name = aspect.pathName { parts.append(name) }
        if let key { parts.append(key) } else if let territory { parts.append(territory.code) }
        return parts.joined(separator: " › ")
    }

    /// The heading of changes that belong to no product.
    public static let sourceHeading = "(catalogue)"

    /// The price difference, when this is a changed price with the same currency on both sides.
    public var priceChange: PriceChange? {
        guard aspect == .price, action == .changed, let old = old?.money, let new = new?.money else { return nil }
        return PriceChange(old: old, new: new)
    }

    /// Whether the change carries any reason for attention.
    public var needsAttention: Bool { attentionBits != 0 }

    /// Adds a reason for attention.
    mutating func mark(_ reason: Attention) { attentionBits |= reason.bit }

    /// Whether the change carries this reason (without building the `attention` array).
    public func needsAttention(_ reason: Attention) -> Bool { attentionBits & reason.bit != 0 }
}

/// The rarely present parts of a change, shared between copies.
private final class Detail: Sendable, Hashable {
    let key: String?
    let note: ChangeNote?

    private init(key: String?, note: ChangeNote?) {
        self.key = key
        self.note = note
    }

    static func make(key: String?, note: ChangeNote?) -> Detail? {
        key == nil && note == nil ? nil : Detail(key: key, note: note)
    }

    static func == (lhs: Detail, rhs: Detail) -> Bool { lhs.key == rhs.key && lhs.note == rhs.note }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(note)
    }
}
