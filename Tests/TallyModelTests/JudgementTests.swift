import Foundation
import Testing
import TallyModel

/// The domain judgements check and diff share: offer terms and group pairing.
@Suite struct OfferTermsTests {
    static func offer(_ mode: OfferMode = .payUpFront, _ period: String = "P1W", periods: Int = 1, price: String? = "0.99",
                      currency: String? = "USD", eligibility: [String] = []) -> Offer {
        Offer(mode: mode, period: Period(iso8601: period) ?? Period(months: 1, days: 0), periods: periods,
              price: price.flatMap { DecimalText.parse($0) }.map { Money(amount: $0, currency: currency) }, eligibility: eligibility)
    }

    @Test func periodsOfTheSameLengthAreTheSameTerms() {
        #expect(Self.offer(.payUpFront, "P7D").sameTerms(as: Self.offer(.payUpFront, "P1W")))
        #expect(Self.offer(.payUpFront, "P1W").termDifferences(Self.offer(.payUpFront, "P1M")) == [.period])
        #expect(Self.offer(.payUpFront, "P4W").termDifferences(Self.offer(.payUpFront, "P1M")) == [.period])
    }

    @Test func aPriceInAnotherCurrencyIsAnotherPrice() {
        #expect(Self.offer(currency: "USD").termDifferences(Self.offer(currency: "EUR")) == [.price])
        #expect(Self.offer(price: "0.99").termDifferences(Self.offer(price: "1.99")) == [.price])
        // A price whose currency the source does not say is in the other's.
        #expect(Self.offer(currency: nil).sameTerms(as: Self.offer(currency: "USD")))
    }

    @Test func eligibilityCountsInAnyOrder() {
        #expect(Self.offer(eligibility: ["new", "expired"]).sameTerms(as: Self.offer(eligibility: ["expired", "new"])))
        #expect(Self.offer(eligibility: ["new"]).termDifferences(Self.offer(eligibility: ["existing"])) == [.eligibility])
    }

    @Test func aFreeTrialsPriceIsNotATerm() {
        #expect(Self.offer(.freeTrial, price: "0.99").sameTerms(as: Self.offer(.freeTrial, price: nil)))
        #expect(Self.offer(.freeTrial).termDifferences(Self.offer(.payUpFront, periods: 3)) == [.mode, .periods])
    }
}

@Suite struct GroupPairingTests {
    static func subscription(_ id: String, _ group: String, name: String? = nil) -> Product {
        Product(id: id, kind: .autoRenewableSubscription, group: GroupMembership(groupID: group, groupName: name))
    }

    static func catalog(_ products: [Product], groups: [(String, String?)]) -> Catalog {
        Catalog(file: "x", format: .tallyCatalogJSON, products: products,
                groups: groups.map { id, name in SubscriptionGroup(id: id, name: name, productIDs: products.filter { $0.group?.groupID == id }.map(\.id)) })
    }

    static func pairing(_ left: Catalog, _ right: Catalog, pinned: [(left: String, right: String)] = []) -> GroupPairing {
        let rightByID = right.productsByID
        return GroupPairing(left: left, right: right, members: left.products.compactMap { a in rightByID[a.id].map { (a, $0) } }, pinned: pinned)
    }

    @Test func mostSharedMembersWin() {
        let left = Self.catalog([Self.subscription("a", "L"), Self.subscription("b", "L"), Self.subscription("c", "L")], groups: [("L", "Plus")])
        let right = Self.catalog([Self.subscription("a", "R1", name: "Plus"), Self.subscription("b", "R2"), Self.subscription("c", "R2")],
                                 groups: [("R1", "Plus"), ("R2", "Other")])
        #expect(Self.pairing(left, right).rightGroup == ["L": "R2"])
    }

    @Test func onATieTheSameNameIgnoringCaseWinsThenFileOrder() {
        let left = Self.catalog([Self.subscription("a", "L"), Self.subscription("b", "L")], groups: [("L", "Premium")])
        let named = Self.catalog([Self.subscription("a", "R1"), Self.subscription("b", "R2")], groups: [("R1", "Basic"), ("R2", "PREMIUM")])
        #expect(Self.pairing(left, named).rightGroup == ["L": "R2"])
        // Neither alike: the right group first in its file, whatever its ID.
        let unnamed = Self.catalog([Self.subscription("a", "z"), Self.subscription("b", "y")], groups: [("z", "Z"), ("y", "Y")])
        #expect(Self.pairing(left, unnamed).rightGroup == ["L": "z"])
    }

    @Test func pinnedPairsComeFirstAndGroupsWithoutSharedMembersPairByIDOrName() {
        let left = Self.catalog([Self.subscription("a", "L1"), Self.subscription("x", "L2"), Self.subscription("y", "L3", name: "Kids")],
                                groups: [("L1", nil), ("L2", nil), ("L3", "Kids")])
        let right = Self.catalog([Self.subscription("a", "R1"), Self.subscription("p", "L2"), Self.subscription("q", "R3", name: "kids")],
                                 groups: [("R1", nil), ("L2", nil), ("R3", "kids")])
        let pairing = Self.pairing(left, right)
        #expect(pairing.rightGroup == ["L1": "R1", "L2": "L2", "L3": "R3"])
        #expect(pairing.leftGroup["R3"] == "L3")
        let pinned = Self.pairing(left, right, pinned: [("L1", "R3")])
        #expect(pinned.rightGroup["L1"] == "R3" && pinned.pinned == ["L1"])
    }
}
