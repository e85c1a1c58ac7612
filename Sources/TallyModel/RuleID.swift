/// The identity of a Tally rule (`invalid-price`, `group`, ...). Readers raise `SourceIssue`s of a
/// rule and the rules (TallyCheck) report findings under it, both naming it by a static member
/// here, never by a string: a misspelt rule is a compile error, not a silently dropped finding.
///
/// Reports and policy files write the name (`rawValue`); `RuleID.named(_:)` (TallyCheck) turns a
/// name a person wrote back into a known rule. The list of every rule is `RuleSet` (TallyCheck):
/// `RuleID.all` is derived from it, and `OneRegistryTests` fails when a member here has no rule.
public struct RuleID: RawRepresentable, Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    // Cross-source rules.
    public static let missingInCatalog = RuleID(rawValue: "missing-in-catalog")
    public static let missingInConfig = RuleID(rawValue: "missing-in-config")
    public static let missingInCopy = RuleID(rawValue: "missing-in-copy")
    public static let kind = RuleID(rawValue: "kind")
    public static let price = RuleID(rawValue: "price")
    public static let priceTier = RuleID(rawValue: "price-tier")
    public static let period = RuleID(rawValue: "period")
    public static let introOffer = RuleID(rawValue: "intro-offer")
    public static let promoOffer = RuleID(rawValue: "promo-offer")
    public static let winbackOffer = RuleID(rawValue: "winback-offer")
    public static let group = RuleID(rawValue: "group")
    public static let level = RuleID(rawValue: "level")
    public static let levelNumber = RuleID(rawValue: "level-number")
    public static let familySharing = RuleID(rawValue: "family-sharing")
    public static let pricesNotCompared = RuleID(rawValue: "prices-not-compared")
    public static let billingPlan = RuleID(rawValue: "billing-plan")
    public static let suiteMembers = RuleID(rawValue: "suite-members")
    public static let seatTier = RuleID(rawValue: "seat-tier")
    public static let multiSeat = RuleID(rawValue: "multi-seat")
    public static let pricedTerritories = RuleID(rawValue: "priced-territories")
    public static let renamedProduct = RuleID(rawValue: "renamed-product")
    public static let playGroupSplit = RuleID(rawValue: "play-group-split")

    // Lint rules.
    public static let duplicateID = RuleID(rawValue: "duplicate-id")
    public static let invalidID = RuleID(rawValue: "invalid-id")
    public static let subscriptionWithoutGroup = RuleID(rawValue: "subscription-without-group")
    public static let subscriptionWithoutLevel = RuleID(rawValue: "subscription-without-level")
    public static let groupIDMismatch = RuleID(rawValue: "group-id-mismatch")
    public static let disallowedPeriod = RuleID(rawValue: "disallowed-period")
    public static let invalidPeriod = RuleID(rawValue: "invalid-period")
    public static let invalidPrice = RuleID(rawValue: "invalid-price")
    public static let negativePrice = RuleID(rawValue: "negative-price")
    public static let freeTrialWithPrice = RuleID(rawValue: "free-trial-with-price")
    public static let invalidOffer = RuleID(rawValue: "invalid-offer")
    public static let unpricedTerritory = RuleID(rawValue: "unpriced-territory")
    public static let missingLocale = RuleID(rawValue: "missing-locale")
    public static let localization = RuleID(rawValue: "localization")
    public static let pricePoint = RuleID(rawValue: "price-point")
    public static let storeState = RuleID(rawValue: "store-state")
    public static let unknownContent = RuleID(rawValue: "unknown-content")
    public static let suiteMember = RuleID(rawValue: "suite-member")
    public static let idCase = RuleID(rawValue: "id-case")
    public static let duplicateGroupID = RuleID(rawValue: "duplicate-group-id")
    public static let commitmentPrice = RuleID(rawValue: "commitment-price")

    // Paywall rules (a paywall platform's configuration, on its own and against the stores).
    public static let paywallMissingInStore = RuleID(rawValue: "paywall-missing-in-store")
    public static let paywallMissingInApp = RuleID(rawValue: "paywall-missing-in-app")
    public static let paywallKind = RuleID(rawValue: "paywall-kind")
    public static let paywallPeriod = RuleID(rawValue: "paywall-period")
    public static let paywallBasePlan = RuleID(rawValue: "paywall-base-plan")
    public static let paywallNotEntitled = RuleID(rawValue: "paywall-not-entitled")
    public static let paywallEmptyOffering = RuleID(rawValue: "paywall-empty-offering")
    public static let paywallNoCurrentOffering = RuleID(rawValue: "paywall-no-current-offering")
    public static let paywallUnofferedProduct = RuleID(rawValue: "paywall-unoffered-product")

    // Code rules (the product IDs the app's code asks for, against every other source).
    public static let codeUnknownProduct = RuleID(rawValue: "code-unknown-product")
    public static let schemeStoreKit = RuleID(rawValue: "scheme-storekit")
    public static let promotionalImage = RuleID(rawValue: "promotional-image")
    public static let codeUnusedProduct = RuleID(rawValue: "code-unused-product")
}
