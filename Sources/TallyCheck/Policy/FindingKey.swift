import TallyModel

/// What a finding is about, without where it was written: rule, product, field, and the
/// territory or offer when the finding is about one. Lines are left out on purpose, so that an
/// edit elsewhere in a file does not change the key (baselines and SARIF fingerprints use it).
public struct FindingKey: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var rule: String
    public var product: String?
    public var field: String
    /// A storefront code such as `USA`.
    public var territory: String?
    public var offer: String?

    public init(rule: String, product: String?, field: String, territory: String? = nil, offer: String? = nil) {
        self.rule = rule
        self.product = product
        self.field = field
        self.territory = territory
        self.offer = offer
    }

    /// `price com.example.pro (USA)`, `promo-offer com.example.pro offer comeback`.
    public var description: String {
        var text = "\(rule) \(product ?? "(no product)")"
        if let territory { text += " (\(territory))" }
        if let offer { text += " offer \(offer)" }
        return text
    }

    /// The key's parts joined with a separator no part contains, for hashing.
    public var canonical: String {
        [rule, product ?? "", field, territory ?? "", offer ?? ""].joined(separator: "\u{1F}")
    }

    public static func < (lhs: FindingKey, rhs: FindingKey) -> Bool {
        (lhs.rule, lhs.product ?? "", lhs.field, lhs.territory ?? "", lhs.offer ?? "")
            < (rhs.rule, rhs.product ?? "", rhs.field, rhs.territory ?? "", rhs.offer ?? "")
    }
}

extension Finding {
    /// The finding's identity across runs (see `FindingKey`).
    public var key: FindingKey {
        FindingKey(rule: ruleID.rawValue, product: productID, field: field.rawValue, territory: territory?.code, offer: offerID)
    }
}
