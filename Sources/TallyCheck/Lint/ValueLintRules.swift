import TallyModel

/// Periods the App Store does not allow (a subscription of P5D, an offer of P4M).
public struct DisallowedPeriodRule: LintRule {
    public static let description = describe(
        id: .disallowedPeriod, defaultSeverity: .error,
        summary: "A subscription or offer period is not one the App Store allows.",
        rationale: "The App Store offers only fixed durations: a subscription or offer with another period cannot be created as written, so what the app tests is not what it can sell.",
        fix: "Subscriptions renew every P1W, P1M, P2M, P3M, P6M or P1Y. Offers last P3D, P1W, P2W, P1M, P2M, P3M, P6M or P1Y.")
    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        // The App Store's periods: Google Play allows others (P4W, P4M, P8M), and checks them itself.
        guard catalog.format.store.allowsListedPeriodsOnly else { return }
        for product in catalog.products where product.kind.isAutoRenewable {
            markChecked(catalog, product, &checked)
            if let period = product.period, !Period.subscriptionPeriods.contains(period) {
                findings.append(finding(catalog, product.id, .period,
                                        "\(product: product.id) renews every \(duration: period) (\(period)); subscriptions may renew every 1 week, 1, 2, 3 or 6 months, or 1 year",
                                        at: product.position(of: .period), value: period.literal))
            }
            for offer in product.allOffers where !Period.offerPeriods.contains(offer.period) {
                findings.append(finding(catalog, product.id, .introductoryOffer,
                                        "\(product: product.id) has an offer period of \(duration: offer.period) (\(offer.period)); offers may last 3 days, 1 or 2 weeks, 1, 2, 3 or 6 months, or 1 year",
                                        at: offer.position(of: .period), value: offer.period.literal, offerID: offer.id))
            }
        }
    }
}

/// A price below zero.
public struct NegativePriceRule: LintRule {
    public static let description = describe(
        id: .negativePrice, defaultSeverity: .error, summary: "A price is negative.",
        rationale: "No store price is negative: it is a sign error or a typo that a server might pass on to users or reports.",
        fix: "Correct the amount. A free introductory period is a free-trial offer without a price.")
    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        for product in catalog.products {
            markChecked(catalog, product, &checked)
            for price in product.prices where price.money.amount.sign == .minus && !price.money.amount.isZero {
                findings.append(finding(catalog, product.id, .prices, "\(product: product.id) has a negative price \(price.money) in \(price.territory)",
                                        at: price.position, value: price.money.description))
            }
            for offer in product.allOffers {
                if let price = offer.price, price.amount < 0 {
                    findings.append(finding(catalog, product.id, .introductoryOffer, "\(product: product.id) has an offer with a negative price \(price)",
                                            at: offer.position(of: .price), value: price.description, offerID: offer.id))
                }
            }
        }
    }
}

extension FreeTrialWithPriceRule {
    /// A product's offers, each with the field it belongs to and what kind of offer it is.
    static func offers(of product: Product) -> [(Field, String, Offer)] {
        let introductory = (product.introductoryOffer.map { [$0] } ?? []) + product.otherIntroductoryOffers
        return introductory.map { (.introductoryOffer, "introductory offer", $0) }
            + product.promotionalOffers.map { (.promotionalOffers, "promotional offer", $0) }
            + product.codeOffers.map { (.codeOffers, "offer code", $0) }
            + product.winbackOffers.map { (.promotionalOffers, "win-back offer", $0) }
    }
}

