/// How a subscription offer is paid.
public enum OfferMode: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// Nothing to pay for the offer's duration.
    case freeTrial = "free-trial"
    /// `price` per period, for `periods` periods.
    case payAsYouGo = "pay-as-you-go"
    /// `price` once, for the whole `period`.
    case payUpFront = "pay-up-front"

    public var description: String { rawValue }
}

/// An introductory, promotional, code or win-back offer on a subscription.
public struct Offer: Sendable, Hashable, Codable {
    /// The offer's identifier (promotional and code offers); nil for introductory offers.
    public var id: String?
    public var mode: OfferMode
    public var period: Period
    /// How many periods the offer lasts; 1 when the source leaves it out.
    public var periods: Int
    /// Per period for pay-as-you-go, the total for pay-up-front, nil for a free trial.
    public var price: Money?
    /// The territory the offer's price applies to, when the source says (else the source's default).
    public var territory: Territory?
    /// Code-offer eligibility (`new`, `existing`, `expired`), as the source writes it.
    public var eligibility: [String]
    /// Where the offer starts (its opening brace, row or element).
    public var position: Position
    /// Where each term is written, where the reader knows: findings about a term point there.
    public var termPositions: OfferPositions
    /// The offer's price in each territory, where the source prices it region by region (a Google
    /// Play offer phase's regional configs); `price` and `territory` are then one of them (the
    /// United States, else the first). Empty for sources with one price.
    public var regionalPrices: [Price] = []
    /// The billing plan the offer belongs to (StoreKit 5.0's `billingPlanType`, App Store
    /// Connect's `planType`), as the source writes it; nil when the source does not say.
    public var billingPlanType: String? = nil

    /// The kind of plan `billingPlanType` names, whichever way the source spells it.
    public var billingPlan: BillingPlanKind? { billingPlanType.flatMap(BillingPlanKind.init(sourceText:)) }

    public init(
        id: String? = nil, mode: OfferMode, period: Period, periods: Int = 1, price: Money? = nil,
        territory: Territory? = nil, eligibility: [String] = [], position: Position = .unknown,
        termPositions: OfferPositions = OfferPositions()
    ) {
        self.id = id
        self.mode = mode
        self.period = period
        self.periods = periods
        self.price = price
        self.territory = territory
        self.eligibility = eligibility
        self.position = position
        self.termPositions = termPositions
    }

    /// Where `term` is written: its own position when the reader knows it, else the offer's.
    public func position(of term: OfferTerm) -> Position {
        let own = termPositions[term]
        return own.isKnown ? own : position
    }
}

/// Where an offer's terms are written (`Position.unknown` where the reader does not say).
public struct OfferPositions: Sendable, Hashable, Codable {
    public var mode: Position
    public var period: Position
    public var periods: Position
    public var price: Position
    public var eligibility: Position

    public init(mode: Position = .unknown, period: Position = .unknown, periods: Position = .unknown,
                price: Position = .unknown, eligibility: Position = .unknown) {
        self.mode = mode
        self.period = period
        self.periods = periods
        self.price = price
        self.eligibility = eligibility
    }

    public subscript(term: OfferTerm) -> Position {
        get {
            switch term {
            case .mode: mode
            case .period: period
            case .periods: periods
            case .price: price
            case .eligibility: eligibility
            }
        }
        set {
            switch term {
            case .mode: mode = newValue
            case .period: period = newValue
            case .periods: periods = newValue
            case .price: price = newValue
            case .eligibility: eligibility = newValue
            }
        }
    }
}

/// One of the terms that make an offer what it is.
public enum OfferTerm: String, Sendable, Hashable, CaseIterable {
    case mode, period, periods, price, eligibility
}

extension Offer {
    /// The terms in which two offers differ, in `OfferTerm` order: empty when they are the same
    /// offer terms. One judgement for `tally check` (configuration vs catalogue) and `tally diff`
    /// (old vs new):
    ///
    /// - `mode` and `periods` are equal;
    /// - `period`: the same length (`Period ==`: `P7D` is `P1W`, `P1W` is not `P1M`);
    /// - `price`, for a paid offer only (a free trial's price is lint's business): the same
    ///   amount in the same currency (`1.99 USD` is not `1.99 EUR`; a price whose currency the
    ///   source does not say is in whichever the other's is). Prices written for different
    ///   territories are not compared;
    /// - `eligibility` (code offers): the same set, in any order.
    ///
    /// Not terms: the offer's ID (the key offers are matched by) and where it was written.
    public func termDifferences(_ other: Offer) -> [OfferTerm] {
        var result: [OfferTerm] = []
        if mode != other.mode { result.append(.mode) }
        if period != other.period { result.append(.period) }
        if periods != other.periods { result.append(.periods) }
        if mode == other.mode, mode != .freeTrial, let compared = comparedPrices(other), !Self.samePrice(compared.mine, compared.theirs) {
            result.append(.price)
        }
        if Set(eligibility) != Set(other.eligibility) { result.append(.eligibility) }
        return result
    }

    /// The prices `termDifferences` compares, and the territory they are for: where one offer
    /// prices region by region and the other names a territory, the price in that territory;
    /// where both price region by region, the first territory both price in which they differ
    /// (else the first both price); otherwise `price` against `price`. Nil when the prices are
    /// written for different territories (they are not compared).
    public func comparedPrices(_ other: Offer) -> (mine: Money?, theirs: Money?, territory: Territory?)? {
        switch (regionalPrices.isEmpty, other.regionalPrices.isEmpty) {
        case (false, false):
            let theirs = Dictionary(other.regionalPrices.map { ($0.territory, $0.money) }, uniquingKeysWith: { first, _ in first })
            let shared = regionalPrices.filter { theirs[$0.territory] != nil }
            guard let first = shared.first(where: { !Self.samePrice($0.money, theirs[$0.territory]) }) ?? shared.first else { return nil }
            return (first.money, theirs[first.territory], first.territory)
        case (false, true):
            guard let territory = other.territory else { return (price, other.price, self.territory) }
            guard let mine = regionalPrices.first(where: { $0.territory == territory }) else { return nil }
            return (mine.money, other.price, territory)
        case (true, false):
            return other.comparedPrices(self).map { ($0.theirs, $0.mine, $0.territory) }
        case (true, true):
            guard territory == nil || other.territory == nil || territory == other.territory else { return nil }
            return (price, other.price, territory ?? other.territory)
        }
    }

    /// Whether two offers have the same terms (`termDifferences` is empty).
    public func sameTerms(as other: Offer) -> Bool {
        termDifferences(other).isEmpty
    }

    /// The offer's whole length: its period times its number of periods.
    public var length: Period {
        Period(months: period.months * periods, days: period.days * periods)
    }

    private static func samePrice(_ a: Money?, _ b: Money?) -> Bool {
        switch (a, b) {
        case (nil, nil): return true
        case (let x?, let y?): return x.amount == y.amount && (x.currency == nil || y.currency == nil || x.currency == y.currency)
        default: return false
        }
    }
}
