import TallyModel

/// A rule that examines one source on its own.
public protocol LintRule: Rule {
    func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog)
    /// This rule as `policy` configures it (the territories or locales it requires); a rule with
    /// nothing to configure is itself. The rule owns its configuration: `Policy.checker` asks
    /// every rule, and keeps no list of which rules read what.
    func configured(by policy: Policy) -> any LintRule
}

extension LintRule {
    public static var category: String { "lint" }
    public func configured(by policy: Policy) -> any LintRule { self }

    func finding(_ catalog: Catalog, _ productID: String?, _ field: Field, _ message: FindingMessage,
                 at position: Position, path: String? = nil, value: String? = nil, offerID: String? = nil, hint: String? = nil) -> Finding {
        Self.finding(productID: productID, field: field, message: message, offerID: offerID,
                     left: FindingSide(role: nil, value: value, location: catalog.location(position, path: path)), hint: hint)
    }

    func markChecked(_ catalog: Catalog, _ product: Product, _ checked: inout CheckedLog) {
        mark(product.id, at: catalog.location(of: product, .id), &checked)
    }
}

/// The same product ID twice in one source.
public struct DuplicateIDRule: LintRule {
    public static let description = describe(
        id: .duplicateID, defaultSeverity: .error, summary: "The same product ID appears more than once in one source.",
        rationale: "A product ID names one product; with two entries it is undefined which one the app, StoreKit testing or the server uses.",
        fix: "Remove the duplicate entry, or give the second product an ID of its own.")
    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        var seen = Set<String>()
        seen.reserveCapacity(catalog.products.count)
        for product in catalog.products {
            markChecked(catalog, product, &checked)
            // The first occurrence is looked up only for the (rare) repeated ID.
            if !seen.insert(product.id).inserted, let earlier = catalog.products.first(where: { $0.id == product.id }) {
                findings.append(finding(catalog, product.id, .id,
                                        "\(product: product.id) is declared again (first at \(source: catalog.location(of: earlier, .id).description))",
                                        at: product.position(of: .id), path: product.path(of: .id), value: product.id))
            }
        }
    }
}

/// IDs the App Store rejects: only letters, digits, `-`, `.` and `_`, at most 100 characters
/// (App Store Connect Help, "In-app purchase information": "The product ID can contain letters,
/// numbers, hyphens, periods, and underscores, and can be as long as 100 characters").
public struct InvalidIDRule: LintRule {
    public static let description = describe(
        id: .invalidID, defaultSeverity: .error,
        summary: "A product ID has characters the App Store rejects (letters, digits, '-', '.' and '_' only) or is over 100 characters.",
        rationale: "App Store Connect refuses such an ID, so the product cannot be created and the purchase can never work in production.",
        fix: "Use only letters, digits, '-', '.' and '_' (reverse-DNS style, like com.example.app.pro_monthly), at most 100 characters, and change it on both sides.")
    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        // App Store IDs only: a Google Play source's IDs are PRODUCT_ID:BASE_PLAN_ID, by Google's own rules.
        guard catalog.format.store.hasAppStoreIDRules else { return }
        // A catalogue product sold on Google Play only (`google_play:` without `id`) has no App Store ID.
        for product in catalog.products where product.isSold(in: catalog.format.store) {
            markChecked(catalog, product, &checked)
            let bad = product.id.unicodeScalars.filter { !Self.allowed($0) }
            if !bad.isEmpty {
                let shown = Set(bad.map { $0 == " " ? "space" : "'\($0)'" }).sorted().joined(separator: ", ")
                findings.append(finding(catalog, product.id, .id,
                                        "\(product: product.id) has characters the App Store rejects: \(words: shown) (use letters, digits, '-', '.' and '_')",
                                        at: product.position(of: .id), path: product.path(of: .id), value: product.id))
            } else if product.id.unicodeScalars.count > Self.maxLength {
                findings.append(finding(catalog, product.id, .id, "\(product: String(product.id.prefix(40)))… is \(count: product.id.unicodeScalars.count) characters long; the App Store allows \(count: Self.maxLength)",
                                        at: product.position(of: .id), path: product.path(of: .id), value: product.id))
            }
        }
    }

    /// The longest product ID App Store Connect accepts.
    static let maxLength = 100

    static func allowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2D, 0x2E, 0x5F: return true
        default: return false
        }
    }
}

/// An auto-renewable subscription outside any subscription group.
public struct SubscriptionWithoutGroupRule: LintRule {
    public static let description = describe(
        id: .subscriptionWithoutGroup, defaultSeverity: .error,
        summary: "An auto-renewable subscription belongs to no subscription group.",
        rationale: "An auto-renewable subscription must belong to a subscription group in App Store Connect; without one it cannot be created, and upgrades and downgrades are undefined.",
        fix: "Place the subscription in a subscription group: subscriptionGroups in the .storekit file, subscription_groups in a catalogue.")
    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        guard catalog.knownFields.contains(.group) else { return }
        for product in catalog.products where product.kind.isAutoRenewable {
            markChecked(catalog, product, &checked)
            if (product.group?.groupID ?? "").isEmpty {
                findings.append(finding(catalog, product.id, .group, "\(product: product.id) is an auto-renewable subscription outside any subscription group",
                                        at: product.position, path: product.path))
            }
        }
    }
}

/// A subscription whose `subscriptionGroupID` names another group than the one holding it.
public struct GroupIDMismatchRule: LintRule {
    public static let description = describe(
        id: .groupIDMismatch, defaultSeverity: .error,
        summary: "A subscription's subscriptionGroupID differs from the id of the group that holds it.",
        rationale: "The configuration contradicts itself, so StoreKit testing may place the subscription in either group and behave unlike production.",
        fix: "Set subscriptionGroupID to the id of the group that contains the subscription, or move the subscription into the group it names.")
    public init() {}

    public func lint(_ catalog: Catalog, findings: inout [Finding], checked: inout CheckedLog) {
        for product in catalog.products where product.kind.isAutoRenewable {
            guard let group = product.group, let declared = group.declaredGroupID, !group.groupID.isEmpty else { continue }
            markChecked(catalog, product, &checked)
            if declared != group.groupID {
                findings.append(finding(catalog, product.id, .group,
                                        "\(product: product.id) says subscriptionGroupID \(name: declared) but sits in group \(name: Self.named(group))",
                                        at: product.position(of: .group), value: declared))
            }
        }
    }

    /// `"Premium" (id 21A4F0C1)`: the group by its name, with the ID this rule is about.
    static func named(_ group: GroupMembership) -> String {
        guard let name = group.groupName, !name.isEmpty, name != group.groupID else { return group.groupID }
        return "\"\(name)\" (id \(group.groupID))"
    }
}