/// A free trial that charges money. In a catalogue (typed by a person) the offer type or the price
/// is wrong: an error. In a StoreKit configuration it is a price Xcode left behind: Xcode keeps an
/// offer's `displayPrice` when the offer is switched to a free trial, and StoreKit ignores it, so
/// it is a warning there (a policy's `rules:` setting still decides for both).
public struct FreeTrialWithPriceRule: LintRule {
    public static let description = describe(
        id: .freeTrialWithPrice, defaultSeverity: .error,
        summary: "A free-trial offer has a non-zero price: an error in a catalogue; a warning in a StoreKit configuration, where it is a price Xcode left on a free offer and StoreKit ignores.",
        rationale: "A free trial costs nothing by definition. In a catalogue someone typed, a price on one means the offer type or the price is wrong, and the paywall or server may promise other terms than the store applies. In a .storekit file it is usually harmless: Xcode keeps an offer's displayPrice after the offer is switched to a free trial, and StoreKit ignores it; it is reported as a warning so that the stale price does not mislead a reader or a later edit.",
        fix: "In a catalogue: remove the price, or change the offer type to pay-up-front or pay-as-you-go. In a .storekit file: delete the offer's displayPrice (or, if the offer should charge, set its payment mode to pay up front or pay as you go in Xcode).")
    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        let leftByXcode = catalog.format.isWrittenByXcode
        for product in catalog.products where product.kind.isAutoRenewable {
            markChecked(catalog, product, &checked)
            for (field, kind, offer) in Self.offers(of: product) where offer.mode == .freeTrial {
                guard let price = offer.price, price.amount != 0 else { continue }
                // Which offer: an introductory one, or a promotional, code or win-back offer by its ID.
                let which = offer.id.map { "\(kind) \($0)" } ?? kind
                let message: FindingMessage = leftByXcode
                    ? "\(product: product.id) has a free trial (\(words: which)) that keeps a displayPrice of \(price): a price left on a free offer, which StoreKit ignores (Xcode keeps it when an offer is switched to a free trial)"
                    : "\(product: product.id) has a free trial (\(words: which)) with a price of \(price): a free trial costs nothing (use pay-up-front or pay-as-you-go)"
                var found = finding(catalog, product.id, field, message,
                                    at: offer.position(of: .price), value: price.description, offerID: offer.id)
                if leftByXcode { found.severity = .warning }
                findings.append(found)
            }
        }
    }
}

/// A rule whose findings are the reader's issues (`Catalog.issues`) of its ID: values the reader
/// could not understand. The readers raise them under the same `RuleID`.
public protocol SourceIssueRule: LintRule {}

extension SourceIssueRule {
    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        for issue in catalog.issues where issue.rule == Self.description.id {
            var found = finding(catalog, issue.productID, issue.field, (issue.productID.map { "\(product: $0): " } ?? "") + FindingMessage(issue.message),
                                at: issue.position, path: issue.path)
            // What to do to have the value read (name the Play default territory), when there is something.
            if let remedy = issue.remedy { found.hint = remedy.summary }
            // A valid value the reader could not place without a setting of the run (a Play
            // Console row's auto-filled default price, for no region): nothing in the file is
            // wrong, so it is a warning, not an error that fails a first check.
            if issue.remedy == .givePlayDefaultTerritory { found.severity = .warning }
            findings.append(found)
        }
    }
}

/// A price that is not a decimal number ("4,99", "free", "$1").
public struct InvalidPriceRule: SourceIssueRule {
    public static let description = describe(
        id: .invalidPrice, defaultSeverity: .error, summary: "A price is not a decimal number.",
        rationale: "A price that is not a decimal number cannot be compared, and code parsing it may charge or display the wrong amount.",
        fix: "Write the price as a decimal with '.' as the separator and no currency sign, quoted in YAML so it stays exact: \"4.99\".")
    public init() {}
}

/// A period that is not an ISO 8601 duration ("monthly", "1M").
public struct InvalidPeriodRule: SourceIssueRule {
    public static let description = describe(
        id: .invalidPeriod, defaultSeverity: .error, summary: "A period is not an ISO 8601 duration such as P1M.",
        rationale: "A period Tally cannot read cannot be compared, and the server or app reading the same file will probably fail on it too.",
        fix: "Write the period as an ISO 8601 duration: P1W, P1M, P3M, P6M, P1Y.")
    public init() {}
}

/// An offer whose payment mode, period or price cannot be read.
public struct InvalidOfferRule: SourceIssueRule {
    public static let description = describe(
        id: .invalidOffer, defaultSeverity: .error, summary: "An offer's payment mode, period or price cannot be read.",
        rationale: "An offer Tally cannot read cannot be compared, and StoreKit or the server may reject or misread it too.",
        fix: "Use a known payment mode (free, payAsYouGo or payUpFront in StoreKit; free-trial, pay-as-you-go or pay-up-front in a catalogue), an ISO 8601 period and a decimal price.")
    public init() {}
}
