import TallyModel

/// What a finding says, as words and typed values: a rule writes
/// `"\(product: id) costs \(left) in \(source: noun) but \(right) in \(source: other)"` and the
/// values (a product ID, money, a period, territories, a source, a count) stay values until a
/// reporter renders them: the message holds only its parts. Each reporter makes the words
/// (TallyReport's `MessageText`: the sentence for people, Markdown code spans, escaped HTML,
/// SARIF's `{0}` template and arguments, the JSON report's typed parts). The one plain
/// rendering below the reporters is the sentence a baseline file records (`baselineText`).
///
/// There is no catch-all interpolation: every value a rule puts in a message says what it is.
public struct FindingMessage: Sendable, Hashable, Codable, ExpressibleByStringInterpolation {
    /// One piece of a message: words, or a value.
    public enum Part: Sendable, Hashable, Codable {
        case text(String)
        case value(Argument)
    }

    /// A value in a message, by what it is.
    public enum Argument: Sendable, Hashable, Codable {
        /// A product ID (`com.example.pro.monthly`), or a paywall's store product ID.
        case product(String)
        /// An amount with its currency (`10.90 BRL` for people).
        case money(Money)
        /// A period, as the source writes it (`P1M`).
        case period(Period)
        /// A period's length in words (`1 month`; with `days`, `4 weeks (28 days)`).
        case duration(Period, days: Bool = false)
        case territory(Territory)
        /// Territories in order (`DEU, GBR, JPN`).
        case territories([Territory])
        /// A source or a side of a comparison, as the message names it (`the configuration`,
        /// `App.storekit`).
        case source(String)
        case count(Int)
        /// Any other name a source holds: a group, an offer, a locale, a key, an offering.
        case name(String)
        /// An offer's terms (mode, period, periods, price): "free trial of 1 week". A value, so
        /// that its money and period reach the reporters as such, not baked into words.
        case offer(Offer)

        /// `product`, `money`, `period`, `duration`, `territory`, `territories`, `source`, `count`,
        /// `name`, `offer`.
        public var kind: String {
            switch self {
            case .product: "product"
            case .money: "money"
            case .period: "period"
            case .duration: "duration"
            case .territory: "territory"
            case .territories: "territories"
            case .source: "source"
            case .count: "count"
            case .name: "name"
            case .offer: "offer"
            }
        }
    }

    public private(set) var parts: [Part]

    public init(parts: [Part]) {
        self.parts = []
        for part in parts { append(part) }
    }

    public init(_ text: String) { self.init(parts: text.isEmpty ? [] : [.text(text)]) }

    public init(stringLiteral text: String) { self.init(text) }

    public init(stringInterpolation: StringInterpolation) {
        self = stringInterpolation.message
    }

    /// The values, in order.
    public var arguments: [Argument] {
        parts.compactMap { if case .value(let argument) = $0 { argument } else { nil } }
    }

    /// Appends words or a value; neighbouring words are merged.
    public mutating func append(_ part: Part) {
        switch part {
        case .text(let words):
            guard !words.isEmpty else { return }
            if case .text(let previous)? = parts.last {
                parts[parts.count - 1] = .text(previous + words)
            } else {
                parts.append(part)
            }
        case .value:
            parts.append(part)
        }
    }

    public mutating func append(_ message: FindingMessage) {
        for part in message.parts { append(part) }
    }

    public static func + (lhs: FindingMessage, rhs: FindingMessage) -> FindingMessage {
        var joined = lhs
        joined.append(rhs)
        return joined
    }

    /// Messages joined by a separator (`"; "`).
    public static func joined(_ messages: [FindingMessage], separator: String) -> FindingMessage {
        var joined = FindingMessage(parts: [])
        for (index, message) in messages.enumerated() {
            if index > 0 { joined.append(.text(separator)) }
            joined.append(message)
        }
        return joined
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var message = FindingMessage(parts: [])

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) { message.append(.text(literal)) }

        public mutating func appendInterpolation(product id: String) { message.append(.value(.product(id))) }
        public mutating func appendInterpolation(_ money: Money) { message.append(.value(.money(money))) }
        public mutating func appendInterpolation(_ period: Period) { message.append(.value(.period(period))) }
        /// A period's length in words (`every \(duration: period)`: "every 1 month").
        public mutating func appendInterpolation(duration period: Period, days: Bool = false) {
            message.append(.value(.duration(period, days: days)))
        }
        public mutating func appendInterpolation(_ territory: Territory) { message.append(.value(.territory(territory))) }
        public mutating func appendInterpolation(_ territories: [Territory]) { message.append(.value(.territories(territories))) }
        public mutating func appendInterpolation(source: String) { message.append(.value(.source(source))) }
        public mutating func appendInterpolation(count: Int) { message.append(.value(.count(count))) }
        public mutating func appendInterpolation(name: String) { message.append(.value(.name(name))) }
        public mutating func appendInterpolation(offer: Offer) { message.append(.value(.offer(offer))) }
        /// A side's value: money, a period or territories stay typed; words are a name.
        public mutating func appendInterpolation(_ value: FindingValue) {
            switch value {
            case .money(let money): appendInterpolation(money)
            case .period(let period): appendInterpolation(period)
            case .territories(let territories): appendInterpolation(territories)
            case .offer(let offer): appendInterpolation(offer: offer)
            case .text(let text): appendInterpolation(name: text)
            }
        }
        /// Words the rule wrote (a kind, a sub-sentence made apart): text, not a value.
        public mutating func appendInterpolation(words: some CustomStringConvertible) { message.append(.text(words.description)) }
        /// A sub-message, with its values.
        public mutating func appendInterpolation(_ part: FindingMessage) { message.append(part) }
    }
}
