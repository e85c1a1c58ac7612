import TallyModel

/// Offer changes of a subscription: the introductory offer, and promotional, code and win-back
/// offers matched by offer ID.
enum OfferDiffer {
    /// The introductory offer, and StoreKit 5.0's further introductory offers (matched by their terms).
    static func introductory(_ old: Product, _ new: Product, into changes: inout [Change]) {
        let id = new.id
        let oldPosition = old.introductoryOffer?.position ?? old.position(of: .introductoryOffer)
        let newPosition = new.introductoryOffer?.position ?? new.position(of: .introductoryOffer)
        switch (old.introductoryOffer, new.introductoryOffer) {
        case (nil, nil):
            break
        case (nil, let offer?):
            changes.append(Change(.introductoryOffer, .added, productID: id, new: .offer(offer), newPosition: newPosition))
        case (let offer?, nil):
            changes.append(Change(.introductoryOffer, .removed, productID: id, old: .offer(offer), oldPosition: oldPosition,
                                  attention: offer.mode == .freeTrial ? [.trialRemoved] : []))
        case (let a?, let b?) where !a.sameTerms(as: b):
            changes.append(Change(.introductoryOffer, .changed, productID: id, old: .offer(a), new: .offer(b),
                                  oldPosition: oldPosition, newPosition: newPosition, attention: trialAttention(a, b),
                                  note: .offerTerms(old: a, new: b)))
        default:
            break
        }
        // Further introductory offers have no ID: one with the same terms is the same offer.
        let (before, after) = (old.otherIntroductoryOffers, new.otherIntroductoryOffers)
        var reported: [Offer] = []
        func firstTime(_ offer: Offer) -> Bool {
            guard !reported.contains(where: { $0.sameTerms(as: offer) }) else { return false }
            reported.append(offer)
            return true
        }
        for offer in before where !after.contains(where: { $0.sameTerms(as: offer) }) && firstTime(offer) {
            changes.append(Change(.introductoryOffer, .removed, productID: id, key: PeopleText.offer(offer), old: .offer(offer), oldPosition: offer.position))
        }
        for offer in after where !before.contains(where: { $0.sameTerms(as: offer) }) && firstTime(offer) {
            changes.append(Change(.introductoryOffer, .added, productID: id, key: PeopleText.offer(offer), new: .offer(offer), newPosition: offer.position))
        }
    }

    /// Offers matched by offer ID (by their terms when they have none), sorted by that key.
    static func keyed(
        _ aspect: ChangeAspect, _ oldOffers: [Offer], _ newOffers: [Offer], _ old: Product, _ new: Product, field: Field,
        into changes: inout [Change]
    ) {
        guard !oldOffers.isEmpty || !newOffers.isEmpty else { return }
        var before: [String: Offer] = [:]
        for offer in oldOffers where before[key(offer)] == nil { before[key(offer)] = offer }
        var after: [String: Offer] = [:]
        for offer in newOffers where after[key(offer)] == nil { after[key(offer)] = offer }
        for key in Set(before.keys).union(after.keys).sorted() {
            switch (before[key], after[key]) {
            case (let a?, nil):
                changes.append(Change(aspect, .removed, productID: new.id, key: key, old: .offer(a), oldPosition: a.position))
            case (nil, let b?):
                changes.append(Change(aspect, .added, productID: new.id, key: key, new: .offer(b), newPosition: b.position))
            case (let a?, let b?) where !a.sameTerms(as: b):
                changes.append(Change(aspect, .changed, productID: new.id, key: key, old: .offer(a), new: .offer(b),
                                      oldPosition: a.position, newPosition: b.position, note: .offerTerms(old: a, new: b)))
            default:
                break
            }
        }
    }

    private static func key(_ offer: Offer) -> String { offer.id ?? PeopleText.offer(offer) }

    /// A free trial that is no longer free is removed; a shorter free trial is shortened.
    private static func trialAttention(_ a: Offer, _ b: Offer) -> [Attention] {
        guard a.mode == .freeTrial else { return [] }
        guard b.mode == .freeTrial else { return [.trialRemoved] }
        return b.length < a.length ? [.trialShortened] : []
    }
}
