import TallyModel

/// A StoreKit configuration keeps an offer's `displayPrice` after Xcode switches the offer to a
/// free trial; StoreKit ignores it. Converted as it is, that price would become a catalogue's
/// `free-trial-with-price` error that no person wrote, so a conversion from a StoreKit file leaves
/// it out and says so. A catalogue's own free trial with a price is a person's mistake: kept, for
/// lint to report.
enum FreeTrialPrice {
    static let note = "a free trial's leftover displayPrice (Xcode keeps it when an offer becomes a free trial; StoreKit ignores it) left out"

    static func withoutLeftoverPrices(_ catalog: Catalog, notes: inout ConvertNotes) -> Catalog {
        guard catalog.format.isWrittenByXcode else { return catalog }
        var result = catalog
        for index in result.products.indices {
            var product = result.products[index]
            var changed = false
            func clear(_ offer: inout Offer) {
                if offer.mode == .freeTrial, offer.price != nil { offer.price = nil; changed = true }
            }
            if var offer = product.introductoryOffer { clear(&offer); if changed { product.introductoryOffer = offer } }
            for kind in [\Product.otherIntroductoryOffers, \.promotionalOffers, \.codeOffers, \.winbackOffers] {
                let before = changed
                var offers = product[keyPath: kind]
                for offerIndex in offers.indices { clear(&offers[offerIndex]) }
                if changed != before { product[keyPath: kind] = offers }
            }
            if changed {
                notes.add(note, product.id)
                result.products[index] = product
            }
        }
        return result
    }
}
