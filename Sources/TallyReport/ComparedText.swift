import TallyCheck
import TallyModel

// The `compared:` lines in words for people: the one place what a run compared becomes text
// (TallyCheck keeps it typed, `ComparedLine`; every reporter reads `text`).

extension ComparedLine {
    /// The line in words, as the text report prints it after `compared: `.
    public var text: String {
        switch self {
        case .pair(let pair): pair.sentence
        case .alone(let alone): alone.sentence
        case .pricePoints(let points): points.sentence
        case .paywall(let paywall): paywall.sentence
        case .paywallSide(let side): side.sentence
        case .code(let code): code.sentence
        }
    }
}

extension PairSummary {
    /// One line for people: per field, how many products were compared (`kind 14`,
    /// `promotional offers 3 of 8 (the catalogue states them for 3)`), then what was skipped and why:
    /// `App.storekit (storefront USA) vs products.yaml: 14 products in both; compared IDs, kind (14),
    /// prices (14), period (8); skipped family sharing: the catalogue states family-sharing flags for none of the 14 products in both`.
    public var sentence: String {
        let prices = everyTerritory == true ? "prices in every region both price" : "storefront \(territory)"
        let products = sharedProducts == 1 ? "1 product" : "\(sharedProducts) products"
        let other = otherStorefront.map { " (storefront \($0))" } ?? ""
        let storefront = unpricedConfiguration == true && everyTerritory != true ? "" : " (\(prices))"
        var text = "\(configuration)\(storefront) vs \(catalog)\(other): \(products) in both; "
        let byField = Dictionary(coverage.map { ($0.field, $0) }, uniquingKeysWith: { a, _ in a })
        let names = compared.map { field -> String in
            guard let counted = byField[field] else { return field.rawValue }
            if counted.compared == counted.applicable { return "\(field.rawValue) (\(counted.compared))" }
            return "\(field.rawValue) (\(counted.compared) of \(counted.applicable): \(Self.partial(counted)))"
        }
        text += "compared \((["IDs"] + names).joined(separator: ", "))"
        guard !skipped.isEmpty else { return text }
        // Fields grouped by their reason, in field order: "kind, prices: the property list has no
        // kinds or prices; promotional-offers: the catalogue states promotional offers for none ...".
        var reasons: [String] = []
        var fields: [String: [Field]] = [:]
        let becauses = Set(skipped.compactMap { $0.because?.text })
        for item in skipped {
            let reason = item.because?.text ?? item.subject
            if fields[reason] == nil { reasons.append(reason) }
            fields[reason, default: []].append(item.field)
        }
        let parts = reasons.map { reason -> String in
            let grouped = fields[reason] ?? []
            let names = grouped.map(\.rawValue).joined(separator: ", ")
            guard !becauses.contains(reason) else { return "\(names): \(reason)" }
            let plural = ComparedWords.list(grouped.map(\.plural), conjunction: "or")
            return reason == Skipped.neither ? "\(names): \(reason) has \(plural)" : "\(names): \(reason) has no \(plural)"
        }
        text += "; skipped " + parts.joined(separator: "; ")
        return text
    }

    /// Why some products were not compared: "not stated by the catalogue for 5".
    private static func partial(_ coverage: Coverage) -> String {
        var parts: [String] = []
        if coverage.unstatedInConfiguration > 0 { parts.append("not stated by the configuration for \(coverage.unstatedInConfiguration)") }
        if coverage.unstatedInCatalog > 0 { parts.append("not stated by the catalogue for \(coverage.unstatedInCatalog)") }
        return parts.isEmpty ? "the others not comparable" : parts.joined(separator: ", ")
    }
}

extension PairSummary.Skipped {
    /// "the property list has no prices", "neither source has periods", "the catalogue
    /// states promotional offers for none of the 8 subscriptions in both".
    public var reason: String {
        if let because { return because.text }
        return subject == Self.neither ? "\(subject) has \(field.plural)" : "\(subject) has no \(field.plural)"
    }
}

extension PairSummary.Because {
    /// Why a field both sources know was compared for no product, in words.
    public var text: String {
        switch self {
        case .otherStorefronts(let configuration, let territory, let catalog, let other):
            return "\(configuration) prices storefront \(territory) and \(catalog) storefront \(other), "
                + "each in its own currency: prices of different storefronts are not compared ('tally diff' shows them side by side)"
        case .unstated(let coverage, let configuration, let catalog):
            return Self.unstated(coverage, nouns: (configuration, catalog))
        }
    }

