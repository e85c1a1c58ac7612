import Foundation
import TallyModel

/// The same ID is a different kind of product on each side.
public struct KindRule: ProductPairRule {
    public static let description = describe(
        id: .kind, defaultSeverity: .error,
        summary: "The product kind (consumable, non-consumable, subscription) differs.",
        rationale: "Consumables, non-consumables and subscriptions are granted, restored and renewed differently: with the wrong kind, purchases are restored when they should not be, or lost when they should be kept.",
        fix: "Make both sources say the kind the product has in App Store Connect. A product's type cannot change there after it is created, so usually the other side is the one to correct.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        comparison.bothKnow(.kind)
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        guard config.kind != catalog.kind else { return [] }
        // A store that does not tell consumables from non-consumables (Google Play) compares "one-time" only.
        let oneTime: Set<ProductKind> = [.consumable, .nonConsumable]
        if !(comparison.configuration.distinguishesConsumables && comparison.catalog.distinguishesConsumables),
           oneTime.contains(config.kind), oneTime.contains(catalog.kind) { return [] }
        return [finding(config.id, .kind, "\(product: config.id) is \(words: config.kind) in \(source: comparison.configNoun) but \(words: catalog.kind) in \(source: comparison.catalogNoun)",
                        left: comparison.configSide(config, .kind, value: config.kind.rawValue),
                        right: comparison.catalogSide(catalog, .kind, value: catalog.kind.rawValue))]
    }
}

