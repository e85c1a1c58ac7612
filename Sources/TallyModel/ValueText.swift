import Foundation

/// Money, periods, territories and offers as text for people: the one place they become words.
/// The reporters render findings' and changes' values through it (TallyReport's `MessageText`
/// and `ChangeText`); the few layers below the reporters that must say a value themselves (a
/// reader's error, the sentence a baseline file records) call it too. It lives here, beside the
/// values, because those layers cannot see the reporters.
///
/// For machines (JSON amounts and periods, baselines' compared values, converters' output) see
/// `MachineText`.
public enum PeopleText {
    /// `4.99 USD`, `10.90 BRL`, `160 JPY`: the amount in its currency's minor units (never fewer
    /// decimals than the currency has; more when the value has more), plain without a currency.
    public static func money(_ money: Money) -> String { Money.text(Money.plain(money.amount), currency: money.currency) }

    /// The same from an amount already written as plain decimal text (`Money.plain`, a faster
    /// cache of it, or a signed difference `+1`); `code: false` leaves the currency code out.
    public static func money(plain: String, currency: String?, code: Bool = true) -> String {
        Money.text(plain, currency: currency, code: code)
    }

    /// `P1M`, `P7D`: a period as the source wrote it.
    public static func period(_ period: Period) -> String { period.literal }

    /// `1 week`, `1 month`, `1 year 6 months`: a period's length in words; with `days`, weeks
    /// also in days where that differs (`4 weeks (28 days)`: what shows why it is not a month).
    public static func duration(_ period: Period, days: Bool = false) -> String {
        days && period.words != period.wordsInDays ? "\(period.words) (\(period.wordsInDays))" : period.words
    }

    /// `DEU, GBR, JPN`: storefront codes in order.
    public static func territories(_ territories: [Territory]) -> String { territories.map(\.code).joined(separator: ", ") }

    /// An offer's terms: `free trial of 1 week`, `pay as you go: 1.99 USD per 1 month, 3 periods`,
    /// `pay up front: 9.99 USD for 6 months`.
    public static func offer(_ offer: Offer) -> String {
        let period = duration(offer.period), periods = offer.periods
        switch offer.mode {
        case .freeTrial:
            return periods == 1 ? "free trial of \(period)" : "free trial of \(periods) × \(period)"
        case .payAsYouGo:
            let price = offer.price.map { money($0) } ?? "no price"
            return "pay as you go: \(price) per \(period), \(periods) period\(periods == 1 ? "" : "s")"
        case .payUpFront:
            let price = offer.price.map { money($0) } ?? "no price"
            return "pay up front: \(price) for \(periods == 1 ? period : "\(periods) × \(period)")"
        }
    }
}

/// Money and periods as text for machines: JSON and SARIF values, what a baseline records and
/// compares, and the files converters write. Never rounded or padded for display beyond what
/// each says.
public enum MachineText {
    /// `10.90`, `160`: the amount in its currency's minor units, without the code (a JSON
    /// report's `amount`, beside `currency`).
    public static func amount(_ money: Money) -> String { Money.text(Money.plain(money.amount), currency: money.currency, code: false) }

    /// `10.9 BRL`: the exact amount and its code, not padded (what a baseline records and compares).
    public static func exact(_ money: Money) -> String { Money.text(Money.plain(money.amount), currency: money.currency, minorUnits: false) }

    /// `0.99`, `4900`, `-0.5`: a decimal as plain text, independent of the locale.
    public static func decimal(_ value: Decimal) -> String { Money.plain(value) }

    /// `P1M`: a period in ISO 8601, as the source wrote it.
    public static func period(_ period: Period) -> String { period.literal }
}