    private static func unstated(_ coverage: PairSummary.Coverage, nouns: (String, String)) -> String {
        let what = coverage.field.isSubscriptionField ? "subscription" : "product"
        guard coverage.applicable > 0 else { return "no \(what) is in both" }
        let whom: String
        switch (coverage.unstatedInConfiguration > 0, coverage.unstatedInCatalog > 0) {
        case (true, false): whom = nouns.0
        case (false, true): whom = nouns.1
        default: whom = "neither source"
        }
        let total = coverage.applicable == 1 ? "the 1 \(what) in both" : "the \(coverage.applicable) \(what)s in both"
        if coverage.unstatedInConfiguration == 0, coverage.unstatedInCatalog == 0 {
            // Both sides state the field, and still nothing compared: prices in no common territory.
            return coverage.field == .prices ? "no territory is priced on both sides for \(total)" : "\(coverage.field.plural) of \(total) could not be compared"
        }
        if whom == "neither source" {
            return "neither source states \(coverage.field.plural) for \(total)"
        }
        return "\(whom) states \(coverage.field.plural) for none of \(total)"
    }
}

extension AloneSource {
    /// "App.storekit: nothing to compare it with ...": the `compared:` line of a one-source check.
    public var sentence: String {
        var others = ["a server catalogue ('tally convert \(file) --to tally-catalog-yaml -o catalog/products.yaml' writes one to keep in step)",
                      "a store snapshot ('tally fetch app-store-connect' or 'tally fetch google-play')"]
        if !isConfiguration { others.insert("the app's StoreKit configuration (.storekit)", at: 0) }
        return "\(file): nothing to compare it with, the only product source (linted on its own); "
            + "to compare it, add " + others.joined(separator: ", or ")
    }
}

extension PricePointSummary {
    static let opening = "prices against App Store price points"

    /// `prices against App Store price points (asc/price-points.json, read 2026-07-29T09:30:00Z (120 days old, ...)): 12 prices in 1 source`.
    public var sentence: String {
        switch self {
        case .noPoints(let snapshots):
            return "\(Self.opening): not checked, \(snapshots.joined(separator: ", ")) holds no price points "
                + "(a snapshot fetched before Tally saved them, or pages saved by hand); fetch it again to check them"
        case .checked(let read, let prices, let sources, let withoutPoints, let otherCurrency):
            var parts = ["\(prices) price\(prices == 1 ? "" : "s") in \(sources) source\(sources == 1 ? "" : "s")"]
            if withoutPoints > 0 {
                parts.append("not checked: \(withoutPoints) price\(withoutPoints == 1 ? "" : "s") in a product or territory whose points were not fetched")
            }
            if otherCurrency > 0 {
                parts.append("not checked: \(otherCurrency) price\(otherCurrency == 1 ? "" : "s") in another currency than the territory's points")
            }
            let when = read.map { source in
                var text = "\(source.file), read \(source.readAt)"
                if let age = source.ageInDays, age >= 0 {
                    text += " (\(age) day\(age == 1 ? "" : "s") old"
                    text += source.isStale ? ", over \(PricePoints.staleAfterDays): Apple revises points with taxes and exchange rates, fetch again)" : ")"
                }
                return text
            }.joined(separator: "; ")
            return "\(Self.opening) (\(when)): " + parts.joined(separator: "; ")
        }
    }
}

extension PaywallSummary {
    /// `revenuecat (RevenueCat): 3 offerings (current: default), 7 packages, 9 products, 2 entitlements; checked ...`.
    public var sentence: String {
        var text = "\(file) (\(platform)): \(ComparedWords.count(offerings, "offering"))"
        if let currentOfferings {
            let current = currentOfferings.joined(separator: ", ")
            text += " (current: \(current.isEmpty ? "none" : current))"
        }
        text += ", \(ComparedWords.count(packages, "package")), \(ComparedWords.count(products, "product"))"
        if let entitlements { text += ", \(ComparedWords.count(entitlements, "entitlement"))" }
        text += "; checked " + checked.map(\.text).joined(separator: ", ")
        if !skipped.isEmpty { text += "; skipped " + skipped.map(\.text).joined(separator: "; ") }
        return text
    }
}

extension PaywallSummary.Check {
    public var text: String {
        switch self {
        case .offeringsHavePackages: "offerings have packages"
        case .currentOffering: "an offering is current"
        case .everyProductInOffering: "every product is in an offering"
        case .entitlementsGrantSold: "entitlements grant what is sold"
        }
    }
}

extension PaywallSummary.Skip {
    public var text: String {
        switch self {
        case .noEntitlements:
            "entitlements: the source has none (save the entitlements with their products)"
        case .unstatedContents(let count):
            "\(ComparedWords.count(count, "offering or package", "offerings or packages")) whose contents the pages do not hold "
                + "(save offerings with expand=items.package.product)"
        case .otherStores(let products, let stores):
            "\(ComparedWords.count(products, "product")) of stores Tally does not read (\(stores.joined(separator: ", ")))"
        case .storeUnknown:
            "the store of products no app names is not known: they are looked up in every source"
        }
    }
}