/// The price in the configuration's storefront differs from the catalogue's price there.
public struct PriceRule: ProductPairRule {
    public static let description = describe(
        id: .price, defaultSeverity: .error,
        summary: "The price in the configuration's storefront differs, or the catalogue has no price there.",
        rationale: "Users pay the price the store shows; a server, paywall copy or revenue report using another price misleads them and skews every figure built on it.",
        fix: "Set the same price for the configuration's storefront on both sides, as in App Store Connect's price schedule. If the catalogue has no price for that storefront, add one.")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        guard comparison.bothKnow(.prices), comparison.otherStorefront == nil else { return false }
        // Every territory both price: compared only when there is one (else nothing was compared).
        if comparison.comparesEveryTerritory { return config.prices.contains { catalog.price(in: $0.territory) != nil } }
        return config.price(in: comparison.territory) != nil
    }

    /// Every territory both sides price (a Google Play source against a catalogue: each prices
    /// many regions, and neither has one storefront that decides).
    func compareEveryTerritory(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        var result: [Finding] = []
        for configPrice in config.prices {
            let territory = configPrice.territory
            guard let catalogPrice = catalog.price(in: territory), configPrice.money.amount != catalogPrice.money.amount else { continue }
            result.append(finding(config.id, .prices,
                                  "\(product: config.id) costs \(configPrice.money) in \(territory) in \(source: comparison.configNoun) but \(catalogPrice.money) in \(source: comparison.catalogNoun)",
                                  left: comparison.configSide(config, .prices, value: .money(configPrice.money), position: configPrice.position),
                                  right: comparison.catalogSide(catalog, .prices, value: .money(catalogPrice.money), position: catalogPrice.position),
                                  territory: territory))
        }
        return result
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        if comparison.comparesEveryTerritory { return compareEveryTerritory(config, catalog, in: comparison) }
        let territory = comparison.territory
        guard let configPrice = config.price(in: territory) else { return [] }
        let catalogPrice = catalog.price(in: territory)
        if let catalogPrice, configPrice.money.amount == catalogPrice.money.amount { return [] }
        // A mismatch: only now are the sides' texts and locations built.
        let left = comparison.configSide(config, .prices, value: .money(configPrice.money), position: configPrice.position)
        guard let catalogPrice else {
            return [finding(config.id, .prices,
                            "\(product: config.id) costs \(configPrice.money) in \(territory) in \(source: comparison.configNoun), but \(source: comparison.catalogNoun) has no \(territory) price",
                            left: left, right: comparison.catalogSide(catalog, .prices, value: nil as FindingValue?), territory: territory)]
        }
        var found = finding(config.id, .prices,
                            "\(product: config.id) costs \(configPrice.money) in \(territory) in \(source: comparison.configNoun) but \(catalogPrice.money) in \(source: comparison.catalogNoun)",
                            left: left,
                            right: comparison.catalogSide(catalog, .prices, value: .money(catalogPrice.money), position: catalogPrice.position),
                            territory: territory)
        found.hint = Self.decimalSlip(configuration: configPrice.money.amount, catalog: catalogPrice.money.amount)
            ?? Self.monthlyPayment(config, configPrice.money, catalog, catalogPrice.money, in: territory, comparison)
        return [found]
    }

    /// "the catalogue's 5.99 USD is the monthly plan's monthly payment in the configuration (…),
    /// where a product's price is its up-front plan's (59.99 USD)": one side's price is the other
    /// side's monthly plan (billed monthly with a 12-month commitment) per month, where a
    /// product's price is what its up-front plan charges (RevenueCat/purchases-ios#7299).
    static func monthlyPayment(_ config: Product, _ configPrice: Money, _ catalog: Product, _ catalogPrice: Money, in territory: Territory,
                               _ comparison: Comparison) -> String? {
        func monthly(_ product: Product) -> Money? {
            product.billingPlansByKind[.monthly]?.price(in: territory)
        }
        func words(_ noun: String, _ price: Money, planIn other: String, upfront: Money) -> String {
            "\(noun)'s \(price) is the monthly plan's monthly payment in \(other) (billed monthly with a 12-month commitment), "
                + "where a product's price is its up-front plan's (\(upfront)): the monthly price belongs in the monthly billing plan"
        }
        if let payment = monthly(config), payment.amount == catalogPrice.amount, payment.amount != configPrice.amount {
            return words(comparison.catalogNoun, catalogPrice, planIn: comparison.configNoun, upfront: configPrice)
        }
        if let payment = monthly(catalog), payment.amount == configPrice.amount, payment.amount != catalogPrice.amount {
            return words(comparison.configNoun, configPrice, planIn: comparison.catalogNoun, upfront: catalogPrice)
        }
        return nil
    }

    /// "the catalogue's price is exactly 100 × the configuration's: a decimal slip?" when the
    /// two prices differ by exactly 10, 100 or 1000 times (minor units written as major, a lost point).
    static func decimalSlip(configuration: Decimal, catalog: Decimal) -> String? {
        guard configuration != 0, catalog != 0 else { return nil }
        for factor in [Decimal(10), 100, 1000] {
            if catalog == configuration * factor {
                return "the catalogue's price is exactly \(factor) × the configuration's: a decimal slip?"
            }
            if configuration == catalog * factor {
                return "the configuration's price is exactly \(factor) × the catalogue's: a decimal slip?"
            }
        }
        return nil
    }
}

/// Family sharing is on for one side and off for the other.
public struct FamilySharingRule: ProductPairRule {
    public static let description = describe(
        id: .familySharing, defaultSeverity: .warning,
        summary: "Family sharing is enabled on one side and not the other.",
        rationale: "Family sharing cannot be turned off in App Store Connect once it is on; when the sides disagree, family members get access the server does not grant, or the reverse.",
        fix: "Set family sharing to the App Store Connect setting on both sides (familyShareable in the .storekit file, family_shareable in a catalogue).")

    public init() {}

    public func applies(to config: Product, _ catalog: Product, in comparison: Comparison) -> Bool {
        comparison.bothKnow(.familyShareable) && config.familyShareable != nil && catalog.familyShareable != nil
    }

    public func compare(_ config: Product, _ catalog: Product, in comparison: Comparison) -> [Finding] {
        guard let left = config.familyShareable, let right = catalog.familyShareable, left != right else { return [] }
        func words(_ value: Bool) -> String { value ? "shareable" : "not shareable" }
        return [finding(config.id, .familyShareable,
                        "\(product: config.id) is \(words: words(left)) with family in \(source: comparison.configNoun) but \(words: words(right)) in \(source: comparison.catalogNoun)",
                        left: comparison.configSide(config, .familyShareable, value: String(left)),
                        right: comparison.catalogSide(catalog, .familyShareable, value: String(right)))]
    }
}
