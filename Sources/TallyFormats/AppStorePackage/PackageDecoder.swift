import Foundation
import TallyModel

/// The mutable state of one `metadata.xml` decode.
struct PackageDecoder {
    let file: String
    let options: ReadOptions
    var products: [Product] = []
    var groups: [SubscriptionGroup] = []
    var issues: [SourceIssue] = []
    /// Products left out because they are not cleared for sale.
    var hidden: [String: Int] = [:]
    /// Elements Tally neither reads nor skips on purpose.
    var account = KeyAccount()

    /// A subscription group (5.9) or family (5.0) and its members.
    struct GroupContext {
        var name: String
        /// A 5.0 family's `free_trial_duration`, for members that give none of their own.
        var freeTrial: XMLElementNode?
    }

    static let kinds: [String: ProductKind] = [
        "consumable": .consumable, "non-consumable": .nonConsumable, "auto-renewable": .autoRenewableSubscription,
        "subscription": .nonRenewingSubscription, "free-subscription": .nonRenewingSubscription,
    ]

    func catalog() -> Catalog {
        var known: Set<Field> = [.id, .kind, .referenceName, .localizations, .period, .introductoryOffer, .group]
        if options.priceTiers != nil { known.insert(.prices) }
        var catalog = Catalog(file: file, format: .appStorePackage, defaultTerritory: .usa, products: products,
                              groups: groups, knownFields: known, issues: issues + account.issues)
        catalog.introductoryOfferModes = [.freeTrial]
        catalog.hiddenByState = hidden
        return catalog
    }

    mutating func readGroup(_ element: XMLElementNode) throws {
        guard let name = element.attributes["name"]?.trimmingCharacters(in: .whitespaces), !name.isEmpty else {
            throw FormatError("a <\(element.name)> has no name attribute (the subscription group's reference name)",
                              file: file, position: element.position)
        }
        account.check(element, Self.groupElements)
        let context = GroupContext(name: name, freeTrial: element.child("free_trial_duration"))
        var members: [String] = []
        for purchase in element.children("in_app_purchase") {
            if let id = try readPurchase(purchase, group: context), products.last?.kind.isAutoRenewable == true { members.append(id) }
        }
        var group = SubscriptionGroup(id: name, name: name, productIDs: members, position: element.position)
        group.localizations = locales(of: element, Self.groupLocaleElements).map { locale in
            Localization(locale: locale.attributes["name"] ?? "", displayName: locale.child("title")?.text)
        }
        groups.append(group)
    }

    /// Reads one `<in_app_purchase>`; returns its ID when it counts (is for sale or included).
    @discardableResult
    mutating func readPurchase(_ element: XMLElementNode, group: GroupContext?) throws -> String? {
        guard let idElement = element.child("product_id"), !idElement.text.isEmpty else {
            throw FormatError("an <in_app_purchase> has no <product_id>", file: file, position: element.position)
        }
        let id = idElement.text
        account.check(element, Self.purchaseElements)
        var product = Product(id: id, kind: .consumable, position: element.position)
        product.fieldPositions[.id] = idElement.position
        product.kind = try kind(of: element, id: id, inGroup: group != nil)
        product.fieldPositions[.kind] = element.child("type")?.position ?? element.position
        if let name = element.child("reference_name") {
            product.referenceName = name.text
            product.fieldPositions[.referenceName] = name.position
        }
        guard try isForSale(element, id: id) else { return nil }
        if product.kind.isAutoRenewable {
            readSubscriptionTerms(element, group: group, into: &product)
        }
        try readTier(element, into: &product)
        product.localizations = locales(of: element, Self.localeElements).map { locale in
            Localization(locale: locale.attributes["name"] ?? "", displayName: locale.child("title")?.text,
                         description: locale.child("description")?.text)
        }
        products.append(product)
        return id
    }

    /// The `<locales><locale>` elements of a purchase or group, their children accounted for.
    private mutating func locales(of element: XMLElementNode, _ vocabulary: KeyVocabulary) -> [XMLElementNode] {
        guard let list = element.child("locales") else { return [] }
        account.check(list, Self.localesElements)
        let locales = list.children("locale")
        for locale in locales { account.check(locale, vocabulary) }
        return locales
    }

    private func kind(of element: XMLElementNode, id: String, inGroup: Bool) throws -> ProductKind {
        guard let type = element.child("type") else {
            if inGroup { return .autoRenewableSubscription }
            throw FormatError("product \(id) has no <type> (consumable, non-consumable, auto-renewable or subscription)",
                              file: file, position: element.position)
        }
        guard let kind = Self.kinds[type.text.lowercased()] else {
            throw FormatError("product \(id) has an unknown <type> \"\(type.text)\" (expected consumable, non-consumable, auto-renewable or subscription)",
                              file: file, position: type.position)
        }
        return kind
    }