extension PaywallSideSummary {
    /// `revenuecat vs App.storekit: 4 App Store products shown, 3 in both; compared IDs, kind (3), period (2); 2 products of App.storekit in no offering: a, b`.
    public var sentence: String {
        let store = self.store.name
        if shown == 0 && notShown == 0 {
            return "\(paywall) vs \(side): the paywall shows no \(store) product; nothing compared"
        }
        var text = "\(paywall) vs \(side): "
        if shown == 0 {
            text += "the paywall shows no \(store) product"
            if unstatedContents > 0 {
                text += " (\(ComparedWords.count(unstatedContents, "offering or package", "offerings or packages")) do not say what they hold)"
            }
        } else {
            text += "\(ComparedWords.count(shown, "\(store) product")) shown, \(inBoth) in both; "
            var compared = ["IDs"]
            if kinds > 0 { compared.append("kind (\(kinds))") }
            if periods > 0 { compared.append("period (\(periods))") }
            if basePlans { compared.append("base plans") }
            text += "compared " + compared.joined(separator: ", ")
        }
        if notShown > 0 {
            let place = unstatedContents > 0 ? "that no package is known to hold" : "in no offering"
            text += "; \(ComparedWords.count(notShown, "\(store) product")) \(platform) has \(place): \(notShown - notShownMissing.count) in both"
            if !notShownMissing.isEmpty {
                text += ", \(notShownMissing.count) not in \(side): \(ComparedWords.names(notShownMissing))"
            }
        }
        if !outside.isEmpty {
            if unstatedContents > 0 {
                // Which products the packages hold is not known: only a product the paywall does
                // not have at all is surely in no offering.
                text += "; \(ComparedWords.count(outside.count, "product")) of \(side) \(platform) does not have (sold outside the paywall, "
                    + "or forgotten): \(ComparedWords.names(outside))"
            } else {
                text += "; \(ComparedWords.count(outside.count, "product")) of \(side) in no offering (sold outside the paywall, or forgotten): "
                    + ComparedWords.names(outside)
            }
        }
        return text
    }
}

extension CodeSummary {
    /// `Sources: the app's code asks for 3 product IDs in 2 files, compared with App.storekit`.
    public var sentence: String {
        let read = "\(filesRead) file\(filesRead == 1 ? "" : "s") read"
        var text = productIDs == 0
            ? "\(file): the app's code asks for no product ID Tally can read (\(read))"
            : "\(file): the app's code asks for \(productIDs) product ID\(productIDs == 1 ? "" : "s") in \(askingFiles) file\(askingFiles == 1 ? "" : "s")"
        if sides.isEmpty {
            text += "; nothing to compare them with (add the app's StoreKit configuration or a store snapshot)"
        } else {
            text += ", compared with " + sides.joined(separator: ", ")
        }
        if let quiet { text += "; code-unused-product is quiet: \(quiet.text)" }
        return text
    }
}

extension CodeQuiet {
    /// Why `code-unused-product` is quiet, in words.
    public var text: String {
        switch self {
        case .noRequests: "the code asks for no product ID Tally can read"
        case .paywallInRun: "a paywall platform's source is in the run (the app asks for what its offerings name)"
        case .unresolved(let count, let first):
            "\(count) call\(count == 1 ? "" : "s") ask\(count == 1 ? "s" : "") with IDs Tally cannot follow (first at \(first))"
        }
    }
}

extension Field {
    /// The field in words, plural: "prices", "introductory offers".
    var plural: String {
        switch self {
        case .id: return "IDs"
        case .kind: return "kinds"
        case .referenceName: return "reference names"
        case .familyShareable: return "family-sharing flags"
        case .localizations: return "localizations"
        case .prices: return "prices"
        case .period: return "periods"
        case .introductoryOffer: return "introductory offers"
        case .promotionalOffers: return "promotional offers"
        case .codeOffers: return "code offers"
        case .winbackOffers: return "win-back offers"
        case .billingPlans: return "billing plans"
        case .seatTiers: return "seat tiers"
        case .multiSeat: return "multi-seat statuses"
        case .group: return "subscription groups"
        case .level: return "levels"
        }
    }
}

/// Small wording helpers of the `compared:` lines.
enum ComparedWords {
    static func count(_ number: Int, _ noun: String, _ plural: String? = nil) -> String {
        number == 1 ? "1 \(noun)" : "\(number) \(plural ?? noun + "s")"
    }

    /// The first five of `ids`, and an ellipsis for the rest.
    static func names(_ ids: [String]) -> String {
        ids.prefix(5).joined(separator: ", ") + (ids.count > 5 ? ", …" : "")
    }

    static func list(_ items: [String], conjunction: String) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " \(conjunction) " + (items.last ?? "")
    }
}