    /// `cleared_for_sale` on the purchase or on its `products/product`; absent means for sale.
    private mutating func isForSale(_ element: XMLElementNode, id: String) throws -> Bool {
        if let list = element.child("products") {
            account.check(list, Self.productsElements)
            for entry in list.children("product") {
                account.check(entry, Self.productElements)
                for interval in entry.child("intervals")?.children("interval") ?? [] { account.check(interval, Self.intervalElements) }
            }
        }
        let cleared = element.child("cleared_for_sale")
            ?? element.child("products")?.children("product").compactMap { $0.child("cleared_for_sale") }.first
        guard let cleared else { return true }
        switch cleared.text.lowercased() {
        case "true", "yes": return true
        case "false", "no":
            return ProductStates.counts(ProductStates.notClearedForSale, including: options.includeStates, hidden: &hidden)
        default:
            throw FormatError("product \(id): <cleared_for_sale> must be true or false, found \"\(cleared.text)\"",
                              file: file, position: cleared.position)
        }
    }

    private mutating func readSubscriptionTerms(_ element: XMLElementNode, group: GroupContext?, into product: inout Product) {
        let id = product.id
        if let group {
            product.group = GroupMembership(groupID: group.name, groupName: group.name)
        }
        if let duration = element.child("duration") {
            product.fieldPositions[.period] = duration.position
            if let period = PackageDuration.period(duration.text) {
                product.period = period
            } else {
                issues.append(SourceIssue(rule: .invalidPeriod, productID: id, field: .period,
                                          message: "<duration> \"\(duration.text)\" is not a duration like \"1 Month\" or \"1 Year\"",
                                          position: duration.position))
            }
        }
        let trial = element.child("bonus_duration") ?? element.child("free_trial_duration") ?? group?.freeTrial
        if let trial {
            product.fieldPositions[.introductoryOffer] = trial.position
            if let period = PackageDuration.period(trial.text) {
                product.introductoryOffer = Offer(mode: .freeTrial, period: period, position: trial.position)
            } else {
                issues.append(SourceIssue(rule: .invalidOffer, productID: id, field: .introductoryOffer,
                                          message: "<\(trial.name)> \"\(trial.text)\" is not a duration like \"7 Days\" or \"1 Month\"",
                                          position: trial.position))
            }
        }
    }

    /// The tier in force today: `products/product/wholesale_price_tier`, or the dated interval
    /// of `products/product/intervals` that contains today.
    private mutating func readTier(_ element: XMLElementNode, into product: inout Product) throws {
        guard let entry = element.child("products")?.children("product").first(where: {
            $0.child("wholesale_price_tier") != nil || $0.child("intervals") != nil
        }) else { return }
        var tierElement = entry.child("wholesale_price_tier")
        if let intervals = entry.child("intervals") {
            var best: (start: String, tier: XMLElementNode)?
            for interval in intervals.children("interval") {
                let start = try day(interval.child("start_date"), product.id)
                let end = try day(interval.child("end_date"), product.id)
                guard let tier = interval.child("wholesale_price_tier"), DayText.span(start: start, end: end, contains: options.today) else { continue }
                if best == nil || (start ?? "") >= (best?.start ?? "") { best = (start ?? "", tier) }
            }
            tierElement = best?.tier
        }
        guard let tierElement else { return }
        product.fieldPositions[.prices] = tierElement.position
        guard let tier = Int(tierElement.text), tier >= 0 else {
            issues.append(SourceIssue(rule: .invalidPrice, productID: product.id, field: .prices,
                                      message: "<wholesale_price_tier> \"\(tierElement.text)\" is not a tier number", position: tierElement.position))
            return
        }
        product.priceTier = tier
        guard let table = options.priceTiers else { return }
        guard let entries = table.entries(tier: tier) else {
            issues.append(SourceIssue(rule: .invalidPrice, productID: product.id, field: .prices,
                                      message: "price tier \(tier) is not in the price-tier table \(table.file), so it has no amount",
                                      position: tierElement.position))
            return
        }
        product.prices = entries.map {
            Price(territory: $0.territory, money: Money(amount: $0.amount, currency: $0.territory.currency), position: tierElement.position)
        }
    }

    /// A `start_date` or `end_date` (`YYYY-MM-DD`); nil when absent or empty.
    private func day(_ element: XMLElementNode?, _ id: String) throws -> String? {
        guard let element, !element.text.isEmpty else { return nil }
        guard DayText.isValid(element.text) else {
            throw FormatError("product \(id): <\(element.name)> \"\(element.text)\" is not a date like 2024-03-01",
                              file: file, position: element.position)
        }
        return element.text
    }
}
